#pragma once
// A package index in a test's directory: a source tree packed as STEM.tar.gz beside it, and
// ROOT/index/pypi/PROJECT/VERSION/json, the JSON API's answer naming that sdist with its sha256.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "source/pypi.h"
#include "util/process.h"

namespace ts::testing {

// The sdist's sha256; `name` is what the answer's info.name says (PyPI keeps the package's spelling).
inline std::string put_sdist_on_index(const std::filesystem::path& root, const std::string& tree,
                                      const std::string& stem, const std::string& name,
                                      const std::string& project, const std::string& version) {
  namespace fs = std::filesystem;
  const fs::path archive = root / (stem + ".tar.gz");
  fs::create_directories(root / "pkg");
  fs::copy(tree, root / "pkg" / stem, fs::copy_options::recursive);
  auto r = util::run({"tar", "-czf", archive.string(), "-C", (root / "pkg").string(), stem}, {});
  EXPECT_TRUE(r.ok()) << r.err;
  std::string err, sha = source::file_sha256(archive.string(), &err);
  nlohmann::json doc = {{"info", {{"name", name}, {"version", version}}},
                        {"urls", nlohmann::json::array({{{"packagetype", "sdist"}, {"filename", stem + ".tar.gz"},
                                                         {"url", "file://" + archive.string()},
                                                         {"digests", {{"sha256", sha}}}}})}};
  const fs::path answer = root / "index/pypi" / project / version;
  fs::create_directories(answer);
  std::ofstream(answer / "json") << doc.dump();
  return sha;
}

}  // namespace ts::testing

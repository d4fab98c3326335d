#pragma once
// Fake source trees for the fix tests: a scratch copy of tests/fixtures/trees/NAME (removed at the
// end), a file's bytes, and the ids of selected fixes.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "source/fix.h"

namespace ts::plan::testing {

struct TreeScratch {
  std::string path;
  TreeScratch() {
    std::string t = (std::filesystem::temp_directory_path() / "ts-tree-XXXXXX").string();
    path = ::mkdtemp(t.data()) ? t : "";
  }
  ~TreeScratch() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  TreeScratch(const TreeScratch&) = delete;
  TreeScratch& operator=(const TreeScratch&) = delete;
  // A copy of tests/fixtures/trees/<tree>; the fixture itself is never written.
  std::string copy(const std::string& tree) const {
    std::string dst = path + "/" + tree;
    std::filesystem::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/trees/" + tree, dst,
                          std::filesystem::copy_options::recursive);
    return dst;
  }
};

inline std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> ids(const std::vector<const source::Fix*>& v) {
  std::vector<std::string> out;
  for (const auto* f : v) out.push_back(f->id);
  return out;
}

}  // namespace ts::plan::testing

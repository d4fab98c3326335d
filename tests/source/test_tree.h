#pragma once
// Test helpers: a scratch directory removed at the end, and copies of tests/fixtures/trees/*.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <vector>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "source/fix.h"
#include "source/hash.h"
#include "testkit/temp_dir.h"

namespace ts::source::testkit {

namespace fs = std::filesystem;

using ScratchDir = ::ts::testkit::TempDir;

inline std::string fixture_tree(const std::string& name) {
  return std::string(TS_SOURCE_DIR) + "/tests/fixtures/trees/" + name;
}

// A copy of a fixture tree in dir/name (so tests can edit it).
inline std::string copy_tree(const std::string& name, const ScratchDir& dir) {
  std::string dst = dir / name;
  fs::copy(fixture_tree(name), dst, fs::copy_options::recursive);
  return dst;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// The built-in fixes; a test fails if they do not load cleanly.
inline FixSet builtin() {
  std::vector<std::string> errors;
  FixSet s = load_fixes({}, errors);
  EXPECT_TRUE(errors.empty());
  return s;
}

// Digest of every file under dir (the journal excluded), to compare trees byte for byte.
inline std::map<std::string, std::string> tree_digest(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (auto& e : fs::recursive_directory_iterator(dir)) {
    std::string rel = fs::relative(e.path(), dir).string();
    if (rel.rfind(".torchsmith", 0) == 0) continue;
    if (e.is_regular_file()) out[rel] = sha256_hex(slurp(e.path().string()));
  }
  return out;
}

inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += e + "\n";
  return s;
}

}  // namespace ts::source::testkit

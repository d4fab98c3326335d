#pragma once
// Test helpers: a scratch directory removed at the end, and copies of tests/fixtures/trees/*.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace ts::source::testkit {

namespace fs = std::filesystem;

class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "ts-source-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data()) ? tmpl : "";
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return (fs::path(path_) / rel).string(); }

 private:
  std::string path_;
};

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

}  // namespace ts::source::testkit

#pragma once
// A scratch directory for one test: made with mkdtemp under the temp directory, removed with all
// it holds when the test ends, whatever the test asserted. TS_KEEP_TEST_DIRS=1 keeps it, to look at
// what a failing test left behind.
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace ts::testkit {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "ts-test") {
    std::string t = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(t.data())) path_ = t;
  }
  ~TempDir() {
    const char* keep = std::getenv("TS_KEEP_TEST_DIRS");
    std::error_code ec;
    if (!path_.empty() && !(keep && std::string(keep) == "1")) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }  // "" when mkdtemp failed
  std::string operator/(const std::string& rel) const { return (std::filesystem::path(path_) / rel).string(); }

 private:
  std::string path_;
};

}  // namespace ts::testkit

#pragma once
// A canary directory: a few files whose every path and byte is hashed when it is made; nothing a
// test runs may touch it. unchanged() compares the hash again.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "util/fs.h"
#include "util/sha256.h"

namespace ts::testkit {

// Where this test process's canary under `parent` lives (testkit/canary_env.cpp makes one in the
// temp directory and one in the build directory for every test binary).
inline std::string canary_path(const std::string& parent) {
  return (std::filesystem::path(parent) / ("ts-canary-" + std::to_string(::getpid()))).string();
}

class Canary {
 public:
  explicit Canary(const std::string& dir) : dir_(dir) {
    std::filesystem::create_directories(dir_ + "/sub");
    std::ofstream(dir_ + "/keep.txt") << "the user's file\n";
    std::ofstream(dir_ + "/sub/data.bin") << std::string(4096, '\x5a');
    before_ = hash();
  }
  std::string hash() const {
    namespace fs = std::filesystem;
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      names.push_back(it->path().string());
    std::sort(names.begin(), names.end());
    util::Sha256 h;
    for (const auto& n : names) {
      h.update(n.data(), n.size() + 1);
      auto t = util::read_file(n);
      if (t) h.update(t->data(), t->size());
    }
    return util::hex(h.digest());
  }
  bool unchanged() const { return std::filesystem::exists(dir_) && hash() == before_; }
  const std::string& path() const { return dir_; }

 private:
  std::string dir_, before_;
};

}  // namespace ts::testkit

#pragma once
// One build of a tree at a time: an flock on <dir>/.torchsmith/build.lock, released by the
// kernel when torchsmith exits however it exits (kill -9 included). The file names the holder.
#include <string>

namespace ts::run {

class TreeLock {
 public:
  TreeLock() = default;
  TreeLock(TreeLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  TreeLock& operator=(TreeLock&& o) noexcept;
  ~TreeLock();
  bool held() const { return fd_ >= 0; }

  // Takes the lock; with wait=false fails at once when another process holds it. *error names
  // the holder ("pid 4711, torchsmith build torch==2.4.1, since 2026-11-26T05:40:00Z").
  static TreeLock acquire(const std::string& dir, const std::string& what, bool wait, std::string* error);

 private:
  int fd_ = -1;
};

}  // namespace ts::run

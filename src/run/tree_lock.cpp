#include "run/tree_lock.h"
#include "util/utc_time.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

namespace ts::run {

TreeLock& TreeLock::operator=(TreeLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

TreeLock::~TreeLock() {
  if (fd_ >= 0) close(fd_);
}

TreeLock TreeLock::acquire(const std::string& dir, const std::string& what, bool wait, std::string* error) {
  TreeLock l;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/.torchsmith", ec);
  std::string path = dir + "/.torchsmith/build.lock";
  // O_CLOEXEC: a build step must not inherit the lock, or an orphaned compile would keep it.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (error) *error = path + ": " + std::strerror(errno);
    return l;
  }
  if (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
    if (error) {
      char buf[512] = {};
      ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
      std::string holder = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "another process";
      while (!holder.empty() && holder.back() == '\n') holder.pop_back();
      *error = "another build holds " + dir + " (" + holder + "); wait for it to finish, or pass --wait";
    }
    close(fd);
    return l;
  }
  std::string ts = util::utc_time();
  std::string who = "pid " + std::to_string(getpid()) + ", torchsmith build " + what + ", since " + ts + "\n";
  if (ftruncate(fd, 0) == 0) (void)!pwrite(fd, who.data(), who.size(), 0);
  l.fd_ = fd;
  return l;
}

}  // namespace ts::run

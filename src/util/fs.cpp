#include "util/fs.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace ts::util {

std::optional<std::string> read_file(const std::string& path) {
  return read_file_prefix(path, std::string::npos);
}

std::optional<std::string> read_file_prefix(const std::string& path, std::size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  std::string out;
  char buf[65536];
  while (out.size() < max_bytes) {
    std::size_t want = sizeof buf;
    if (max_bytes != std::string::npos && max_bytes - out.size() < want) want = max_bytes - out.size();
    ssize_t n = ::read(fd, buf, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string write_error(const std::string& path, int err) {
  if (err == ENOSPC || err == EDQUOT)
    return "no space left on the device holding " + path + ": free some space or write the output elsewhere (--out/-o)";
  return "cannot write " + path + ": " + std::strerror(err);
}

std::string write_file_atomic(const std::string& path, std::string_view data) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno == ENOSPC || errno == EDQUOT ? write_error(path, errno) : "cannot create " + tmp + ": " + std::strerror(errno);
  // errno is taken before close/unlink can overwrite it.
  auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return write_error(path, err);
  };
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(errno);
    }
    if (n == 0) return fail(ENOSPC);
    off += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail(errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return write_error(path, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return err;
  }
  return "";
}

std::string trim(std::string_view s) {
  const char* ws = " \t\r\n\f\v";
  auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return "";
  auto e = s.find_last_not_of(ws);
  return std::string(s.substr(b, e - b + 1));
}

std::string passwd_home() {
  struct passwd pw{}, *found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &found) != 0 || !found || !pw.pw_dir) return "";
  return pw.pw_dir;
}

}  // namespace ts::util

#include "util/held_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "util/sha256.h"

namespace ts::util {

namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<HeldFile> hold_file(const std::string& from, const std::string& private_dir, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<HeldFile> {
    if (error) *error = from + ": " + why;
    return std::nullopt;
  };
  if (::mkdir(private_dir.c_str(), 0700) != 0 && errno != EEXIST)
    return fail("cannot create " + private_dir + " (" + std::strerror(errno) + ")");
  struct stat dst {};
  if (::lstat(private_dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode) || dst.st_uid != ::geteuid())
    return fail(private_dir + " is not a directory of this user's");
  ::chmod(private_dir.c_str(), 0700);
  // O_NONBLOCK: a FIFO put where a file was expected is refused below instead of hanging the open.
  Fd in{::open(from.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (in.fd < 0) return fail(std::string("cannot open (") + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(in.fd, &st) != 0 || !S_ISREG(st.st_mode)) return fail("not a regular file");
  ::fcntl(in.fd, F_SETFL, ::fcntl(in.fd, F_GETFL) & ~O_NONBLOCK);
  auto slash = from.rfind('/');
  HeldFile held;
  held.path = private_dir + "/" + (slash == std::string::npos ? from : from.substr(slash + 1));
  ::unlink(held.path.c_str());
  Fd out{::open(held.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)};
  if (out.fd < 0) return fail("cannot write its copy " + held.path + " (" + std::strerror(errno) + ")");
  Sha256 h;
  std::vector<char> buf(1 << 20);
  for (;;) {
    ssize_t n = ::read(in.fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(std::string("read failed (") + std::strerror(errno) + ")");
    if (n == 0) break;
    h.update(buf.data(), static_cast<std::size_t>(n));
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(out.fd, buf.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return fail("cannot write its copy " + held.path + " (" + std::strerror(errno) + ")");
      done += w;
    }
    held.size += static_cast<std::uint64_t>(n);
  }
  if (::close(out.fd) != 0) {
    out.fd = -1;
    return fail("cannot write its copy " + held.path + " (" + std::strerror(errno) + ")");
  }
  out.fd = -1;
  held.sha256 = hex(h.digest());
  return held;
}

}  // namespace ts::util

#include "triage/reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <span>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace ts::triage {
namespace {

constexpr std::size_t kChunk = 4 << 20;    // read() size for pipes and gzip input
constexpr std::size_t kSlice = 64 << 20;   // mmap window for regular files

bool is_gzip(const unsigned char* p, std::size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

// Inflates gzip members (several may be concatenated) from `first` then `more()`.
template <class More>
bool inflate_into(const unsigned char* first, std::size_t first_n, More more, Scanner& scanner, std::string& error) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) { error = "gzip: cannot initialise zlib"; return false; }
  std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&z, [](z_stream* s) { inflateEnd(s); });
  // Not zero-filled: a 4 MiB memset per small log (a pipe, a fuzz input) cost more than the scan.
  auto out_buf = std::make_unique_for_overwrite<unsigned char[]>(kChunk);
  const std::span<unsigned char> out(out_buf.get(), kChunk);
  const unsigned char* in = first;
  std::size_t in_n = first_n;
  bool ended = false;
  while (true) {
    if (in_n == 0) {
      if (!more(in, in_n)) return false;  // read error already in `error`
      if (in_n == 0) break;               // end of input
    }
    z.next_in = const_cast<unsigned char*>(in);
    z.avail_in = static_cast<uInt>(in_n);
    while (z.avail_in > 0) {
      if (ended) {  // another member follows, or trailing junk
        if (!is_gzip(z.next_in, z.avail_in) && !(z.avail_in == 1 && z.next_in[0] == 0x1f)) { z.avail_in = 0; break; }
        inflateReset(&z);
        ended = false;
      }
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      int rc = inflate(&z, Z_NO_FLUSH);
      std::size_t produced = out.size() - z.avail_out;
      if (produced) scanner.feed(std::string_view(reinterpret_cast<const char*>(out.data()), produced));
      if (rc == Z_STREAM_END) ended = true;
      else if (rc == Z_BUF_ERROR && produced == 0) break;
      else if (rc != Z_OK) { error = std::string("gzip: corrupt data (") + (z.msg ? z.msg : "inflate failed") + ")"; return false; }
    }
    in_n = 0;
  }
  // Flush what zlib still holds.
  while (!ended) {
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    int rc = inflate(&z, Z_FINISH);
    std::size_t produced = out.size() - z.avail_out;
    if (produced) scanner.feed(std::string_view(reinterpret_cast<const char*>(out.data()), produced));
    if (rc == Z_STREAM_END) break;
    if (produced == 0) { error = "gzip: truncated stream"; return false; }
  }
  return true;
}

}  // namespace

bool scan_fd(int fd, Scanner& scanner, std::string& error) {
  auto buf_mem = std::make_unique_for_overwrite<unsigned char[]>(kChunk);
  const std::span<unsigned char> buf(buf_mem.get(), kChunk);
  auto read_some = [&](const unsigned char*& p, std::size_t& n) {
    while (true) {
      ssize_t r = ::read(fd, buf.data(), buf.size());
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) { error = std::string("read failed: ") + std::strerror(errno); return false; }
      p = buf.data();
      n = static_cast<std::size_t>(r);
      return true;
    }
  };
  const unsigned char* p = nullptr;
  std::size_t n = 0;
  if (!read_some(p, n)) return false;
  // Need two bytes to decide gzip; a one-byte first read is rare but possible on a pipe.
  std::string head;
  if (n == 1) {
    head.assign(reinterpret_cast<const char*>(p), 1);
    const unsigned char* p2;
    std::size_t n2;
    if (!read_some(p2, n2)) return false;
    if (n2 == 0) { scanner.feed(head); return true; }
    head.append(reinterpret_cast<const char*>(p2), n2);
    p = reinterpret_cast<const unsigned char*>(head.data());
    n = head.size();
  }
  if (is_gzip(p, n)) return inflate_into(p, n, read_some, scanner, error);
  while (n > 0) {
    scanner.feed(std::string_view(reinterpret_cast<const char*>(p), n));
    if (!read_some(p, n)) return false;
  }
  return true;
}

bool scan_file(const std::string& path, Scanner& scanner, std::string& error) {
  if (path == "-") return scan_fd(0, scanner, error);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) { error = path + ": " + std::strerror(errno); return false; }
  struct stat st{};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    error = path + ": " + (S_ISDIR(st.st_mode) ? "is a directory" : std::strerror(errno));
    ::close(fd);
    return false;
  }
  bool ok = true;
  unsigned char magic[2] = {0, 0};
  bool regular = S_ISREG(st.st_mode) && st.st_size > 0;
  if (regular && ::pread(fd, magic, 2, 0) == 2 && is_gzip(magic, 2)) regular = false;
  if (!regular) {
    ok = scan_fd(fd, scanner, error);
    if (!ok) error = path + ": " + error;
  } else {
    // Regular file: map a window at a time, so RSS stays bounded for multi-GB logs.
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    for (std::size_t off = 0; off < size && ok; off += kSlice) {
      std::size_t len = std::min(kSlice, size - off);
      void* m = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(off));
      if (m == MAP_FAILED) { error = path + ": mmap failed: " + std::strerror(errno); ok = false; break; }
      ::madvise(m, len, MADV_SEQUENTIAL);
      ::madvise(m, len, MADV_WILLNEED);
      scanner.feed(std::string_view(static_cast<const char*>(m), len));
      ::munmap(m, len);
    }
  }
  ::close(fd);
  return ok;
}

}  // namespace ts::triage

#include "formats/zip_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>

#include "formats/zip.h"  // write_error
#include "util/scratch_dir.h"
#include "util/sha256.h"
#include "util/partial_files.h"

namespace ts::formats {
namespace {

constexpr std::uint32_t kLocal = 0x04034b50, kCentral = 0x02014b50, kEocd = 0x06054b50,
                        kZip64Eocd = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr std::uint64_t kMax32 = 0xffffffffu;
// Entries this large get a ZIP64 local header up front: deflate may grow data a little.
constexpr std::uint64_t kBigEntry = 0xf0000000u;
constexpr std::size_t kChunk = 1 << 20;

void put16(std::string& s, std::uint16_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>(v >> 8);
}
void put32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put64(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}
std::uint32_t clamp32(std::uint64_t v) { return v >= kMax32 ? std::uint32_t(kMax32) : std::uint32_t(v); }

bool non_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return true;
  return false;
}

// A piece of a member's content: bytes, or (data == nullptr) a run of zeros from a sparse hole.
struct Piece {
  const unsigned char* data;
  std::size_t size;
};

}  // namespace

ZipWriter::ZipWriter(std::string path) : path_(std::move(path)) {
  const std::string marker = std::filesystem::path(path_).filename().string() + ".tmp-";
  tmp_ = path_ + ".tmp-" + std::to_string(::getpid());
  // What a killed writer of the same file left (its pid gone) goes now; ours goes on a signal too.
  const std::string parent = std::filesystem::path(path_).parent_path().string();
  util::remove_stale(parent.empty() ? "." : parent, marker);
  util::CleanupSignalsHeld held;  // until the partial file is in the registry
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create " + tmp_ + ": " + std::strerror(errno));
  else slot_ = util::register_cleanup(tmp_);
}

ZipWriter::~ZipWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!finished_ && !tmp_.empty()) ::unlink(tmp_.c_str());
  util::unregister_cleanup(slot_);
}

const std::string& ZipWriter::error() const { return error_; }

bool ZipWriter::fail(std::string msg) {
  if (error_.empty()) error_ = path_ + ": " + msg;
  return false;
}

void ZipWriter::set_time(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  if (tm.tm_year < 80) {  // zip's DOS dates start in 1980
    dos_date_ = (0 << 9) | (1 << 5) | 1;
    dos_time_ = 0;
    return;
  }
  dos_date_ = std::uint16_t(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
  dos_time_ = std::uint16_t((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
}

bool ZipWriter::check_name(std::string_view n) {
  if (!error_.empty()) return false;
  if (finished_) return fail("add after finish()");
  const std::string shown(n);
  if (n.empty() || n.front() == '/' || n.find('\\') != std::string_view::npos ||
      n.find('\0') != std::string_view::npos || n.size() > 0xffff)
    return fail("bad member name '" + shown + "' (empty, absolute, or with '\\' or NUL)");
  std::size_t start = 0;
  while (start < n.size()) {
    std::size_t end = n.find('/', start);
    if (end == std::string_view::npos) end = n.size();
    std::string_view part = n.substr(start, end - start);
    if (part == ".." || part == "." || (part.empty() && end != n.size()))
      return fail("bad member name '" + shown + "' ('..', '.' or empty path component)");
    start = end + 1;
  }
  if (!names_.insert(shown).second) return fail("duplicate member name '" + shown + "'");
  return true;
}

bool ZipWriter::pwrite_all(const void* p, std::size_t n, std::uint64_t off) {
  const auto* c = static_cast<const char*>(p);
  while (n) {
    ssize_t w = ::pwrite(fd_, c, n, static_cast<off_t>(off));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return fail(write_error(tmp_, w < 0 ? errno : ENOSPC));
    c += w;
    n -= std::size_t(w);
    off += std::uint64_t(w);
  }
  return true;
}

bool ZipWriter::write_all(const void* p, std::size_t n) {
  if (!pwrite_all(p, n, pos_)) return false;
  pos_ += n;
  return true;
}

bool ZipWriter::begin_entry(Entry& e, bool big) {
  e.offset = pos_;
  std::string h;
  put32(h, kLocal);
  put16(h, big ? 45 : 20);
  put16(h, non_ascii(e.name) ? 0x0800 : 0);
  put16(h, e.method);
  put16(h, dos_time_);
  put16(h, dos_date_);
  put32(h, 0);  // crc, sizes: patched by end_entry
  put32(h, big ? std::uint32_t(kMax32) : 0);
  put32(h, big ? std::uint32_t(kMax32) : 0);
  put16(h, std::uint16_t(e.name.size()));
  put16(h, big ? 20 : 0);
  h += e.name;
  if (big) {
    put16(h, 1);
    put16(h, 16);
    put64(h, 0);
    put64(h, 0);
  }
  return write_all(h.data(), h.size());
}

bool ZipWriter::end_entry(Entry& e, bool big, std::uint64_t header_off) {
  if (!big && (e.size >= kMax32 || e.compressed_size >= kMax32))
    return fail("member '" + e.name + "' grew past 4 GiB while being written");
  std::string f;
  put32(f, e.crc);
  put32(f, big ? std::uint32_t(kMax32) : std::uint32_t(e.compressed_size));
  put32(f, big ? std::uint32_t(kMax32) : std::uint32_t(e.size));
  if (!pwrite_all(f.data(), f.size(), header_off + 14)) return false;
  if (big) {
    std::string x;
    put64(x, e.size);
    put64(x, e.compressed_size);
    if (!pwrite_all(x.data(), x.size(), header_off + 30 + e.name.size() + 4)) return false;
  }
  entries_.push_back(e);
  return true;
}

// One implementation for both add() and add_file(): `next` yields pieces until size 0.
static bool stream_entry(ZipWriter::Entry& e, bool deflate, int level,
                         const std::function<bool(Piece&)>& next,
                         const std::function<bool(const void*, std::size_t)>& write,
                         const std::function<void(std::uint64_t)>& skip, std::string* err) {
  util::Sha256 sha;
  uLong crc = crc32(0L, Z_NULL, 0);
  static const unsigned char zeros[64 * 1024] = {};
  static const uLong zeros_crc = crc32(crc32(0L, Z_NULL, 0), zeros, sizeof zeros);
  z_stream z{};
  std::unique_ptr<z_stream, void (*)(z_stream*)> guard(nullptr, [](z_stream* p) { deflateEnd(p); });
  std::unique_ptr<unsigned char[]> out;
  if (deflate) {
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      *err = "deflateInit2 failed";
      return false;
    }
    guard.reset(&z);
    out.reset(new unsigned char[kChunk]);
  }
  auto deflate_bytes = [&](const unsigned char* p, std::size_t n, int flush) {
    z.next_in = const_cast<unsigned char*>(p);
    z.avail_in = static_cast<uInt>(n);
    do {
      z.next_out = out.get();
      z.avail_out = kChunk;
      int rc = ::deflate(&z, flush);
      if (rc == Z_STREAM_ERROR) {
        *err = "deflate failed";
        return false;
      }
      std::size_t have = kChunk - z.avail_out;
      if (have && !write(out.get(), have)) return false;
      e.compressed_size += have;
      if (flush == Z_FINISH && rc == Z_STREAM_END) return true;
    } while (z.avail_out == 0 || (flush == Z_FINISH));
    return true;
  };
  for (;;) {
    Piece pc{nullptr, 0};
    if (!next(pc)) return false;
    if (pc.size == 0) break;
    e.size += pc.size;
    if (pc.data) {
      crc = crc32(crc, pc.data, static_cast<uInt>(pc.size));
      sha.update(pc.data, pc.size);
      if (deflate) {
        if (!deflate_bytes(pc.data, pc.size, Z_NO_FLUSH)) return false;
      } else {
        if (!write(pc.data, pc.size)) return false;
        e.compressed_size += pc.size;
      }
      continue;
    }
    // A hole: zeros, counted without reading them (and without writing them when stored).
    sha.update_zeros(pc.size);
    for (std::size_t left = pc.size; left;) {
      std::size_t n = std::min(left, sizeof zeros);
      crc = n == sizeof zeros ? crc32_combine(crc, zeros_crc, n) : crc32(crc, zeros, uInt(n));
      if (deflate && !deflate_bytes(zeros, n, Z_NO_FLUSH)) return false;
      left -= n;
    }
    if (!deflate) {
      skip(pc.size);
      e.compressed_size += pc.size;
    }
  }
  if (deflate && !deflate_bytes(nullptr, 0, Z_FINISH)) return false;
  e.crc = std::uint32_t(crc);
  e.sha256 = sha.digest();
  return true;
}

bool ZipWriter::add(std::string_view name, std::string_view data, bool deflate, std::uint32_t mode) {
  if (!check_name(name)) return false;
  Entry e;
  e.name = std::string(name);
  e.mode = mode & 07777;
  e.method = deflate ? 8 : 0;
  const bool big = data.size() >= kBigEntry;
  const std::uint64_t header = pos_;
  if (!begin_entry(e, big)) return false;
  std::size_t at = 0;
  auto next = [&](Piece& p) {
    p = {reinterpret_cast<const unsigned char*>(data.data()) + at, std::min(kChunk, data.size() - at)};
    at += p.size;
    return true;
  };
  std::string err;
  if (!stream_entry(e, deflate, level_, next,
                    [&](const void* p, std::size_t n) { return write_all(p, n); },
                    [&](std::uint64_t n) { pos_ += n; }, &err))
    return fail(err.empty() ? error_ : "member '" + e.name + "': " + err);
  return end_entry(e, big, header);
}

bool ZipWriter::add_file(std::string_view name, const std::string& src_path, bool deflate) {
  if (!check_name(name)) return false;
  int in = ::open(src_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return fail("cannot read " + src_path + ": " + std::strerror(errno));
  std::unique_ptr<int, void (*)(int*)> close_in(&in, [](int* f) { ::close(*f); });
  struct stat st{};
  if (::fstat(in, &st) != 0 || !S_ISREG(st.st_mode))
    return fail(src_path + " is not a regular file");
  const std::uint64_t size = std::uint64_t(st.st_size);
  Entry e;
  e.name = std::string(name);
  e.mode = st.st_mode & 0777;
  e.method = deflate ? 8 : 0;
  const bool big = size >= kBigEntry;
  const std::uint64_t header = pos_;
  if (!begin_entry(e, big)) return false;

  std::unique_ptr<unsigned char[]> buf(new unsigned char[kChunk]);
  std::uint64_t at = 0, data_end = 0;  // [at, data_end) is known to hold data
  std::string read_err;
  auto next = [&](Piece& p) -> bool {
    p = {nullptr, 0};
    if (at >= size) return true;
    if (at >= data_end) {
      // Where the next data starts: lseek SEEK_DATA/SEEK_HOLE; without them, all is data.
      off_t d = ::lseek(in, off_t(at), SEEK_DATA);
      if (d < 0) d = errno == ENXIO ? off_t(size) : off_t(at);
      if (std::uint64_t(d) > at) {
        p = {nullptr, std::size_t(std::min<std::uint64_t>(std::uint64_t(d) - at, 1ull << 30))};
        at += p.size;
        return true;
      }
      off_t h = ::lseek(in, off_t(at), SEEK_HOLE);
      data_end = h < 0 ? size : std::min<std::uint64_t>(std::uint64_t(h), size);
      if (data_end <= at) data_end = size;
    }
    std::size_t want = std::size_t(std::min<std::uint64_t>(kChunk, data_end - at));
    ssize_t r;
    do r = ::pread(in, buf.get(), want, off_t(at));
    while (r < 0 && errno == EINTR);
    if (r <= 0) {
      read_err = r < 0 ? std::string("read failed: ") + std::strerror(errno)
                       : "file shrank while being read";
      return false;
    }
    p = {buf.get(), std::size_t(r)};
    at += std::uint64_t(r);
    return true;
  };
  std::string err;
  if (!stream_entry(e, deflate, level_, next,
                    [&](const void* p, std::size_t n) { return write_all(p, n); },
                    [&](std::uint64_t n) { pos_ += n; }, &err)) {
    if (!read_err.empty()) return fail(src_path + ": " + read_err);
    return fail(err.empty() ? error_ : "member '" + e.name + "': " + err);
  }
  return end_entry(e, big, header);
}

std::string ZipWriter::central_directory() const {
  std::string cd;
  for (const auto& e : entries_) {
    std::string x;
    if (e.size >= kMax32) put64(x, e.size);
    if (e.compressed_size >= kMax32) put64(x, e.compressed_size);
    if (e.offset >= kMax32) put64(x, e.offset);
    const bool z64 = !x.empty();
    put32(cd, kCentral);
    put16(cd, (3 << 8) | (z64 ? 45 : 20));  // made by Unix, so the mode bits count
    put16(cd, z64 ? 45 : 20);
    put16(cd, non_ascii(e.name) ? 0x0800 : 0);
    put16(cd, e.method);
    put16(cd, dos_time_);
    put16(cd, dos_date_);
    put32(cd, e.crc);
    put32(cd, clamp32(e.compressed_size));
    put32(cd, clamp32(e.size));
    put16(cd, std::uint16_t(e.name.size()));
    put16(cd, std::uint16_t(z64 ? x.size() + 4 : 0));
    put16(cd, 0);  // comment
    put16(cd, 0);  // disk
    put16(cd, 0);  // internal attributes
    const bool dir = !e.name.empty() && e.name.back() == '/';
    put32(cd, std::uint32_t((dir ? S_IFDIR : S_IFREG) | e.mode) << 16 | (dir ? 0x10 : 0));
    put32(cd, clamp32(e.offset));
    cd += e.name;
    if (z64) {
      put16(cd, 1);
      put16(cd, std::uint16_t(x.size()));
      cd += x;
    }
  }
  return cd;
}

bool ZipWriter::finish() {
  if (!error_.empty()) return false;
  if (finished_) return fail("finish() called twice");
  std::string tail = central_directory();
  const std::uint64_t cd_off = pos_, cd_size = tail.size(), n = entries_.size();
  if (n >= 0xffff || cd_off >= kMax32 || cd_size >= kMax32) {
    const std::uint64_t z64_off = cd_off + cd_size;
    put32(tail, kZip64Eocd);
    put64(tail, 44);
    put16(tail, (3 << 8) | 45);
    put16(tail, 45);
    put32(tail, 0);
    put32(tail, 0);
    put64(tail, n);
    put64(tail, n);
    put64(tail, cd_size);
    put64(tail, cd_off);
    put32(tail, kZip64Locator);
    put32(tail, 0);
    put64(tail, z64_off);
    put32(tail, 1);
  }
  put32(tail, kEocd);
  put16(tail, 0);
  put16(tail, 0);
  put16(tail, std::uint16_t(n >= 0xffff ? 0xffff : n));
  put16(tail, std::uint16_t(n >= 0xffff ? 0xffff : n));
  put32(tail, clamp32(cd_size));
  put32(tail, clamp32(cd_off));
  put16(tail, 0);
  if (!write_all(tail.data(), tail.size())) return false;
  if (::ftruncate(fd_, off_t(pos_)) != 0 || ::fsync(fd_) != 0) return fail(write_error(tmp_, errno));
  // close() reports deferred write errors (NFS, quotas): its result counts too.
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) return fail(write_error(tmp_, errno));
  if (::rename(tmp_.c_str(), path_.c_str()) != 0)
    return fail("cannot rename " + tmp_ + " onto it: " + std::strerror(errno));
  finished_ = true;
  util::unregister_cleanup(slot_);
  slot_ = -1;
  // The rename is durable only once the directory is synced.
  std::string dir = path_.substr(0, path_.find_last_of('/') == std::string::npos ? 0 : path_.find_last_of('/'));
  int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

}  // namespace ts::formats

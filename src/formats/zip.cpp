#include "formats/zip.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/fs.h"
#include "util/printable.h"

namespace ts::formats {
namespace {

constexpr std::uint32_t kEocd = 0x06054b50, kZip64Locator = 0x07064b50, kZip64Eocd = 0x06064b50,
                        kCentral = 0x02014b50, kLocal = 0x04034b50;
constexpr std::size_t kMaxComponent = 255;  // NAME_MAX of Linux file systems

bool fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}

std::string mib(std::uint64_t n) { return std::to_string(n >> 20) + " MiB"; }

// A member name as printed: its control characters escaped, so a name cannot drive the terminal.
std::string shown(const std::string& n) { return util::printable(n); }

// A member name that stays inside the archive's root when extracted and that a file system holds.
std::string name_problem(const std::string& n) {
  if (n.empty() || n.front() == '/' || n.find('\\') != std::string::npos || n.find('\0') != std::string::npos)
    return "unsafe member name '" + shown(n) + "' (absolute or with '..')";
  std::size_t start = 0;
  while (start <= n.size()) {
    std::size_t end = n.find('/', start);
    if (end == std::string::npos) end = n.size();
    if (end - start == 2 && n.compare(start, 2, "..") == 0) return "unsafe member name '" + shown(n) + "' (absolute or with '..')";
    if (end - start > kMaxComponent)
      return "member name '" + shown(n.substr(0, 60)) + "...' has a part of " + std::to_string(end - start) +
             " bytes (file systems hold at most 255)";
    start = end + 1;
  }
  return "";
}

// Where the central directory lies and how many entries it claims: the end record's word (ZIP64's
// when a locator precedes it), checked against the file before any entry is read.
struct CentralDirectory {
  std::uint64_t count = 0, size = 0, offset = 0;
};

std::optional<CentralDirectory> read_end_record(const ByteReader& r, std::uint64_t file_size, std::string* error) {
  // The end record is in the last 22 + 65535 (comment) bytes.
  if (file_size < 22) { fail(error, "not a zip archive (too short)"); return std::nullopt; }
  std::uint64_t eocd = 0;
  bool found = false;
  const std::uint64_t lowest = file_size > 22 + 65535 ? file_size - 22 - 65535 : 0;
  for (std::uint64_t p = file_size - 22 + 1; p-- > lowest;) {
    std::uint32_t sig = 0;
    if (r.u32(p, sig) && sig == kEocd) { eocd = p; found = true; break; }
  }
  if (!found) { fail(error, "not a zip archive (no end of central directory; truncated?)"); return std::nullopt; }
  std::uint16_t n16 = 0;
  std::uint32_t cd_size32 = 0, cd_off32 = 0;
  r.u16(eocd + 10, n16);
  r.u32(eocd + 12, cd_size32);
  r.u32(eocd + 16, cd_off32);
  CentralDirectory cd{n16, cd_size32, cd_off32};
  std::uint32_t sig = 0;
  if (eocd >= 20 && r.u32(eocd - 20, sig) && sig == kZip64Locator) {
    std::uint64_t z64 = 0;
    r.u64(eocd - 20 + 8, z64);
    if (!r.u32(z64, sig) || sig != kZip64Eocd || !r.u64(z64 + 32, cd.count) || !r.u64(z64 + 40, cd.size) ||
        !r.u64(z64 + 48, cd.offset)) {
      fail(error, "bad ZIP64 end of central directory");
      return std::nullopt;
    }
  }
  if (!fits(file_size, cd.offset, cd.size)) { fail(error, "central directory past end of file (truncated?)"); return std::nullopt; }
  // Each central entry is at least 46 bytes: a larger count is a lie.
  if (cd.count > cd.size / 46) { fail(error, "central directory holds fewer entries than it claims"); return std::nullopt; }
  return cd;
}

// One central directory entry as written: the member, its flags and the entry's length.
struct CentralEntry {
  ZipMember member;
  std::uint16_t flags = 0;
  std::uint64_t length = 0;
};

std::optional<CentralEntry> read_central_entry(const ByteReader& r, std::uint64_t p, std::uint64_t i,
                                               std::string* error) {
  CentralEntry e;
  ZipMember& m = e.member;
  std::uint16_t name_len = 0, extra_len = 0, comment_len = 0;
  std::uint32_t sig = 0, csize = 0, size = 0, local = 0;
  if (!r.u32(p, sig) || sig != kCentral || !r.u16(p + 8, e.flags) || !r.u16(p + 10, m.method) ||
      !r.u32(p + 16, m.crc) || !r.u32(p + 20, csize) || !r.u32(p + 24, size) || !r.u16(p + 28, name_len) ||
      !r.u16(p + 30, extra_len) || !r.u16(p + 32, comment_len) || !r.u32(p + 42, local)) {
    fail(error, "bad central directory entry " + std::to_string(i));
    return std::nullopt;
  }
  Bytes name, extra;
  if (!r.slice(p + 46, name_len, name) || !r.slice(p + 46 + name_len, extra_len, extra)) {
    fail(error, "central directory entry " + std::to_string(i) + " past end of file");
    return std::nullopt;
  }
  m.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
  m.size = size;
  m.compressed_size = csize;
  m.local_offset = local;
  // ZIP64 extra field: the 64-bit values, in this order, for each 32-bit field that is all ones.
  const ByteReader x(extra, false);
  for (std::uint64_t q = 0; q + 4 <= extra.size();) {
    std::uint16_t id = 0, len = 0;
    x.u16(q, id);
    x.u16(q + 2, len);
    if (id == 1) {
      std::uint64_t f = q + 4;
      if (size == 0xffffffff && x.u64(f, m.size)) f += 8;
      if (csize == 0xffffffff && x.u64(f, m.compressed_size)) f += 8;
      if (local == 0xffffffff && x.u64(f, m.local_offset)) f += 8;
    }
    q += 4 + std::uint64_t(len);
  }
  e.length = 46 + std::uint64_t(name_len) + extra_len + comment_len;
  return e;
}

// The local header must agree with the central directory: same name, same method, and (when
// the sizes are not deferred to a data descriptor) the same CRC and sizes. Sets m.data_offset,
// which must leave the data before the central directory.
bool check_local_header(const ByteReader& r, std::uint64_t cd_off, ZipMember& m, std::string* error) {
  std::uint32_t lsig = 0, lcrc = 0, lcsize = 0, lsize = 0;
  std::uint16_t lmethod = 0, lflags = 0, lname_len = 0, lextra_len = 0;
  Bytes lname;
  if (!r.u32(m.local_offset, lsig) || lsig != kLocal || !r.u16(m.local_offset + 6, lflags) ||
      !r.u16(m.local_offset + 8, lmethod) || !r.u32(m.local_offset + 14, lcrc) ||
      !r.u32(m.local_offset + 18, lcsize) || !r.u32(m.local_offset + 22, lsize) ||
      !r.u16(m.local_offset + 26, lname_len) || !r.u16(m.local_offset + 28, lextra_len) ||
      !r.slice(m.local_offset + 30, lname_len, lname))
    return fail(error, shown(m.name) + ": bad local header");
  if (lmethod != m.method || std::string_view(reinterpret_cast<const char*>(lname.data()), lname.size()) != m.name ||
      (!(lflags & 8) && (lcrc != m.crc || (lcsize != 0xffffffff && lcsize != (m.compressed_size & 0xffffffff)) ||
                         (lsize != 0xffffffff && lsize != (m.size & 0xffffffff)))))
    return fail(error, shown(m.name) + ": local header disagrees with the central directory (a crafted archive?)");
  m.data_offset = m.local_offset + 30 + lname_len + lextra_len;
  if (!fits(cd_off, m.data_offset, m.compressed_size))
    return fail(error, shown(m.name) + ": data past the central directory (truncated or crafted?)");
  return true;
}

// One member's sizes: a stored member's agree, and neither its size nor its ratio is a bomb's.
bool check_member_size(const ZipMember& m, const ZipLimits& lim, std::string* error) {
  if (m.method == 0 && m.compressed_size != m.size) return fail(error, shown(m.name) + ": stored size mismatch");
  if (m.size > lim.max_member_size)
    return fail(error, shown(m.name) + ": " + mib(m.size) + " uncompressed, over the limit of " +
                           mib(lim.max_member_size));
  if (m.size >= lim.ratio_floor && m.size / std::max<std::uint64_t>(m.compressed_size, 1) > lim.max_ratio)
    return fail(error, shown(m.name) + ": compression ratio over " + std::to_string(lim.max_ratio) + ":1 (" +
                           mib(m.size) + " from " + std::to_string(m.compressed_size) + " bytes; a zip bomb?)");
  return true;
}

// Each member's local header and data own their bytes: overlapping members are how a small
// file inflates to gigabytes (one deflate stream named many times).
bool check_no_overlap(const std::vector<ZipMember>& members, std::string* error) {
  std::vector<const ZipMember*> by_offset;
  for (const auto& m : members) by_offset.push_back(&m);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const ZipMember* a, const ZipMember* b) { return a->local_offset < b->local_offset; });
  for (std::size_t i = 1; i < by_offset.size(); ++i) {
    const ZipMember& a = *by_offset[i - 1];
    if (a.data_offset + a.compressed_size > by_offset[i]->local_offset)
      return fail(error, "members '" + shown(a.name) + "' and '" + shown(by_offset[i]->name) +
                             "' overlap (a zip bomb?)");
  }
  return true;
}

}  // namespace

std::string write_error(const std::string& path, int err) { return util::write_error(path, err); }

std::optional<ZipArchive> ZipArchive::open(Bytes data, std::string* error, const ZipLimits& lim) {
  ZipArchive z;
  z.r_ = ByteReader(data, false);
  const ByteReader& r = z.r_;
  auto cd = read_end_record(r, data.size(), error);
  if (!cd) return std::nullopt;
  if (cd->count > lim.max_entries) {
    fail(error, std::to_string(cd->count) + " members, over the limit of " + std::to_string(lim.max_entries));
    return std::nullopt;
  }

  std::uint64_t p = cd->offset, compressed_total = 0;
  for (std::uint64_t i = 0; i < cd->count; ++i) {
    auto entry = read_central_entry(r, p, i, error);
    if (!entry) return std::nullopt;
    ZipMember& m = entry->member;
    if (std::string why = name_problem(m.name); !why.empty()) { fail(error, why); return std::nullopt; }
    if (!z.index_.emplace(m.name, z.members_.size()).second) {
      fail(error, "member '" + shown(m.name) + "' appears twice (a crafted archive?)");
      return std::nullopt;
    }
    if (m.method != 0 && m.method != 8) {
      fail(error, shown(m.name) + ": compression method " + std::to_string(m.method) + " not supported");
      return std::nullopt;
    }
    if (entry->flags & 1) { fail(error, shown(m.name) + ": encrypted members are not supported"); return std::nullopt; }
    if (!check_local_header(r, cd->offset, m, error) || !check_member_size(m, lim, error)) return std::nullopt;
    z.total_ += m.size;
    compressed_total += m.compressed_size;
    if (z.total_ > lim.max_total_size) {
      fail(error, "members total over " + mib(lim.max_total_size) + " uncompressed (a zip bomb?)");
      return std::nullopt;
    }
    z.members_.push_back(std::move(m));
    p += entry->length;
  }
  if (z.total_ >= lim.ratio_floor && z.total_ / std::max<std::uint64_t>(compressed_total, 1) > lim.max_ratio) {
    fail(error, std::to_string(z.members_.size()) + " members total " + mib(z.total_) + " uncompressed from " +
                    std::to_string(compressed_total) + " bytes: compression ratio over " +
                    std::to_string(lim.max_ratio) + ":1 (a zip bomb?)");
    return std::nullopt;
  }
  if (!check_no_overlap(z.members_, error)) return std::nullopt;
  return z;
}

const ZipMember* ZipArchive::find(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &members_[it->second];
}

std::string ZipArchive::stream(const ZipMember& m,
                               const std::function<bool(const unsigned char*, std::size_t)>& sink) const {
  Bytes in;
  if (!r_.slice(m.data_offset, m.compressed_size, in)) return shown(m.name) + ": data past end of file (truncated?)";
  if (m.method == 0) {
    if (in.size() != m.size) return shown(m.name) + ": stored size mismatch";
    if (crc32_z(0, in.data(), in.size()) != m.crc) return shown(m.name) + ": CRC mismatch (corrupt archive)";
    if (!in.empty() && !sink(in.data(), in.size())) return "stopped";
    return "";
  }
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return "zlib: cannot start inflate";
  std::vector<unsigned char> buf(1 << 20);
  std::uint64_t fed = 0, written = 0;
  uLong crc = 0;
  int rc = Z_OK;
  bool stopped = false;
  while (rc != Z_STREAM_END) {
    if (zs.avail_in == 0 && fed < in.size()) {
      const std::uint64_t n = std::min<std::uint64_t>(in.size() - fed, 1u << 30);
      zs.next_in = const_cast<unsigned char*>(in.data() + fed);
      zs.avail_in = static_cast<uInt>(n);
      fed += n;
    }
    zs.next_out = buf.data();
    zs.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    const std::size_t got = buf.size() - zs.avail_out;
    if (got == 0 && rc == Z_OK && zs.avail_in == 0 && fed >= in.size()) { rc = Z_DATA_ERROR; break; }
    written += got;
    if (written > m.size) { rc = Z_DATA_ERROR; break; }  // more than declared: never past the limits
    crc = crc32_z(crc, buf.data(), got);
    if (got && !sink(buf.data(), got)) { stopped = true; break; }
  }
  inflateEnd(&zs);
  if (stopped) return "stopped";
  if (rc != Z_STREAM_END || written != m.size) return shown(m.name) + ": corrupt deflate data";
  if (crc != m.crc) return shown(m.name) + ": CRC mismatch (corrupt archive)";
  return "";
}

std::string ZipArchive::extract(const ZipMember& m, const std::string& path) const {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return write_error(path, errno);
  struct stat st{};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);  // only a half-written file is removed
  int werr = 0;
  std::string e = stream(m, [&](const unsigned char* p, std::size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        werr = errno;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    return true;
  });
  // close() reports deferred write errors (NFS, quotas): its result counts too.
  if (::close(fd) != 0 && !werr && e.empty()) werr = errno;
  if (werr) e = write_error(path, werr);
  if (!e.empty() && regular) ::unlink(path.c_str());
  return e;
}

std::string ZipArchive::read(const ZipMember& m, std::string& out, std::uint64_t max_bytes) const {
  if (m.size > max_bytes) return shown(m.name) + ": " + std::to_string(m.size) + " bytes, over " + std::to_string(max_bytes);
  out.clear();
  out.reserve(m.size);
  return stream(m, [&](const unsigned char* p, std::size_t n) {
    out.append(reinterpret_cast<const char*>(p), n);
    return true;
  });
}

}  // namespace ts::formats

#include "formats/zip.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace ts::formats {
namespace {

constexpr std::uint32_t kEocd = 0x06054b50, kZip64Locator = 0x07064b50, kZip64Eocd = 0x06064b50,
                        kCentral = 0x02014b50, kLocal = 0x04034b50;

bool fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}

// A member name that stays inside the archive's root when extracted.
bool safe_name(const std::string& n) {
  if (n.empty() || n.front() == '/' || n.find('\\') != std::string::npos || n.find('\0') != std::string::npos)
    return false;
  std::size_t start = 0;
  while (start <= n.size()) {
    std::size_t end = n.find('/', start);
    if (end == std::string::npos) end = n.size();
    if (n.compare(start, end - start, "..") == 0 && end - start == 2) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

std::optional<ZipArchive> ZipArchive::open(Bytes data, std::string* error) {
  ZipArchive z;
  z.r_ = ByteReader(data, false);
  const ByteReader& r = z.r_;
  // The end record is in the last 22 + 65535 (comment) bytes.
  if (data.size() < 22) { fail(error, "not a zip archive (too short)"); return std::nullopt; }
  std::uint64_t eocd = 0;
  bool found = false;
  const std::uint64_t lowest = data.size() > 22 + 65535 ? data.size() - 22 - 65535 : 0;
  for (std::uint64_t p = data.size() - 22 + 1; p-- > lowest;) {
    std::uint32_t sig = 0;
    if (r.u32(p, sig) && sig == kEocd) { eocd = p; found = true; break; }
  }
  if (!found) { fail(error, "not a zip archive (no end of central directory; truncated?)"); return std::nullopt; }
  std::uint16_t n16 = 0;
  std::uint32_t cd_size32 = 0, cd_off32 = 0;
  r.u16(eocd + 10, n16);
  r.u32(eocd + 12, cd_size32);
  r.u32(eocd + 16, cd_off32);
  std::uint64_t count = n16, cd_size = cd_size32, cd_off = cd_off32;
  std::uint32_t sig = 0;
  if (eocd >= 20 && r.u32(eocd - 20, sig) && sig == kZip64Locator) {
    std::uint64_t z64 = 0;
    r.u64(eocd - 20 + 8, z64);
    if (!r.u32(z64, sig) || sig != kZip64Eocd || !r.u64(z64 + 32, count) || !r.u64(z64 + 40, cd_size) ||
        !r.u64(z64 + 48, cd_off)) {
      fail(error, "bad ZIP64 end of central directory");
      return std::nullopt;
    }
  }
  if (!fits(data.size(), cd_off, cd_size)) { fail(error, "central directory past end of file (truncated?)"); return std::nullopt; }
  // Each central entry is at least 46 bytes: a larger count is a lie.
  if (count > cd_size / 46) { fail(error, "central directory holds fewer entries than it claims"); return std::nullopt; }

  std::uint64_t p = cd_off;
  for (std::uint64_t i = 0; i < count; ++i) {
    ZipMember m;
    std::uint16_t name_len = 0, extra_len = 0, comment_len = 0;
    std::uint32_t csize = 0, size = 0, local = 0;
    if (!r.u32(p, sig) || sig != kCentral || !r.u16(p + 10, m.method) || !r.u32(p + 20, csize) ||
        !r.u32(p + 24, size) || !r.u16(p + 28, name_len) || !r.u16(p + 30, extra_len) ||
        !r.u16(p + 32, comment_len) || !r.u32(p + 42, local)) {
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
    if (!safe_name(m.name)) {
      fail(error, "unsafe member name '" + m.name + "' (absolute or with '..')");
      return std::nullopt;
    }
    z.members_.push_back(std::move(m));
    p += 46 + std::uint64_t(name_len) + extra_len + comment_len;
  }
  return z;
}

std::string ZipArchive::extract(const ZipMember& m, const std::string& path) const {
  std::uint32_t sig = 0;
  std::uint16_t name_len = 0, extra_len = 0;
  if (!r_.u32(m.local_offset, sig) || sig != kLocal || !r_.u16(m.local_offset + 26, name_len) ||
      !r_.u16(m.local_offset + 28, extra_len))
    return m.name + ": bad local header";
  Bytes in;
  if (!r_.slice(m.local_offset + 30 + name_len + extra_len, m.compressed_size, in))
    return m.name + ": data past end of file (truncated?)";
  if (m.method != 0 && m.method != 8) return m.name + ": compression method " + std::to_string(m.method) + " not supported";
  std::unique_ptr<FILE, int (*)(FILE*)> out(std::fopen(path.c_str(), "wb"), std::fclose);
  if (!out) return "cannot write " + path;
  if (m.method == 0) {
    if (in.size() != m.size) return m.name + ": stored size mismatch";
    if (!in.empty() && std::fwrite(in.data(), 1, in.size(), out.get()) != in.size()) return "cannot write " + path;
    return "";
  }
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return "zlib: cannot start inflate";
  std::vector<unsigned char> buf(1 << 20);
  std::uint64_t fed = 0, written = 0;
  int rc = Z_OK;
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
    if (written > m.size) { rc = Z_DATA_ERROR; break; }
    if (got && std::fwrite(buf.data(), 1, got, out.get()) != got) { inflateEnd(&zs); return "cannot write " + path; }
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || written != m.size) return m.name + ": corrupt deflate data";
  return "";
}

}  // namespace ts::formats

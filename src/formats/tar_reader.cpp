#include "formats/tar_reader.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ts::formats {
namespace {

bool parse_octal(const char* p, std::size_t width, std::uint64_t& v) {
  v = 0;
  std::size_t i = 0;
  while (i < width && (p[i] == ' ' || p[i] == '\0')) ++i;
  bool any = false;
  for (; i < width && p[i] >= '0' && p[i] <= '7'; ++i) {
    if (v >> 60) return false;
    v = v * 8 + static_cast<std::uint64_t>(p[i] - '0');
    any = true;
  }
  for (; i < width; ++i)
    if (p[i] != ' ' && p[i] != '\0') return false;
  return any || width > 0;
}

std::string field(const char* p, std::size_t width) { return std::string(p, strnlen(p, width)); }

// "LEN key=value\n" records; fills path/linkpath/size when present; false when malformed.
bool parse_pax(const std::string& s, std::string& path, std::string& link, std::uint64_t& size, bool& has_size) {
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t sp = s.find(' ', pos);
    if (sp == std::string::npos) return false;
    std::uint64_t len = 0;
    for (std::size_t i = pos; i < sp; ++i) {
      if (s[i] < '0' || s[i] > '9' || len > (1u << 30)) return false;
      len = len * 10 + static_cast<std::uint64_t>(s[i] - '0');
    }
    if (len <= sp - pos || pos + len > s.size() || s[pos + len - 1] != '\n') return false;
    std::string rec = s.substr(sp + 1, pos + len - sp - 2);
    std::size_t eq = rec.find('=');
    if (eq == std::string::npos) return false;
    std::string key = rec.substr(0, eq), value = rec.substr(eq + 1);
    if (key == "path") path = value;
    if (key == "linkpath") link = value;
    if (key == "size") {
      size = 0;
      for (char c : value) {
        if (c < '0' || c > '9' || size >> 59) return false;
        size = size * 10 + static_cast<std::uint64_t>(c - '0');
      }
      has_size = true;
    }
    pos += len;
  }
  return true;
}

}  // namespace

bool TarReader::read_exact(void* p, std::size_t n) {
  auto* c = static_cast<char*>(p);
  while (n) {
    std::size_t got = in_.read(c, n);
    if (got == 0) {
      error_ = in_.error().empty() ? "tar: the archive ends early (truncated file)" : in_.error();
      return false;
    }
    c += got;
    n -= got;
  }
  return true;
}

bool TarReader::skip(std::uint64_t n) {
  char buf[1 << 14];
  while (n) {
    std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, sizeof buf));
    if (!read_exact(buf, take)) return false;
    n -= take;
  }
  return true;
}

bool TarReader::next(TarMember& m) {
  if (!error_.empty()) return false;
  if (!skip(left_ + pad_)) return false;
  left_ = pad_ = 0;
  std::string long_name, long_link;
  std::uint64_t pax_size = 0;
  bool has_pax_size = false;
  for (int guard = 0; guard < 16; ++guard) {
    char b[512];
    if (!read_exact(b, sizeof b)) return false;
    bool zero = true;
    for (char c : b) zero = zero && c == 0;
    if (zero) return false;  // end of archive
    std::uint64_t want = 0, size = 0;
    if (!parse_octal(b + 148, 8, want) || !parse_octal(b + 124, 12, size)) {
      error_ = "tar: a member header is corrupt";
      return false;
    }
    std::uint64_t sum = 0;
    for (int i = 0; i < 512; ++i)
      sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(b[i]);
    if (sum != want) {
      error_ = "tar: a member header has a bad checksum (not a tar archive, or corrupt)";
      return false;
    }
    char type = b[156] ? b[156] : '0';
    if (has_pax_size) size = pax_size;
    std::uint64_t pad = (512 - size % 512) % 512;
    if (type == 'x' || type == 'L' || type == 'K' || type == 'g') {
      if (size > (1u << 20)) {
        error_ = "tar: an extended header over 1 MiB";
        return false;
      }
      std::string data(size, '\0');
      if (!read_exact(data.data(), data.size()) || !skip(pad)) return false;
      if (type == 'L') long_name = field(data.data(), data.size());
      if (type == 'K') long_link = field(data.data(), data.size());
      if (type == 'x' && !parse_pax(data, long_name, long_link, pax_size, has_pax_size)) {
        error_ = "tar: a pax header is malformed";
        return false;
      }
      continue;
    }
    m.type = type;
    m.size = size;
    std::uint64_t mode = 0644;
    m.mode = parse_octal(b + 100, 8, mode) ? static_cast<std::uint32_t>(mode & 07777) : 0644;
    m.link = long_link.empty() ? field(b + 157, 100) : long_link;
    if (!long_name.empty()) {
      m.name = long_name;
    } else {
      std::string prefix = std::memcmp(b + 257, "ustar", 5) == 0 ? field(b + 345, 155) : "";
      m.name = (prefix.empty() ? "" : prefix + "/") + field(b, 100);
    }
    // Only regular files carry data in the stream.
    left_ = (type == '0' || type == '7') ? size : 0;
    pad_ = (type == '0' || type == '7') ? pad : 0;
    return true;
  }
  error_ = "tar: too many extended headers in a row";
  return false;
}

std::size_t TarReader::read_some(void* p, std::size_t n) {
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, left_));
  if (n == 0 || !error_.empty()) return 0;
  if (!read_exact(p, n)) return 0;
  left_ -= n;
  return n;
}

bool TarReader::read_data(std::string& out, std::uint64_t max_bytes) {
  if (left_ > max_bytes) {
    error_ = "tar: member too large to read (" + std::to_string(left_) + " bytes)";
    return false;
  }
  out.assign(left_, '\0');
  if (!read_exact(out.data(), out.size())) return false;
  left_ = 0;
  return true;
}

}  // namespace ts::formats

#include "formats/tar_writer.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ts::formats {
namespace {

constexpr std::size_t kBlock = 512;
constexpr std::size_t kRecord = 20 * kBlock;  // what tar and Python's tarfile pad archives to

// Octal, zero-padded, NUL-terminated in a field of `width` bytes; false when it does not fit.
bool octal(char* field, std::size_t width, std::uint64_t v) {
  std::string s(width - 1, '0');
  for (std::size_t i = width - 1; i-- > 0; v >>= 3) s[i] = static_cast<char>('0' + (v & 7));
  if (v) return false;
  std::memcpy(field, s.data(), width - 1);
  field[width - 1] = '\0';
  return true;
}

// One pax record "LEN key=value\n", where LEN counts the whole record itself.
std::string pax_record(const std::string& key, const std::string& value) {
  std::size_t body = key.size() + value.size() + 3;  // ' ', '=', '\n'
  std::size_t len = body + 1;
  while (std::to_string(len).size() + body != len) ++len;
  return std::to_string(len) + " " + key + "=" + value + "\n";
}

struct Header {
  char b[kBlock] = {};
};

void finish_header(Header& h) {
  std::memset(h.b + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : h.b) sum += c;
  std::snprintf(h.b + 148, 8, "%06o", sum);
  h.b[155] = ' ';
}

Header make_header(const std::string& name, std::uint64_t size, char type, std::uint32_t mode,
                   std::int64_t mtime, const std::string& link) {
  Header h;
  std::memcpy(h.b, name.data(), std::min<std::size_t>(name.size(), 100));
  octal(h.b + 100, 8, mode & 07777);
  octal(h.b + 108, 8, 0);
  octal(h.b + 116, 8, 0);
  if (!octal(h.b + 124, 12, size)) octal(h.b + 124, 12, 0);  // the pax "size" record carries it
  octal(h.b + 136, 12, static_cast<std::uint64_t>(mtime < 0 ? 0 : mtime));
  h.b[156] = type;
  std::memcpy(h.b + 157, link.data(), std::min<std::size_t>(link.size(), 100));
  std::memcpy(h.b + 257, "ustar", 6);
  std::memcpy(h.b + 263, "00", 2);
  return h;
}

bool write_padded(ByteSink& out, const void* data, std::size_t n, std::uint64_t& written) {
  static const char zeros[kBlock] = {};
  if (!out.write(data, n)) return false;
  std::size_t pad = (kBlock - n % kBlock) % kBlock;
  written += n + pad;
  return out.write(zeros, pad);
}

bool safe_name(const std::string& n) {
  if (n.empty() || n[0] == '/' || n.find('\0') != std::string::npos) return false;
  std::size_t start = 0;
  while (start <= n.size()) {
    std::size_t end = n.find('/', start);
    if (end == std::string::npos) end = n.size();
    std::string part = n.substr(start, end - start);
    if (part == ".." || part == "." || part.empty()) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

std::string write_tar(const std::vector<TarEntry>& entries, ByteSink& out, std::int64_t mtime) {
  std::uint64_t written = 0;
  for (const auto& e : entries) {
    if (!safe_name(e.name)) return "tar: refusing the member name '" + e.name + "'";
    std::uint64_t size = e.data.size();
    char type = '0';
    if (!e.link_target.empty()) {
      type = '2';
      size = 0;
    } else if (!e.source_path.empty()) {
      struct stat st;
      if (stat(e.source_path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "tar: cannot read " + e.source_path + ": " + std::strerror(errno);
      size = static_cast<std::uint64_t>(st.st_size);
    }
    std::string pax;
    if (e.name.size() > 100) pax += pax_record("path", e.name);
    if (e.link_target.size() > 100) pax += pax_record("linkpath", e.link_target);
    if (size > 077777777777ULL) pax += pax_record("size", std::to_string(size));
    if (!pax.empty()) {
      Header ph = make_header("././@PaxHeader", pax.size(), 'x', 0644, mtime, "");
      finish_header(ph);
      if (!write_padded(out, ph.b, kBlock, written) ||
          !write_padded(out, pax.data(), pax.size(), written))
        return out.error();
    }
    Header h = make_header(e.name, size, type, e.mode, mtime, e.link_target);
    finish_header(h);
    if (!write_padded(out, h.b, kBlock, written)) return out.error();
    if (type != '0') continue;
    if (e.source_path.empty()) {
      if (!write_padded(out, e.data.data(), e.data.size(), written)) return out.error();
      continue;
    }
    FileSource in(e.source_path);
    if (!in.ok()) return in.error();
    std::vector<char> buf(1 << 20);
    std::uint64_t copied = 0;
    while (std::size_t n = in.read(buf.data(), buf.size())) {
      if (copied + n > size) return "tar: " + e.source_path + " grew while it was archived";
      if (!out.write(buf.data(), n)) return out.error();
      copied += n;
    }
    if (!in.error().empty()) return in.error();
    if (copied != size) return "tar: " + e.source_path + " shrank while it was archived";
    static const char zeros[kBlock] = {};
    std::size_t pad = (kBlock - size % kBlock) % kBlock;
    if (!out.write(zeros, pad)) return out.error();
    written += size + pad;
  }
  // Two zero blocks end the archive; then pad to a whole record as tar does.
  std::vector<char> tail(2 * kBlock, 0);
  written += tail.size();
  tail.resize(tail.size() + (kRecord - written % kRecord) % kRecord, 0);
  if (!out.write(tail.data(), tail.size())) return out.error();
  return "";
}

}  // namespace ts::formats

#pragma once
// Hand-made zip archives for tests of the zip reader's defences: every header field is the
// caller's to set, so a test can write what a crafted archive lies about (overlapping members,
// local headers that disagree with the central directory, sizes and CRCs that are wrong).
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "formats/wheel_record.h"

namespace ts::testkit {

class ZipCraft {
 public:
  struct Entry {
    std::string name;
    std::uint16_t method = 0;
    std::uint32_t crc = 0;
    std::uint64_t csize = 0, size = 0, local = 0;
  };

  static std::uint32_t crc(const std::string& s) {
    return static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(s.data()), s.size()));
  }
  static std::string deflate_raw(const std::string& s) {
    z_stream zs{};
    deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, s.size()), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
    zs.avail_in = static_cast<uInt>(s.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
  }

  // A local header (as `e` says) and `data`; returns the entry with its offset filled in.
  Entry local(Entry e, const std::string& data) {
    e.local = bytes_.size();
    u32(0x04034b50); u16(20); u16(0); u16(e.method); u16(0); u16(0x21);
    u32(e.crc); u32(static_cast<std::uint32_t>(e.csize)); u32(static_cast<std::uint32_t>(e.size));
    u16(static_cast<std::uint16_t>(e.name.size())); u16(0);
    bytes_ += e.name;
    bytes_ += data;
    return e;
  }
  // A correct member: stored or deflated, sizes and CRC true.
  Entry add(const std::string& name, const std::string& content, bool deflate = true) {
    Entry e{name, static_cast<std::uint16_t>(deflate ? 8 : 0), crc(content), 0, content.size()};
    const std::string data = deflate ? deflate_raw(content) : content;
    e.csize = data.size();
    central_.push_back(local(e, data));
    return central_.back();
  }
  // A central directory entry as given (it may point anywhere).
  void central(const Entry& e) { central_.push_back(e); }
  std::vector<Entry>& entries() { return central_; }

  std::string finish() {
    const std::uint64_t cd = bytes_.size();
    for (const auto& e : central_) {
      u32(0x02014b50); u16(20); u16(20); u16(0); u16(e.method); u16(0); u16(0x21);
      u32(e.crc); u32(static_cast<std::uint32_t>(e.csize)); u32(static_cast<std::uint32_t>(e.size));
      u16(static_cast<std::uint16_t>(e.name.size())); u16(0); u16(0); u16(0); u16(0); u32(0);
      u32(static_cast<std::uint32_t>(e.local));
      bytes_ += e.name;
    }
    const std::uint64_t cd_size = bytes_.size() - cd;
    u32(0x06054b50); u16(0); u16(0);
    u16(static_cast<std::uint16_t>(central_.size())); u16(static_cast<std::uint16_t>(central_.size()));
    u32(static_cast<std::uint32_t>(cd_size)); u32(static_cast<std::uint32_t>(cd)); u16(0);
    return bytes_;
  }

 private:
  void u16(std::uint16_t v) { bytes_ += char(v & 0xff); bytes_ += char(v >> 8); }
  void u32(std::uint32_t v) { u16(v & 0xffff); u16(v >> 16); }
  std::string bytes_;
  std::vector<Entry> central_;
};

// A wheel's RECORD line for `content` at `path`: "path,sha256=...,size".
inline std::string record_line(const std::string& path, const std::string& content) {
  util::Sha256 sha;
  sha.update(content.data(), content.size());
  return path + "," + formats::record_hash(sha.digest()) + "," + std::to_string(content.size()) + "\n";
}

// A small valid wheel's members (METADATA, WHEEL, the files given, RECORD last) added to `z`.
inline void add_wheel(ZipCraft& z, const std::string& dist_info,
                      const std::vector<std::pair<std::string, std::string>>& files) {
  std::string record;
  auto put = [&](const std::string& name, const std::string& content) {
    z.add(name, content);
    record += record_line(name, content);
  };
  put(dist_info + "/METADATA", "Metadata-Version: 2.1\nName: " + dist_info.substr(0, dist_info.find('-')) +
                                   "\nVersion: 1.0\n");
  put(dist_info + "/WHEEL", "Wheel-Version: 1.0\nTag: py3-none-any\n");
  for (const auto& [n, c] : files) put(n, c);
  z.add(dist_info + "/RECORD", record + dist_info + "/RECORD,,\n");
}

}  // namespace ts::testkit

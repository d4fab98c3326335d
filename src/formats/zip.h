#pragma once
// The one reader of zip archives (wheels, .conda) over untrusted bytes. Before any member is
// trusted it checks what a zip bomb or a crafted archive would bend: the central directory (ZIP64
// included, for wheels over 4 GiB), limits on entries, per-member and total uncompressed size and
// compression ratio, member data ranges that overlap one another or the central directory, local
// headers that disagree with the central directory, duplicate names, and names that would leave the
// archive or exceed what a file system holds. Members are inflated in chunks with their CRC-32 and
// size checked, so a gigabyte libtorch_cuda.so never sits in memory.
// Hand-written rather than libarchive (measured with Debian 12's libarchive 3.6.2): its static link
// for zip+tar+bzip2+zstd reading is feasible (700 KB test binary with libnettle, liblzma, libzstd,
// libbz2, libz; glibc the only shared library), but it brings none of the checks above. A 51 KB zip
// whose central directory names 10 members that all point at one 50 MiB deflate stream was read
// by libarchive's streaming reader as "1 member, 52428800 bytes" with no error (the central
// directory's other 9 entries silently ignored; this reader refuses the overlap), and it has no
// limit on total size, entries or ratio (a 1000:1 member read through): each check would be
// written again around it. So this reader stays, with fuzz_verify_zip over it; docs/packaging.md.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/byte_reader.h"

namespace ts::formats {

// Defaults fit the largest real wheels (a CUDA torch wheel: ~15k members, libtorch_cuda.so ~2 GiB)
// with room; a crafted archive past any of them is refused before anything is written.
struct ZipLimits {
  std::uint64_t max_entries = 500'000;
  std::uint64_t max_member_size = 16ull << 30;  // uncompressed, one member
  std::uint64_t max_total_size = 64ull << 30;   // uncompressed, all members together
  // Uncompressed / compressed for members of at least ratio_floor bytes; deflate itself tops out
  // near 1032:1, and real libraries and sources stay far below 200:1.
  // The same ratio over the whole archive once its members total ratio_floor: many members each
  // just under the floor (3,000 of 1 MiB - 1, 2.9 GiB from 3.4 MB) are one bomb, not 3,000 small files.
  std::uint64_t max_ratio = 200;
  std::uint64_t ratio_floor = 1ull << 20;
};

struct ZipMember {
  std::string name;
  std::uint16_t method = 0;  // 0 stored, 8 deflated
  std::uint32_t crc = 0;
  std::uint64_t compressed_size = 0, size = 0, local_offset = 0;
  std::uint64_t data_offset = 0;  // where the member's (compressed) bytes start
};

class ZipArchive {
 public:
  // nullopt and *error on bad input ("not a zip archive", "unsafe member name '../x'",
  // "members 'a' and 'b' overlap", "uncompressed size ... over the limit", ...).
  static std::optional<ZipArchive> open(Bytes data, std::string* error, const ZipLimits& limits = {});
  const std::vector<ZipMember>& members() const { return members_; }
  const ZipMember* find(const std::string& name) const;  // by hash: RECORD of 200k lines stays linear
  std::uint64_t total_size() const { return total_; }
  // Inflates the member into `sink` in chunks (false from the sink stops it); CRC-32 and size
  // checked. "" on success, else why not.
  std::string stream(const ZipMember& m, const std::function<bool(const unsigned char*, std::size_t)>& sink) const;
  // Writes the member's bytes to a new file `path` (every write and the close checked; errno named,
  // ENOSPC as "no space left"). "" on success, else why not; a failed file is removed.
  std::string extract(const ZipMember& m, const std::string& path) const;
  // The member's bytes in memory when it is at most max_bytes.
  std::string read(const ZipMember& m, std::string& out, std::uint64_t max_bytes) const;

 private:
  ByteReader r_;
  std::vector<ZipMember> members_;
  std::unordered_map<std::string, std::size_t> index_;  // name -> position in members_
  std::uint64_t total_ = 0;
};

// "no space left on the device holding PATH: free some space or write elsewhere" for ENOSPC,
// "cannot write PATH: <strerror>" otherwise: one wording for every failed write.
std::string write_error(const std::string& path, int err);

}  // namespace ts::formats

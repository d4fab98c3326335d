#pragma once
// A reader of zip archives (wheels) over untrusted bytes: the central directory (ZIP64 included, for
// wheels over 4 GiB), member names checked to stay inside the archive, and members extracted
// (stored or deflated) to a file in chunks, so a gigabyte libtorch_cuda.so never sits in memory.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/byte_reader.h"

namespace ts::formats {

struct ZipMember {
  std::string name;
  std::uint16_t method = 0;  // 0 stored, 8 deflated
  std::uint64_t compressed_size = 0, size = 0, local_offset = 0;
};

class ZipArchive {
 public:
  // nullopt and *error on bad input ("not a zip archive", "unsafe member name '../x'", ...).
  static std::optional<ZipArchive> open(Bytes data, std::string* error);
  const std::vector<ZipMember>& members() const { return members_; }
  // Writes the member's bytes to `path`; "" on success, else why not.
  std::string extract(const ZipMember& m, const std::string& path) const;

 private:
  ByteReader r_;
  std::vector<ZipMember> members_;
};

}  // namespace ts::formats

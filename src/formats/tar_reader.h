#pragma once
// A tar reader over an untrusted stream (ustar, pax and GNU long names): member by member, with
// checksums checked, so a corrupt or truncated package gives an error string, never a crash.
// Hand-written rather than libarchive for the reason given in formats/zip.h (no limits of its own).
#include <cstdint>
#include <string>

#include "formats/tar_stream.h"

namespace ts::formats {

struct TarMember {
  std::string name;
  std::uint64_t size = 0;
  char type = '0';  // '0' file, '2' symlink, '5' directory, ...
  std::uint32_t mode = 0644;  // permission bits as archived
  std::string link;           // a symlink's or hard link's target
};

class TarReader {
 public:
  explicit TarReader(ByteSource& in) : in_(in) {}
  // The next member; false at the end of the archive or on error (then error() is non-empty).
  bool next(TarMember& m);
  // The current member's content when it is at most max_bytes; false with error() otherwise.
  bool read_data(std::string& out, std::uint64_t max_bytes);
  // Up to n more bytes of the current member's content (0 when it is all read, or on error).
  std::size_t read_some(void* p, std::size_t n);
  const std::string& error() const { return error_; }

 private:
  bool read_exact(void* p, std::size_t n);
  bool skip(std::uint64_t n);
  ByteSource& in_;
  std::uint64_t left_ = 0, pad_ = 0;  // of the current member, still unread
  std::string error_;
};

}  // namespace ts::formats

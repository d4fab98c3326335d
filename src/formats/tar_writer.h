#pragma once
// A deterministic tar writer (POSIX ustar, with pax records for long names and huge sizes): the
// caller fixes the order, and every entry gets the same mtime, uid/gid 0 and no user names, so the
// same input gives the same bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "formats/tar_stream.h"

namespace ts::formats {

struct TarEntry {
  std::string name;         // path inside the archive: '/'-separated, relative, no ".." parts
  std::string source_path;  // a regular file copied in chunks; "" = `data` is the content
  std::string data;
  std::string link_target;  // non-empty: a symbolic link to this
  std::uint32_t mode = 0644;
};

// Writes the entries in the given order, then the end-of-archive blocks; "" or why not.
std::string write_tar(const std::vector<TarEntry>& entries, ByteSink& out, std::int64_t mtime);

}  // namespace ts::formats

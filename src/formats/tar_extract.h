#pragma once
// A tar stream (plain, or behind xz / bzip2 / zstd) extracted into a directory as untrusted input:
// regular files, directories and symbolic links only; a member named absolutely or with '..', a
// link whose target leaves the tree or passes through another link, a member written through a
// link, and archives past the size and count bounds are refused, naming the member.
#include <cstdint>
#include <string>

#include "formats/tar_stream.h"

namespace ts::formats {

struct TarLimits {
  std::uint64_t max_entries = 500'000;
  std::uint64_t max_member_size = 16ull << 30;  // one member
  std::uint64_t max_total_size = 64ull << 30;   // all members together
};

// Extracts every member under `dir` (created if missing); "" or why not. On an error `dir` holds
// what was extracted so far: the caller extracts into scratch and removes it.
std::string extract_tar(ByteSource& in, const std::string& dir, const TarLimits& limits = {});

// The archive at `path`, its compression told by its name (.tar.xz, .tar.bz2, .tar.zst, .tar).
std::string extract_tar_file(const std::string& path, const std::string& dir, const TarLimits& limits = {});

}  // namespace ts::formats

#pragma once
// Hash what you use: a file from a place others may write (a wheelhouse, pip's download
// directory) is opened once and copied, by that one descriptor, into a private directory while it
// is hashed. The copy is what gets unpacked, so a file swapped after the hash is never used: the
// bytes hashed are the bytes unpacked. Every provider's files go through this one function.
#include <cstdint>
#include <optional>
#include <string>

namespace ts::util {

struct HeldFile {
  std::string path;    // private_dir/<the file's own name>, mode 0600
  std::string sha256;  // of exactly the bytes at `path`
  std::uint64_t size = 0;
};

// Copies the regular file `from` into `private_dir` (created 0700 when absent; it must not be a
// symlink) under the same file name, hashing what it writes. nullopt and *error (naming `from`)
// when `from` is not a regular file, cannot be read, or the copy cannot be written.
std::optional<HeldFile> hold_file(const std::string& from, const std::string& private_dir, std::string* error);

}  // namespace ts::util

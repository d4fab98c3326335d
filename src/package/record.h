#pragma once
// A wheel's RECORD (PEP 376/427): one line per file, "path,sha256=<urlsafe b64, no padding>,size",
// RECORD itself with empty hash and size. The hash is streamed so a 1 GiB library never sits in memory.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::package {

// Incremental SHA-256 (the one in source/hash.h takes the whole input at once).
class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t n);
  void update_zeros(std::uint64_t n);  // n zero bytes (sparse members) without a buffer of them
  std::array<unsigned char, 32> digest();  // finishes; the object is spent afterwards

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  unsigned char buf_[64];
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

std::string hex(const std::array<unsigned char, 32>& digest);
// "sha256=" + urlsafe base64 without '=' padding, as RECORD wants.
std::string record_hash(const std::array<unsigned char, 32>& digest);

struct RecordLine {
  std::string path, hash;  // hash "sha256=..." or "" (RECORD itself, signatures)
  std::optional<std::uint64_t> size;
};

// RECORD is CSV: paths with ',' or '"' are quoted.
std::string render_record(const std::vector<RecordLine>& lines);
// nullopt and *error on malformed text (names the line).
std::optional<std::vector<RecordLine>> parse_record(std::string_view text, std::string* error);

}  // namespace ts::package

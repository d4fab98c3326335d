#pragma once
// A wheel's RECORD (PEP 376/427): one line per file, "path,sha256=<urlsafe b64, no padding>,size",
// RECORD itself with empty hash and size. The hash is streamed so a 1 GiB library never sits in memory.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/sha256.h"

namespace ts::formats {

// The streaming SHA-256 lives in util (source's fixes hash with it too).
using util::Sha256;
using util::hex;

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

}  // namespace ts::formats

#pragma once
// The one check of a wheel's contents (PEP 427), shared by repair, verify and conda so none of
// them accepts what another refuses: exactly one .dist-info directory holding WHEEL, METADATA
// (with Name and Version) and RECORD; RECORD lists every member and each listed hash (sha256) and
// size matches the bytes; a member named like a shared library is an ELF file.
#include <optional>
#include <string>

#include "formats/zip.h"

namespace ts::formats {

struct WheelLayout {
  std::string dist_info;       // "foo-1.0.dist-info" as found in the archive
  std::string name, version;   // METADATA's Name: and Version:
  std::string metadata, wheel; // the text of METADATA and WHEEL
};

// Reads every member once (inflate, sha256). nullopt and *error naming the member on bad input.
std::optional<WheelLayout> check_wheel(const ZipArchive& zip, std::string* error);

// A member that the loader would take for a shared library ("x.so", "x.so.1").
bool named_like_library(const std::string& path);

}  // namespace ts::formats

#pragma once
// The one check of a wheel's contents (PEP 427), shared by repair, verify and conda so none of
// them accepts what another refuses: exactly one .dist-info directory holding WHEEL, METADATA
// (with Name and Version) and RECORD; RECORD lists every member and each listed hash (sha256) and
// size matches the bytes; a member named like a shared library is an ELF file.
#include <optional>
#include <string>
#include <string_view>

#include "formats/zip.h"

namespace ts::formats {

struct WheelLayout {
  std::string dist_info;       // "foo-1.0.dist-info" as found in the archive
  std::string name, version;   // METADATA's Name: and Version:
  std::string metadata, wheel; // the text of METADATA and WHEEL
};

// Reads every member once (inflate, sha256). nullopt and *error naming the member on bad input.
// Also what one reader used to refuse and the others let through: member names with control
// characters, a .dist-info name that is not NAME-VERSION, WHEEL Tag lines that are not PEP 425
// tags ("Tag: ../../x" becomes a file name in repair), and, given the wheel's file name, a
// .dist-info of another distribution than the file name says.
std::optional<WheelLayout> check_wheel(const ZipArchive& zip, std::string* error,
                                       std::string_view file_name = {});

// The grammar of a PEP 425 tag and of one of its parts: "" when it fits, else why not. Tags become
// file names, so nothing outside [A-Za-z0-9._] passes.
std::string check_tag_part(std::string_view part);  // "cp311", "none", "manylinux_2_28_x86_64", "py2.py3"
std::string check_wheel_tag(std::string_view tag);  // "cp311-cp311-linux_x86_64"

// A member that the loader would take for a shared library ("x.so", "x.so.1").
bool named_like_library(const std::string& path);

}  // namespace ts::formats

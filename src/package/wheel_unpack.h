#pragma once
// Opening a wheel as untrusted input: its name parsed, the zip read and checked by the one wheel
// check (formats/wheel.h: limits, RECORD, one .dist-info), and the members extracted.
#include <optional>
#include <string>
#include <vector>

#include "package/tags.h"

namespace ts::package {

struct UnpackedWheel {
  WheelName name;
  std::string root;       // directory the members were extracted into
  std::string dist_info;  // "foo-1.0.dist-info" as found in the archive
  std::vector<std::string> files;  // relative paths of regular members, archive order
};

// nullopt and *error ("truncated?", "no .dist-info directory", ...) on bad input.
std::optional<UnpackedWheel> unpack_wheel(const std::string& wheel, const std::string& into,
                                          std::string* error);

}  // namespace ts::package

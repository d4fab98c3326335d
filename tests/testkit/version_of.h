#pragma once
// KB entries built in test code: their typed version fields from literals ("13", "570.26").
#include <string_view>

#include "core/version.h"

namespace ts::testkit {

// Throws std::bad_optional_access on a literal that is not a version: a broken test, not a case.
inline Version version_of(std::string_view s) { return Version::parse(s).value(); }

}  // namespace ts::testkit

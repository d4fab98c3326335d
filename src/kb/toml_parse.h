#pragma once
// The one way torchsmith parses TOML (KB files, overlays, fixes, signatures, torchsmith.toml).
// toml++ 3.3 reaches __builtin_unreachable on some invalid input ("[[[", non-ASCII in a bare key,
// control bytes; found by fuzzing). TOML 1.0 forbids all of them, so text is screened first.
#include <string>
#include <string_view>

#include "kb/tomlpp.h"

namespace ts::kb {

// "LINE: message" for text toml++ must not see, else "".
std::string toml_precheck(std::string_view text);

// toml::parse after the screen; bad text throws toml::parse_error with its line either way, so
// callers keep one catch.
toml::table parse_toml(std::string_view text, std::string_view file);

}  // namespace ts::kb

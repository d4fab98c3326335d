#pragma once
// toml++ 3.3 reaches __builtin_unreachable on some invalid input ("[[[", non-ASCII in a bare key,
// control bytes; found by the triage fuzzer). TOML 1.0 forbids all of them, so fix and source files
// are screened first. Same rule as triage/signature.cpp's guard; one shared copy belongs in kb.
#include <string>
#include <string_view>

namespace ts::source {

// "LINE: message" for text toml++ must not see, else "".
std::string toml_precheck(std::string_view text);

}  // namespace ts::source

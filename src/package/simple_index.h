#pragma once
// PEP 503 "simple" repository pages, so `pip install --index-url file://DIR/simple NAME` finds the
// wheels under DIR: DIR/simple/index.html lists projects, DIR/simple/<normalized>/index.html links
// each wheel by a relative URL ending in #sha256=<hex>.
#include <string>
#include <string_view>

namespace ts::package {

// Percent-encodes a relative URL path (keeps unreserved characters, '/' and '+').
std::string url_path_escape(std::string_view path);
std::string html_escape(std::string_view text);

}  // namespace ts::package

#pragma once
// Text cut at a separator, the two ways the code needs: every field (a wheel tag's parts, a file's
// lines) or only the non-empty ones (PATH, RPATH, a path's components); and a list joined back.
#include <string>
#include <string_view>
#include <vector>

namespace ts::util {

// Every field, empty ones included: "a,,b" -> a, "", b; "" -> one empty field.
std::vector<std::string> split(std::string_view s, char sep);

// Only the non-empty fields: "/a//b/" -> a, b; "" -> none.
std::vector<std::string> split_nonempty(std::string_view s, char sep);

// The items with `sep` between them; leading empty items add no separator ({"", "a"} -> "a").
std::string join(const std::vector<std::string>& items, std::string_view sep);

}  // namespace ts::util

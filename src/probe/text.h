#pragma once
// Small text helpers shared by the probe sections: version numbers and #define values.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::probe {

// First dotted number ("12.8.93", "4.2.0", "2.36") in text at or after `after` (when given and
// found); at least min_parts components. "" when none.
std::string find_version(std::string_view text, std::string_view after = {}, int min_parts = 2);
// `#define NAME value` in a header: the value token, or "" when absent.
std::string define_value(std::string_view header, std::string_view name);
// "KEY: value" / "KEY=value" line lookups (cpuinfo, os-release, meminfo).
std::string field(std::string_view text, std::string_view key, char sep);
std::vector<std::string> lines(std::string_view text);
std::string unquote(std::string s);
std::string last_line(std::string_view text);  // last non-empty line, trimmed
bool all_digits(std::string_view s);

}  // namespace ts::probe

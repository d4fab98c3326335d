#pragma once
// Text read from files (a torch's version.txt, a wheel's METADATA) made safe to print: control
// characters, ESC included, become \xNN, so a file cannot move the cursor, recolour or retitle the
// user's terminal through torchsmith's output.
#include <string>
#include <string_view>

namespace ts::util {

// Every byte below 0x20 (newline and tab too) and 0x7f as \xNN; the rest, UTF-8 included, kept.
std::string printable(std::string_view s);

}  // namespace ts::util

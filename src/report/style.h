#pragma once
// Terminal styling: colour only on a TTY, never when NO_COLOR is set (https://no-color.org).
#include <string>
#include <string_view>

namespace ts::report {

struct Style {
  bool color = false;
  std::string bold(std::string_view s) const;
  std::string dim(std::string_view s) const;
  std::string green(std::string_view s) const;
  std::string yellow(std::string_view s) const;
  std::string red(std::string_view s) const;
  std::string cyan(std::string_view s) const;
};

// Colour for this stream: a TTY, NO_COLOR unset, TERM not "dumb", and not forced off.
Style style_for(int fd, bool force_off);

}  // namespace ts::report

#include "report/style.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace ts::report {

namespace {
std::string wrap(bool on, const char* code, std::string_view s) {
  if (!on) return std::string(s);
  return std::string("\x1b[") + code + "m" + std::string(s) + "\x1b[0m";
}
}  // namespace

std::string Style::bold(std::string_view s) const { return wrap(color, "1", s); }
std::string Style::dim(std::string_view s) const { return wrap(color, "2", s); }
std::string Style::green(std::string_view s) const { return wrap(color, "32", s); }
std::string Style::yellow(std::string_view s) const { return wrap(color, "33", s); }
std::string Style::red(std::string_view s) const { return wrap(color, "31", s); }
std::string Style::cyan(std::string_view s) const { return wrap(color, "36", s); }

Style style_for(int fd, bool force_off) {
  Style s;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  s.color = !force_off && ::isatty(fd) && !(no_color && *no_color) &&
            !(term && std::strcmp(term, "dumb") == 0);
  return s;
}

}  // namespace ts::report

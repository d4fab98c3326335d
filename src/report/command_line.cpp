#include "report/command_line.h"

#include <algorithm>

namespace ts::report {

std::string shell_word(std::string_view w) {
  if (w.empty()) return "''";
  bool plain = std::all_of(w.begin(), w.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(w);
  std::string o = "'";
  for (char c : w) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string o;
  for (const auto& a : argv) o += (o.empty() ? "" : " ") + shell_word(a);
  return o;
}

std::vector<std::string> resume_command(std::vector<std::string> argv) {
  if (argv.empty()) return argv;
  if (std::find(argv.begin(), argv.end(), "--resume") == argv.end()) {
    // Before a "--" that ends the options, else at the end.
    auto dashes = std::find(argv.begin() + 1, argv.end(), "--");
    argv.insert(dashes, "--resume");
  }
  return argv;
}

}  // namespace ts::report

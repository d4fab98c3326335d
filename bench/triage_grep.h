#pragma once
// The signature patterns in the syntax `grep -E` reads (POSIX ERE, GNU extensions \s \S \w \b),
// so the bench can run grep on exactly the same patterns as the engine.
#include <stdexcept>
#include <string>

namespace ts::bench {

inline std::string re2_to_ere(const std::string& p) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (in_class) {
      if (c == '\\') throw std::runtime_error("backslash inside [] has no ERE equivalent: " + p);
      if (c == ']' && !(p[i - 1] == '[' || (p[i - 1] == '^' && p[i - 2] == '['))) in_class = false;
      out += c;
      continue;
    }
    if (c == '[') { in_class = true; out += c; continue; }
    if (c == '(' && p.compare(i, 3, "(?:") == 0) { out += '('; i += 2; continue; }
    if (c == '\\' && i + 1 < p.size()) {
      char n = p[i + 1];
      if (n == 'd') { out += "[0-9]"; ++i; continue; }
      if (n == 'D') { out += "[^0-9]"; ++i; continue; }
      out += c;
      out += n;
      ++i;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace ts::bench

#pragma once
// The signature patterns in the syntax `grep -E` reads (POSIX ERE, GNU extensions \s \S \w \b),
// so the bench can run grep on exactly the same patterns as the engine.
#include <stdexcept>
#include <string>

namespace ts::bench {

// One bracket expression from p[i] == '[': RE2 escapes inside it become POSIX members (\s -> [:space:],
// \d -> 0-9, \w -> [:alnum:]_, an escaped ']' first, '-' and '^' last, a backslash as itself).
// *end is the index of its closing ']'.
inline std::string bracket_to_ere(const std::string& p, std::size_t i, std::size_t* end) {
  std::size_t j = i + 1;
  bool negated = j < p.size() && p[j] == '^';
  if (negated) ++j;
  std::string members;
  bool rbracket = false, dash = false, caret = false;
  if (j < p.size() && p[j] == ']') { rbracket = true; ++j; }  // a ']' first is a member
  for (; j < p.size() && p[j] != ']'; ++j) {
    if (p[j] != '\\' || j + 1 >= p.size()) { members += p[j]; continue; }
    char n = p[++j];
    switch (n) {
      case 's': members += "[:space:]"; break;
      case 'd': members += "0-9"; break;
      case 'w': members += "[:alnum:]_"; break;
      case 't': members += '\t'; break;
      case 'n': members += '\n'; break;
      case ']': rbracket = true; break;
      case '-': dash = true; break;
      case '^': caret = true; break;
      case 'S': case 'D': case 'W':
        throw std::runtime_error(std::string("\\") + n + " inside [] has no ERE equivalent: " + p);
      default: members += n;  // an escaped punctuation mark is itself; a backslash too
    }
  }
  if (j >= p.size()) throw std::runtime_error("unterminated [ in: " + p);
  *end = j;
  return std::string("[") + (negated ? "^" : "") + (rbracket ? "]" : "") + members + (caret ? "^" : "") +
         (dash ? "-" : "") + "]";
}

inline std::string re2_to_ere(const std::string& p) {
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '[') {
      std::size_t end = i;
      out += bracket_to_ere(p, i, &end);
      i = end;
      continue;
    }
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

#include "source/merge_conflict.h"

namespace ts::source {
namespace {

bool word_char(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return u >= 0x80 || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '_';
}

// A string literal's prefix (r, b, u, f, rb, br, fr, rf in either case).
bool string_prefix(std::string_view w) {
  if (w.empty() || w.size() > 2) return false;
  for (char c : w)
    if (std::string_view("rRbBuUfF").find(c) == std::string_view::npos) return false;
  return true;
}

// The end of the string literal whose quote is at `q` (one past its closing quote; the text's end
// when it is not closed: the sides are then compared as they are).
std::size_t string_end(std::string_view s, std::size_t q) {
  const char quote = s[q];
  const bool triple = s.substr(q, 3) == std::string(3, quote);
  std::size_t i = q + (triple ? 3 : 1);
  while (i < s.size()) {
    if (s[i] == '\\') {
      i += 2;
      continue;
    }
    if (triple ? s.substr(i, 3) == std::string(3, quote) : s[i] == quote) return i + (triple ? 3 : 1);
    if (!triple && s[i] == '\n') return i;
    ++i;
  }
  return s.size();
}

enum class Marker { none, ours, base, sep, theirs };

// A conflict marker: seven of its character alone at the line's start, then a space and a label or
// nothing ("=======" takes no label).
Marker marker(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.size() < 7) return Marker::none;
  const char c = line[0];
  if (line.substr(0, 7) != std::string(7, c)) return Marker::none;
  std::string_view rest = line.substr(7);
  if (c == '=') return rest.find_first_not_of(" \t") == std::string_view::npos ? Marker::sep : Marker::none;
  if (!rest.empty() && rest[0] != ' ') return Marker::none;
  return c == '<' ? Marker::ours : c == '|' ? Marker::base : c == '>' ? Marker::theirs : Marker::none;
}

}  // namespace

std::vector<std::string> python_code_tokens(std::string_view s) {
  std::vector<std::string> out;
  std::vector<int> commas;  // per open bracket: the commas at its level
  bool line_start = true;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    if (line_start && commas.empty()) {
      std::size_t j = i;
      while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f')) ++j;
      if (j >= n) break;
      if (s[j] == '\n' || s[j] == '\r' || s[j] == '#') {  // a blank or comment-only line
        std::size_t e = s.find('\n', j);
        i = e == std::string_view::npos ? n : e + 1;
        continue;
      }
      out.push_back("\n" + std::string(s.substr(i, j - i)));  // a logical line and its indentation
      i = j;
      line_start = false;
      continue;
    }
    const char c = s[i];
    if (c == '\n') {
      if (commas.empty()) line_start = true;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
    } else if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {  // a line continued
      i += (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n') ? 3 : 2;
    } else if (c == '#') {
      std::size_t e = s.find('\n', i);
      i = e == std::string_view::npos ? n : e;
    } else if (word_char(c)) {
      std::size_t j = i;
      while (j < n && word_char(s[j])) ++j;
      if (j < n && (s[j] == '\'' || s[j] == '"') && string_prefix(s.substr(i, j - i))) j = string_end(s, j);
      out.emplace_back(s.substr(i, j - i));
      i = j;
    } else if (c == '\'' || c == '"') {
      std::size_t j = string_end(s, i);
      out.emplace_back(s.substr(i, j - i));
      i = j;
    } else {
      if (c == '(' || c == '[' || c == '{') {
        commas.push_back(0);
      } else if (c == ')' || c == ']' || c == '}') {
        if (!commas.empty()) {
          if (!out.empty() && out.back() == "," && commas.back() >= 2) out.pop_back();
          commas.pop_back();
        }
      } else if (c == ',' && !commas.empty()) {
        ++commas.back();
      }
      out.emplace_back(1, c);
      ++i;
    }
  }
  return out;
}

std::optional<std::string> resolve_same_code_conflicts(std::string_view text) {
  std::string out;
  std::string ours, theirs;
  enum { outside, in_ours, in_base, in_theirs } at = outside;
  int blocks = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    std::size_t end = eol == std::string_view::npos ? text.size() : eol + 1;
    std::string_view line = text.substr(pos, end - pos);
    pos = end;
    const Marker m = marker(line);
    switch (at) {
      case outside:
        if (m == Marker::ours) at = in_ours, ours.clear(), theirs.clear();
        else out += line;
        break;
      case in_ours:
        if (m == Marker::ours || m == Marker::theirs) return std::nullopt;  // nested, or no "======="
        if (m == Marker::base) at = in_base;
        else if (m == Marker::sep) at = in_theirs;
        else ours += line;
        break;
      case in_base:
        if (m == Marker::ours || m == Marker::theirs || m == Marker::base) return std::nullopt;
        if (m == Marker::sep) at = in_theirs;
        break;
      case in_theirs:
        if (m == Marker::ours || m == Marker::base || m == Marker::sep) return std::nullopt;
        if (m == Marker::theirs) {
          if (python_code_tokens(ours) != python_code_tokens(theirs)) return std::nullopt;
          out += ours;
          ++blocks;
          at = outside;
        } else {
          theirs += line;
        }
        break;
    }
  }
  if (at != outside || blocks == 0) return std::nullopt;
  return out;
}

}  // namespace ts::source

#include "probe/text.h"

#include <cctype>

#include "util/fs.h"

namespace ts::probe {

namespace {
bool digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

std::string find_version(std::string_view text, std::string_view after, int min_parts) {
  std::size_t pos = 0;
  if (!after.empty()) {
    auto a = text.find(after);
    if (a != std::string_view::npos) pos = a + after.size();
  }
  for (std::size_t i = pos; i < text.size(); ++i) {
    if (!digit(text[i]) || (i > 0 && (digit(text[i - 1]) || text[i - 1] == '.'))) continue;
    std::size_t j = i;
    int parts = 0;
    while (j < text.size() && digit(text[j])) {
      while (j < text.size() && digit(text[j])) ++j;
      ++parts;
      if (j + 1 < text.size() && text[j] == '.' && digit(text[j + 1])) ++j;
      else break;
    }
    if (parts >= min_parts) return std::string(text.substr(i, j - i));
    i = j;
  }
  return "";
}

std::string define_value(std::string_view header, std::string_view name) {
  for (auto& l : lines(header)) {
    std::string_view s = l;
    auto p = s.find_first_not_of(" \t");
    if (p == std::string_view::npos || s[p] != '#') continue;
    s.remove_prefix(p + 1);
    s.remove_prefix(std::min(s.find_first_not_of(" \t"), s.size()));
    if (!s.starts_with("define")) continue;
    s.remove_prefix(6);
    if (s.empty() || (s[0] != ' ' && s[0] != '\t')) continue;
    s.remove_prefix(std::min(s.find_first_not_of(" \t"), s.size()));
    if (!s.starts_with(name)) continue;
    s.remove_prefix(name.size());
    if (s.empty() || (s[0] != ' ' && s[0] != '\t')) continue;
    std::string v = util::trim(s);
    auto c = v.find("//");
    if (c != std::string::npos) v = util::trim(v.substr(0, c));
    c = v.find("/*");
    if (c != std::string::npos) v = util::trim(v.substr(0, c));
    return v;
  }
  return "";
}

std::string field(std::string_view text, std::string_view key, char sep) {
  for (auto& l : lines(text)) {
    auto s = l.find(sep);
    if (s == std::string::npos) continue;
    if (util::trim(std::string_view(l).substr(0, s)) == key)
      return util::trim(std::string_view(l).substr(s + 1));
  }
  return "";
}

std::vector<std::string> lines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b < text.size()) {
    auto e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    out.emplace_back(text.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

std::string unquote(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

std::string last_line(std::string_view text) {
  auto ls = lines(text);
  for (auto it = ls.rbegin(); it != ls.rend(); ++it) {
    auto t = util::trim(*it);
    if (!t.empty()) return t;
  }
  return "";
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!digit(c)) return false;
  return true;
}

}  // namespace ts::probe

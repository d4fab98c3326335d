#include "kb/toml_parse.h"

#include <cstring>
#include <memory>

namespace ts::kb {
namespace {

constexpr std::size_t kMaxDepth = 64;          // dotted key parts, or '[' '{' open at once
constexpr std::size_t kMaxEntries = 1'000'000;  // the whole KB holds a few thousand

}  // namespace

// Outside strings and comments only ASCII; no control bytes but tab and line ends; no "[[[";
// a quote only where a key or value can start; keys and values nested at most kMaxDepth deep and
// at most kMaxEntries keys and headers: toml++ builds and frees nested tables recursively, so a
// 200,000-part table header from a user's overlay ended in SIGSEGV (stack overflow).
std::string toml_precheck(std::string_view t) {
  enum { normal, comment, basic, literal, ml_basic, ml_literal } st = normal;
  int line = 1;
  std::size_t dots = 0, nesting = 0, entries = 0;  // dots in this key, open '[' '{', keys seen
  bool line_start = true;
  char prev = 0;  // the last non-blank byte outside strings and comments
  auto at = [&](const char* msg) { return std::to_string(line) + ": " + msg; };
  for (std::size_t i = 0; i < t.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return at("control character not allowed in TOML");
    if (c == '\n') {
      ++line;
      line_start = true;
      dots = 0;
      if (st == comment) st = normal;
      else if (st == basic || st == literal) return at("string not closed on its line");
      continue;
    }
    switch (st) {
      case normal:
        if (c >= 0x80) return at("non-ASCII character outside a string or comment");
        if (line_start && c == '[' && t.substr(i, 3) == "[[[") return at("'[[[' is not a table header");
        if (c == '.' && ++dots > kMaxDepth) return at("key nested deeper than 64 parts");
        if (c == '=' || c == ',' || c == '{') dots = 0;
        if ((c == '=' || (line_start && c == '[')) && ++entries > kMaxEntries)
          return at("more than 1,000,000 keys and tables in one file");
        if ((c == '[' || c == '{') && ++nesting > kMaxDepth) return at("arrays or tables nested deeper than 64");
        if ((c == ']' || c == '}') && nesting > 0) --nesting;
        if (c == '#') st = comment;
        else if ((c == '"' || c == '\'') && !line_start && !std::strchr("=[,{.", prev)) return at("unexpected quote");
        else if (c == '"') st = t.substr(i, 3) == "\"\"\"" ? (i += 2, ml_basic) : basic;
        else if (c == '\'') st = t.substr(i, 3) == "'''" ? (i += 2, ml_literal) : literal;
        break;
      case comment: break;
      case basic:
        if (c == '\\') ++i;
        else if (c == '"') st = normal;
        break;
      case literal:
        if (c == '\'') st = normal;
        break;
      case ml_basic:
        if (c == '\\') ++i;
        else if (t.substr(i, 3) == "\"\"\"") {
          i += 2;
          while (i + 1 < t.size() && t[i + 1] == '"') ++i;
          st = normal;
        }
        break;
      case ml_literal:
        if (t.substr(i, 3) == "'''") {
          i += 2;
          while (i + 1 < t.size() && t[i + 1] == '\'') ++i;
          st = normal;
        }
        break;
    }
    if (c != ' ' && c != '\t') {
      line_start = false;
      if (st == normal) prev = static_cast<char>(c);
    }
  }
  return "";
}


toml::table parse_toml(std::string_view text, std::string_view file) {
  std::string bad = toml_precheck(text);
  if (!bad.empty()) {
    auto colon = bad.find(':');
    auto line = static_cast<toml::source_index>(std::stoul(bad.substr(0, colon)));
    throw toml::parse_error(bad.substr(colon + 2).c_str(), toml::source_position{line, 1},
                            std::make_shared<const std::string>(file));
  }
  return toml::parse(text, file);
}

}  // namespace ts::kb

#include "source/py_tabs.h"

#include <vector>

namespace ts::source {

namespace {

// One pass of CPython's tokenizer as far as indentation goes: where each line starts outside a
// string literal (`starts`), and whether a logical line's indentation is a TabError.
struct Walk {
  std::vector<std::size_t> starts;
  bool tab_error = false;
};

struct Levels {
  std::vector<int> col{0}, alt{0};  // the open indentation levels, tabs as 8 columns and as 1
  // false on TabError; a dedent to no open level (IndentationError, another class) ends the walk too.
  bool next(int c, int a, bool& stop) {
    if (c == col.back()) return a == alt.back();
    if (c > col.back()) {
      if (a <= alt.back()) return false;
      col.push_back(c), alt.push_back(a);
      return true;
    }
    while (col.size() > 1 && c < col.back()) col.pop_back(), alt.pop_back();
    if (c != col.back()) { stop = true; return true; }
    return a == alt.back();
  }
};

// The indentation at `i`: columns with a tab as 8 and as 1 (a form feed starts over), and where it ends.
std::size_t indentation(std::string_view t, std::size_t i, int& col, int& alt) {
  col = alt = 0;
  for (; i < t.size(); ++i) {
    if (t[i] == ' ') ++col, ++alt;
    else if (t[i] == '\t') col = (col / 8 + 1) * 8, ++alt;
    else if (t[i] == '\f') col = alt = 0;
    else break;
  }
  return i;
}

// check: compare the indentation (and stop at the first TabError); else only collect the starts.
Walk walk(std::string_view t, bool check) {
  Walk w;
  Levels lv;
  int depth = 0;
  bool cont = false, atbol = true;
  char quote = 0;  // inside a string literal: its quote character
  bool triple = false;
  std::size_t i = 0;
  while (i < t.size()) {
    if (atbol) {
      atbol = false;
      if (!quote) w.starts.push_back(i);
      if (check && !quote && depth == 0 && !cont) {
        int col = 0, alt = 0;
        std::size_t j = indentation(t, i, col, alt);
        bool blank = j == t.size() || t[j] == '#' || t[j] == '\n' || t[j] == '\r';
        bool stop = false;
        if (!blank && !lv.next(col, alt, stop)) { w.tab_error = true; return w; }
        if (stop) return w;
      }
      cont = false;
    }
    char c = t[i];
    if (quote) {
      if (c == '\\') {
        if (i + 1 < t.size() && t[i + 1] == '\n') atbol = true;
        i += 2;
      } else if (c == quote && (!triple || t.substr(i, 3) == std::string(3, quote))) {
        i += triple ? 3 : 1;
        quote = 0;
      } else {
        if (c == '\n') {
          atbol = true;
          if (!triple) quote = 0;  // an unterminated string: the line's end ends it (a SyntaxError anyway)
        }
        ++i;
      }
      continue;
    }
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
      continue;
    }
    if (c == '\\' && (t.substr(i + 1, 1) == "\n" || t.substr(i + 1, 2) == "\r\n")) {
      cont = atbol = true;
      i += t[i + 1] == '\n' ? 2 : 3;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      triple = t.substr(i, 3) == std::string(3, c);
      i += triple ? 3 : 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if (c == '\n') atbol = true;
    ++i;
  }
  return w;
}

}  // namespace

bool python_tab_error(std::string_view text) { return walk(text, true).tab_error; }

std::optional<std::string> expand_python2_tabs(std::string_view text) {
  if (!python_tab_error(text)) return std::nullopt;
  std::vector<std::size_t> starts = walk(text, false).starts;
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t k = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (k < starts.size() && starts[k] == i) {
      ++k;
      int col = 0;
      for (; i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\f'); ++i) {
        if (text[i] == '\t') {
          out.append(static_cast<std::size_t>(8 - col % 8), ' ');
          col += 8 - col % 8;
        } else {
          out += text[i];
          col = text[i] == '\f' ? 0 : col + 1;
        }
      }
      continue;
    }
    std::size_t next = k < starts.size() ? starts[k] : text.size();
    out.append(text.substr(i, next - i));
    i = next;
  }
  return out;
}

}  // namespace ts::source

// port.include-order: a quoted include moved above an earlier one whose file uses its macro.
#include "source/include_order.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <vector>

#include "util/fs.h"

namespace ts::source {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxIncluded = 4u << 20;  // a hand-written header, not a generated table

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string code_only(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i < out.size();) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n') { i += 2; continue; }
        out[i++] = ' ';
      }
    } else if (out.compare(i, 2, "/*") == 0) {
      std::size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n') out[i] = ' ';
    } else if (out[i] == '"' || out[i] == '\'') {
      char q = out[i];
      // #include "x" is read from the raw line, never from this text.
      out[i++] = ' ';
      while (i < out.size() && out[i] != q && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
        out[i++] = ' ';
      }
      if (i < out.size() && out[i] == q) out[i++] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

namespace {

// What a file does with macros: the names it #defines, the names its #if/#ifdef/#ifndef/#elif
// lines test, and the identifiers of its code outside any directive (where a macro is expanded now).
struct MacroUse {
  std::set<std::string> defines, tested, used;
};

MacroUse read_macros(std::string_view raw) {
  MacroUse m;
  std::string text = code_only(raw);
  std::size_t pos = 0;
  while (pos < text.size()) {
    // One logical line: physical lines joined at a backslash-newline.
    std::string line;
    while (pos < text.size()) {
      std::size_t eol = text.find('\n', pos);
      std::size_t end = eol == std::string::npos ? text.size() : eol;
      std::string_view part(text.data() + pos, end - pos);
      pos = eol == std::string::npos ? text.size() : eol + 1;
      if (!part.empty() && part.back() == '\\') {
        line.append(part.substr(0, part.size() - 1)).push_back(' ');
        continue;
      }
      line.append(part);
      break;
    }
    std::size_t i = line.find_first_not_of(" \t\r\f\v");
    bool directive = i != std::string::npos && line[i] == '#';
    std::string kind;
    if (directive) {
      i = line.find_first_not_of(" \t", i + 1);
      std::size_t j = i;
      while (j != std::string::npos && j < line.size() && std::isalpha(static_cast<unsigned char>(line[j]))) ++j;
      if (i != std::string::npos) kind = line.substr(i, j - i), i = j;
    }
    std::vector<std::string> words;
    for (std::size_t k = directive ? (i == std::string::npos ? line.size() : i) : 0; k < line.size();) {
      if (ident_start(line[k])) {
        std::size_t e = k;
        while (e < line.size() && ident_char(line[e])) ++e;
        words.push_back(line.substr(k, e - k));
        k = e;
      } else if (std::isdigit(static_cast<unsigned char>(line[k]))) {
        while (k < line.size() && (ident_char(line[k]) || line[k] == '.')) ++k;  // a pp-number: 0xffu, 1e5f
      } else {
        ++k;
      }
    }
    if (!directive) {
      m.used.insert(words.begin(), words.end());
    } else if (kind == "define" && !words.empty()) {
      m.defines.insert(words.front());  // its body is expanded where it is used, not here
    } else if (kind == "if" || kind == "ifdef" || kind == "ifndef" || kind == "elif" || kind == "elifdef" ||
               kind == "elifndef") {
      m.tested.insert(words.begin(), words.end());
    }
  }
  return m;
}

// The quoted name of `#include "NAME"` on `line`, or "".
std::string quoted_include(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return "";
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line.compare(i, 7, "include") != 0) return "";
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string_view::npos || line[i] != '"') return "";
  std::size_t end = line.find('"', i + 1);
  return end == std::string_view::npos ? "" : std::string(line.substr(i + 1, end - i - 1));
}

bool is_include(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return false;
  i = line.find_first_not_of(" \t", i + 1);
  return i != std::string_view::npos && line.compare(i, 7, "include") == 0;
}

bool blank_or_line_comment(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t\r\n");
  return i == std::string_view::npos || line.compare(i, 2, "//") == 0;
}

struct Line {
  std::string text;                // with its line ending
  std::optional<MacroUse> macros;  // a quoted include whose file could be read
};

bool intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& x) { return b.count(x) > 0; });
}

// The macros `a`'s file uses that `b`'s file defines, less those `a` defines or tests itself and
// those `before` (what is defined above `a`) already gives.
bool needs(const MacroUse& a, const MacroUse& b, const std::set<std::string>& before) {
  for (const auto& n : a.used)
    if (b.defines.count(n) && !a.defines.count(n) && !a.tested.count(n) && !before.count(n)) return true;
  return false;
}

// One run of include lines (blank and // lines between them belong to it): the first include that
// needs a later one's macro gets the later ones it needs moved above it; true when the run changed.
bool reorder_run(std::vector<Line>& run, std::set<std::string> before) {
  for (std::size_t a = 0; a < run.size(); ++a) {
    if (!run[a].macros) continue;
    std::vector<std::size_t> movers;
    std::set<std::string> between;  // what the includes from a to a mover define
    for (std::size_t b = a + 1; b < run.size(); ++b) {
      if (!run[b].macros) continue;
      if (needs(*run[a].macros, *run[b].macros, before)) {
        // The mover must not need what the files it moves above define (a cycle, or a chain).
        std::set<std::string> above = run[a].macros->defines;
        above.insert(between.begin(), between.end());
        bool uses_above = false;
        for (const auto& n : run[b].macros->used)
          if (above.count(n) && !run[b].macros->defines.count(n) && !run[b].macros->tested.count(n) && !before.count(n))
            uses_above = true;
        if (uses_above) return false;
        movers.push_back(b);
      }
      between.insert(run[b].macros->defines.begin(), run[b].macros->defines.end());
    }
    if (!movers.empty()) {
      for (std::size_t m : movers)
        if (run[m].text.empty() || run[m].text.back() != '\n') return false;  // the file's last line, unterminated
      std::vector<Line> out(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(a));
      for (std::size_t m : movers) out.push_back(run[m]);
      for (std::size_t k = a; k < run.size(); ++k)
        if (std::find(movers.begin(), movers.end(), k) == movers.end()) out.push_back(run[k]);
      run = std::move(out);
      return true;
    }
    before.insert(run[a].macros->defines.begin(), run[a].macros->defines.end());
  }
  return false;
}

}  // namespace

std::optional<std::string> order_includes_before_use(std::string_view text, const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  std::vector<std::string> lines;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    std::size_t end = eol == std::string_view::npos ? text.size() : eol + 1;
    lines.emplace_back(text.substr(pos, end - pos));
    pos = end;
  }
  std::string out;
  bool changed = false;
  std::string above;                 // the file's own text before the current line
  std::set<std::string> included;    // what the files of the runs above #define
  for (std::size_t i = 0; i < lines.size();) {
    if (!is_include(lines[i])) {
      above += lines[i];
      out += lines[i++];
      continue;
    }
    std::vector<Line> run;
    std::size_t j = i;
    while (j < lines.size() && (is_include(lines[j]) || blank_or_line_comment(lines[j]))) {
      Line l{lines[j], std::nullopt};
      if (std::string name = quoted_include(lines[j]); !name.empty()) {
        std::error_code ec;
        fs::path p = (dir / name).lexically_normal();
        if (fs::is_regular_file(p, ec) && fs::file_size(p, ec) <= kMaxIncluded)
          if (auto t = util::read_file(p.string())) l.macros = read_macros(*t);
      }
      run.push_back(std::move(l));
      ++j;
    }
    std::set<std::string> before = read_macros(above).defines;
    before.insert(included.begin(), included.end());
    // Each pass moves what one include needs above it; a run of n includes settles in n passes.
    for (std::size_t pass = 0; pass < run.size() && reorder_run(run, before); ++pass) changed = true;
    for (const auto& l : run) {
      above += l.text;
      out += l.text;
      if (l.macros) included.insert(l.macros->defines.begin(), l.macros->defines.end());
    }
    i = j;
  }
  if (!changed || out == text) return std::nullopt;
  return out;
}

}  // namespace ts::source

// port.dispatch-type-variable: a .type() held in a variable whose every use is a dispatch (see the header).
#include "source/dispatch_type_var.h"

#include <algorithm>
#include <vector>

#include <re2/re2.h>

#include "source/include_order.h"

namespace ts::source {

namespace {

struct Edit {
  std::size_t at, len;
  std::string with;
};

// The end (one past the '}') of the innermost block that holds `pos` in `code` (comments and literals
// blanked), or npos at file scope or when the braces do not balance.
std::size_t block_end(const std::string& code, std::size_t pos) {
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = pos; i-- > 0;) {
    if (code[i] == '}') ++depth;
    else if (code[i] == '{' && depth-- == 0) { open = i; break; }
  }
  if (open == std::string::npos) return std::string::npos;
  depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == '{') ++depth;
    else if (code[i] == '}' && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The edits that port `name` (declared at [decl, decl_end)) when every use in [decl_end, end) of `text`
// is a dispatch's first argument or .scalarType(); false when one is not, or none is a dispatch.
bool uses_are_dispatches(std::string_view text, const std::string& name, std::size_t from, std::size_t end,
                         std::vector<Edit>& edits) {
  static const RE2 dispatch_before(R"(AT_DISPATCH_[A-Z0-9_]+\s*\(\s*$)");
  static const RE2 comma_after(R"(^\s*,)");
  static const RE2 scalar_type_after(R"(^\s*\.\s*scalarType\s*\(\s*\))");
  int dispatches = 0;
  std::vector<Edit> mine;
  for (std::size_t at = text.find(name, from); at != std::string_view::npos && at < end; at = text.find(name, at + 1)) {
    if ((at > 0 && word_char(text[at - 1])) || (at + name.size() < text.size() && word_char(text[at + name.size()])))
      continue;  // part of a longer name
    const std::size_t back = std::min<std::size_t>(at, 200);  // the macro's name may be on the line above
    const re2::StringPiece before(text.data() + at - back, back);
    const re2::StringPiece after(text.data() + at + name.size(), std::min<std::size_t>(200, end - at - name.size()));
    re2::StringPiece m;
    if (RE2::PartialMatch(before, dispatch_before) && RE2::PartialMatch(after, comma_after)) {
      ++dispatches;
    } else if (scalar_type_after.Match(after, 0, after.size(), RE2::ANCHOR_START, &m, 1)) {
      mine.push_back({at + name.size(), m.size(), ""});  // x.scalarType() -> x: it is the ScalarType now
    } else {
      return false;
    }
  }
  if (dispatches == 0) return false;
  edits.insert(edits.end(), mine.begin(), mine.end());
  return true;
}

}  // namespace

std::optional<std::string> port_dispatch_type_variables(std::string_view text) {
  // auto / const auto / const auto& NAME = EXPR.type();  (auto& cannot bind the ScalarType it becomes)
  static const RE2 decl(R"(\b(?:const\s+auto\s*&?|auto)\s*([A-Za-z_]\w*)\s*=\s*[A-Za-z_][\w.>\[\]-]*?(\.type\(\))\s*;)");
  const std::string code = code_only(text);
  std::vector<Edit> edits;
  re2::StringPiece groups[3];
  for (std::size_t pos = 0; decl.Match(code, pos, code.size(), RE2::UNANCHORED, groups, 3);) {
    const std::size_t start = groups[0].data() - code.data(), stop = start + groups[0].size();
    pos = stop;
    const std::string name(groups[1].data(), groups[1].size());
    const std::size_t end = block_end(code, start);
    if (end == std::string::npos) continue;
    std::vector<Edit> mine{{static_cast<std::size_t>(groups[2].data() - code.data()), groups[2].size(), ".scalar_type()"}};
    if (uses_are_dispatches(text, name, stop, end, mine)) edits.insert(edits.end(), mine.begin(), mine.end());
  }
  if (edits.empty()) return std::nullopt;
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
  std::string out(text);
  for (const auto& e : edits) out.replace(e.at, e.len, e.with);
  return out;
}

}  // namespace ts::source

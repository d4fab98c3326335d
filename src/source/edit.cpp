#include "source/edit.h"

#include <re2/re2.h>

namespace ts::source {

namespace {

std::size_t count_text(const std::string& hay, const std::string& needle, std::size_t* first = nullptr) {
  std::size_t n = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) {
    if (n == 0 && first) *first = pos;
    ++n;
  }
  return n;
}

}  // namespace

namespace {

// ^ and $ at each line, as the ECMAScript multiline anchors the fixes were first written for.
std::string anchor_pattern(const std::string& anchor) { return "(?m)" + anchor; }

RE2::Options quiet() {
  RE2::Options o;
  o.set_log_errors(false);
  return o;
}

}  // namespace

std::string anchor_preview(const std::string& anchor) {
  std::string first = anchor.substr(0, anchor.find('\n'));
  if (first.find_first_not_of(" \t") != std::string::npos) first = first.substr(first.find_first_not_of(" \t"));
  if (first.size() > 60) first = first.substr(0, 57) + "...";
  if (anchor.find('\n') != std::string::npos && anchor.find('\n') + 1 < anchor.size()) first += " ...";
  return first;
}

std::vector<std::pair<std::size_t, std::size_t>> anchor_matches(const std::string& content, const FileEdit& edit) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  if (edit.anchor.empty()) return out;
  if (!edit.regex) {
    for (auto pos = content.find(edit.anchor); pos != std::string::npos; pos = content.find(edit.anchor, pos + 1))
      out.emplace_back(pos, pos + edit.anchor.size());
    return out;
  }
  const RE2 re(anchor_pattern(edit.anchor), quiet());
  if (!re.ok()) return out;  // apply_edit reports it
  const auto named = re.NamedCapturingGroups();
  const int at = named.count("at") ? named.at("at") : 0;
  std::vector<re2::StringPiece> g(static_cast<std::size_t>(at) + 1);
  // Successive non-overlapping matches, as std::sregex_iterator gave; an empty one steps a byte.
  for (std::size_t pos = 0; pos <= content.size();) {
    if (!re.Match(content, pos, content.size(), RE2::UNANCHORED, g.data(), at + 1)) break;
    const auto whole_b = static_cast<std::size_t>(g[0].data() - content.data());
    const std::size_t whole_e = whole_b + g[0].size();
    if (g[at].data()) {
      const auto b = static_cast<std::size_t>(g[at].data() - content.data());
      out.emplace_back(b, b + g[at].size());
    }
    pos = whole_e > whole_b ? whole_e : whole_e + 1;
  }
  return out;
}

std::string anchor_regex_problem(const std::string& anchor) {
  const RE2 re(anchor_pattern(anchor), quiet());
  return re.ok() ? "" : re.error();
}

EditOutcome apply_edit(const std::string& content, const FileEdit& edit, const std::string& text) {
  using S = EditOutcome::Status;
  EditOutcome r;
  r.content = content;
  if (edit.regex)
    if (std::string why = anchor_regex_problem(edit.anchor); !why.empty()) {
      r.message = edit.file + ": anchor regex does not compile (" + why + ")";
      return r;
    }
  std::vector<std::pair<std::size_t, std::size_t>> m = anchor_matches(content, edit);
  r.matches = m.size();
  auto drift = [&]() {
    r.status = S::drifted;
    r.message = "upstream drifted: " + edit.file + ": anchor '" + anchor_preview(edit.anchor) + "' matched " +
                std::to_string(m.size()) + " times (it must match exactly once)";
    return r;
  };

  switch (edit.op) {
    case EditOp::insert_after:
      if (m.size() != 1) return drift();
      if (content.compare(m[0].second, text.size(), text) == 0) {
        r.status = S::already_applied;
        return r;
      }
      r.content.insert(m[0].second, text);
      break;
    case EditOp::insert_before:
      if (m.size() != 1) return drift();
      if (m[0].first >= text.size() && content.compare(m[0].first - text.size(), text.size(), text) == 0) {
        r.status = S::already_applied;
        return r;
      }
      r.content.insert(m[0].first, text);
      break;
    case EditOp::replace: {
      // Applied already: the replacement is there once and every anchor match lies inside it
      // (a replacement may contain its anchor, e.g. a list that gains an entry).
      std::size_t at = 0;
      if (!text.empty() && count_text(content, text, &at) == 1) {
        bool inside = true;
        for (auto [b, e] : m) inside = inside && b >= at && e <= at + text.size();
        if (inside) {
          r.status = S::already_applied;
          return r;
        }
      }
      if (m.size() != 1) return drift();
      r.content.replace(m[0].first, m[0].second - m[0].first, text);
      break;
    }
  }
  r.status = S::applied;
  return r;
}

}  // namespace ts::source

// The citation grammar of kb check (see citation.h).
#include "kb/citation.h"

#include <cctype>

#include <re2/re2.h>

#include "kb/toml_parse.h"

namespace ts::kb {

namespace {

const RE2& url() {
  static const RE2 r(R"(https?://[^\s]+)");
  return r;
}
const RE2& site() {  // developer.nvidia.com/cuda-gpus, cmake.org
  static const RE2 r(R"([a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)*\.(org|com|io|net|dev|ai|gov|edu)(/\S*)?)");
  return r;
}
const RE2& repo_ref() {  // owner/repo@ref:path, owner/repo#N, owner/repo@abcdef0
  static const RE2 r(R"([A-Za-z0-9][\w.-]*/[\w.-]+(@[\w./+-]+:\S+|#[0-9]+|@[0-9a-f]{7,40}))");
  return r;
}
const RE2& repo() {
  static const RE2 r(R"([A-Za-z0-9][\w.-]*/[\w.-]+)");
  return r;
}
const RE2& after_repo() {  // "@031593d" or a file path: "setup.py@0029136", "Modules/x.cmake"
  static const RE2 r(R"(@[0-9a-f]{7,40}\S*|[\w./@+-]*[./][\w./@+-]*)");
  return r;
}
// Notes only this project's authors had (its scenario names and report numbers, its research
// notes); the acceptance tests may use them, shipped data may not.
const RE2& private_note() {
  static const RE2 r(
      R"((\b[Ss]eeds?\b|\bS[1-5]\b|\bPBM\b|shared/|knowledge/|\[B:|\[main|\[idx:|\bfile ids?\b|anchors\.md|)"
      R"(pytorch-build-machinery|extension-packages\.md|failure-signatures\.(?:md|json)|compat-facts))");
  return r;
}

std::string strip(std::string_view t) {
  const std::string_view punct = "()[]{},;:'\"`<>";
  while (!t.empty() && punct.find(t.front()) != std::string_view::npos) t.remove_prefix(1);
  while (!t.empty() && (punct.find(t.back()) != std::string_view::npos || t.back() == '.')) t.remove_suffix(1);
  return std::string(t);
}

std::vector<std::string> tokens(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(strip(s.substr(i, j - i)));
    i = j;
  }
  return out;
}

bool names_a_reference(std::string_view source) {
  auto t = tokens(source);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string& w = t[i];
    if (w.empty()) continue;
    if (RE2::FullMatch(w, url()) || RE2::FullMatch(w, site()) || RE2::FullMatch(w, repo_ref())) return true;
    if (RE2::FullMatch(w, repo()) && i + 1 < t.size() && RE2::FullMatch(t[i + 1], after_repo())) return true;
  }
  return false;
}

void walk(const toml::node& n, std::string_view file, std::vector<KbError>& errors) {
  if (const auto* tbl = n.as_table()) {
    for (const auto& [k, v] : *tbl) {
      std::string_view key = k.str();
      bool is_source = key == "source" || (key.size() > 7 && key.substr(key.size() - 7) == "_source");
      if (is_source && v.is_string()) {
        if (auto p = citation_problem(**v.as_string()))
          errors.push_back({{std::string(file), static_cast<int>(v.source().begin.line)},
                            std::string(key) + ": " + *p});
      } else {
        walk(v, file, errors);
      }
    }
  } else if (const auto* arr = n.as_array()) {
    for (const auto& v : *arr) walk(v, file, errors);
  }
}

}  // namespace

std::optional<std::string> citation_problem(std::string_view source) {
  const char* how = "; cite what a user can open: https://..., owner/repo@commit:path or owner/repo#123";
  std::string s(source);
  std::string m;
  if (RE2::PartialMatch(s, private_note(), &m))
    return "'" + m + "' names a note users do not have" + how;
  if (!names_a_reference(source)) return "'" + s.substr(0, 60) + (s.size() > 60 ? "...'" : "'") + " cites nothing a user can open" + how;
  return std::nullopt;
}

void check_citations(std::string_view file, std::string_view text, std::vector<KbError>& errors) {
  try {
    toml::table t = parse_toml(text, file);
    walk(t, file, errors);
  } catch (const toml::parse_error&) {
    // Syntax errors are reported by the file's own loader or validator.
  }
}

}  // namespace ts::kb

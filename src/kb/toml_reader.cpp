#include "kb/toml_reader.h"

#include <algorithm>

#include "core/cuda_arch.h"
#include "core/version.h"
#include "core/version_range.h"
#include "util/split.h"

namespace ts::kb::detail {

namespace {

// Levenshtein distance, to suggest the key a typo meant.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

// The core parsers' messages already quote the text; use them as they are, else add the quote.
std::string quoted_reason(const std::string& text, std::string_view what, const std::string& err) {
  if (err.find("'" + text + "'") != std::string::npos) return err;
  return "'" + text + "' " + std::string(what) + (err.empty() ? "" : " (" + err + ")");
}

const char* kStatuses[] = {"verified", "verified-secondary", "recalled", "derived", "refreshed"};

}  // namespace

int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

std::string arch_problem(std::string_view text, bool allow_ptx) {
  std::string err;
  auto a = CudaArch::parse(text, &err);
  if (!a) return "'" + std::string(text) + "' is not a CUDA arch (" + err + "); write it as 8.6, 9.0a or 10.0f";
  if (a->ptx && !allow_ptx)
    return "'" + std::string(text) + "' carries +PTX, which is a build choice, not an arch; write " + a->sass_only().str();
  if (a->str() != text) return "'" + std::string(text) + "' is spelled " + a->str() + " in the KB; write \"" + a->str() + "\"";
  if (a->minor > 9 || a->major < 1 || a->major > 30)
    return "'" + std::string(text) + "' is no compute capability nvcc could have (major 1-30, minor 0-9)";
  return "";
}

EntryReader::EntryReader(const toml::table& t, std::string file, std::string what, std::vector<KbError>& errors)
    : t_(t), file_(std::move(file)), what_(std::move(what)), errors_(errors),
      errors_at_start_(errors.size()), line_(line_of(t)) {}

void EntryReader::error(int line, const std::string& message) {
  errors_.push_back({{file_, line ? line : line_}, what_ + ": " + message});
}

const toml::node* EntryReader::get(std::string_view key) {
  known_.emplace_back(key);
  return t_.get(key);
}

void EntryReader::missing(std::string_view key, std::string_view example) {
  error(line_, "missing required key '" + std::string(key) + "'; add " + std::string(key) + " = " +
                   std::string(example));
}

std::string EntryReader::text(std::string_view key, bool required, std::string_view example) {
  const toml::node* n = get(key);
  if (!n) {
    if (required) missing(key, example);
    return "";
  }
  if (!n->is_string()) {
    error(line_of(*n), std::string(key) + ": expected a string in quotes; write " + std::string(key) + " = " +
                           std::string(example));
    return "";
  }
  std::string s = n->value<std::string>().value_or("");
  if (required && s.empty()) error(line_of(*n), std::string(key) + ": must not be empty; write " +
                                                   std::string(key) + " = " + std::string(example));
  return s;
}

bool EntryReader::flag(std::string_view key, bool fallback) {
  const toml::node* n = get(key);
  if (!n) return fallback;
  if (!n->is_boolean()) {
    error(line_of(*n), std::string(key) + ": expected true or false");
    return fallback;
  }
  return n->value<bool>().value_or(fallback);
}

std::vector<std::string> EntryReader::texts(std::string_view key, bool required, std::string_view example) {
  std::vector<std::string> out;
  const toml::node* n = get(key);
  if (!n) {
    if (required) missing(key, example);
    return out;
  }
  const toml::array* a = n->as_array();
  if (!a) {
    error(line_of(*n), std::string(key) + ": expected a list of strings; write " + std::string(key) + " = " +
                           std::string(example));
    return out;
  }
  for (const auto& el : *a) {
    if (!el.is_string()) {
      error(line_of(el), std::string(key) + ": every item must be a string in quotes; write " +
                             std::string(key) + " = " + std::string(example));
      continue;
    }
    out.push_back(el.value<std::string>().value_or(""));
  }
  if (required && out.empty() && ok())
    error(line_of(*n), std::string(key) + ": must not be empty; write " + std::string(key) + " = " +
                           std::string(example));
  return out;
}

std::string EntryReader::checked(std::string_view key, bool required, std::string_view example,
                                 const std::function<std::string(const std::string&)>& problem) {
  std::string s = text(key, required, example);
  if (s.empty()) return s;
  if (std::string p = problem(s); !p.empty()) error(line_of(*t_.get(key)), std::string(key) + ": " + p);
  return s;
}

std::string EntryReader::version(std::string_view key, bool required, std::string_view example, int components) {
  std::string s = text(key, required, example);
  parse_version(key, s, example, components);
  return s;
}

std::optional<Version> EntryReader::parsed_version(std::string_view key, bool required, std::string_view example,
                                                   int components) {
  return parse_version(key, text(key, required, example), example, components);
}

std::optional<Version> EntryReader::parse_version(std::string_view key, const std::string& s, std::string_view example,
                                                  int components) {
  if (s.empty()) return std::nullopt;
  const std::string write = std::string(key) + " = " + std::string(example);
  std::string err, problem;
  auto v = Version::parse(s, &err);
  if (!v) problem = quoted_reason(s, "is not a version", err) + "; write " + write;
  else if (components && static_cast<int>(v->release().size()) != components)
    problem = "'" + s + "' must have " + std::to_string(components) + " numbers; write " + write;
  if (problem.empty()) return v;
  error(line_of(*t_.get(key)), std::string(key) + ": " + problem);
  return std::nullopt;
}

std::vector<Version> EntryReader::parsed_versions(std::string_view key, bool required, std::string_view example) {
  std::vector<Version> out;
  for (const auto& s : texts(key, required, example))
    if (auto v = parse_version(key, s.empty() ? std::string("\"\"") : s, example, 0)) out.push_back(std::move(*v));
  return out;
}

std::string EntryReader::range(std::string_view key, bool required, std::string_view example) {
  const std::string write = std::string(key) + " = " + std::string(example);
  return checked(key, required, example, [&](const std::string& s) -> std::string {
    std::string err;
    auto r = VersionRange::parse(s, &err);
    if (!r) return quoted_reason(s, "is not a version range", err) + "; write " + write;
    if (r->is_any()) return "'" + s + "' allows every version; write bounds, e.g. " + write;
    return "";
  });
}

VersionRange EntryReader::parsed_range(std::string_view key, bool required, std::string_view example) {
  std::string s = range(key, required, example);
  return s.empty() ? VersionRange{} : VersionRange::parse(s).value_or(VersionRange{});
}

std::optional<CudaArch> EntryReader::arch(std::string_view key, bool required, bool allow_ptx) {
  std::string problem;
  std::string s = checked(key, required, "\"8.6\"", [&](const std::string& v) { return problem = arch_problem(v, allow_ptx); });
  if (s.empty() || !problem.empty()) return std::nullopt;
  return CudaArch::parse(s);
}

std::vector<CudaArch> EntryReader::arches(std::string_view key, bool required, bool allow_ptx) {
  texts(key, required, "[\"8.0\", \"8.6\"]");
  std::vector<CudaArch> v;
  const toml::array* a = t_.get(key) ? t_.get(key)->as_array() : nullptr;
  for (std::size_t i = 0; a && i < a->size(); ++i) {
    const auto& el = (*a)[i];
    if (!el.is_string()) continue;
    std::string s = el.value<std::string>().value_or("");
    std::string p = arch_problem(s, allow_ptx);
    if (!p.empty()) error(line_of(el), std::string(key) + ": " + p);
    else v.push_back(*CudaArch::parse(s));
  }
  return v;
}

double EntryReader::number(std::string_view key, bool required, std::string_view example) {
  const toml::node* n = get(key);
  if (!n) {
    if (required) missing(key, example);
    return 0;
  }
  if (!n->is_number()) {
    error(line_of(*n), std::string(key) + ": expected a number; write " + std::string(key) + " = " +
                           std::string(example));
    return 0;
  }
  return n->value<double>().value_or(0);
}

const toml::array* EntryReader::tables(std::string_view key) {
  const toml::node* n = get(key);
  if (!n) return nullptr;
  const toml::array* a = n->as_array();
  if (!a || !a->is_array_of_tables()) {
    error(line_of(*n), std::string(key) + ": expected sub-tables; write [[<entry>." + std::string(key) + "]] blocks");
    return nullptr;
  }
  return a;
}

void EntryReader::common(Entry& e) {
  e.origin = origin();
  std::string& status = e.status;
  std::vector<std::string>& recalled = e.recalled;
  e.source = text("source", true, "\"<upstream file, page or issue this fact comes from>\"");
  e.note = text("note", false, "\"...\"");
  status = text("status", false, "\"verified\"");
  if (const toml::node* n = t_.get("status")) {
    if (!status.empty() &&
        std::none_of(std::begin(kStatuses), std::end(kStatuses), [&](const char* s) { return status == s; }))
      error(line_of(*n), "status: '" + status + "' is unknown; write one of verified, verified-secondary, "
                                                "recalled, derived, refreshed");
  }
  if (status.empty()) status = "verified";
  recalled = texts("recalled", false, "[\"msvc\"]");
  recalled_ = recalled;
  if (const toml::node* n = t_.get("recalled")) recalled_line_ = line_of(*n);
}

void EntryReader::finish() {
  for (const auto& r : recalled_)
    if (std::find(known_.begin(), known_.end(), r) == known_.end())
      error(recalled_line_, "recalled: '" + r + "' is not a key of a " + what_ + "; name keys from: " + util::join(known_, ", "));
  for (const auto& [k, v] : t_) {
    std::string key(k.str());
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string hint;
    std::size_t best = 3;
    for (const auto& cand : known_) {
      std::size_t d = distance(key, cand);
      if (d < best) best = d, hint = cand;
    }
    error(static_cast<int>(k.source().begin.line),
          "unknown key '" + key + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
              " (allowed: " + util::join(known_, ", ") + ")");
  }
}

}  // namespace ts::kb::detail

#include "core/version_range.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/json_text.h"
#include "core/package_name.h"

namespace ts {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_op_char(char c) { return c == '<' || c == '>' || c == '=' || c == '!' || c == '~'; }

// "==2.4.*" matches every version whose release starts with 2.4 (pre, post, dev and local ignored).
bool prefix_match(const Version& v, const Version& prefix) {
  if (v.epoch() != prefix.epoch()) return false;
  for (std::size_t i = 0; i < prefix.release().size(); ++i)
    if (v.component(i) != prefix.release()[i]) return false;
  return true;
}

std::vector<int> without_trailing_zeros(std::vector<int> r) {
  while (!r.empty() && r.back() == 0) r.pop_back();
  return r;
}

bool release_only(const Version& v) {
  return !v.is_prerelease() && !v.is_postrelease() && v.local().empty();
}

Specifier make(Specifier::Op op, const Version& v, bool wildcard = false) {
  Specifier s;
  s.op = op;
  s.version = v;
  s.wildcard = wildcard;
  return s;
}

// One comma-separated clause without an operator: "3.8-3.12", "3.10+", "*", "12.8".
std::optional<std::vector<Specifier>> parse_shorthand(std::string_view c, std::string* why) {
  using Op = Specifier::Op;
  if (c == "*") return std::vector<Specifier>{};
  if (c.back() == '+') {
    auto v = Version::parse(trim(c.substr(0, c.size() - 1)), why);
    if (!v) return std::nullopt;
    return std::vector<Specifier>{make(Op::ge, *v)};
  }
  // "A-B": a '-' with a version on both sides. PEP 440's "1.0-1" (post release) loses to the
  // table meaning here; nobody writes post releases in a range table.
  for (std::size_t dash = c.find('-'); dash != std::string_view::npos; dash = c.find('-', dash + 1)) {
    auto lo = Version::parse(trim(c.substr(0, dash)));
    auto hi = Version::parse(trim(c.substr(dash + 1)));
    if (!lo || !hi) continue;
    if (*hi < *lo) {
      if (why) *why = "the upper end is below the lower end";
      return std::nullopt;
    }
    return std::vector<Specifier>{make(Op::ge, *lo), make(Op::lt, next_release(*hi))};
  }
  auto v = Version::parse(c, why);
  if (!v) return std::nullopt;
  // A bare release means "that release line" (12.8 -> any 12.8.x), like one cell of a table.
  if (release_only(*v)) return std::vector<Specifier>{make(Op::eq, *v, true)};
  return std::vector<Specifier>{make(Op::eq, *v)};
}

}  // namespace

Version next_release(const Version& v) {
  std::string text = v.epoch() ? std::to_string(v.epoch()) + "!" : "";
  const auto& r = v.release();
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (i) text += '.';
    text += std::to_string(i + 1 == r.size() ? r[i] + 1 : r[i]);
  }
  return *Version::parse(text);
}

std::optional<Specifier> Specifier::parse(std::string_view s, std::string* error) {
  std::string_view t = trim(s);
  auto fail = [&](const std::string& why) -> std::optional<Specifier> {
    if (error) *error = "'" + std::string(t) + "' is not a version specifier (" + why + ")";
    return std::nullopt;
  };
  static constexpr std::pair<std::string_view, Op> kOps[] = {
      {"===", Op::arbitrary}, {"==", Op::eq}, {"!=", Op::ne}, {"~=", Op::compatible},
      {"<=", Op::le},         {">=", Op::ge}, {"<", Op::lt},  {">", Op::gt}};
  Specifier spec;
  bool found = false;
  for (auto [text, op] : kOps) {
    if (t.substr(0, text.size()) == text) {
      spec.op = op;
      t.remove_prefix(text.size());
      found = true;
      break;
    }
  }
  if (!found) return fail("expected one of === == != ~= <= >= < >");
  std::string_view operand = trim(t);
  if (operand.empty()) return fail("no version after the operator");
  if (spec.op == Op::arbitrary) {
    if (std::any_of(operand.begin(), operand.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
      return fail("=== takes one word");
    spec.text = std::string(operand);
    return spec;
  }
  if (operand.size() >= 2 && operand.substr(operand.size() - 2) == ".*") {
    if (spec.op != Op::eq && spec.op != Op::ne) return fail("'.*' only goes with == and !=");
    spec.wildcard = true;
    operand.remove_suffix(2);
  }
  std::string why;
  auto v = Version::parse(operand, &why);
  if (!v) return fail(why);
  if (spec.wildcard && !release_only(*v)) return fail("'.*' follows release numbers only");
  if (spec.op == Op::compatible && v->release().size() < 2) return fail("~= needs at least two release numbers");
  if (spec.op == Op::compatible && !v->local().empty()) return fail("~= takes no local label");
  spec.version = *v;
  return spec;
}

bool Specifier::contains(const Version& v) const {
  switch (op) {
    case Op::eq:
      if (wildcard) return prefix_match(v, version);
      // A specifier without a local label matches every local build of that version (2.4.0+cu121).
      return version.local().empty() ? v.public_version() == version : v == version;
    case Op::ne: {
      Specifier eq = *this;
      eq.op = Op::eq;
      return !eq.contains(v);
    }
    case Op::compatible:
      return v.public_version() >= version && prefix_match(v, version.truncated(version.release().size() - 1));
    case Op::le: return v.public_version() <= version;
    case Op::ge: return v.public_version() >= version;
    case Op::lt:
      // "<3.13" must not let 3.13.0rc1 in: a pre-release of the bound itself is not below it.
      if (!(v < version)) return false;
      return !(v.is_prerelease() && !version.is_prerelease() && v.base_version() == version.base_version());
    case Op::gt:
      // ">1.0" excludes 1.0.post1 and 1.0+local: they are the same release, not a newer one.
      if (!(v > version)) return false;
      if (v.is_postrelease() && !version.is_postrelease() && v.base_version() == version.base_version()) return false;
      return !(!v.local().empty() && v.base_version() == version.base_version());
    case Op::arbitrary: return lower(v.original()) == lower(text);
  }
  return false;
}

std::string Specifier::str() const {
  switch (op) {
    case Op::arbitrary: return "===" + text;
    case Op::eq: return "==" + version.str() + (wildcard ? ".*" : "");
    case Op::ne: return "!=" + version.str() + (wildcard ? ".*" : "");
    case Op::compatible: return "~=" + version.str();
    case Op::lt: return "<" + version.str();
    case Op::le: return "<=" + version.str();
    case Op::gt: return ">" + version.str();
    case Op::ge: return ">=" + version.str();
  }
  return {};
}

std::optional<VersionRange> VersionRange::parse(std::string_view s, std::string* error) {
  std::string_view t = trim(s);
  VersionRange range;
  if (t.empty()) return range;
  std::size_t start = 0;
  while (start <= t.size()) {
    std::size_t comma = t.find(',', start);
    if (comma == std::string_view::npos) comma = t.size();
    std::string_view clause = trim(t.substr(start, comma - start));
    std::string why;
    std::optional<std::vector<Specifier>> specs;
    if (clause.empty()) {
      why = "empty clause";
    } else if (is_op_char(clause.front())) {
      if (auto spec = Specifier::parse(clause, &why)) specs = std::vector<Specifier>{*spec};
    } else {
      specs = parse_shorthand(clause, &why);
    }
    if (!specs) {
      if (error) *error = "'" + std::string(t) + "' is not a version range: " + why;
      return std::nullopt;
    }
    for (auto& spec : *specs)
      if (std::none_of(range.specs_.begin(), range.specs_.end(), [&](const Specifier& x) { return x.str() == spec.str(); }))
        range.specs_.push_back(spec);
    start = comma + 1;
  }
  range.text_ = std::string(t);
  return range;
}

VersionRange VersionRange::exactly(const Version& v) {
  VersionRange r;
  r.specs_.push_back(make(Specifier::Op::eq, v));
  return r;
}

VersionRange VersionRange::at_least(const Version& v) {
  VersionRange r;
  r.specs_.push_back(make(Specifier::Op::ge, v));
  return r;
}

bool VersionRange::contains(const Version& v, bool include_prereleases) const {
  if (!include_prereleases && v.is_prerelease()) {
    bool names_pre = std::any_of(specs_.begin(), specs_.end(), [](const Specifier& s) {
      return s.op != Specifier::Op::arbitrary && s.version.is_prerelease();
    });
    if (!names_pre) return false;
  }
  return std::all_of(specs_.begin(), specs_.end(), [&](const Specifier& s) { return s.contains(v); });
}

std::string VersionRange::str() const {
  std::string out;
  for (const auto& s : specs_) {
    if (!out.empty()) out += ',';
    out += s.str();
  }
  return out;
}

namespace {
// The tightest bound the specifiers set: bound(s) is one specifier's own, if any; the greatest wins for
// a lower bound, the least for an upper one.
template <class Bound>
std::optional<Version> tightest(const std::vector<Specifier>& specs, bool lower, Bound bound) {
  std::optional<Version> best;
  for (const auto& s : specs)
    if (auto b = bound(s); b && (!best || (lower ? *best < *b : *b < *best))) best = b;
  return best;
}
}  // namespace

std::optional<Version> VersionRange::min_inclusive() const {
  return tightest(specs_, true, [](const Specifier& s) -> std::optional<Version> {
    if (s.op == Specifier::Op::ge || s.op == Specifier::Op::compatible || s.op == Specifier::Op::eq) return s.version;
    return std::nullopt;
  });
}

std::optional<Version> VersionRange::max_exclusive() const {
  return tightest(specs_, false, [](const Specifier& s) -> std::optional<Version> {
    if (s.op == Specifier::Op::compatible) return next_release(s.version.truncated(s.version.release().size() - 1));
    if (s.op == Specifier::Op::eq && s.wildcard) return next_release(s.version);
    if (s.op == Specifier::Op::lt) return s.version;
    return std::nullopt;
  });
}

std::optional<Version> VersionRange::max_inclusive() const {
  return tightest(specs_, false, [](const Specifier& s) -> std::optional<Version> {
    if (s.op == Specifier::Op::le || (s.op == Specifier::Op::eq && !s.wildcard)) return s.version;
    return std::nullopt;
  });
}

std::string VersionRange::describe() const {
  using Op = Specifier::Op;
  if (specs_.empty()) return "any version";
  std::vector<std::string> parts;
  std::vector<const Specifier*> rest;
  for (const auto& s : specs_) rest.push_back(&s);

  // The table pair ">=A,<B" reads as "A to B-1": "<3.13" -> "3.12", "<2.0" -> "1.x" (every 1.x).
  auto count = [&](Op op) { return std::count_if(specs_.begin(), specs_.end(), [&](const Specifier& s) { return s.op == op; }); };
  if (count(Op::ge) == 1 && count(Op::lt) == 1) {
    auto ge = std::find_if(rest.begin(), rest.end(), [](auto* s) { return s->op == Op::ge; });
    const Specifier* lo = *ge;
    rest.erase(ge);
    auto lt = std::find_if(rest.begin(), rest.end(), [](auto* s) { return s->op == Op::lt; });
    const Specifier* hi = *lt;
    rest.erase(lt);
    const Version& b = hi->version;
    std::vector<int> r = without_trailing_zeros(b.release());
    if (release_only(b) && !r.empty()) {
      r.back() -= 1;
      std::string last = b.epoch() ? std::to_string(b.epoch()) + "!" : "";
      for (std::size_t i = 0; i < r.size(); ++i) last += (i ? "." : "") + std::to_string(r[i]);
      auto last_v = Version::parse(last);
      if (r.size() < lo->version.release().size() || (last_v && *last_v == lo->version)) last += ".x";
      parts.push_back(last_v && *last_v == lo->version ? last : lo->version.str() + " to " + last);
    } else {
      parts.push_back(lo->version.str() + " to before " + b.str());
    }
  }
  for (const Specifier* s : rest) {
    const std::string v = s->version.str();
    switch (s->op) {
      case Op::ge: parts.push_back("at least " + v); break;
      case Op::gt: parts.push_back("newer than " + v); break;
      case Op::le: parts.push_back("at most " + v); break;
      case Op::lt: parts.push_back("older than " + v); break;
      case Op::eq: parts.push_back(s->wildcard ? v + ".x" : "exactly " + v); break;
      case Op::ne: parts.push_back(s->wildcard ? "not " + v + ".x" : "not " + v); break;
      case Op::compatible:
        parts.push_back(v + " or a newer " + s->version.truncated(s->version.release().size() - 1).str() + ".x");
        break;
      case Op::arbitrary: parts.push_back("exactly '" + s->text + "'"); break;
    }
  }
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

VersionRange VersionRange::intersect(const VersionRange& other) const {
  VersionRange r = *this;
  r.text_.clear();  // no longer the text it was read from
  for (const auto& s : other.specs_)
    if (std::none_of(r.specs_.begin(), r.specs_.end(), [&](const Specifier& x) { return x.str() == s.str(); }))
      r.specs_.push_back(s);
  return r;
}

std::optional<Constraint> Constraint::parse(std::string_view s, std::string* error) {
  std::string_view t = trim(s);
  auto fail = [&](const std::string& why) -> std::optional<Constraint> {
    if (error) *error = "'" + std::string(t) + "' is not a constraint (" + why + ")";
    return std::nullopt;
  };
  // PEP 508 names: letters, digits, '.', '-', '_', starting and ending with a letter or digit.
  std::size_t n = 0;
  while (n < t.size() && (std::isalnum(static_cast<unsigned char>(t[n])) || t[n] == '.' || t[n] == '-' || t[n] == '_')) ++n;
  if (n == 0) return fail("expected a name first, like torch>=2.0,<2.7");
  if (!std::isalnum(static_cast<unsigned char>(t[0])) || !std::isalnum(static_cast<unsigned char>(t[n - 1])))
    return fail("a name starts and ends with a letter or digit");
  std::string_view rest = t.substr(n);
  if (!rest.empty() && !is_op_char(rest.front()) && !std::isspace(static_cast<unsigned char>(rest.front())))
    return fail("unexpected '" + std::string(rest) + "' after the name");
  std::string why;
  auto range = VersionRange::parse(rest, &why);
  if (!range) return fail(why);
  return Constraint{std::string(t.substr(0, n)), *range};
}

std::string Constraint::str() const { return name + range.str(); }

std::string Constraint::normalized_name() const { return normalize_name(name); }

void to_json(nlohmann::json& j, const VersionRange& r) { write_text(j, r); }
void from_json(const nlohmann::json& j, VersionRange& r) { read_text(j, r); }

void to_json(nlohmann::json& j, const Constraint& c) { write_text(j, c); }
void from_json(const nlohmann::json& j, Constraint& c) { read_text(j, c); }

}  // namespace ts

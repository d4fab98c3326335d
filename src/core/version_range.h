#pragma once
// VersionRange: a PEP 440 specifier set (">=3.8,<3.13"), plus the shorthand the compatibility
// tables in docs and the KB use ("3.8-3.12", "3.10+", "*"), so both read into one type.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/version.h"

namespace ts {

// One clause of a specifier set: "<3.13", "==2.4.*", "~=1.23", "===x".
struct Specifier {
  enum class Op { eq, ne, lt, le, gt, ge, compatible, arbitrary };
  Op op = Op::ge;
  Version version;       // unused for ===
  bool wildcard = false; // "==2.4.*" / "!=2.4.*"
  std::string text;      // the operand of === as written

  static std::optional<Specifier> parse(std::string_view s, std::string* error = nullptr);
  bool contains(const Version& v) const;  // PEP 440 semantics, ignoring the pre-release policy
  std::string str() const;                // "==2.4.*"
};

class VersionRange {
 public:
  VersionRange() = default;  // any version

  // Specifier sets joined by ',' (whitespace tolerated), or the table shorthand:
  //   "3.8-3.12" -> >=3.8,<3.13 (the upper bound covers every release of its last given component)
  //   "3.10+"    -> >=3.10        "*" or "" -> any        "12.8" (bare) -> ==12.8.* (any 12.8.x)
  static std::optional<VersionRange> parse(std::string_view s, std::string* error = nullptr);
  static VersionRange any() { return {}; }
  static VersionRange exactly(const Version& v);
  static VersionRange at_least(const Version& v);

  // With include_prereleases false, a pre-release matches only when a clause names a pre-release
  // (PEP 440's default for installers); true is the right choice for toolkits and compilers.
  bool contains(const Version& v, bool include_prereleases = true) const;
  bool is_any() const { return specs_.empty(); }
  const std::vector<Specifier>& specifiers() const { return specs_; }

  std::string str() const;       // canonical ">=3.8,<3.13"; "" when any
  // The text it was parsed from, as written ("2.1-2.3"), for messages that quote a file; a range
  // made otherwise (exactly, intersect) spells str().
  std::string original() const { return text_.empty() ? str() : text_; }
  std::string describe() const;  // human: "3.8 to 3.12", "at least 3.13", "at most 11", "any version"
  std::optional<Version> min_inclusive() const;  // tightest lower bound a version may equal
  std::optional<Version> max_exclusive() const;  // tightest upper bound it must stay below
  std::optional<Version> max_inclusive() const;  // tightest "<=" bound

  VersionRange intersect(const VersionRange& other) const;  // both must hold
  friend bool operator==(const VersionRange& a, const VersionRange& b) { return a.str() == b.str(); }

 private:
  std::vector<Specifier> specs_;
  std::string text_;
};

// A requirement on a named thing: "torch>=2.0,<2.7", "numpy==1.23.5", "cmake" (any version),
// "cmake 3.18+" (table shorthand after whitespace).
struct Constraint {
  std::string name;
  VersionRange range;

  static std::optional<Constraint> parse(std::string_view s, std::string* error = nullptr);
  std::string str() const;              // "torch>=2.0,<2.7"; just the name when any
  std::string normalized_name() const;  // PEP 503: lower case, runs of -_. become '-'
  bool contains(const Version& v, bool include_prereleases = true) const { return range.contains(v, include_prereleases); }
};

// Increments the last given release component: 3.12 -> 3.13, 11 -> 12 (how "3.8-3.12" gets its bound).
Version next_release(const Version& v);

void to_json(nlohmann::json& j, const VersionRange& r);
void from_json(const nlohmann::json& j, VersionRange& r);
void to_json(nlohmann::json& j, const Constraint& c);
void from_json(const nlohmann::json& j, Constraint& c);

}  // namespace ts

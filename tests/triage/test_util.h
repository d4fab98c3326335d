#pragma once
// Shared by the triage tests: one Engine over the embedded signatures, file helpers.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "kb/kb.h"
#include "triage/engine.h"
#include "triage/scanner.h"

namespace ts::triage::testing {

inline const Engine& engine() {
  static const Engine e = [] {
    std::vector<std::string> errors;
    SignatureSet set = load_signatures({}, errors);
    for (const auto& m : errors) ADD_FAILURE() << m;
    return Engine(std::move(set));
  }();
  return e;
}

// The embedded knowledge base, loaded once (what specialize reads facts against).
inline const kb::Kb& the_kb() {
  static const kb::Kb k = [] {
    std::vector<kb::KbError> errors;
    return kb::load_embedded(errors);
  }();
  return k;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path cases_dir() { return std::filesystem::path(TS_SOURCE_DIR) / "tests/triage/cases"; }

inline Diagnosis diagnose(std::string_view text) { return diagnose_text(engine(), text); }

inline std::string root_id(const Diagnosis& d) { return d.root() ? d.root()->id : "(none)"; }

// Each finding with its count, evidence, context and captures, one comparable string.
inline std::string findings_text(const Diagnosis& d) {
  std::string s;
  for (const auto& f : d.findings) {
    s += f.id + " count=" + std::to_string(f.count) + " by=" + f.superseded_by + "\n";
    for (const auto& e : f.evidence) s += "  e " + std::to_string(e.line) + " " + e.text + "\n";
    for (const auto& c : f.context) s += "  c " + std::to_string(c.line) + " " + c.text + "\n";
    for (const auto& c : f.captures) s += "  g " + c + "\n";
  }
  return s;
}

inline bool has_finding(const Diagnosis& d, std::string_view id) {
  for (const auto& f : d.findings)
    if (f.id == id) return true;
  return false;
}

// A log line in one tool's wording and the signature that must (or, for a near miss, must not) name it.
struct Wording { const char* line; const char* id; };

// The line alone has w.id as its root cause; the diagnosis, for what else the caller checks.
inline Diagnosis expect_root_cause(const Wording& w) {
  Diagnosis d = diagnose(std::string(w.line) + "\n");
  EXPECT_EQ(root_id(d), w.id) << w.line;
  return d;
}

// A near miss: the line shares w.id's words but is not its failure, so w.id is no finding at all.
inline void expect_not_named(const Wording& w) {
  EXPECT_FALSE(has_finding(diagnose(std::string(w.line) + "\n"), w.id)) << w.line;
}

}  // namespace ts::triage::testing

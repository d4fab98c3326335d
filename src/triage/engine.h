#pragma once
// The triage engine: every signature pattern, log-fact pattern and failure grammar (FAILED:,
// compiler error, CMake Error, Traceback, ...: grammar.h) compiled into one RE2::Set, behind the literal
// prefilter (prefilter.h). Immutable once built; one Engine serves many Scanners.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>
#include <re2/set.h>

#include "triage/grammar.h"
#include "triage/prefilter.h"
#include "triage/signature.h"

namespace ts::triage {

// Lines the engine recognises structurally, for the "unrecognised" fallback: every failure grammar
// (grammar.h), so a log with only such lines (a bare Python exception, a resolver's verdict, a
// crash, a CUDA/HIP runtime error, a tool's "error:") still has an answer.

struct PatternRef {
  enum Kind { signature, log_fact, marker } kind;
  int owner;  // index into signatures / log_facts, or the Marker
};

class Engine {
 public:
  // Throws std::runtime_error if a pattern does not compile (load_signatures has checked them).
  explicit Engine(SignatureSet set);

  const SignatureSet& set() const { return set_; }
  const Prefilter& prefilter() const { return prefilter_; }
  const RE2::Set& regex_set() const { return *re_set_; }
  const RE2& regex(int i) const { return *regexes_[i]; }
  const PatternRef& ref(int i) const { return refs_[i]; }
  std::size_t pattern_count() const { return refs_.size(); }

 private:
  SignatureSet set_;
  Prefilter prefilter_;
  std::unique_ptr<RE2::Set> re_set_;
  std::vector<std::unique_ptr<RE2>> regexes_;
  std::vector<PatternRef> refs_;
};

}  // namespace ts::triage

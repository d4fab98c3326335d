#pragma once
// What triage found in a log: findings ranked root cause first, each with evidence lines.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "triage/signature.h"

namespace ts::triage {

struct Evidence {
  std::uint64_t line = 0;  // 1-based line number in the log
  std::string text;        // printable, capped (line.h)
};

struct Finding {
  std::string id;                     // signature id, or "unrecognised"
  const Signature* sig = nullptr;     // null for "unrecognised"
  Severity severity = Severity::error;
  std::string phase;
  std::uint64_t count = 0;            // lines that matched: a cascade is one finding with a count
  std::vector<Evidence> evidence;     // the first few matching lines
  std::vector<Evidence> context;      // lines around the first evidence, in log order (evidence included)
  std::vector<std::string> captures;  // capture groups of the first evidence line
  std::string cause, fix;             // fix made specific by facts where possible (specialize.h)
  Remedy remedy;
  std::vector<std::string> notes;     // facts that sharpened the fix ("gcc-11 is installed at ...")
  std::string superseded_by;          // in the full list: the finding that makes this one moot
  std::uint64_t first_line() const { return evidence.empty() ? 0 : evidence.front().line; }
};

// Values the log states about the build (signatures.toml [[log_fact]]).
struct LogFacts {
  std::string cuda_version;  // "11.8"
  std::string cxx_compiler;  // "GNU 13.2.0"
  std::string arch_list;     // "8.0;8.6" or "-gencode;arch=compute_80,code=sm_80"
  std::vector<std::uint64_t> build_steps;  // lines where a package's build step shows (pip's hooks, setup.py), at most 64
  std::vector<std::uint64_t> torch_preloads;  // lines of torch's own preload of its CUDA libraries (_load_global_deps), at most 64
  std::uint64_t cuda_compiler_absent = 0;     // the first line where CMake's check_language(CUDA) found no CUDA compiler
  // Tracebacks a program caught and logged at WARNING and went on from: [first, last] line (the "Traceback"
  // line to the exception that ends it), at most 64
  std::vector<std::pair<std::uint64_t, std::uint64_t>> handled_tracebacks;
};

struct Diagnosis {
  std::vector<Finding> findings;  // [0] is the root cause; then the others (ranked)
  std::size_t root_count = 0;     // 1 when a root cause was named, else 0
  std::uint64_t lines = 0, bytes = 0;
  std::uint64_t error_lines = 0;  // compiler/CMake error lines seen (the cascade behind the root)
  LogFacts log_facts;
  const Finding* root() const { return root_count ? &findings.front() : nullptr; }
  bool known() const { return root() && root()->sig != nullptr; }
  // The log shows a failure: a known error or an unrecognised error line (warnings alone are not).
  bool failed() const { return root() && (!root()->sig || root()->severity == Severity::error); }
};

}  // namespace ts::triage

#pragma once
// Ranking: which finding is the root cause. Wrappers never are; a finding another one supersedes
// is not; then severity (error, then the unrecognised first error, then warning, info); then the
// earliest evidence. A signature that matched many lines is already one finding with a count.
#include <vector>

#include "triage/diagnosis.h"

namespace ts::triage {

// The scanner's structural observations, in the order they are preferred as "unrecognised".
struct Fallbacks {
  Finding* error_after_failed;  // first compiler error after the first FAILED: target
  Finding* first_error;         // first compiler error anywhere
  Finding* cmake_block;         // first CMake Error block
  Finding* traceback;           // first Python traceback: last frame + exception
  Finding* first_failure;       // first other failure line (a bare exception, a crash, "error: ...")
  Finding* first_failed;        // the first FAILED: line itself
};

// facts: the scan's log facts, for the structure of the log around a finding (a handled exception).
Diagnosis rank(const SignatureSet& set, std::vector<Finding>& per_signature, const Fallbacks& fb, const LogFacts* facts = nullptr);

}  // namespace ts::triage

#pragma once
// Per-line check for a finding that should stop a step at once (the Scanner ranks only at the end):
// a line matching an error-severity signature, e.g. the OOM killer's "Killed signal terminated
// program cc1plus" (unless the signature says stops_build = false). The full Diagnosis still comes from the Scanner.
#include <string>
#include <string_view>
#include <vector>

#include "triage/engine.h"

namespace ts::build {

class FatalWatch {
 public:
  explicit FatalWatch(const triage::Engine& e) : engine_(e) {}
  // The id of the first error-severity signature the line matches, or "".
  std::string check(std::string_view raw_line);

 private:
  const triage::Engine& engine_;
  std::string clean_;
  std::vector<int> hits_;
};

}  // namespace ts::build

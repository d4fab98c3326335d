#pragma once
// What a plan step is, as the run treats it: the plan names steps with strings ("fetch",
// "configure", ...); the run decides hashing, the governor and verify's report from this enum.
#include <string_view>

namespace ts::run {

enum class StepKind { fetch, fix, configure, build, verify, provision, other };

StepKind step_kind(std::string_view name);

// Steps that compile: they run under the governor and their output goes through live triage.
inline bool compiles(StepKind k) { return k == StepKind::build || k == StepKind::configure; }

}  // namespace ts::run

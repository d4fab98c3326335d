#pragma once
// What a plan step is, as the run treats it: the plan names steps with strings ("fetch",
// "configure", ...); the run asks this table about hashing, the governor and verify's report.
#include <string>
#include <string_view>
#include <vector>

namespace ts::run {

enum class StepKind { fetch, fix, configure, build, verify, provision, other };

// One row per kind: a new kind of step is a row here, and every part of the run asks the row.
struct StepKindTraits {
  StepKind kind;
  std::string_view name;     // the plan's step name; with `prefix`, the start of it ("provision-cuda")
  bool prefix;
  bool hashes_tree;          // its inputs include the source tree's state (fetch makes the tree)
  bool compiles;             // runs under the governor; its output goes through live triage
  std::string_view command;  // the torchsmith subcommand a step of this kind runs ("" = another program)
};

inline constexpr StepKindTraits kStepKinds[] = {
    {StepKind::fetch, "fetch", false, false, false, "fetch"},
    // "fix" edits the journaled tree; "fix-source" (an extension's own edits) is `other`.
    {StepKind::fix, "fix", false, true, false, "fix"},
    {StepKind::configure, "configure", false, true, true, ""},
    {StepKind::build, "build", false, true, true, ""},
    {StepKind::verify, "verify", false, true, false, "verify"},
    {StepKind::provision, "provision-", true, true, false, "toolkit"},  // provision-cuda, -cmake, -ninja
    {StepKind::other, "", false, true, false, ""},                      // package, clean, conda, fix-source ...
};

StepKind step_kind(std::string_view name);
const StepKindTraits& traits(StepKind k);

inline bool compiles(StepKind k) { return traits(k).compiles; }

// The program name plans write for torchsmith's own commands; the run puts its own executable there.
inline constexpr std::string_view kOwnProgram = "torchsmith";
bool own_command(const std::vector<std::string>& argv);
// The step runs its kind's own torchsmith command (`torchsmith verify ...` for a verify step).
bool runs_kind_command(StepKind k, const std::vector<std::string>& argv);

}  // namespace ts::run

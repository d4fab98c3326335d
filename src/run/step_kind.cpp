#include "run/step_kind.h"

#include <iterator>

namespace ts::run {

StepKind step_kind(std::string_view name) {
  for (const auto& t : kStepKinds) {
    if (t.name.empty()) continue;
    if (t.prefix ? name.substr(0, t.name.size()) == t.name : name == t.name) return t.kind;
  }
  return StepKind::other;
}

const StepKindTraits& traits(StepKind k) {
  for (const auto& t : kStepKinds)
    if (t.kind == k) return t;
  return kStepKinds[std::size(kStepKinds) - 1];  // every kind has a row (step_kind_test); `other` if not
}

bool own_command(const std::vector<std::string>& argv) { return !argv.empty() && argv[0] == kOwnProgram; }

bool runs_kind_command(StepKind k, const std::vector<std::string>& argv) {
  const auto& cmd = traits(k).command;
  return !cmd.empty() && own_command(argv) && argv.size() > 1 && argv[1] == cmd;
}

}  // namespace ts::run

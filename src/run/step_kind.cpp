#include "run/step_kind.h"

namespace ts::run {

StepKind step_kind(std::string_view name) {
  if (name == "fetch") return StepKind::fetch;
  if (name == "fix") return StepKind::fix;  // "fix-source" edits the extension, not the journaled tree
  if (name == "configure") return StepKind::configure;
  if (name == "build") return StepKind::build;
  if (name == "verify") return StepKind::verify;
  if (name.substr(0, 10) == "provision-") return StepKind::provision;  // provision-cuda, -cmake, -ninja
  return StepKind::other;
}

}  // namespace ts::run

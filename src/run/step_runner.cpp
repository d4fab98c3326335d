#include "run/step_runner.h"

namespace ts::run {

build::StepResult ProcessStepRunner::run(const build::StepSpec& spec, const build::RunnerOptions& o) {
  return build::run_step(spec, o);
}

}  // namespace ts::run

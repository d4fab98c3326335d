#pragma once
// The seam between the run's loop (resume, retries, remedies, interruption, summary) and the
// processes it starts, like ninja's CommandRunner: the real runner spawns the step; a test gives a
// scripted one and exercises the loop without cmake, ninja or a compiler.
#include "build/runner.h"

namespace ts::run {

class StepRunner {
 public:
  virtual ~StepRunner() = default;
  // Runs one attempt of a step to its end (or until o.cancel / a fatal finding stops it).
  virtual build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) = 0;
};

// Spawns the step as a process group (build::run_step).
class ProcessStepRunner final : public StepRunner {
 public:
  build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) override;
};

}  // namespace ts::run

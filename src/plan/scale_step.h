#pragma once
// The planner's scale step (--cache, --distribute): the command hands in a probe (scale/plan_scale.h
// checks the store and each distcc host, which takes the network) and the planner runs it before its
// jobs step, so the remote slots are in plan.jobs before anything derived from the job count
// (MAX_JOBS, CMAKE_BUILD_PARALLEL_LEVEL, TORCHSMITH_EXT_JOBS, `-j`) is written.
#include <functional>

#include "plan/plan.h"

namespace ts::plan {

// Fills plan.scale (remote_slots: what the kept hosts take) and adds its decisions to plan.decisions;
// it reads the plan's compiler (CXX) and PATH. Never changes plan.jobs or the environment.
using ScaleProbe = std::function<void(Plan&)>;

}  // namespace ts::plan

#pragma once
// The job knobs of a build's environment, written from the plan's typed counts in one place: the
// planner writes them, a remedy that halves the jobs rewrites them from halved counts, and nothing
// reads a count back out of the environment.
#include <map>
#include <string>

#include "plan/plan.h"

namespace ts::plan {

// The knobs that take the job count as it is: setup.py and cpp_extension's MAX_JOBS, CMake's
// CMAKE_BUILD_PARALLEL_LEVEL. None of them changes what is built (the lock's identity leaves them out).
inline constexpr const char* kJobKnobs[] = {"MAX_JOBS", "CMAKE_BUILD_PARALLEL_LEVEL"};

struct Parallelism {
  int jobs = 1;
  int nvcc_threads = 1;       // nvcc --threads of each CUDA compile
  int split = 0;              // nvcc --split-compile (0 = none)
  bool side_by_side = false;  // extensions side by side in TORCHSMITH_EXT_JOBS slots
};

Parallelism parallelism_of(const Plan& p);
// The compile slots side-by-side extensions share: jobs x nvcc threads (run/pyshim.h).
int job_slots(const Plan& p);
int job_slots(const Parallelism& p);

// The knobs `env` carries, rewritten for `now`: every kJobKnobs it sets (MAX_JOBS always),
// TORCHSMITH_EXT_JOBS when side by side, and the --split-compile of NVCC_APPEND_FLAGS (dropped
// below 2). Only what changes is returned.
std::map<std::string, std::string> job_env(const Parallelism& now, const std::map<std::string, std::string>& env);

}  // namespace ts::plan

#pragma once
// A lock is data: `build --lock` runs what a plan could have made, nothing else. Each step is
// compared with the forms the planner writes (its program, its subcommand, the fetch re-derived
// from the lock's source), and the environment may not carry a key that changes how programs load
// or start (LD_PRELOAD, PYTHONPATH, BASH_ENV, ...) unless its value is one the plan's own fields make.
#include <string>
#include <string_view>
#include <vector>

#include "plan/plan.h"

namespace ts::plan {

// True for an environment key that makes a program load or run other code than its own
// (the dynamic loader's LD_*, an interpreter's start-up hooks, git's and pip's command hooks).
bool loads_code(std::string_view env_key);

// Each thing in the lock no plan makes, one sentence each naming the step or key; empty when none.
std::vector<std::string> lock_problems(const Plan& p);
// The overlay folder of a build-requires step in the one form the planner writes, else "".
std::string overlay_dir(const Plan& p, const Step& s);

}  // namespace ts::plan

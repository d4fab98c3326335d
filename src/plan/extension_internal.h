#pragma once
// The extension planner's working state, shared by its parts (extension*.cpp). Internal to src/plan.
#include <string>

#include "core/arch_list.h"
#include "plan/contract.h"
#include "compat/host_compiler_rule.h"
#include "plan/plan_core.h"
#include "plan/extension.h"

namespace ts::plan::ext {

// The extension build's parts share the planner core's Ctx (plan_core.h): they read c.req,
// c.recipe and c.fix_set, fill the fields every kind fills and the extension build's own.
using core::Ctx;

// The parts, in the order of the step table's extension rows (steps.cpp).
void choose_torch(Ctx& c);
bool pick_toolkit(Ctx& c);    // plan.toolkit's pick (steps::choose_toolkit)
void take_compiler(Ctx& c, const CompilerFacts& def, const compat::HostGcc& host);  // plan.compiler's ending
// plan.arches' parts (steps::choose_arches): the list read and decided, checked, a CPU build's note.
std::optional<ArchList> read_arches(Ctx& c, const std::string& text);
void check_arch_list(Ctx& c);
void unused_arch_options(Ctx& c);
void choose_env(Ctx& c);
void choose_env_and_abi(Ctx& c);  // choose_env, then the ABI contract check
// plan.fixes' parts (steps::choose_fixes): the package's own fixes chosen, each applied, the arch steering.
std::vector<PlannedFix> select_fixes(Ctx& c, source::FixContext& when);
void apply_fix(Ctx& c, std::size_t i);
void steer_arches(Ctx& c, const source::FixContext& when);
void size_jobs(Ctx& c, const core::JobsFit& f, const compat::JobCost& job, const std::string& src);  // plan.jobs' part
void build_steps(Ctx& c);  // plan.steps' part (steps::choose_steps)
void choose_nvcc_split(Ctx& c);           // speed_split.cpp
void choose_ninja(Ctx& c);                // speed_ninja.cpp
void choose_parallel_extensions(Ctx& c);  // speed_parallel.cpp

// The ninja rule (speed_ninja.cpp), asked by the jobs and the side-by-side parts: the package's
// setup.py turns ninja off (use_ninja=False in the tree's setup.py; without a tree, the recipe's
// serial_build) and no fix turns it on;
// and whether the build helper turns it back on for this build (a setup.py build through the target
// Python, ninja on the build's PATH, not --jobs 1).
// A CMake project with no setup.py or pyproject.toml (the recipe's, or the scanned tree's): the
// plan runs cmake itself and builds a library, not a wheel (extension_steps.cpp).
bool cmake_only_build(const Ctx& c);
bool ninja_off(const Ctx& c);
bool ninja_by_helper(const Ctx& c);

// "80;90" / "8.0;9.0+PTX" / "80;90" (cmake): the recipe's arch_format; "" and *error when unknown.
std::string format_arches(const ArchList& l, const std::string& format, std::string* error);

}  // namespace ts::plan::ext

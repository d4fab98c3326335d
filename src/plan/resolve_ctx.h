#pragma once
// The resolver's working state, shared by its parts (one file per topic). Internal to src/plan.
#include <optional>
#include <string>

#include "core/arch_list.h"
#include "core/version.h"
#include "compat/host_compiler_rule.h"
#include "plan/plan_core.h"
#include "plan/resolve.h"

namespace ts::plan::detail {

// The torch build's parts share the planner core's Ctx (plan_core.h): they read c.in, fill the
// fields every kind fills and the torch build's own (release, cuda_rel, cmake, selected_fixes).
using core::Ctx;
using core::cite;
using core::dir_of;

// Each part, in the order of the step table's torch-build rows (steps.cpp). A part that finds a conflict records it and
// lets the others run, so one plan run reports every conflict at once.
void choose_release(Ctx& c);
void choose_python(Ctx& c);
void choose_features(Ctx& c);
bool pick_toolkit(Ctx& c);    // plan.toolkit's pick and check (steps::choose_toolkit)
void check_toolkit(Ctx& c);
void take_compiler(Ctx& c, const CompilerFacts& def, const compat::HostGcc& host, int lo, int hi);  // plan.compiler's ending
// The user's compiler as its variables name it ("CC=/opt/gcc/bin/gcc") and why it is taken.
std::string user_compiler_vars(const CompilerFacts& cc);
std::string user_compiler_why(const CompilerFacts& cc);
void choose_cmake(Ctx& c);
// plan.arches' parts (steps::choose_arches): the list read and decided, then checked.
std::optional<ArchList> read_arches(Ctx& c, const std::string& text, std::string& src);
void check_arch_list(Ctx& c, const std::string& src);
// plan.fixes' parts (steps::choose_fixes): the KB's fixes chosen, each one's env and CMake options.
std::vector<PlannedFix> select_fixes(Ctx& c, const source::FixContext& when);
void apply_fix(Ctx& c, std::size_t i);
void check_arch_fixes(Ctx& c);  // after plan.fixes: unknown arch names need a fix
void choose_libraries(Ctx& c);
void choose_version(Ctx& c);
void size_jobs(Ctx& c, const core::JobsFit& f, const compat::JobCost& cost, const std::string& src);  // plan.jobs' part
void build_steps(Ctx& c);  // plan.steps' part (steps::choose_steps)

// Helpers.
// "PY -m pip install WHAT", or for an externally managed Python (PEP 668) the venv to make instead.
std::string pip_install(const PythonFacts* py, const std::string& what);

}  // namespace ts::plan::detail

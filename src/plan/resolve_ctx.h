#pragma once
// The resolver's working state, shared by its parts (one file per topic). Internal to src/plan.
#include <optional>
#include <string>

#include "core/arch_list.h"
#include "core/version.h"
#include "plan/plan_core.h"
#include "plan/resolve.h"

namespace ts::plan::detail {

// The torch build's parts share the planner core's Ctx (plan_core.h): they read c.in, fill the
// fields every kind fills and the torch build's own (release, cuda_rel, cmake, selected_fixes).
using core::Ctx;
using core::cite;
using core::dir_of;
using core::ver;

// Each part, in the order of the step table's torch-build rows (steps.cpp). A part that finds a conflict records it and
// lets the others run, so one plan run reports every conflict at once.
void choose_release(Ctx& c);
void choose_python(Ctx& c);
void choose_features(Ctx& c);
void choose_toolkit(Ctx& c);
void choose_compiler(Ctx& c);
void choose_cmake(Ctx& c);
void choose_arches(Ctx& c);
void choose_fixes(Ctx& c);
void check_arch_fixes(Ctx& c);  // after choose_fixes: unknown arch names need a fix
void choose_libraries(Ctx& c);
void choose_version(Ctx& c);
void choose_jobs(Ctx& c);
void choose_steps(Ctx& c);

// Helpers.
// "PY -m pip install WHAT", or for an externally managed Python (PEP 668) the venv to make instead.
std::string pip_install(const PythonFacts* py, const std::string& what);

}  // namespace ts::plan::detail

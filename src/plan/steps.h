#pragma once
// The planner's steps: one table (steps.cpp) for every kind of plan, each row a rule id, the part
// that runs under it and the kinds it runs in. A step both kinds take states its rule once; what a
// kind does differently is that kind's override (Spack's CudaPackage: the rule once, the package
// overrides where it differs). Internal to src/plan.
#include "plan/plan_core.h"

namespace ts::plan::steps {

using core::Ctx;

// Runs the table's steps of c.kind (core::run: in order, each under its rule id).
void run(Ctx& c);
// The table itself, every kind's rows (for tests and docs).
std::span<const core::PlanStep> table();

// The steps every kind takes.
void choose_toolkit(Ctx& c);   // plan.toolkit (choose_toolkit.cpp)
void choose_compiler(Ctx& c);  // plan.compiler (choose_compiler.cpp)
void choose_arches(Ctx& c);    // plan.arches (choose_arches.cpp)
void choose_fixes(Ctx& c);     // plan.fixes (choose_fixes.cpp)
void choose_jobs(Ctx& c);      // plan.jobs (choose_jobs.cpp)
void choose_steps(Ctx& c);     // plan.steps (choose_steps.cpp)

}  // namespace ts::plan::steps

// resolve(): the torch build as a kind of plan — its steps, declared for the planner core's runner.
#include "plan/resolve.h"

#include "plan/resolve_ctx.h"

namespace ts::plan {

namespace {

using core::Ctx;
using core::PlanStep;

bool no_release(const Ctx& c) { return !c.release; }  // nothing else can be judged without its facts
bool bad_spec(const Ctx& c) { return !c.out.bad_spec.empty(); }

// The steps in dependency order, each under its own rule id, which its decisions and conflicts
// carry. A step whose answer the rest needs stops the run when it has none.
constexpr PlanStep kTorchBuild[] = {
    {"plan.release", detail::choose_release, nullptr, no_release},
    {"plan.features", detail::choose_features, nullptr, bad_spec},
    {"plan.python", detail::choose_python},
    {"plan.toolkit", detail::choose_toolkit},
    {"plan.compiler", detail::choose_compiler},
    {"plan.cmake", detail::choose_cmake},
    {"plan.arches", detail::choose_arches, nullptr, bad_spec},
    {"plan.fixes", detail::choose_fixes},
    {"plan.arch_fixes", detail::check_arch_fixes},
    {"plan.libraries", detail::choose_libraries},
    {"plan.version", detail::choose_version},
    {"plan.scale", core::scale_step},
    {"plan.jobs", detail::choose_jobs},
    {"plan.steps", detail::choose_steps},
};

}  // namespace

PlanResult resolve(const Inputs& in) {
  PlanResult r;
  r.plan.spec = in.spec;
  r.plan.torch_version = in.spec.version;
  Ctx c(in.facts, in.kb, r);
  c.in = &in;
  c.scale = in.scale;
  c.cuda_on = true;  // until choose_features finds the build is CPU-only
  core::run(c, kTorchBuild);
  return r;
}

}  // namespace ts::plan

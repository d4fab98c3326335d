// resolve(): the torch build as a kind of plan: its inputs on the planner core's Ctx, then the
// step table's torch-build rows (steps.cpp).
#include "plan/resolve.h"

#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan {

PlanResult resolve(const Inputs& in) {
  PlanResult r;
  r.plan.spec = in.spec;
  r.plan.torch_version = in.spec.version;
  core::Ctx c(in.facts, in.kb, r);
  c.in = &in;
  c.scale = in.scale;
  c.cuda_on = true;  // until choose_features finds the build is CPU-only
  c.kind = core::kTorchBuild;
  steps::run(c);
  return r;
}

}  // namespace ts::plan

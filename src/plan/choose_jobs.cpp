// MAX_JOBS from memory, not cores: usable memory (cgroup and --mem-budget applied) over the
// per-job cost of the resources.toml model; nvcc jobs cost more with every arch they compile.
#include <algorithm>
#include <cmath>

#include "compat/facts_util.h"
#include "compat/jobs_rule.h"
#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"
#include "plan/steps.h"

namespace ts::plan {
namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}  // namespace
}  // namespace ts::plan

namespace ts::plan::detail {

using compat::num;

// A torch build's jobs: MAX_JOBS, --jobs over the model said, a Debug build's and a small disk's warnings.
void size_jobs(Ctx& c, const core::JobsFit& f, const compat::JobCost& cost, const std::string& src) {
  const auto& m = c.in->kb.resources;
  const std::string& from = f.mem.what;
  const std::string& per = cost.what;
  int by_mem = f.fit.by_mem;
  int jobs = f.fit.jobs;
  std::string why = f.fit.why + ": MAX_JOBS=" + std::to_string(jobs) +
                    (by_mem < f.cores ? " (MAX_JOBS=$(nproc) would run out of memory and freeze the machine)" : "");
  if (c.spec().jobs > 0) {
    jobs = c.spec().jobs;
    core::warn_jobs_over_memory(c, jobs, c.spec().origin_of("jobs"), f, why, src);
    why = "asked for (" + c.spec().origin_of("jobs") + "); the memory model allows " + std::to_string(std::max(by_mem, 1));
  }
  if (by_mem < 1)
    c.warn("jobs", "1", "not even one " + per + " fits in " + from + ": the compiler may be OOM-killed; free memory or add swap", src,
           compat::kJobsRule);
  jobs = core::with_remote_slots(c, jobs);
  c.p.jobs = jobs;
  c.set_env("MAX_JOBS", std::to_string(jobs), why, src, compat::kJobsRule);
  if (c.spec().build_type == spec::BuildType::debug)
    c.warn("jobs", "Debug build", "-O0 -g objects are large and Debug builds have hit internal compiler errors; "
           "if one appears, retry the file with fewer jobs", "pytorch/pytorch#85674");
  for (const auto& d : c.facts().disks)
    if (d.purpose == "cwd" && m.torch_build_disk_gib > 0 && d.free_bytes / kGiB < m.torch_build_disk_gib)
      c.warn("disk", compat::gib(d.free_bytes) + " free at " + d.path,
             "a CUDA build of torch needs about " + num(m.torch_build_disk_gib) + " GiB (source, build/, wheel)", src);
}

}  // namespace ts::plan::detail

namespace ts::plan::steps {

using compat::num;

// plan.jobs, the rule once for every kind: compile jobs from memory, not cores (compat's jobs.memory:
// what the build may use, cgroup and --mem-budget applied, over one job's cost: the recipe's figure
// when it has one, else the KB's model for C++ or nvcc with this many arches). Kinds differ in what
// else the memory carries and which knobs get the count: a torch build's MAX_JOBS; an extension's
// nvcc --threads beside its jobs, its recipe's knobs and a setup.py that compiles one file at a time.
void choose_jobs(Ctx& c) {
  const auto& m = c.kb().resources;
  compat::JobCost cost;
  std::string src;
  if (c.recipe && c.recipe->mem_per_job) {
    double g = static_cast<double>(c.recipe->mem_per_job) / kGiB;
    cost = {g, num(g) + " GiB per job (the recipe's figure for " + c.recipe->name + ")"};
    src = c.recipe_source();
  } else {
    cost = compat::job_cost(m, c.cuda_on, static_cast<int>(c.arches.size()));
    src = core::cite(m.source, m.origin);
  }
  const core::JobsFit f = core::fit_jobs(c, c.in ? c.spec().mem_budget_bytes : c.req->mem_budget_bytes, cost);
  if (c.kind == core::kTorchBuild)
    detail::size_jobs(c, f, cost, src);
  else
    ext::size_jobs(c, f, cost, src);
}

}  // namespace ts::plan::steps

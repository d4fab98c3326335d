// MAX_JOBS from memory, not cores: usable memory (cgroup and --mem-budget applied) over the
// per-job cost of the resources.toml model; nvcc jobs cost more with every arch they compile.
#include <algorithm>
#include <cmath>

#include "compat/facts_util.h"
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

using compat::num;

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}  // namespace

void choose_jobs(Ctx& c) {
  const auto& m = c.in.kb.resources;
  const auto& mem = c.facts().memory;
  std::string src = cite(m.source, m.origin);
  int cores = std::max(compat::usable_cores(c.facts().cpu), 1);
  std::uint64_t usable = mem.usable_bytes ? mem.usable_bytes : mem.available_bytes;
  std::string from = compat::gib(usable) + " usable" +
                     (mem.cgroup_limit_bytes ? " (cgroup limit " + compat::gib(mem.cgroup_limit_bytes) + ")" : "");
  if (c.spec().mem_budget_bytes && (!usable || c.spec().mem_budget_bytes < usable)) {
    usable = c.spec().mem_budget_bytes;
    from = compat::gib(usable) + " (--mem-budget)";
  }
  int n = std::max<int>(1, static_cast<int>(c.arches.size()));
  double cost = m.cxx_job_gib;
  std::string per = num(cost) + " GiB per C++ job";
  if (c.cuda_on) {
    double nv = m.nvcc_job_gib + m.nvcc_arch_gib * (n - 1);
    if (nv > cost) {
      cost = nv;
      per = num(nv) + " GiB per nvcc job with " + std::to_string(n) + " arch" + (n > 1 ? "es" : "");
    }
  }
  int by_mem = usable && cost > 0 ? static_cast<int>(std::floor(usable / kGiB / cost)) : cores;
  int jobs = std::clamp(by_mem, 1, cores);
  std::string why = from + " / " + per + " = " + std::to_string(std::max(by_mem, 0)) + " jobs, " +
                    std::to_string(cores) + " cores: MAX_JOBS=" + std::to_string(jobs) +
                    (by_mem < cores ? " (MAX_JOBS=$(nproc) would run out of memory and freeze the machine)" : "");
  if (c.spec().jobs > 0) {
    jobs = c.spec().jobs;
    if (jobs > std::max(by_mem, 1))
      c.warn("jobs", std::to_string(jobs), "asked for (" + c.spec().origin_of("jobs") + "), but the memory model allows " +
             std::to_string(std::max(by_mem, 1)) + ": " + why, src);
    why = "asked for (" + c.spec().origin_of("jobs") + "); the memory model allows " + std::to_string(std::max(by_mem, 1));
  }
  if (by_mem < 1)
    c.warn("jobs", "1", "not even one " + per + " fits in " + from + ": the compiler may be OOM-killed; free memory or add swap", src);
  c.p.jobs = jobs;
  c.set_env("MAX_JOBS", std::to_string(jobs), why, src);
  if (c.spec().build_type == spec::BuildType::debug)
    c.warn("jobs", "Debug build", "-O0 -g objects are large and Debug builds have hit internal compiler errors; "
           "if one appears, retry the file with fewer jobs", "pytorch/pytorch#85674");
  for (const auto& d : c.facts().disks)
    if (d.purpose == "cwd" && m.torch_build_disk_gib > 0 && d.free_bytes / kGiB < m.torch_build_disk_gib)
      c.warn("disk", compat::gib(d.free_bytes) + " free at " + d.path,
             "a CUDA build of torch needs about " + num(m.torch_build_disk_gib) + " GiB (source, build/, wheel)", src);
}

}  // namespace ts::plan::detail

#include "compat/jobs_rule.h"

#include <algorithm>
#include <cmath>

#include "compat/facts_util.h"

namespace ts::compat {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}

UsableMemory usable_memory(const MemoryFacts& m, std::uint64_t budget_bytes) {
  UsableMemory u;
  u.bytes = m.usable_bytes ? m.usable_bytes : m.available_bytes;
  u.what = gib(u.bytes) + " usable" + (m.cgroup_limit_bytes ? " (cgroup limit " + gib(m.cgroup_limit_bytes) + ")" : "");
  if (budget_bytes && (!u.bytes || budget_bytes < u.bytes)) {
    u.bytes = budget_bytes;
    u.what = gib(u.bytes) + " (--mem-budget)";
  }
  return u;
}

JobCost job_cost(const kb::ResourceModel& m, bool cuda, int arches) {
  int n = std::max(arches, 1);
  JobCost c{m.cxx_job_gib, num(m.cxx_job_gib) + " GiB per C++ job"};
  if (cuda) {
    double nv = m.nvcc_job_gib + m.nvcc_arch_gib * (n - 1);
    if (nv > c.gib)
      c = {nv, num(nv) + " GiB per nvcc job with " + std::to_string(n) + " arch" + (n > 1 ? "es" : "")};
  }
  return c;
}

JobCost job_cost_of(const kb::ResourceModel& m, bool nvcc) {
  return nvcc ? JobCost{m.nvcc_job_gib, num(m.nvcc_job_gib) + " GiB per nvcc job"}
              : JobCost{m.cxx_job_gib, num(m.cxx_job_gib) + " GiB per C++ job"};
}

JobsForMemory jobs_for_memory(std::uint64_t usable_bytes, const std::string& usable_what, int cores,
                              const JobCost& cost) {
  JobsForMemory r;
  bool known = usable_bytes > 0 && cost.gib > 0;
  r.by_mem = known ? static_cast<int>(std::floor(static_cast<double>(usable_bytes) / kGiB / cost.gib))
                   : std::max(cores, 1);
  r.jobs = std::max(r.by_mem, 1);
  if (cores > 0) r.jobs = std::min(r.jobs, cores);
  r.why = usable_what + " / " + cost.what + " = " + std::to_string(std::max(r.by_mem, 0)) + " jobs";
  if (cores > 0) r.why += ", " + std::to_string(cores) + " cores";
  return r;
}

int jobs_after_oom(int ran, int by_mem) {
  int half = std::max(1, ran / 2);
  return by_mem > 0 ? std::max(1, std::min(half, by_mem)) : half;
}

}  // namespace ts::compat

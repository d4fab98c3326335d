// Memory -> how many compile jobs a torch build can afford; free disk vs what a CUDA build needs.
#include <algorithm>
#include <cmath>

#include "compat/assess.h"
#include "compat/facts_util.h"
#include "compat/jobs_rule.h"

namespace ts::compat {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}

void check_resources(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out) {
  const kb::ResourceModel& m = kb.resources;
  const UsableMemory mem = usable_memory(f.memory);
  const std::uint64_t usable = mem.bytes;
  int cores = usable_cores(f.cpu);
  if (usable > 0 && m.cxx_job_gib > 0 && cores > 0) {
    // Doctor knows no plan: the dearer of a C++ job and a one-arch nvcc job.
    JobCost cost = job_cost(m, true, 1);
    double per_job = cost.gib;
    JobsForMemory fit = jobs_for_memory(usable, mem.what, cores, cost);
    int by_mem = fit.by_mem;
    int jobs = fit.jobs;
    Verdict v{"memory",       "memory for parallel compile jobs", Level::ok, "", "", m.source,
              where(m.origin)};
    char per[16];
    std::snprintf(per, sizeof per, "%.1f", per_job);
    v.reason = mem.what + ", " + per +
               " GiB per compile job: MAX_JOBS=" + std::to_string(jobs) + " of " +
               std::to_string(cores) + " cores";
    if (by_mem < 1) {
      v.level = Level::fail;
      v.reason += "; not even one job fits, the compiler will be OOM-killed";
      v.fix = "free memory or add swap; a torch build needs at least " + std::string(per) + " GiB";
    } else if (by_mem < cores) {
      v.level = Level::warn;
      v.reason += "; MAX_JOBS=" + std::to_string(cores) +
                  " (all cores) would run out of memory and freeze or OOM-kill the build";
      v.fix = "build with MAX_JOBS=" + std::to_string(jobs) + " (torchsmith plan --jobs auto does)";
    }
    v.rule = fit.rule;
    out.push_back(v);
  }
  for (const auto& d : f.disks) {
    double need = d.purpose == "tmp" ? m.tmp_disk_gib : m.torch_build_disk_gib;
    if (need <= 0) continue;
    double free_gib = static_cast<double>(d.free_bytes) / kGiB;
    Verdict v{"disk",
              "free disk at " + d.path + " (" + d.purpose + ")",
              Level::ok,
              "",
              "",
              m.source,
              where(m.origin),
              "disk.free"};
    char buf[96];
    std::snprintf(
        buf, sizeof buf, "%s free, a CUDA build needs about %.0f GiB %s", gib(d.free_bytes).c_str(),
        need, d.purpose == "tmp" ? "for nvcc's temporary files" : "for source, build/ and wheel");
    v.reason = buf;
    if (free_gib < need) {
      v.level = d.purpose == "tmp" ? Level::warn : Level::fail;
      v.fix = d.purpose == "tmp"
                  ? "point TMPDIR at a larger disk (torchsmith build does: <out>/tmp)"
                  : "free space, or build with --out on a larger disk";
    }
    out.push_back(v);
  }
}

}  // namespace ts::compat

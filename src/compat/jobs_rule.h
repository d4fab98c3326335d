#pragma once
// The one memory-to-jobs rule (rule id "jobs.memory"): how many compile jobs a machine's memory
// carries, by the KB's per-job model (resources.toml). Doctor's verdict, both planners, triage's
// specialised fix and the run's out-of-memory retry all ask it, so they cannot disagree.
#include <cstdint>
#include <string>

#include "core/host_facts.h"
#include "kb/kb.h"

namespace ts::compat {

inline constexpr const char* kJobsRule = "jobs.memory";

// The memory a build may use: the probe's usable figure (cgroup limit applied), else what is
// available; a smaller --mem-budget (budget_bytes, 0 = none) replaces it. `what` says which:
// "20.0 GiB usable (cgroup limit 24.0 GiB)", "8.0 GiB (--mem-budget)".
struct UsableMemory {
  std::uint64_t bytes = 0;  // 0 = unknown
  std::string what;
};
UsableMemory usable_memory(const MemoryFacts& m, std::uint64_t budget_bytes = 0);

// What one compile job costs: a host C++ job, or an nvcc job compiling `arches` arches (each arch
// past the first adds nvcc_arch_gib); the dearer of the two when the build compiles CUDA.
struct JobCost {
  double gib = 0;
  std::string what;  // "3.0 GiB per nvcc job with 2 arches", "2.5 GiB per C++ job"
};
JobCost job_cost(const kb::ResourceModel& m, bool cuda, int arches);
// The same for one kind of compile only (triage knows which compiler was killed).
JobCost job_cost_of(const kb::ResourceModel& m, bool nvcc);

struct JobsForMemory {
  int by_mem = 0;  // floor(usable / cost); 0 when not even one job fits; cores when memory is unknown
  int jobs = 1;    // by_mem clamped to [1, cores] (cores <= 0: unknown, no upper clamp)
  std::string why;  // "20.0 GiB usable / 2.5 GiB per C++ job = 8 jobs, 2 cores"
  std::string rule = kJobsRule;
};
// usable_what: how the memory figure reads ("20.0 GiB usable (cgroup limit 24.0 GiB)").
JobsForMemory jobs_for_memory(std::uint64_t usable_bytes, const std::string& usable_what, int cores,
                              const JobCost& cost);

// After an out-of-memory kill: half of what ran (at least 1), and never more than memory carries
// when that is known (fit.by_mem > 0).
int jobs_after_oom(int ran, int by_mem = 0);

}  // namespace ts::compat

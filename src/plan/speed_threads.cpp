#include "plan/speed_threads.h"

#include <algorithm>
#include <cmath>

#include "compat/facts_util.h"

namespace ts::plan {

using compat::num;

JobsThreads balance_jobs_threads(const JobsThreadsInput& in) {
  JobsThreads r;
  int cores = std::max(in.cores, 1);
  int n = std::max(in.arches, 1);
  bool mem_known = in.usable_gib > 0 && in.job_gib > 0;
  double per_thread = in.job_gib * std::max(in.thread_factor, 0.0);
  // How many threads of one job fit in memory (unknown memory: no limit from it).
  int fit = mem_known && per_thread > 0 ? static_cast<int>(std::floor(in.usable_gib / per_thread)) : n;
  r.threads = std::clamp(std::min({n, cores, fit}), 1, n);
  double job_cost = per_thread * r.threads;
  int by_mem = mem_known && job_cost > 0 ? static_cast<int>(std::floor(in.usable_gib / job_cost)) : cores;
  // Jobs x threads about the cores: a rounding up keeps every core busy while one job is in its
  // host (one-thread) part.
  int by_cores = (cores + r.threads - 1) / r.threads;
  r.jobs = std::clamp(std::min(by_mem, by_cores), 1, cores);
  r.why = std::to_string(cores) + " cores";
  if (mem_known)
    r.why += ", " + num(in.usable_gib) + " GiB / (" + num(in.job_gib) + " GiB per job x " +
             std::to_string(r.threads) + " thread(s) x " + num(in.thread_factor) + ")";
  r.why += ": " + std::to_string(r.jobs) + " job(s) x " + std::to_string(r.threads) + " nvcc thread(s) for " +
           std::to_string(n) + " arch(es)";
  if (r.threads < n)
    r.why += fit < n && fit < cores ? " (memory allows no more threads)" : " (no more cores for threads)";
  return r;
}

}  // namespace ts::plan

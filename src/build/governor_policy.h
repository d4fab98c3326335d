#pragma once
// The governor's decision, as a pure function of what it sees: memory headroom, a budget and the
// live compile jobs. It pauses the youngest jobs (SIGSTOP) when headroom falls below a low-water
// mark and resumes the oldest paused ones above a high-water mark. It never kills, and never
// pauses the last running job, so the build always makes progress.
#include <cstdint>
#include <optional>
#include <vector>

#include "build/memory.h"

namespace ts::build {

struct Job {
  int pid = 0;
  std::uint64_t start = 0;  // start time (clock ticks since boot): larger = younger
  std::uint64_t rss = 0;    // bytes
  bool paused = false;
};

struct GovernorConfig {
  std::uint64_t budget = 0;      // bytes the jobs together may hold; 0 = only the machine's memory
  std::uint64_t reserve = 0;     // MemAvailable to leave to the rest of the machine
  std::uint64_t low_water = 0;   // pause below this headroom
  std::uint64_t high_water = 0;  // resume above this headroom (> low_water: hysteresis)
  double psi_limit = 40;         // PSI some avg10 (%) above which memory counts as short
  // What one job is expected to peak at (the plan's memory model); 0 = learn it from finished
  // jobs. Pausing frees nothing, so without it the marks alone must absorb the paused jobs' RSS.
  std::uint64_t job_estimate = 0;
  // Sensible marks for a budget: low 10%, high 25% of it (at least 64/160 MiB).
  static GovernorConfig for_budget(std::uint64_t budget, std::uint64_t reserve = 0);
};

struct Decision {
  std::vector<int> pause, resume;  // pids
  std::uint64_t headroom = 0;      // what the decision was based on
};

class GovernorPolicy {
 public:
  explicit GovernorPolicy(GovernorConfig c) : c_(c) {
    if (c.job_estimate) estimate_ = c.job_estimate;
  }
  // One tick: `mem` is the machine's reading, `jobs` the live jobs (their paused flags as we left them).
  Decision decide(const MemReading& mem, const std::vector<Job>& jobs);
  // A job ended: its peak RSS teaches the policy what a job needs.
  void job_finished(std::uint64_t peak_rss);
  std::optional<std::uint64_t> job_estimate() const { return estimate_; }
  const GovernorConfig& config() const { return c_; }

 private:
  std::uint64_t need(const Job& j) const;  // what j may still grow by (0 while nothing is known)
  GovernorConfig c_;
  std::optional<std::uint64_t> estimate_;  // largest peak seen of a finished job
};

}  // namespace ts::build

#include "build/governor_policy.h"

#include <algorithm>
#include <limits>

namespace ts::build {

GovernorConfig GovernorConfig::for_budget(std::uint64_t budget, std::uint64_t reserve) {
  constexpr std::uint64_t MiB = 1 << 20;
  GovernorConfig c;
  c.budget = budget;
  c.reserve = reserve;
  std::uint64_t base = budget ? budget : 4096 * MiB;  // no budget: marks sized for a 4 GiB margin
  c.low_water = std::max<std::uint64_t>(base / 10, 64 * MiB);
  c.high_water = std::max<std::uint64_t>(base / 4, 160 * MiB);
  return c;
}

void GovernorPolicy::job_finished(std::uint64_t peak_rss) {
  if (peak_rss == 0) return;
  estimate_ = std::max(estimate_.value_or(0), peak_rss);
}

std::uint64_t GovernorPolicy::need(const Job& j) const {
  return estimate_ && *estimate_ > j.rss ? *estimate_ - j.rss : 0;
}

Decision GovernorPolicy::decide(const MemReading& mem, const std::vector<Job>& jobs) {
  Decision d;
  std::int64_t headroom = std::numeric_limits<std::int64_t>::max();
  auto clamp = [&](std::int64_t v) { headroom = std::min(headroom, v); };
  clamp(static_cast<std::int64_t>(mem.headroom()) - static_cast<std::int64_t>(c_.reserve));
  if (c_.budget) {
    std::uint64_t held = 0;
    for (const auto& j : jobs) held += j.rss;
    clamp(static_cast<std::int64_t>(c_.budget) - static_cast<std::int64_t>(held));
  }
  d.headroom = headroom > 0 ? static_cast<std::uint64_t>(headroom) : 0;
  const auto low = static_cast<std::int64_t>(c_.low_water), high = static_cast<std::int64_t>(c_.high_water);
  // A job above the estimate shows the estimate was low.
  if (estimate_)
    for (const auto& j : jobs) estimate_ = std::max(*estimate_, j.rss);
  // With an estimate, the room left after every running job reaches it does not change as they
  // grow, so it needs no hysteresis band: only a margin for the estimate's error.
  const std::int64_t margin = low / 4;
  bool pressure = mem.psi_some_avg10 && *mem.psi_some_avg10 > c_.psi_limit;

  std::vector<const Job*> running, paused;
  for (const auto& j : jobs) (j.paused ? paused : running).push_back(&j);
  auto older = [](const Job* a, const Job* b) { return a->start != b->start ? a->start < b->start : a->pid < b->pid; };
  std::sort(running.begin(), running.end(), older);
  std::sort(paused.begin(), paused.end(), older);

  // What the running jobs may still take, when a finished job told us what one needs.
  std::int64_t committed = 0;
  for (const Job* j : running) committed += static_cast<std::int64_t>(need(*j));

  // Pause: the youngest first, while the room left after their growth is below low water.
  if ((estimate_ ? headroom - committed < margin : headroom < low) || pressure) {
    // Without an estimate, one per tick; all but the oldest when it is critical (half of low water).
    bool critical = headroom < low / 2 || pressure;
    while (running.size() > 1) {
      const Job* y = running.back();
      d.pause.push_back(y->pid);
      committed -= static_cast<std::int64_t>(need(*y));
      running.pop_back();
      if (estimate_ ? headroom - committed >= margin && !pressure : !critical) break;
    }
    if (!d.pause.empty()) return d;  // never pause and resume in one tick
  }

  // Resume: the oldest paused first. With nothing running, one resumes whatever memory says.
  for (const Job* p : paused) {
    // With an estimate, resume when its whole growth still leaves the margin (so it will not be
    // paused again); without one, only above high water.
    bool fits = estimate_ ? headroom - committed - static_cast<std::int64_t>(need(*p)) >= margin
                          : headroom > high;
    if (!running.empty() && !fits) break;
    d.resume.push_back(p->pid);
    committed += static_cast<std::int64_t>(need(*p));
    running.push_back(p);
    if (!estimate_) break;  // without an estimate, one per tick: let memory show its growth first
  }
  return d;
}

}  // namespace ts::build

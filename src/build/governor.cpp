#include "build/governor.h"

#include <signal.h>

#include <cstdio>

#include "build/proc_tree.h"

namespace ts::build {

std::string GovernorAction::line() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1fs ", t);
  return buf + what + " " + std::to_string(pid) + " (" + comm + ") rss " + format_mib(rss) +
         ", headroom " + format_mib(headroom);
}

std::string GovernorState::text() const {
  return std::to_string(running) + " running" + (paused ? ", " + std::to_string(paused) + " paused" : "");
}

Governor::Governor(GovernorConfig c, MemoryReader reader, Log log, std::string proc_root)
    : policy_(c), reader_(std::move(reader)), log_(std::move(log)), proc_root_(std::move(proc_root)) {}

Governor::~Governor() { stop(); }

void Governor::stop() {
  for (int pid : std::set<int>(paused_)) act("resume", pid, SIGCONT, 0);
  paused_.clear();
  pgid_ = 0;
}

void Governor::act(const char* what, int pid, int sig, std::uint64_t rss) {
  GovernorAction a;
  a.t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  a.what = what;
  a.pid = pid;
  if (auto it = seen_.find(pid); it != seen_.end()) a.comm = it->second.comm;
  a.rss = rss;
  a.headroom = last_headroom_;
  // ESRCH: it ended meanwhile; nothing to undo.
  if (::kill(pid, sig) != 0) return;
  if (sig == SIGSTOP) paused_.insert(pid); else paused_.erase(pid);
  actions_.push_back(a);
  if (log_) log_(a);
}

void Governor::tick() {
  if (pgid_ <= 0) return;
  reading_ = reader_.read();
  auto group = list_tree(pgid_, proc_root_);
  auto procs = job_processes(group, pgid_);
  std::vector<Job> jobs;
  std::map<int, Seen> live;
  for (const auto& p : procs) {
    Seen s = seen_.count(p.pid) && seen_[p.pid].start == p.start ? seen_[p.pid] : Seen{p.start, 0, p.comm};
    s.peak = std::max(s.peak, p.rss);
    live[p.pid] = s;
    jobs.push_back({p.pid, p.start, p.rss, paused_.count(p.pid) > 0});
  }
  for (const auto& [pid, s] : seen_)  // ended since the last tick: its peak is what a job needs
    if (!live.count(pid)) { policy_.job_finished(s.peak); paused_.erase(pid); }
  seen_ = std::move(live);

  Decision d = policy_.decide(reading_, jobs);
  last_headroom_ = d.headroom;
  auto rss_of = [&](int pid) {
    for (const auto& j : jobs)
      if (j.pid == pid) return j.rss;
    return std::uint64_t(0);
  };
  for (int pid : d.pause) act("pause", pid, SIGSTOP, rss_of(pid));
  for (int pid : d.resume) act("resume", pid, SIGCONT, rss_of(pid));

  state_ = {};
  state_.headroom = d.headroom;
  for (const auto& j : jobs) {
    state_.jobs_rss += j.rss;
    (paused_.count(j.pid) ? state_.paused : state_.running)++;
  }
}

}  // namespace ts::build

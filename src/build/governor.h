#pragma once
// The governor's driver: each tick it reads memory and the build's process tree, asks the
// policy (governor_policy.h) and sends SIGSTOP/SIGCONT. Every action is logged. On stop() or
// destruction every job it paused is resumed: it never leaves a stopped process behind.
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "build/governor_policy.h"
#include "build/memory.h"

namespace ts::build {

struct GovernorAction {
  double t = 0;            // seconds since the governor started
  std::string what;        // "pause" | "resume"
  int pid = 0;
  std::string comm;
  std::uint64_t rss = 0, headroom = 0;
  std::string line() const;  // "12.3s pause 4711 (cc1plus) rss 812 MiB, headroom 120 MiB"
};

struct GovernorState {
  int running = 0, paused = 0;
  std::uint64_t jobs_rss = 0, headroom = 0;
  std::string text() const;  // "3 running, 1 paused"
};

class Governor {
 public:
  using Log = std::function<void(const GovernorAction&)>;
  Governor(GovernorConfig c, MemoryReader reader, Log log = {}, std::string proc_root = "/proc");
  ~Governor();
  Governor(const Governor&) = delete;
  Governor& operator=(const Governor&) = delete;

  // Governs the process tree under pgid (the step's own process, never paused itself).
  void attach(int pgid) { pgid_ = pgid; }
  void tick();
  void stop();  // resumes all it paused; later ticks do nothing until attach()

  const std::vector<GovernorAction>& actions() const { return actions_; }
  const GovernorState& state() const { return state_; }
  const MemReading& last_reading() const { return reading_; }

 private:
  void act(const char* what, int pid, int sig, std::uint64_t rss);
  GovernorPolicy policy_;
  MemoryReader reader_;
  Log log_;
  std::string proc_root_;
  int pgid_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  struct Seen { std::uint64_t start = 0, peak = 0; std::string comm; };
  std::map<int, Seen> seen_;  // live jobs by pid, with their peak RSS
  std::set<int> paused_;
  std::vector<GovernorAction> actions_;
  GovernorState state_;
  MemReading reading_;
  std::uint64_t last_headroom_ = 0;
};

}  // namespace ts::build

// The governor on real processes: 4 jobs that each grow to 200 MiB, under a 500 MiB budget.
#include "build/governor.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <set>
#include <thread>

#include "build/runner.h"
#include "triage/signature.h"
#include "util/fs.h"

using namespace ts::build;

TEST(Governor, KeepsJobsUnderTheBudgetByPausingAndResuming) {
  constexpr std::uint64_t MiB = 1 << 20;
  const std::uint64_t budget = 500 * MiB;
  auto c = GovernorConfig::for_budget(budget);
  c.job_estimate = 200 * MiB;  // what the plan's memory model would say
  Governor g(c, MemoryReader());
  std::uint64_t peak = 0;
  StepSpec s{"build",
             {"/bin/sh", std::string(TS_SOURCE_DIR) + "/tests/build/fixtures/alloc_jobs.sh", "4", "200", "10", "40", "300"},
             {{"PATH", "/usr/bin:/bin"}},
             ""};
  RunnerOptions o;
  o.governor = &g;
  o.tick_ms = 25;
  o.status = [&](const Status& st) { peak = std::max(peak, st.governor->jobs_rss); };
  auto r = run_step(s, o);
  EXPECT_TRUE(r.ok()) << r.error << " exit " << r.exit_code << " signal " << r.signal;
  int pauses = 0, resumes = 0;
  for (const auto& a : g.actions()) (a.what == "pause" ? pauses : resumes)++;
  EXPECT_GT(pauses, 0);
  EXPECT_EQ(pauses, resumes);  // everything paused came back
  EXPECT_LE(peak, budget);
  EXPECT_GT(peak, 350 * MiB);  // it did let more than one job run
  EXPECT_LT(r.seconds, 20.0);
  for (const auto& a : g.actions()) std::printf("  %s\n", a.line().c_str());
  std::printf("  peak %s of %s in %.1f s\n", format_mib(peak).c_str(), format_mib(budget).c_str(), r.seconds);
}

// A fatal line while the governor holds a job paused: the paused job is resumed so that the
// termination reaches it, and nothing of the step is left behind.
TEST(Governor, EarlyStopLeavesNoStoppedProcess) {
  constexpr std::uint64_t MiB = 1 << 20;
  auto c = GovernorConfig::for_budget(300 * MiB);
  c.job_estimate = 200 * MiB;
  Governor g(c, MemoryReader());
  std::vector<std::string> errors;
  static const ts::triage::Engine engine(ts::triage::load_signatures({}, errors));
  std::string alloc = std::string(TS_SOURCE_DIR) + "/tests/build/fixtures/alloc.py";
  StepSpec s{"build",
             {"/bin/sh", "-c",
              // The oldest job prints the failure once grown (a `sleep` here would be a leaf job too).
              "python3 \"$1\" 200 10 50 20000 \"$2\" & python3 \"$1\" 200 10 50 20000 & wait",
              "sh", alloc, "c++: fatal error: Killed signal terminated program cc1plus"},
             {{"PATH", "/usr/bin:/bin"}},
             ""};
  RunnerOptions o;
  o.governor = &g;
  o.engine = &engine;
  o.tick_ms = 25;
  o.kill_grace_ms = 1000;
  auto r = run_step(s, o);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_EQ(r.fatal_id, "OOM_CC1PLUS_KILLED");
  EXPECT_LT(r.seconds, 5.0);
  std::set<int> pids;
  for (const auto& a : g.actions()) pids.insert(a.pid);
  EXPECT_FALSE(pids.empty()) << "the second job should have been paused";
  for (int i = 0; i < 50; ++i) {
    bool left = false;
    for (int pid : pids) left |= ::kill(pid, 0) == 0 && ts::util::read_file_prefix("/proc/" + std::to_string(pid) + "/stat", 512).value_or("").find(") Z") == std::string::npos;
    if (!left) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_LT(i, 49) << "a governed process outlived the step";
  }
}

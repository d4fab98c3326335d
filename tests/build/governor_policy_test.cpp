#include "build/governor_policy.h"

#include <gtest/gtest.h>

using namespace ts::build;

namespace {

constexpr std::uint64_t MiB = 1 << 20;

MemReading plenty() {
  MemReading m;
  m.available = 64ull << 30;
  return m;
}

GovernorConfig cfg() {
  GovernorConfig c;
  c.budget = 1000 * MiB;
  c.low_water = 100 * MiB;
  c.high_water = 250 * MiB;
  return c;
}

}  // namespace

TEST(GovernorPolicy, NothingToDoWithRoom) {
  GovernorPolicy p(cfg());
  auto d = p.decide(plenty(), {{1, 10, 100 * MiB}, {2, 20, 100 * MiB}});
  EXPECT_TRUE(d.pause.empty());
  EXPECT_TRUE(d.resume.empty());
  EXPECT_EQ(d.headroom, 800 * MiB);
}

TEST(GovernorPolicy, PausesTheYoungestBelowLowWater) {
  GovernorPolicy p(cfg());
  // 920 MiB held: headroom 80 < low 100 but not critical (< 50): one per tick, the youngest.
  auto d = p.decide(plenty(), {{1, 10, 300 * MiB}, {3, 30, 310 * MiB}, {2, 20, 310 * MiB}});
  EXPECT_EQ(d.pause, std::vector<int>{3});
  EXPECT_TRUE(d.resume.empty());
}

TEST(GovernorPolicy, CriticalPausesAllButTheOldest) {
  GovernorPolicy p(cfg());
  auto d = p.decide(plenty(), {{1, 10, 330 * MiB}, {3, 30, 330 * MiB}, {2, 20, 330 * MiB}});
  EXPECT_EQ(d.pause, (std::vector<int>{3, 2}));
}

TEST(GovernorPolicy, NeverPausesTheLastRunningOne) {
  GovernorPolicy p(cfg());
  auto d = p.decide(plenty(), {{1, 10, 990 * MiB}, {2, 20, 5 * MiB, true}});
  EXPECT_TRUE(d.pause.empty());
  EXPECT_TRUE(d.resume.empty());  // and nothing resumes into no room
}

TEST(GovernorPolicy, HysteresisBetweenTheMarks) {
  GovernorPolicy p(cfg());
  // Headroom 200: above low (no pause), below high (no resume).
  auto d = p.decide(plenty(), {{1, 10, 400 * MiB}, {2, 20, 400 * MiB, true}});
  EXPECT_TRUE(d.pause.empty());
  EXPECT_TRUE(d.resume.empty());
  // Headroom 300 > high: the oldest paused comes back, one per tick.
  d = p.decide(plenty(), {{1, 10, 300 * MiB}, {3, 30, 200 * MiB, true}, {2, 20, 200 * MiB, true}});
  EXPECT_EQ(d.resume, std::vector<int>{2});
}

TEST(GovernorPolicy, ResumesWhenNothingRuns) {
  GovernorPolicy p(cfg());
  auto d = p.decide(plenty(), {{2, 20, 950 * MiB, true}, {3, 30, 10 * MiB, true}});
  EXPECT_EQ(d.resume, std::vector<int>{2});  // progress first, whatever memory says
}

TEST(GovernorPolicy, MachineMemoryAndReserveCount) {
  GovernorConfig c = cfg();
  c.budget = 0;
  c.reserve = 500 * MiB;
  GovernorPolicy p(c);
  MemReading m;
  m.available = 560 * MiB;  // 60 MiB over the reserve: below low water, not critical
  auto d = p.decide(m, {{1, 10, 10 * MiB}, {2, 20, 10 * MiB}});
  EXPECT_EQ(d.pause, std::vector<int>{2});
  EXPECT_EQ(d.headroom, 60 * MiB);
  m.cg_max = 1000 * MiB;  // a cgroup with less room than the machine
  m.cg_current = 990 * MiB;
  m.available = 64ull << 30;
  d = p.decide(m, {{1, 10, 10 * MiB}, {2, 20, 10 * MiB}});
  EXPECT_EQ(d.headroom, 0u);
  EXPECT_EQ(d.pause, std::vector<int>{2});
}

TEST(GovernorPolicy, PressurePausesEvenWithRoom) {
  GovernorPolicy p(cfg());
  MemReading m = plenty();
  m.psi_some_avg10 = 75;
  auto d = p.decide(m, {{1, 10, MiB}, {2, 20, MiB}, {3, 30, MiB}});
  EXPECT_EQ(d.pause, (std::vector<int>{3, 2}));
}

TEST(GovernorPolicy, LearnedPeakPlansAhead) {
  GovernorPolicy p(cfg());
  p.job_finished(400 * MiB);
  ASSERT_EQ(p.job_estimate(), 400 * MiB);
  // Three jobs at 100 MiB each will need 300 more each: 300 + 900 > 1000 - 100. Pause until the
  // rest fits: two running need 600, headroom 700 - 600 = 100 >= low.
  auto d = p.decide(plenty(), {{1, 10, 100 * MiB}, {2, 20, 100 * MiB}, {3, 30, 100 * MiB}});
  EXPECT_EQ(d.pause, std::vector<int>{3});
  // When the first ends, the paused one fits again.
  d = p.decide(plenty(), {{2, 20, 390 * MiB}, {3, 30, 100 * MiB, true}});
  EXPECT_EQ(d.resume, std::vector<int>{3});
}

TEST(GovernorPolicy, MarksForABudget) {
  auto c = GovernorConfig::for_budget(1000 * MiB);
  EXPECT_EQ(c.low_water, 100 * MiB);
  EXPECT_EQ(c.high_water, 250 * MiB);
  EXPECT_LT(c.low_water, c.high_water);
}

#include "build/eta.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace ts::build;

namespace {

// A serial build of 40 fast edges (1 s) then 40 slow ones (10 s), as .ninja_log text.
std::string fast_then_slow_log(double scale = 1.0) {
  std::string t = "# ninja log v5\n";
  long now = 0;
  for (int i = 0; i < 80; ++i) {
    long d = long((i < 40 ? 1000 : 10000) * scale);
    t += std::to_string(now) + "\t" + std::to_string(now + d) + "\t1\tobj" + std::to_string(i) +
         ".o\t" + std::to_string(1000 + i) + "\n";
    now += d;
  }
  return t;
}

NinjaProgress progress(long done, long total, double elapsed) {
  NinjaProgress p;
  p.done = done;
  p.total = total;
  p.elapsed = elapsed;
  p.rate = elapsed > 0 ? double(done) / elapsed : 0;
  return p;
}

}  // namespace

TEST(Eta, HistoryFromLogWeightsEdgesByDuration) {
  History h = history_from(parse_ninja_log(fast_then_slow_log()));
  ASSERT_EQ(h.seconds.size(), 80u);
  EXPECT_DOUBLE_EQ(h.total, 440.0);
  EXPECT_DOUBLE_EQ(h.seconds.front(), 1.0);
  EXPECT_DOUBLE_EQ(h.seconds.back(), 10.0);
  EXPECT_EQ(h.edge_of.at("obj79.o"), 79u);
}

TEST(Eta, NoHistoryUsesTheRate) {
  EtaEstimator est;
  auto e = est.estimate(progress(40, 80, 40));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->method, EtaMethod::rate);
  EXPECT_NEAR(e->seconds, 40, 1e-9);
  EXPECT_FALSE(est.estimate(progress(0, 80, 5)));  // nothing finished: no estimate
  EXPECT_DOUBLE_EQ(est.estimate(progress(80, 80, 400))->seconds, 0);
}

// This run is 20% faster than the recorded one; fast edges first, slow last. At every point the
// history ETA is closer to the true time left than the rate ETA.
TEST(Eta, HistoryBeatsRateWhenSlowTargetsComeLast) {
  History h = history_from(parse_ninja_log(fast_then_slow_log()));
  const double speed = 0.8;
  for (int done : {10, 40, 50, 70}) {
    double elapsed = 0, all = 0;
    for (int i = 0; i < 80; ++i) {
      double d = (i < 40 ? 1.0 : 10.0) * speed;
      if (i < done) elapsed += d;
      all += d;
    }
    double truth = all - elapsed;
    NinjaProgress p = progress(done, 80, elapsed);

    EtaEstimator rate_only;
    double rate_err = std::abs(rate_only.estimate(p)->seconds - truth);

    EtaEstimator by_count(h);
    auto c = by_count.estimate(p);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->method, EtaMethod::history_count);
    double count_err = std::abs(c->seconds - truth);

    EtaEstimator by_names(h);
    for (int i = 0; i < done; ++i) by_names.finished("obj" + std::to_string(i) + ".o");
    auto n = by_names.estimate(p);
    ASSERT_TRUE(n);
    EXPECT_EQ(n->method, EtaMethod::history_names);
    double names_err = std::abs(n->seconds - truth);

    EXPECT_LT(count_err, rate_err) << "done " << done;
    EXPECT_LT(names_err, rate_err) << "done " << done;
    EXPECT_LT(names_err, 0.01 * truth + 1e-6) << "done " << done;  // exact up to the speed-up
    if (done == 40) {
      EXPECT_NEAR(rate_err, 288, 1e-6);  // rate says 32 s; 320 s are left
      EXPECT_NEAR(n->seconds, 320, 1e-6);
    }
  }
}

// Names win over count when this run's order differs from the recorded one.
TEST(Eta, NamesFollowTheActualOrder) {
  History h = history_from(parse_ninja_log(fast_then_slow_log()));
  // This run did ten slow edges first (100 s): 40 fast and 30 slow are left (340 s).
  EtaEstimator est(h);
  for (int i = 70; i < 80; ++i) est.finished("obj" + std::to_string(i) + ".o");
  est.finished("obj70.o");  // repeated: counted once
  auto e = est.estimate(progress(10, 80, 100));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->method, EtaMethod::history_names);
  EXPECT_NEAR(e->seconds, 340, 1e-6);
  EXPECT_NEAR(e->work_fraction, 100.0 / 440.0, 1e-9);
}

TEST(Eta, HistoryOfAnotherTreeFallsBackToRate) {
  History h = history_from(parse_ninja_log(fast_then_slow_log()));
  EtaEstimator est(h);
  for (int i = 0; i < 10; ++i) est.finished("other" + std::to_string(i) + ".o");
  est.finished("obj0.o");
  auto e = est.estimate(progress(11, 80, 11));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->method, EtaMethod::rate);
  // A build ten times smaller than the history is not described by it either (count method).
  EtaEstimator small(h);
  EXPECT_EQ(small.estimate(progress(2, 8, 2))->method, EtaMethod::rate);
}

TEST(Eta, IncrementalBuildScalesTheRemainingWork) {
  History h = history_from(parse_ninja_log(fast_then_slow_log()));
  // Only 4 edges to rebuild: 2 fast done in 2 s, 2 of the unfinished left (mean of the rest).
  EtaEstimator est(h);
  est.finished("obj0.o");
  est.finished("obj1.o");
  auto e = est.estimate(progress(2, 4, 2));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->method, EtaMethod::history_names);
  EXPECT_NEAR(e->seconds, 2 * (438.0 / 78.0), 1e-6);
}

TEST(Eta, Text) {
  EXPECT_EQ(format_duration(45), "45s");
  EXPECT_EQ(format_duration(750), "12m 30s");
  EXPECT_EQ(format_duration(7500), "2h 05m");
  EXPECT_EQ(format_duration(-1), "?");
  EXPECT_EQ((Eta{750, EtaMethod::history_names, 0.5}.text()), "12m 30s (history)");
}

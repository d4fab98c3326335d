#include "report/run_text.h"

#include <gtest/gtest.h>

#include "run_sample.h"

using namespace ts::report;

TEST(RunText, SummarisesTheRun) {
  RunRecord r = sample::sample_record();
  std::string t = render_run_text(r, {}, {r.run_dir + "/run.json", r.run_dir + "/report.html"});
  for (const char* want : {"build torch==2.4.1: failed in 20m 35s", "slowest step: build 19m 50s",
                           "retries: 1 (OOM kill", "memory governor: 2 actions", "ccache: 75% hits (300 of 400)",
                           "cause: oom-killed: the compiler was killed", "fix:   lower MAX_JOBS",
                           "/runs/2025-01-02T030405/run.json", "/runs/2025-01-02T030405/report.html"})
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  EXPECT_EQ(t.find('\x1b'), std::string::npos);  // no colour unless asked
  EXPECT_LE(std::count(t.begin(), t.end(), '\n'), 10);
}

TEST(RunText, OkRunIsShortAndControlBytesAreNeutralised) {
  RunRecord r;
  r.what = "./detectron2\x1b]0;pwned\x07";
  r.outcome = "ok";
  r.seconds = 42;
  std::string t = render_run_text(r);
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
  EXPECT_EQ(t.find('\x07'), std::string::npos);
  EXPECT_NE(t.find(": ok in 42.0s"), std::string::npos) << t;
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 1);
  Style colour{true};
  EXPECT_NE(render_run_text(r, colour).find("\x1b["), std::string::npos);
}

// Issue 21 (8): with the disk full the summary pointed to a run.json that was never written.
TEST(RunText, PointsOnlyToTheRunFilesThatWereWritten) {
  RunRecord r = sample::sample_record();
  std::string t = render_run_text(r, {}, {r.run_dir + "/report.html"});
  EXPECT_EQ(t.find(r.run_dir + "/run.json"), std::string::npos) << t;
  EXPECT_NE(t.find("run.json:    not written"), std::string::npos) << t;
  EXPECT_NE(t.find(r.run_dir + "/report.html"), std::string::npos) << t;
  std::string none = render_run_text(r);
  EXPECT_EQ(none.find(r.run_dir + "/"), std::string::npos) << none;
}

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

// Issue 37 (2): a successful build hands over the artifact: path, size, sha256, the install line
// and the torch it was built against; a torch mismatch found by verify is said.
TEST(RunText, SuccessHandsOverTheArtifact) {
  RunRecord r;
  r.what = "hello_ext against torch 1.13.1";
  r.outcome = "ok";
  r.seconds = 30;
  r.artifact_files = {{"dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl",
                       "/o/dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl", 12650,
                       std::string(64, 'a'),
                       "/usr/bin/python3 -m pip install /o/dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl",
                       "torch 1.13 (CPU)"}};
  r.checks = nlohmann::json::array(
      {{{"check", "torch of wheel"}, {"outcome", "warn"}, {"detail", "built for torch 1.13 (CPU), this environment has torch 2.6.0 (CPU)"}}});
  std::string t = render_run_text(r);
  for (const char* want : {"artifact: /o/dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl (12 KiB)\n",
                           "sha256:   aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
                           "install:  /usr/bin/python3 -m pip install /o/dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl\n",
                           "built against torch 1.13 (CPU)",
                           "warning: built for torch 1.13 (CPU), this environment has torch 2.6.0 (CPU)"})
    EXPECT_NE(t.find(want), std::string::npos) << want << "\n" << t;
  EXPECT_EQ(t.find("next:"), std::string::npos) << t;
}

// On a failure: the compiler's error at the user's own path (not the copy in OUT/src), and the
// command to run after the fix (the run's own, with --resume); never an option build lacks.
TEST(RunText, FailureNamesTheUsersFileAndTheNextCommand) {
  RunRecord r;
  r.what = "hello_ext against torch 1.13.1";
  r.outcome = "failed";
  r.source_dir = "/home/u/hello_ext";
  r.source_copy = "/tmp/out/src";
  r.command = {"torchsmith", "build", "/home/u/hello_ext", "--torch", "/usr/bin/python3", "--out", "/tmp/my out"};
  r.diagnosis = {{"root_cause",
                  {{"id", "CXX_SYNTAX_ERROR"},
                   {"cause", "a syntax error"},
                   {"fix", "correct the source"},
                   {"evidence",
                    {{{"line", 40}, {"text", "/tmp/out/src/hello_ext.cpp:4:12: error: expected ';' before '}' token"}}}}}}};
  r.artifact_files = {{"dist/old.whl", "/tmp/out/dist/old.whl", 1, "x", "pip install x", ""}};  // an earlier run's
  std::string t = render_run_text(r);
  EXPECT_NE(t.find("error in your source: /home/u/hello_ext/hello_ext.cpp:4:12: expected ';' before '}' token"),
            std::string::npos) << t;
  EXPECT_EQ(t.find("/tmp/out/src/hello_ext.cpp"), std::string::npos) << t;
  EXPECT_NE(t.find("next:     fix the cause above, then: torchsmith build /home/u/hello_ext --torch /usr/bin/python3 "
                   "--out '/tmp/my out' --resume\n"),
            std::string::npos) << t;
  EXPECT_EQ(t.find("--all"), std::string::npos) << t;
  EXPECT_EQ(t.find("artifact:"), std::string::npos) << t;  // a failed run hands over nothing
}

TEST(RunText, SizesReadAsPeopleWriteThem) {
  EXPECT_EQ(size_text(812), "812 bytes");
  EXPECT_EQ(size_text(12650), "12 KiB");
  EXPECT_EQ(size_text(5000), "4.9 KiB");
  EXPECT_EQ(size_text(45ull << 20), "45 MiB");
  EXPECT_EQ(size_text((12ull << 30) / 10), "1.2 GiB");
}

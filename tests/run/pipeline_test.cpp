// run_build's loop through a scripted StepRunner on the real disk (RealWorld): Ctrl-C and resume,
// verify's report, no retry without auto-fix, with no cmake, ninja or compiler.
#include "run/pipeline.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fake_step_runner.h"
#include "report/run_text.h"
#include "run/journal.h"
#include "run/own_cause.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

using testing::FakeStepRunner;
using testing::Scripted;

const std::vector<std::string> kSteps{"fetch", "fix", "configure", "build", "package", "verify"};

plan::Plan six_steps() {
  plan::Plan p;
  p.jobs = 8;
  p.env = {{"MAX_JOBS", "8"}};
  p.steps = {{"fetch", {"git", "clone", "https://example.invalid/x", "{src}"}, "", ""},
             {"fix", {"torchsmith", "fix", "{src}"}, "", ""},
             {"configure", {"cmake", "-S", ".", "-B", "build"}, "{src}", ""},
             {"build", {"cmake", "--build", "build"}, "{src}", ""},
             {"package", {"torchsmith", "repair", "x.whl", "-o", "{dist}"}, "", ""},
             {"verify", {"torchsmith", "verify", "x.whl"}, "", ""}};
  return p;
}

struct Fixture {
  testkit::TempDir dir{"ts-pipeline"};
  std::atomic<bool> cancel{false};
  FakeStepRunner fake;
  std::vector<std::string> said;
  BuildOptions opts() {
    BuildOptions o = scripted_build_options(dir / "out", &fake, &said);
    o.cancel = &cancel;
    fake.cancel_flag = &cancel;
    return o;
  }
};

std::vector<std::string> statuses(const BuildOutcome& r) {
  std::vector<std::string> v;
  for (const auto& s : r.record.steps) v.push_back(s.status);
  return v;
}

// A diagnosis whose root cause carries the halve_jobs remedy.
struct OomDiagnosis : testing::OneRootDiagnosis {
  OomDiagnosis() : OneRootDiagnosis("OOM_CC1PLUS_KILLED", triage::RemedyKind::halve_jobs) {}
};

TEST(Pipeline, AllStepsRunInOrderThroughTheRunner) {
  Fixture f;
  BuildOutcome r = run_build(six_steps(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.names(), kSteps);
  EXPECT_EQ(statuses(r), std::vector<std::string>(6, "ok"));
  EXPECT_EQ(r.record.outcome, "ok");
  // torchsmith's own steps run as this binary; verify is asked for its JSON report.
  const auto& verify = f.fake.calls.back().argv;
  EXPECT_EQ(verify.front(), "/nonexistent/torchsmith");
  EXPECT_NE(std::find(verify.begin(), verify.end(), "--report"), verify.end());
}

// Resume after a failure in each step and a remedy's retry run over the in-memory world
// (world_test.cpp: InMemoryRun.*); these tests keep the loop honest on the disk, git and journal.

TEST(Pipeline, NoRetryWhenAutoFixIsOff) {
  Fixture f;
  OomDiagnosis oom;
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = oom.d});
  BuildOptions o = f.opts();
  o.retry.auto_fix = false;
  BuildOutcome r = run_build(six_steps(), o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"fetch", "fix", "configure", "build"}));
  EXPECT_TRUE(r.record.retries.empty());
}

TEST(Pipeline, CtrlCStopsCleanlyAndResumeContinuesAtTheInterruptedStep) {
  Fixture f;
  f.fake.script["build"].push_back({.cancel = true});
  BuildOutcome r = run_build(six_steps(), f.opts());
  EXPECT_EQ(r.exit_code, 130);
  EXPECT_EQ(r.record.outcome, "interrupted");
  EXPECT_EQ(statuses(r), (std::vector<std::string>{"ok", "ok", "ok", "interrupted"}));
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"fetch", "fix", "configure", "build"}));
  Journal j = load_journal(f.dir / "out/journal.json", nullptr);
  EXPECT_EQ(j.find("build")->status, "interrupted");
  EXPECT_EQ(j.active_pgid, 0);
  // The report is on disk even though the run stopped.
  EXPECT_TRUE(util::read_file(r.run_dir + "/run.json").has_value());

  f.cancel = false;
  f.fake.calls.clear();
  BuildOptions o = f.opts();
  o.resume = true;
  BuildOutcome again = run_build(six_steps(), o);
  ASSERT_EQ(again.exit_code, 0) << again.error;
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "package", "verify"}));
}

TEST(Pipeline, AVerifyFailureReachesTheSummaryFromItsJson) {
  Fixture f;
  nlohmann::json report = {{"verdicts",
                            {{{"check", "import simple_knn"}, {"outcome", "fail"}, {"detail", "No module named simple_knn"},
                              {"file", "simple_knn-0.1-cp311-linux_x86_64.whl"}},
                             {{"check", "abi"}, {"outcome", "ok"}, {"detail", "cxx11"}}}}};
  f.fake.script["verify"].push_back({.exit_code = 1, .report_json = report.dump()});
  BuildOutcome r = run_build(six_steps(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.record.steps.back().note,
            "1 check failed: simple_knn-0.1-cp311-linux_x86_64.whl: import simple_knn (No module named simple_knn)");
  ASSERT_TRUE(r.record.checks.is_array());
  EXPECT_EQ(r.record.checks.size(), 2u);
  EXPECT_FALSE(r.record.verdicts.empty());
  auto run_json = util::read_file(r.run_dir + "/run.json");
  ASSERT_TRUE(run_json.has_value());
  EXPECT_NE(run_json->find("No module named simple_knn"), std::string::npos);
}

std::string root_id(const BuildOutcome& r) {
  const auto& d = r.record.diagnosis;
  return d.is_object() && d.contains("root_cause") && d["root_cause"].is_object() ? d["root_cause"].value("id", "") : "";
}

// repair refuses a wheel with no compiled code under a CUDA plan in its own words, which no signature
// knows: the run's cause: line names that refusal, not the closing "output: not written" line.
TEST(Pipeline, ARepairRefusalIsTheRunsCause) {
  Fixture f;
  f.fake.script["package"].push_back(
      {.exit_code = 1,
       .log = "pass  wheel     x-0.1-py3-none-any.whl: 5 files, x-0.1.dist-info\n"
              "FAIL  extension x-0.1-py3-none-any.whl holds no compiled extension, but the plan builds CUDA code "
              "(CUDA 13.0, arches 8.6): the build compiled none of it\n"
              "FAIL  output    not written: a check failed\nrepair failed: no wheel written\n"});
  BuildOutcome r = run_build(six_steps(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(root_id(r), "PACKAGE_REFUSED");
  const std::string text = report::render_run_text(r.record, report::Style{}, {});
  EXPECT_NE(text.find("cause: PACKAGE_REFUSED: torchsmith's package step refused: extension: x-0.1-py3-none-any.whl "
                      "holds no compiled extension, but the plan builds CUDA code"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("not written: a check failed"), std::string::npos) << text;
}

// A refusal before any check (repair's bad input, on stderr into the log) is named the same way.
TEST(Pipeline, ARepairErrorIsTheRunsCause) {
  Fixture f;
  f.fake.script["package"].push_back({.exit_code = 2, .log = "torchsmith repair: x.whl: not a wheel (no .dist-info)\n"});
  BuildOutcome r = run_build(six_steps(), f.opts());
  EXPECT_EQ(root_id(r), "PACKAGE_REFUSED");
  EXPECT_NE(r.record.diagnosis["root_cause"].value("cause", "").find("x.whl: not a wheel"), std::string::npos);
}

// verify's failed checks, from its JSON, are the cause when its log names nothing triage knows.
TEST(Pipeline, AVerifyRefusalIsTheRunsCause) {
  Fixture f;
  nlohmann::json report = {{"verdicts",
                            {{{"check", "cuda-code"}, {"outcome", "fail"},
                              {"detail", "the plan builds CUDA code and _C.so holds none"}, {"file", "x.whl"}}}}};
  f.fake.script["verify"].push_back({.exit_code = 1, .report_json = report.dump()});
  BuildOutcome r = run_build(six_steps(), f.opts());
  EXPECT_EQ(root_id(r), "VERIFY_REFUSED");
  EXPECT_NE(report::render_run_text(r.record, report::Style{}, {}).find("x.whl: cuda-code (the plan builds CUDA code"),
            std::string::npos);
}

// Near misses: another program's failed step whose log holds a FAIL line is triage's (no cause of
// torchsmith's made up), and a torchsmith step whose log and report state no failure gets none.
TEST(Pipeline, NoOwnCauseForAnotherProgramOrAnUnstatedFailure) {
  Fixture f;
  f.fake.script["build"].push_back({.exit_code = 1, .log = "FAIL  test_ops  3 of 10\n"});
  EXPECT_EQ(root_id(run_build(six_steps(), f.opts())), "");
  Fixture g;
  g.fake.script["verify"].push_back({.exit_code = 3});
  EXPECT_EQ(root_id(run_build(six_steps(), g.opts())), "");
  EXPECT_TRUE(own_failures("pass  wheel x.whl\nok    abi cxx11\nFAILED: build.ninja\n").empty());
}

TEST(Pipeline, AVerifyFailureWithoutItsJsonSaysTheExitCode) {
  Fixture f;
  f.fake.script["verify"].push_back({.exit_code = 3});
  BuildOutcome r = run_build(six_steps(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.record.steps.back().note, "exit 3");
  EXPECT_TRUE(r.record.checks.is_null());
}

}  // namespace
}  // namespace ts::run

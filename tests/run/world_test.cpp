// run_build over the in-memory world (fake_world.h): resume after each step (a failure, a kill -9),
// a changed input, Ctrl-C and a remedy retry, each run in memory and timed: under 50 ms a scenario
// (a first run and its resume), asserted here and printed. The out directory lies under /proc, where nothing can be created: a write that
// missed the world would fail the run or leave it on the disk, and the tests check neither happened.
#include "run/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "fake_world.h"
#include "run/journal.h"

namespace ts::run {
namespace {

using testing::FakeWorld;
using testing::Killed;
using testing::scripted_build_options;

const std::vector<std::string> kSteps{"fetch", "fix", "configure", "build", "package", "verify"};
const std::string kOut = "/proc/torchsmith-world-test/out";

plan::Plan six_steps() {
  plan::Plan p;
  p.jobs = 8;
  p.env = {{"MAX_JOBS", "8"}, {"CFLAGS", "-O2"}};
  p.steps = {{"fetch", {"git", "clone", "https://example.invalid/x", "{src}"}, "", ""},
             {"fix", {"torchsmith", "fix", "{src}"}, "", ""},
             {"configure", {"cmake", "-S", ".", "-B", "build"}, "{src}", ""},
             {"build", {"cmake", "--build", "build"}, "{src}", ""},
             {"package", {"torchsmith", "repair", "x.whl", "-o", "{dist}"}, "", ""},
             {"verify", {"torchsmith", "verify", "x.whl"}, "", ""}};
  return p;
}

struct InMemoryRun : ::testing::Test {
  FakeWorld world;
  std::atomic<bool> cancel{false};
  std::vector<std::string> said;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  BuildOptions opts(bool resume = false) {
    BuildOptions o = scripted_build_options(kOut, nullptr, &said);
    o.cancel = &cancel;
    o.world = &world;
    o.resume = resume;
    world.cancel_flag = &cancel;
    return o;
  }
  BuildOutcome build(bool resume = false, const plan::Plan& p = six_steps()) {
    world.calls.clear();
    return run_build(p, opts(resume));
  }
  Journal journal() { return parse_journal(world.read(kOut + "/journal.json"), "journal", nullptr); }

  // Each scenario answers in milliseconds: the time since the last one ended, asserted and printed.
  void scenario_done(const std::string& what = "") {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
    std::printf("[   time   ] %s%s: %.2f ms\n", ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                what.empty() ? "" : (" (" + what + ")").c_str(), ms);
    EXPECT_LT(ms, 50.0) << what;
  }
  void TearDown() override {
    if (!timed) scenario_done();
    EXPECT_FALSE(std::filesystem::exists("/proc/torchsmith-world-test"));
  }
  bool timed = false;  // the test timed its scenarios itself
};

std::vector<std::string> statuses(const BuildOutcome& r) {
  std::vector<std::string> v;
  for (const auto& s : r.record.steps) v.push_back(s.status);
  return v;
}

std::vector<std::string> from(std::size_t k) { return {kSteps.begin() + static_cast<long>(k), kSteps.end()}; }

TEST_F(InMemoryRun, ARunLeavesItsJournalLockAndReportInTheWorld) {
  BuildOutcome r = build();
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(world.names(), kSteps);
  EXPECT_EQ(statuses(r), std::vector<std::string>(6, "ok"));
  Journal j = journal();
  ASSERT_EQ(j.steps.size(), 6u);
  for (const auto& s : j.steps) EXPECT_EQ(s.status, "ok") << s.name;
  EXPECT_TRUE(world.files.count(kOut + "/plan.lock.json"));
  EXPECT_TRUE(world.files.count(r.run_dir + "/run.json"));
  EXPECT_TRUE(world.files.count(r.run_dir + "/logs/04-build.log"));
  // The world's clock is the run's: six attempts of two seconds each.
  EXPECT_DOUBLE_EQ(r.record.seconds, 12.0);
  EXPECT_DOUBLE_EQ(r.record.steps[3].seconds, 2.0);
  // The memory reading the run records is the world's.
  ASSERT_FALSE(r.record.memory.empty());
  EXPECT_EQ(r.record.memory.front().available_bytes, world.mem.available);
  EXPECT_TRUE(world.locked.empty());  // both locks released with the run
}

TEST_F(InMemoryRun, ResumeAfterAFailureInEachStepRunsFromThatStep) {
  for (std::size_t k = 0; k < kSteps.size(); ++k) {
    SCOPED_TRACE("failing step " + kSteps[k]);
    world = FakeWorld{};
    world.script[kSteps[k]].push_back({.exit_code = 1});
    BuildOutcome first = build();
    EXPECT_EQ(first.exit_code, 1);
    EXPECT_EQ(journal().find(kSteps[k])->status, "failed");
    BuildOutcome second = build(true);
    ASSERT_EQ(second.exit_code, 0) << second.error;
    EXPECT_EQ(world.names(), from(k));
    auto st = statuses(second);
    for (std::size_t i = 0; i < kSteps.size(); ++i) EXPECT_EQ(st[i], i < k ? "skipped" : "ok") << kSteps[i];
    scenario_done(kSteps[k]);
  }
  timed = true;
}

TEST_F(InMemoryRun, ResumeAfterAKillNineInEachStepStopsItsLeftoversAndRedoesIt) {
  for (std::size_t k = 0; k < kSteps.size(); ++k) {
    SCOPED_TRACE("killed in " + kSteps[k]);
    world = FakeWorld{};
    world.killed_in.insert(kSteps[k]);
    EXPECT_THROW(build(), Killed);
    // What the killed run left: the step running, its process group and run id journaled.
    Journal left = journal();
    ASSERT_NE(left.find(kSteps[k]), nullptr);
    EXPECT_EQ(left.find(kSteps[k])->status, "running");
    EXPECT_GT(left.active_pgid, 0);
    EXPECT_FALSE(left.active_run.empty());
    EXPECT_TRUE(world.locked.empty());  // the kernel drops an flock with its holder

    world.killed_in.clear();
    BuildOutcome again = build(true);
    ASSERT_EQ(again.exit_code, 0) << again.error;
    ASSERT_EQ(world.stopped.size(), 1u);
    EXPECT_EQ(world.stopped[0], std::make_pair(left.active_pgid, left.active_run));
    EXPECT_EQ(world.names(), from(k));
    EXPECT_EQ(journal().active_pgid, 0);
    scenario_done(kSteps[k]);
  }
  timed = true;
}

TEST_F(InMemoryRun, AChangedInputRedoesTheStepsItFeedsAndNoOthers) {
  const std::string src = kOut + "/src";
  world.heads[src] = "1111111";
  ASSERT_EQ(build().exit_code, 0);
  EXPECT_EQ(build(true).exit_code, 0);
  EXPECT_TRUE(world.names().empty()) << "nothing changed, nothing runs";

  world.heads[src] = "2222222";  // a new commit: every step that reads the tree
  EXPECT_EQ(build(true).exit_code, 0);
  EXPECT_EQ(world.names(), from(1));

  // The fix journal changed (a fix reverted): the steps after fix, not fix itself.
  world.files[src + "/.torchsmith/journal.json"] = "{\"fixes\": []}";
  EXPECT_EQ(build(true).exit_code, 0);
  EXPECT_EQ(world.names(), from(2));

  // The job count is not part of what is built: nothing runs again.
  plan::Plan fewer = six_steps();
  fewer.jobs = 2;
  fewer.env["MAX_JOBS"] = "2";
  EXPECT_EQ(build(true, fewer).exit_code, 0);
  EXPECT_TRUE(world.names().empty());

  // A flag that changes the output: the plan changed, every step runs.
  plan::Plan debug = six_steps();
  debug.env["CFLAGS"] = "-O0 -g";
  EXPECT_EQ(build(true, debug).exit_code, 0);
  EXPECT_EQ(world.names(), kSteps);
}

TEST_F(InMemoryRun, CtrlCStopsCleanlyAndResumeContinuesAtTheInterruptedStep) {
  world.script["build"].push_back({.cancel = true});
  BuildOutcome r = build();
  EXPECT_EQ(r.exit_code, 130);
  EXPECT_EQ(statuses(r), (std::vector<std::string>{"ok", "ok", "ok", "interrupted"}));
  Journal j = journal();
  EXPECT_EQ(j.find("build")->status, "interrupted");
  EXPECT_EQ(j.active_pgid, 0);
  EXPECT_NE(world.read(r.run_dir + "/run.json").value_or("").find("\"interrupted\""), std::string::npos);

  cancel = false;
  BuildOutcome again = build(true);
  ASSERT_EQ(again.exit_code, 0) << again.error;
  EXPECT_EQ(world.names(), from(3));
  EXPECT_TRUE(world.stopped.empty());  // a clean stop leaves no process behind
}

TEST_F(InMemoryRun, ARemedyRetriesTheStepWithFewerJobsAndResumeKeepsIt) {
  triage::Signature sig;
  sig.id = "OOM_CC1PLUS_KILLED";
  sig.remedy.kind = triage::RemedyKind::halve_jobs;
  triage::Finding f;
  f.id = sig.id;
  f.sig = &sig;
  f.remedy = sig.remedy;
  triage::Diagnosis oom;
  oom.findings.push_back(f);
  oom.root_count = 1;
  world.script["build"].push_back({.exit_code = 1, .diagnosis = oom});
  world.script["build"].push_back({.exit_code = 1, .diagnosis = oom});
  world.script["build"].push_back({.exit_code = 1});  // the third attempt fails with nothing to try

  BuildOutcome r = build();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(world.names(), (std::vector<std::string>{"fetch", "fix", "configure", "build", "build", "build"}));
  EXPECT_EQ(world.calls[3].env.at("MAX_JOBS"), "8");
  EXPECT_EQ(world.calls[4].env.at("MAX_JOBS"), "4");
  EXPECT_EQ(world.calls[5].env.at("MAX_JOBS"), "2");
  ASSERT_EQ(r.record.retries.size(), 2u);
  EXPECT_EQ(r.record.retries[1].remedy, "halve_jobs");
  EXPECT_DOUBLE_EQ(r.record.steps[3].seconds, 6.0);  // three attempts on the world's clock
  EXPECT_TRUE(world.files.count(r.run_dir + "/logs/04-build.retry2.log"));

  // The resumed build starts from build, with the plan's jobs again (a remedy holds for its run).
  BuildOutcome again = build(true);
  ASSERT_EQ(again.exit_code, 0) << again.error;
  EXPECT_EQ(world.names(), from(3));
  EXPECT_EQ(world.calls[0].env.at("MAX_JOBS"), "8");
  scenario_done("two retries, then resume");

  // One retry that works: the steps after it keep the remedy's jobs, and the step says why it ran twice.
  world = FakeWorld{};
  world.script["build"].push_back({.exit_code = 1, .diagnosis = oom});
  BuildOutcome once = build();
  ASSERT_EQ(once.exit_code, 0) << once.error;
  EXPECT_EQ(world.names(), (std::vector<std::string>{"fetch", "fix", "configure", "build", "build", "package", "verify"}));
  EXPECT_EQ(world.calls[5].env.at("MAX_JOBS"), "4");
  EXPECT_EQ(once.record.steps[3].status, "ok");
  EXPECT_EQ(once.record.steps[3].log, "logs/04-build.retry1.log");
  EXPECT_EQ(once.record.steps[3].note, "retried: OOM_CC1PLUS_KILLED: jobs 8 -> 4");
  scenario_done("one retry that works");
  timed = true;
}

TEST_F(InMemoryRun, TheWheelPlaceholdersNameTheNewestWheelAStepLeftAndTheArtifactsAreSummed) {
  plan::Plan p = six_steps();
  p.steps[4].argv = {"torchsmith", "repair", "{built_wheel}", "-o", "{dist}"};
  p.steps[5].argv = {"torchsmith", "verify", "{wheel}"};
  const std::string old_wheel = kOut + "/src/dist/ext-0.9-cp311-cp311-linux_x86_64.whl";
  const std::string built = kOut + "/src/dist/ext-1.0-cp311-cp311-linux_x86_64.whl";
  const std::string packaged = kOut + "/dist/ext-1.0-cp311-cp311-manylinux_2_28_x86_64.whl";
  world.script["fetch"].push_back({.writes = {{old_wheel, "an old wheel"}}});
  world.script["build"].push_back({.writes = {{built, "built bytes"}}});
  world.script["package"].push_back({.writes = {{packaged, "packaged bytes"}}});
  BuildOutcome r = build(false, p);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  auto has = [](const build::StepSpec& c, const std::string& arg) {
    return std::find(c.argv.begin(), c.argv.end(), arg) != c.argv.end();
  };
  EXPECT_TRUE(has(world.calls[4], built)) << "the newest wheel the build left, not the older one";
  EXPECT_TRUE(has(world.calls[5], packaged));
  EXPECT_EQ(r.record.artifacts, std::vector<std::string>{"ext-1.0-cp311-cp311-manylinux_2_28_x86_64.whl"});
  ASSERT_EQ(r.record.artifact_files.size(), 1u);
  EXPECT_EQ(r.record.artifact_files[0].file, "dist/ext-1.0-cp311-cp311-manylinux_2_28_x86_64.whl");
  EXPECT_EQ(r.record.artifact_files[0].size, std::string("packaged bytes").size());
  EXPECT_EQ(r.record.artifact_files[0].sha256, source::sha256_hex("packaged bytes"));

  // Nothing packaged: verify's {wheel} has no value and the step says so instead of running.
  world = FakeWorld{};
  BuildOutcome none = build(false, p);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(world.names(), (std::vector<std::string>{"fetch", "fix", "configure", "build"}));
  EXPECT_NE(none.record.steps.back().note.find("nothing for {built_wheel} yet"), std::string::npos)
      << none.record.steps.back().note;
  // The run's cause: line names it too.
  ASSERT_TRUE(none.record.diagnosis.is_object());
  EXPECT_EQ(none.record.diagnosis["root_cause"].value("id", ""), "PACKAGE_REFUSED");
  EXPECT_NE(none.record.diagnosis["root_cause"].value("cause", "").find("nothing for {built_wheel} yet"), std::string::npos);
}

TEST_F(InMemoryRun, ATreeHeldByAnotherRunIsRefusedAndNothingIsWritten) {
  world.locked.insert(kOut);
  BuildOutcome r = build();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.error.find("another build holds " + kOut), std::string::npos) << r.error;
  EXPECT_TRUE(world.calls.empty());
  EXPECT_TRUE(world.list(kOut + "/runs", false).empty());  // no run directory for a refused run
  EXPECT_FALSE(world.files.count(kOut + "/journal.json"));
}

}  // namespace
}  // namespace ts::run

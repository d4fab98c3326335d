#include "build/runner.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "triage/signature.h"

using namespace ts::build;
namespace fs = std::filesystem;

namespace {

const ts::triage::Engine& engine() {
  static const ts::triage::Engine e = [] {
    std::vector<std::string> errors;
    auto set = ts::triage::load_signatures({}, errors);
    for (const auto& m : errors) ADD_FAILURE() << m;
    return ts::triage::Engine(std::move(set));
  }();
  return e;
}

std::string fixture(const std::string& name) { return std::string(TS_SOURCE_DIR) + "/tests/build/fixtures/" + name; }

std::map<std::string, std::string> base_env() { return {{"PATH", "/usr/bin:/bin"}, {"LC_ALL", "C"}}; }

fs::path temp(const std::string& tag) { return fs::temp_directory_path() / ("ts_runner_" + tag + std::to_string(getpid())); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Runner, StopsEarlyOnAFatalFindingWithTheDiagnosis) {
  fs::path log = temp("oom.log");
  fs::remove(log);
  StepSpec s{"build", {"/bin/sh", fixture("fake_oom_step.sh")}, base_env(), ""};
  RunnerOptions o;
  o.log_path = log.string();
  o.engine = &engine();
  o.kill_grace_ms = 500;
  std::vector<Status> statuses;
  o.status = [&](const Status& st) { statuses.push_back(st); };
  auto r = run_step(s, o);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_EQ(r.fatal_id, "OOM_CC1PLUS_KILLED");
  EXPECT_FALSE(r.ok());
  EXPECT_LT(r.seconds, 10.0);  // the script would drain for 30 s
  ASSERT_TRUE(r.diagnosis.root());
  EXPECT_EQ(r.diagnosis.root()->id, "OOM_CC1PLUS_KILLED");
  ASSERT_TRUE(r.last_progress);
  EXPECT_EQ(r.last_progress->done, 2);
  EXPECT_EQ(r.last_progress->total, 10);
  std::string text = slurp(log);
  EXPECT_NE(text.find("fatal error: Killed signal terminated program cc1plus"), std::string::npos);
  EXPECT_NE(text.find("stopped early after OOM_CC1PLUS_KILLED"), std::string::npos);
  EXPECT_EQ(text.find("build stopped: subcommand failed"), std::string::npos);
  EXPECT_FALSE(statuses.empty());
  fs::remove(log);
}

// A line that names a root cause when the step fails is not always fatal: pip's legacy fallback
// prints "invalid command 'bdist_wheel'" and then installs with setup.py install and succeeds.
TEST(Runner, DoesNotStopABuildThatRecoversFromALegacyPipFallback) {
  fs::path log = temp("bdist.log");
  fs::remove(log);
  StepSpec s{"build", {"/bin/sh", fixture("legacy_pip_fallback.sh")}, base_env(), ""};
  RunnerOptions o;
  o.log_path = log.string();
  o.engine = &engine();
  o.kill_grace_ms = 500;
  auto r = run_step(s, o);
  EXPECT_FALSE(r.stopped_early) << r.fatal_id;
  EXPECT_EQ(r.fatal_id, "");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.ok());
  EXPECT_NE(slurp(log).find("Successfully installed demo_ext-0.1"), std::string::npos);
  // Had it failed, the diagnosis would still name the cause.
  ASSERT_TRUE(r.diagnosis.root());
  EXPECT_EQ(r.diagnosis.root()->id, "PYTHON_BUILD_DEPS_MISSING");
  fs::remove(log);
}

TEST(Runner, ExactEnvironmentArgvAndCwd) {
  fs::path dir = temp("cwd");
  fs::create_directories(dir);
  auto env = base_env();
  env["TS_MARK"] = "a b;$HOME";
  StepSpec s{"configure", {"sh", "-c", "pwd; echo \"$TS_MARK\"; echo \"${HOME-unset}\"; echo err >&2; exit 3"}, env, dir.string()};
  RunnerOptions o;
  o.log_path = (dir / "log").string();
  auto r = run_step(s, o);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.stopped_early);
  std::string text = slurp(dir / "log");
  EXPECT_EQ(text, fs::canonical(dir).string() + "\na b;$HOME\nunset\nerr\n");  // HOME not inherited
  fs::remove_all(dir);
}

TEST(Runner, MissingProgramIsAnError) {
  StepSpec s{"build", {"no-such-tool-xyz"}, base_env(), ""};
  auto r = run_step(s, {});
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("not found"), std::string::npos);
}

TEST(Runner, CleanRunWithNinjaProgress) {
  fs::path dir = temp("ninja");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "build.ninja") << "rule touch\n  command = touch $out\nbuild a: touch\nbuild b: touch a\n";
  ts::plan::Plan p;
  p.env = base_env();
  ts::plan::Step st{"build", {"ninja", "-C", "{src}"}, "{src}", ""};
  StepSpec s = step_from_plan(p, st, dir.string());
  EXPECT_EQ(s.env.at("NINJA_STATUS"), std::string(kNinjaStatus));
  EXPECT_EQ(s.argv[2], dir.string());
  RunnerOptions o;
  o.engine = &engine();
  auto r = run_step(s, o);
  EXPECT_TRUE(r.ok()) << r.error;
  ASSERT_TRUE(r.last_progress);
  EXPECT_EQ(r.last_progress->done, 2);
  EXPECT_FALSE(r.diagnosis.root());
  fs::remove_all(dir);
}

TEST(Runner, StatusLine) {
  Status s;
  s.phase = "build";
  s.progress = NinjaProgress{312, 1800, 4.0, 78};
  s.mem.available = 10ull << 30;
  s.governor = GovernorState{3, 1, 0, 0};
  EXPECT_EQ(format_status(s), "build 0m00s | 312/1800 17% ETA 6m12s | memory: 10.0 GiB free, 1 job paused");
  EXPECT_FALSE(tty_status_printer(-1));  // not a terminal: nothing printed
}

// Ctrl-C (RunnerOptions::cancel): SIGINT to the step's group, then, past the grace, SIGTERM/SIGKILL to
// the group and to every descendant in a group of its own (as ninja's commands are).
TEST(Runner, CancelStopsTheGroupAndDescendantsInOtherGroups) {
  fs::path dir = temp("cancel");
  fs::create_directories(dir);
  std::string pidfile = (dir / "other.pid").string();
  StepSpec s{"build",
             {"sh", "-c", "trap '' INT; setsid sleep 30 & echo $! > " + pidfile + "; echo started; sleep 30"},
             base_env(), dir.string()};
  std::atomic<bool> cancel{false};
  RunnerOptions o;
  o.cancel = &cancel;
  o.kill_grace_ms = 200;
  o.on_line = [&](std::string_view l) {
    if (l == "started") cancel = true;
  };
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_step(s, o);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.signal, SIGTERM);  // it ignored SIGINT; the stop after the grace ended it
  int other = std::stoi(slurp(pidfile));
  bool ended = false;
  for (int i = 0; i < 200 && !ended; ++i) {
    std::string stat = slurp("/proc/" + std::to_string(other) + "/stat");
    ended = stat.empty() || stat.find(") Z ") != std::string::npos;  // gone, or a zombie for init
    if (!ended) usleep(10000);
  }
  EXPECT_TRUE(ended) << "pid " << other << " in its own session outlived the step";
  fs::remove_all(dir);
}

// A step's signals are its own: an ignored SIGINT of ours is not inherited, so Ctrl-C reaches it.
TEST(Runner, StepDoesNotInheritOurIgnoredSignals) {
  struct sigaction ign {}, old {};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ign, &old);
  StepSpec s{"build", {"sh", "-c", "kill -INT $$; echo survived"}, base_env(), ""};
  auto r = run_step(s, {});
  sigaction(SIGINT, &old, nullptr);
  EXPECT_EQ(r.signal, SIGINT);
  EXPECT_EQ(r.exit_code, -1);
}

// The program is looked up in the step's PATH (not ours); a step with no PATH gets the standard
// directories, as every other child does.
TEST(Runner, ProgramIsLookedUpInTheStepsPath) {
  StepSpec s{"build", {"sh", "-c", "exit 4"}, {{"PATH", "/nonexistent"}}, ""};
  auto r = run_step(s, {});
  EXPECT_EQ(r.error, "sh: not found");
  StepSpec none{"build", {"sh", "-c", "exit 4"}, {{"LC_ALL", "C"}}, ""};
  EXPECT_EQ(run_step(none, {}).exit_code, 4);
}

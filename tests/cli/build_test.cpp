// `torchsmith build` end to end on the PyTorch-shaped fixture (tests/fixtures/projects/minitorch),
// fetched from a local git repository: plan -> fetch -> fix -> clean -> build -> package ->
// verify -> report; then builds stopped by SIGINT, and by SIGKILL of torchsmith itself at a
// random moment, resume and finish with the same wheel as an uninterrupted build.
// Over 60 s (label slow;compiles, tests/tiers.cmake): each test compiles the fixture project, some
// twice (interrupted, then resumed); what they prove needs the real compiles and the real binary.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "util/process.h"
#include "testkit/temp_dir.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using ts::testing::make_git_fixture;
using ts::testing::run_torchsmith;
using ts::testing::wheel_record;
using namespace std::chrono_literals;

using Dir = ::ts::testkit::TempDir;

bool have_build_tools() {
  for (const char* p : {"/usr/bin/python3", "/usr/bin/cmake", "/usr/bin/ninja", "/usr/bin/git"})
    if (!fs::exists(p)) return false;
  return true;
}

std::vector<std::string> build_args(const std::string& repo, const std::string& out) {
  return {"--kb",     std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/kb",
          "build",    "torch==2.4.1",
          "--python", "/usr/bin/python3",
          "--without", "cuda",
          "--source", "file://" + repo + "@main",
          "--out",    out,
          "--compile-cache", "none"};
}

constexpr auto kBuildTimeout = std::chrono::milliseconds(900s);

// torchsmith started in the background (to be interrupted); the same clean env as run_torchsmith.
struct Background {
  pid_t pid = -1;
  explicit Background(const std::vector<std::string>& args, const std::string& log) {
    std::vector<std::string> argv{TS_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    pid = fork();
    if (pid == 0) {
      std::vector<char*> a;
      for (auto& s : argv) a.push_back(s.data());
      a.push_back(nullptr);
      std::string home = std::string("HOME=") + TS_BINARY_DIR;
      char path[] = "PATH=/usr/local/bin:/usr/bin:/bin";
      char nocolor[] = "NO_COLOR=1";
      char lc[] = "LC_ALL=C";
      char* envp[] = {path, home.data(), nocolor, lc, nullptr};
      FILE* f = std::freopen(log.c_str(), "w", stdout);
      if (f) dup2(fileno(stdout), 2);
      execve(a[0], a.data(), envp);
      _exit(127);
    }
  }
  // The exit code (128 + signal when killed); -1 after the timeout.
  int wait(std::chrono::milliseconds timeout) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      int st = 0;
      pid_t r = waitpid(pid, &st, WNOHANG);
      if (r == pid) {
        pid = -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      }
      std::this_thread::sleep_for(50ms);
    }
    return -1;
  }
  ~Background() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

// Waits until the build step's log shows ninja progress of at least `done` edges.
bool wait_for_progress(const std::string& out, int done, std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    std::error_code ec;
    for (const auto& run : fs::directory_iterator(out + "/runs", ec))
      for (const auto& log : fs::directory_iterator(run.path() / "logs", ec)) {
        if (log.path().filename().string().find("-build") == std::string::npos) continue;
        auto text = util::read_file(log.path().string()).value_or("");
        for (auto at = text.rfind("[ts "); at != std::string::npos;) {
          if (std::atoi(text.c_str() + at + 4) >= done) return true;
          break;
        }
      }
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

// Processes still running with this run's marker (none may survive an interrupted run).
int marked_processes(const std::string& run_id) {
  int n = 0;
  std::error_code ec;
  std::string marker = std::string("TORCHSMITH_RUN=") + run_id + '\0';
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    auto env = util::read_file_prefix(e.path().string() + "/environ", 1 << 20);
    if (env && env->find(marker) != std::string::npos) ++n;
  }
  return n;
}

nlohmann::json last_run(const std::string& out) {
  auto text = util::read_file(out + "/last/run.json");
  if (!text) return nullptr;
  return nlohmann::json::parse(*text, nullptr, false);
}

TEST(BuildCli, FixtureEndToEndThenResumeSkipsThenStaleTreeCleaned) {
  if (!have_build_tools()) GTEST_SKIP() << "needs python3, cmake, ninja and git";
  Dir d;
  std::string repo = make_git_fixture(d.path());
  ASSERT_FALSE(repo.empty());
  std::string out = d.path() + "/out";
  auto r = run_torchsmith(build_args(repo, out), kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("build torch==2.4.1: ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify:"), std::string::npos) << r.out;
  auto run = last_run(out);
  ASSERT_TRUE(run.is_object());
  EXPECT_EQ(run["outcome"], "ok");
  std::vector<std::string> names;
  for (const auto& s : run["steps"]) {
    names.push_back(s["name"]);
    EXPECT_EQ(s["status"], "ok") << s.dump();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"fetch", "fix", "clean", "build", "package", "verify"}));
  EXPECT_FALSE(run["verdicts"].empty());
  for (const char* f : {"run.json", "report.html", "trace.json"}) EXPECT_TRUE(fs::exists(out + "/last/" + f)) << f;
  auto [wheel, record] = wheel_record(out);
  EXPECT_EQ(wheel.rfind("torch-2.4.1+cpu-cp", 0), 0u) << wheel;
  EXPECT_NE(record.find("torch/lib/libc10.so,sha256="), std::string::npos) << record;
  // The overlay fix was applied to the fetched tree, journaled.
  EXPECT_TRUE(fs::exists(out + "/src/.torchsmith/journal.json"));
  // torchsmith's own CPU is a small part of the build's (bench/overhead measures it properly).
  double build_cpu = 0;
  for (const auto& s : run["steps"]) build_cpu += s.value("cpu_seconds", 0.0);
  EXPECT_GT(build_cpu, 1.0);
  EXPECT_LT(run["self_cpu_seconds"].get<double>(), 0.05 * build_cpu) << run.dump();

  // Resume with nothing changed: every step is skipped.
  r = run_torchsmith([&] { auto a = build_args(repo, out); a.push_back("--resume"); return a; }(), kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  run = last_run(out);
  for (const auto& s : run["steps"]) EXPECT_EQ(s["status"], "skipped") << s.dump();

  // A build tree configured with another compiler is stale: cleaned on purpose, logs kept.
  std::string cache = out + "/src/build/CMakeCache.txt";
  auto text = util::read_file(cache);
  ASSERT_TRUE(text);
  auto at = text->find("CMAKE_CXX_COMPILER:");
  ASSERT_NE(at, std::string::npos);
  auto eq = text->find('=', at), nl = text->find('\n', at);
  text->replace(eq + 1, nl - eq - 1, "/opt/other-gcc/bin/g++");
  ASSERT_EQ(util::write_file_atomic(cache, *text), "");
  r = run_torchsmith(build_args(repo, out), kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  run = last_run(out);
  std::string clean_log = util::read_file(out + "/last/logs/03-clean.log").value_or("");
  EXPECT_NE(clean_log.find("stale: C++ compiler /opt/other-gcc/bin/g++ (in the cache)"), std::string::npos) << clean_log;
  EXPECT_NE(clean_log.find("logs kept in"), std::string::npos) << clean_log;
  EXPECT_EQ(wheel_record(out).second, record);
}

// One interruption: a clean build for reference, then the same out dir from scratch, stopped by
// `stop` once ninja is under way, then --resume; the wheels must be the same.
void interrupted_build_resumes(int sig, const char* name) {
  if (!have_build_tools()) GTEST_SKIP() << "needs python3, cmake, ninja and git";
  Dir d;
  std::string repo = make_git_fixture(d.path());
  ASSERT_FALSE(repo.empty());
  std::string out = d.path() + "/out";
  auto r = run_torchsmith(build_args(repo, out), kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto reference = wheel_record(out);
  fs::remove_all(out);

  std::mt19937 rng(static_cast<unsigned>(std::chrono::system_clock::now().time_since_epoch().count()));
  int done = sig == SIGKILL ? std::uniform_int_distribution<int>(1, 20)(rng) : 5;
  {
    Background b(build_args(repo, out), d.path() + "/first.log");
    ASSERT_TRUE(wait_for_progress(out, done, 600s)) << util::read_file(d.path() + "/first.log").value_or("");
    std::printf("[ %s ] after %d ninja edges\n", name, done);
    kill(b.pid, sig);
    int code = b.wait(60s);
    std::string log = util::read_file(d.path() + "/first.log").value_or("");
    if (sig == SIGINT) {
      EXPECT_EQ(code, 130) << log;
      EXPECT_NE(log.find("interrupted; `torchsmith build --resume`"), std::string::npos) << log;
      auto run = last_run(out);
      ASSERT_TRUE(run.is_object());
      EXPECT_EQ(run["outcome"], "interrupted");
      std::string run_id = fs::path(run["run_dir"].get<std::string>()).filename().string();
      EXPECT_EQ(marked_processes(run_id), 0) << "a build process survived Ctrl-C";
    } else {
      EXPECT_EQ(code, 128 + SIGKILL);
    }
  }
  auto args = build_args(repo, out);
  args.push_back("--resume");
  r = run_torchsmith(args, kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto run = last_run(out);
  EXPECT_EQ(run["steps"][0]["name"], "fetch");
  EXPECT_EQ(run["steps"][0]["status"], "skipped") << run["steps"][0].dump();
  EXPECT_EQ(wheel_record(out), reference);
}

TEST(BuildCli, CtrlCLeavesAResumableStateAndTheSameWheel) { interrupted_build_resumes(SIGINT, "SIGINT"); }

TEST(BuildCli, KillNineAtARandomMomentResumesToTheSameWheel) {
  interrupted_build_resumes(SIGKILL, "SIGKILL");
}

TEST(BuildCli, SecondBuildOfTheSameTreeFailsClearly) {
  if (!have_build_tools()) GTEST_SKIP() << "needs python3, cmake, ninja and git";
  Dir d;
  std::string repo = make_git_fixture(d.path());
  std::string out = d.path() + "/out";
  Background first(build_args(repo, out), d.path() + "/first.log");
  ASSERT_TRUE(wait_for_progress(out, 1, 600s)) << util::read_file(d.path() + "/first.log").value_or("");
  auto r = run_torchsmith(build_args(repo, out), 60s);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("another build holds " + out), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--wait"), std::string::npos) << r.err;
  kill(first.pid, SIGINT);
  EXPECT_EQ(first.wait(60s), 130);
}

TEST(BuildCli, BadLockAndConflictsExitWithTheirCodes) {
  Dir d;
  ASSERT_EQ(util::write_file_atomic(d.path() + "/bad.json", "{\"plan\": 3"), "");
  auto r = run_torchsmith({"build", "--lock", d.path() + "/bad.json", "--out", d.path() + "/o"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a torchsmith lock file"), std::string::npos) << r.err;
  r = run_torchsmith({"build", "torch==2.4.1", "--lock", d.path() + "/bad.json"});
  EXPECT_EQ(r.exit_code, 2);
  // A plan that cannot work is refused before anything runs: nothing is written to --out.
  r = run_torchsmith({"build", "torch==2.4.1", "--root",
                      std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/s5-gtx1660ti-container", "--out",
                      d.path() + "/o3"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_FALSE(fs::exists(d.path() + "/o3"));
}

}  // namespace
}  // namespace ts::cli

namespace ts::cli {
namespace {

using testing::debian_torch;

// Issue 8's CI case: the bundled C++ extension built against Debian's torch 1.13 (CPU), packaged,
// installed into a fresh target and imported, its op run; the CUDA one refused by the contract.
TEST(BuildCli, ExampleExtensionAgainstDebianTorchAndCudaOneRefused) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  Dir d;
  auto r = run_torchsmith({"build", std::string(TS_SOURCE_DIR) + "/examples/hello_ext", "--torch", "/usr/bin/python3",
                           "--out", d.path() + "/hello", "--compile-cache", "none"},
                          kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto run = last_run(d.path() + "/hello");
  ASSERT_TRUE(run.is_object());
  EXPECT_EQ(run["outcome"], "ok");
  std::string verdicts;
  for (const auto& v : run["verdicts"]) verdicts += v.get<std::string>() + "\n";
  EXPECT_NE(verdicts.find("ok    import hello_ext"), std::string::npos) << verdicts;
  EXPECT_NE(verdicts.find("ok    smoke"), std::string::npos) << verdicts;
  EXPECT_NE(verdicts.find("0 failed"), std::string::npos) << verdicts;
  EXPECT_NE(r.out.find("verify:"), std::string::npos) << r.out;  // the table is printed too
  // The summary hands over the wheel: named for the torch it needs, its path, size, sha256 and the
  // pip line into the Python whose torch it was built against (issue 37).
  ASSERT_EQ(run["artifact_files"].size(), 1u) << run.dump(1);
  const auto& art = run["artifact_files"][0];
  const std::string wheel = art["path"];
  EXPECT_NE(wheel.find("/hello/dist/hello_ext-0.1.0+pt113cpu-"), std::string::npos) << wheel;
  EXPECT_EQ(art["sha256"], util::sha256_file(wheel).value_or("?"));
  EXPECT_EQ(art["size"], fs::file_size(wheel));
  EXPECT_NE(r.out.find("artifact: " + wheel + " ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sha256:   " + art["sha256"].get<std::string>()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("install:  /usr/bin/python3 -m pip install " + wheel + "\n"), std::string::npos) << r.out;
  EXPECT_NE(verdicts.find("ok    torch of wheel"), std::string::npos) << verdicts;
  // setuptools' ninja log (in build_temp, not build/) gives the report its timeline and trace.
  std::string log = run["ninja_log"].get<std::string>();
  EXPECT_EQ(log.substr(log.rfind('/')), "/build.ninja_log") << log;
  EXPECT_TRUE(fs::exists(d.path() + "/hello/last/trace.json"));
  EXPECT_NE(util::read_file(d.path() + "/hello/last/report.html").value_or("").find("id=\"slowest\""), std::string::npos);
  // The user's tree is left as it was: the build ran on a copy.
  EXPECT_FALSE(fs::exists(std::string(TS_SOURCE_DIR) + "/examples/hello_ext/build"));
  EXPECT_FALSE(fs::exists(std::string(TS_SOURCE_DIR) + "/examples/hello_ext/dist"));

  r = run_torchsmith({"build", std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/ext-cuda", "--torch",
                      "/usr/bin/python3", "--out", d.path() + "/cuda"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("was built without CUDA"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(d.path() + "/cuda"));
}

}  // namespace
}  // namespace ts::cli

namespace ts::cli {
namespace {

// A syntax error in the user's own file: the summary names that file (not the copy in OUT/src)
// with its line, and the next command is the same build with --resume; the report says it too.
TEST(BuildCli, SyntaxErrorNamesTheUsersFileAndTheResumeCommand) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  Dir d;
  const std::string tree = d.path() + "/my_ext";
  fs::create_directories(tree);
  for (const char* f : {"setup.py", "smoke.py"})
    fs::copy_file(std::string(TS_SOURCE_DIR) + "/examples/hello_ext/" + f, tree + "/" + f);
  ASSERT_EQ(util::write_file_atomic(tree + "/hello_ext.cpp",
                                    "#include <torch/extension.h>\n\n"
                                    "torch::Tensor add_one(const torch::Tensor& t) {\n"
                                    "  return t + 1\n"
                                    "}\n\n"
                                    "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"add_one\", &add_one); }\n"),
            "");
  auto r = run_torchsmith({"build", tree, "--torch", "/usr/bin/python3", "--out", d.path() + "/out",
                           "--compile-cache", "none"},
                          kBuildTimeout);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("error in your source: " + tree + "/hello_ext.cpp:4:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(d.path() + "/out/src/hello_ext.cpp"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("next:     fix the cause above, then: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" build " + tree + " --torch /usr/bin/python3 --out " + d.path() + "/out --compile-cache none --resume\n"),
            std::string::npos) << r.out;
  EXPECT_EQ((r.out + r.err).find("rerun with --all"), std::string::npos) << r.err;
  std::string html = util::read_file(d.path() + "/out/last/report.html").value_or("");
  EXPECT_NE(html.find("Error in your source: <code>hello_ext.cpp:4</code>"), std::string::npos);
  EXPECT_NE(html.find("return t + 1"), std::string::npos);  // the line itself, with its caret
}

}  // namespace
}  // namespace ts::cli

namespace ts::cli {
namespace {

// Auto-fix end to end: a build step that the OOM killer "stops" while MAX_JOBS > 1 (it prints what
// g++ prints then) is retried with the jobs halved, the retry is recorded with its reason; with
// --no-auto-fix the same plan stops at the first failure with the diagnosis.
TEST(BuildCli, OomKillIsRetriedWithFewerJobs) {
  Dir d;
  auto r = run_torchsmith({"plan", "torch==2.4.1", "--python", "/usr/bin/python3", "--without", "cuda",
                           "--jobs", "4", "-o", d.path() + "/lock.json"});
  if (r.exit_code != 0) GTEST_SKIP() << "no plan for torch 2.4.1 on this machine: " << r.out;
  auto lock = nlohmann::json::parse(util::read_file(d.path() + "/lock.json").value_or("{}"));
  ASSERT_EQ(lock["env"]["MAX_JOBS"], "4");
  const char* script =
      "import os, sys\n"
      "jobs = int(os.environ['MAX_JOBS'])\n"
      "print('[ts 1/2 1.0/s 0.5s] building with', jobs, 'jobs', flush=True)\n"
      "if jobs > 2:\n"
      "    print('c++: fatal error: Killed signal terminated program cc1plus', flush=True)\n"
      "    sys.exit(1)\n"
      "print('built with', jobs, 'jobs')\n";
  lock["steps"] = nlohmann::json::array({{{"name", "build"},
                                          {"argv", {"/usr/bin/python3", "-c", script}},
                                          {"cwd", ""},
                                          {"note", "a stand-in for a compile that runs out of memory"}}});
  ASSERT_EQ(util::write_file_atomic(d.path() + "/lock.json", lock.dump(2)), "");

  r = run_torchsmith({"build", "--trust-lock", "--lock", d.path() + "/lock.json", "--out", d.path() + "/out", "--compile-cache", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto run = last_run(d.path() + "/out");
  ASSERT_EQ(run["retries"].size(), 1u) << run.dump(2);
  EXPECT_EQ(run["retries"][0]["remedy"], "halve_jobs");
  EXPECT_EQ(run["retries"][0]["reason"], "OOM_CC1PLUS_KILLED: jobs 4 -> 2");
  EXPECT_NE(util::read_file(d.path() + "/out/last/logs/01-build.retry1.log").value_or("").find("built with 2 jobs"),
            std::string::npos);

  r = run_torchsmith({"build", "--trust-lock", "--lock", d.path() + "/lock.json", "--out", d.path() + "/out2", "--no-auto-fix",
                      "--compile-cache", "none"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("OOM_CC1PLUS_KILLED"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not applied: auto-fix is off"), std::string::npos) << r.err;
  run = last_run(d.path() + "/out2");
  EXPECT_EQ(run["outcome"], "failed");
  EXPECT_TRUE(run["retries"].empty());
  EXPECT_FALSE(run["diagnosis"].is_null());
}

}  // namespace
}  // namespace ts::cli

namespace ts::cli {
namespace {

// A source that forgot <cstdint>: the first compile fails, triage names MISSING_CSTDINT_NEW_GCC,
// the run retries with the header force-included and the wheel verifies; --no-auto-fix stops.
TEST(BuildCli, AForgottenStandardHeaderIsForceIncludedAndTheRetrySucceeds) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  Dir d;
  const std::string tree = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/forgot_header_ext";
  auto r = run_torchsmith({"build", tree, "--torch", "/usr/bin/python3", "--out", d.path() + "/fixed",
                           "--compile-cache", "none"},
                          kBuildTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // The run's own lines (retry, root cause, refused remedy) go to stderr.
  EXPECT_NE(r.err.find("retrying: MISSING_CSTDINT_NEW_GCC: <cstdint> force-included"), std::string::npos) << r.err;
  auto run = last_run(d.path() + "/fixed");
  ASSERT_TRUE(run.is_object());
  EXPECT_EQ(run["outcome"], "ok");
  ASSERT_EQ(run["retries"].size(), 1u) << run.dump(1);
  EXPECT_EQ(run["retries"][0]["remedy"], "force_include");
  std::string verdicts;
  for (const auto& v : run["verdicts"]) verdicts += v.get<std::string>() + "\n";
  EXPECT_NE(verdicts.find("ok    import forgot_header_ext"), std::string::npos) << verdicts;
  EXPECT_NE(verdicts.find("0 failed"), std::string::npos) << verdicts;

  r = run_torchsmith({"build", tree, "--torch", "/usr/bin/python3", "--out", d.path() + "/off", "--compile-cache",
                      "none", "--no-auto-fix"},
                     kBuildTimeout);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("root cause: MISSING_CSTDINT_NEW_GCC"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("remedy force_include not applied: auto-fix is off"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::cli

// bench_overhead: what watching a build costs. Builds the PyTorch-shaped fixture through
// `torchsmith build` (live triage, ninja progress, governor, status, journal, reports), then runs
// the same build command with the same environment by hand in a fresh copy of the fixed tree, and
// prints torchsmith's own CPU time against the build's, and the two wall times.
// Usage: bench_overhead [TORCHSMITH]   (default: the torchsmith next to this binary)
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "util/fs.h"
#include "util/process.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

double children_cpu() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

int fail(const std::string& what) {
  std::fprintf(stderr, "bench_overhead: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string self = fs::read_symlink("/proc/self/exe").parent_path().string();
  std::string ts = argc > 1 ? argv[1] : self + "/torchsmith";
  std::string tmpl = (fs::temp_directory_path() / "ts-overhead-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) return fail("no temp dir");
  std::string dir = tmpl, repo = dir + "/minitorch", out = dir + "/out";
  fs::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/minitorch", repo, fs::copy_options::recursive);
  ts::util::RunOptions git;
  git.cwd = repo;
  for (auto a : {std::vector<std::string>{"git", "init", "-q", "-b", "main"}, {"git", "add", "-A"},
                 {"git", "-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "fixture"}})
    if (!ts::util::run(a, git).ok()) return fail("git fixture");

  ts::util::RunOptions o;
  o.timeout = 1800s;
  o.max_output = 64 << 20;
  auto t0 = std::chrono::steady_clock::now();
  auto r = ts::util::run({ts, "--kb", std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/kb", "build",
                          "torch==2.4.1", "--python", "/usr/bin/python3", "--without", "cuda", "--source",
                          "file://" + repo + "@main", "--out", out, "--compile-cache", "none"},
                         o);
  double ts_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.ok()) return fail("torchsmith build failed:\n" + r.out + r.err);
  auto run = nlohmann::json::parse(ts::util::read_file(out + "/last/run.json").value_or("{}"));
  double self_cpu = run.value("self_cpu_seconds", 0.0), build_cpu = 0, steps_cpu = 0, build_wall = 0;
  for (const auto& s : run["steps"]) {
    steps_cpu += s.value("cpu_seconds", 0.0);
    if (s["name"] == "build") build_cpu = s.value("cpu_seconds", 0.0), build_wall = s.value("seconds", 0.0);
  }

  // The same build by hand: the fixed tree without its build/, the plan's environment, its command.
  std::string plain = dir + "/plain";
  fs::copy(out + "/src", plain, fs::copy_options::recursive);
  fs::remove_all(plain + "/build");
  fs::remove_all(plain + "/dist");
  auto lock = nlohmann::json::parse(ts::util::read_file(out + "/plan.lock.json").value_or("{}"));
  std::vector<std::string> cmd;
  for (const auto& s : lock["steps"])
    if (s["name"] == "build") cmd = s["argv"].get<std::vector<std::string>>();
  ts::util::RunOptions p;
  p.timeout = 1800s;
  p.max_output = 64 << 20;
  p.cwd = plain;
  p.env = lock["env"].get<std::map<std::string, std::string>>();
  (*p.env)["HOME"] = std::getenv("HOME") ? std::getenv("HOME") : "/tmp";
  double c0 = children_cpu();
  auto t1 = std::chrono::steady_clock::now();
  auto pr = ts::util::run(cmd, p);
  double plain_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  double plain_cpu = children_cpu() - c0;
  if (!pr.ok()) return fail("plain build failed:\n" + pr.out + pr.err);

  std::printf("fixture build (CPU, %s)\n", run.value("what", "").c_str());
  std::printf("  plain setup.py bdist_wheel:        wall %7.2f s   cpu %7.2f s\n", plain_wall, plain_cpu);
  std::printf("  through torchsmith build step:     wall %7.2f s   cpu %7.2f s\n", build_wall, build_cpu);
  std::printf("  torchsmith run, all six steps:     wall %7.2f s   cpu %7.2f s (steps' processes)\n", ts_wall,
              steps_cpu);
  std::printf("  torchsmith's own CPU (triage, ninja status, governor, journal, reports): %.3f s\n", self_cpu);
  std::printf("  overhead: %.2f%% of the build step's CPU (target <= 1%%)\n", 100.0 * self_cpu / build_cpu);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return self_cpu <= 0.01 * build_cpu ? 0 : 3;
}

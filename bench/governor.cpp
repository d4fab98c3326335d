// bench/governor: a synthetic build of N jobs, each growing to M MiB, under a budget B < N*M.
// In one run: (a) ninja -j N with the governor, given the memory model's per-job estimate, and
// again with none (it learns from finished jobs; the marks alone must absorb paused RSS), (b) ninja -j K without it for each K whose K*M
// fits in B (the sweep), (c) plain ninja -j N, stopped as soon as it crosses B. Prints peak memory
// (the build's process tree, sampled every 20 ms) and wall time, and governor / best fixed.
// Usage: bench_governor [N] [M_MIB] [B_MIB]   (defaults 4 300 700)
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "build/governor.h"
#include "build/proc_tree.h"
#include "build/runner.h"

namespace {

using namespace ts::build;
namespace fs = std::filesystem;
constexpr std::uint64_t MiB = 1 << 20;

struct Result {
  double seconds = 0;
  std::uint64_t peak = 0;
  bool ok = false;
  double exceeded_at = -1;  // when the capped run crossed B
  int pauses = 0;
};

// N edges, each one alloc.py (10 MiB every 30 ms up to M, held 500 ms): what a heavy TU looks like.
void write_build(const fs::path& dir, int n, int m) {
  std::ofstream f(dir / "build.ninja");
  f << "rule alloc\n  command = python3 " << TS_SOURCE_DIR << "/tests/build/fixtures/alloc.py " << m
    << " 10 30 500 && touch $out\n";
  for (int i = 0; i < n; ++i) f << "build job" << i << ": alloc\n";
}

Result run(const fs::path& dir, int jobs, Governor* g, std::uint64_t cap) {
  fs::remove(dir / ".ninja_log");
  fs::remove(dir / ".ninja_deps");
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("job", 0) == 0) fs::remove(e.path());
  StepSpec s{"build", {"ninja", "-j", std::to_string(jobs)}, {{"PATH", "/usr/bin:/bin"}}, dir.string()};
  s.env["NINJA_STATUS"] = std::string(kNinjaStatus);
  Result r;
  RunnerOptions o;
  o.governor = g;
  o.tick_ms = 20;
  o.status = [&](const Status& st) {
    std::uint64_t sum = 0;
    for (const auto& p : list_tree(st.pgid)) sum += p.rss;
    r.peak = std::max(r.peak, sum);
    if (cap && sum > cap && r.exceeded_at < 0) {
      r.exceeded_at = st.elapsed;
      for (const auto& p : list_tree(st.pgid)) ::kill(p.pid, SIGKILL);  // capped: reported, not run into the OOM killer
    }
  };
  auto res = run_step(s, o);
  r.seconds = res.seconds;
  r.ok = res.ok();
  if (g)
    for (const auto& a : g->actions()) r.pauses += a.what == "pause";
  return r;
}

void print(const char* what, const Result& r, std::uint64_t budget) {
  std::printf("%-22s wall %6.2f s  peak %5llu MiB%s%s\n", what, r.seconds, (unsigned long long)(r.peak / MiB),
              r.peak <= budget ? "" : "  > B", r.ok ? "" : "  (did not finish)");
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4;
  int m = argc > 2 ? std::atoi(argv[2]) : 300;
  int b = argc > 3 ? std::atoi(argv[3]) : 700;
  const std::uint64_t budget = std::uint64_t(b) * MiB;
  fs::path dir = fs::temp_directory_path() / ("ts_bench_governor_" + std::to_string(getpid()));
  fs::create_directories(dir);
  write_build(dir, n, m);
  std::printf("bench_governor: %d jobs x %d MiB, budget B = %d MiB (N*M = %d MiB)\n", n, m, b, n * m);

  auto c = GovernorConfig::for_budget(budget);
  c.job_estimate = std::uint64_t(m + 16) * MiB;  // the memory model's guess: M plus the interpreter
  Governor g(c, MemoryReader(), [](const GovernorAction& a) { std::printf("    gov: %s\n", a.line().c_str()); });
  Result gov = run(dir, n, &g, 0);
  char label[64];
  std::snprintf(label, sizeof label, "governor -j%d", n);
  print(label, gov, budget);
  std::printf("    (%d pauses)\n", gov.pauses);
  Governor learn(GovernorConfig::for_budget(budget), MemoryReader());
  Result gov_learn = run(dir, n, &learn, 0);
  std::snprintf(label, sizeof label, "governor -j%d, no est.", n);
  print(label, gov_learn, budget);
  std::printf("    (%d pauses)\n", gov_learn.pauses);

  Result best;
  int best_k = 0;
  for (int k = 1; k <= n; ++k) {
    if (std::uint64_t(k) * std::uint64_t(m) * MiB > budget) break;
    Result r = run(dir, k, nullptr, 0);
    std::snprintf(label, sizeof label, "fixed -j%d", k);
    print(label, r, budget);
    if (r.ok && r.peak <= budget && (!best_k || r.seconds < best.seconds)) { best = r; best_k = k; }
  }

  Result plain = run(dir, n, nullptr, budget);
  std::snprintf(label, sizeof label, "plain -j%d (capped)", n);
  print(label, plain, budget);
  if (plain.exceeded_at >= 0) std::printf("    exceeded B at t=%.2f s (stopped)\n", plain.exceeded_at);
  else std::printf("    stayed under B\n");

  if (best_k) {
    std::printf("governor / best fixed (-j%d): %.2f  (target <= 1.15), governor peak %s B\n", best_k,
                gov.seconds / best.seconds, gov.peak <= budget ? "<=" : ">");
    std::printf("governor without estimate / best fixed: %.2f, peak %s B\n", gov_learn.seconds / best.seconds,
                gov_learn.peak <= budget ? "<=" : ">");
  }
  fs::remove_all(dir);
  return 0;
}

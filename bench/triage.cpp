// bench/triage: the triage engine against `grep -E -f` on the same patterns, same 1 GB log, same run.
// Generates a realistic build log (bench/triage_loggen.h) with planted failures in a temp dir,
// scans it with the engine (mmap'd, as `torchsmith diagnose` reads files) and with grep
// (LC_ALL=C, its fastest mode), checks both report the same matching lines, prints GB/s and ratio.
// Then the hostile inputs diagnose must stay linear on: HOSTILE_MB of random bytes and of a log
// where every line is coloured (ESC sequences) and the patterns' literals are rare.
// The one-thread figure is also given in that thread's CPU time: on a shared machine the wall clock
// counts other processes' turns too.
// Usage: bench_triage [SIZE_MB=1024] [REPEAT=3] [HOSTILE_MB=200]
#include <fcntl.h>
#include <time.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../bench/triage_grep.h"
#include "../bench/triage_loggen.h"
#include "triage/engine.h"
#include "triage/reader.h"
#include "triage/scanner.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
double secs(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }
// CPU seconds of this thread: on a shared machine the wall clock also counts other processes' turns.
double thread_cpu() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Runs argv with stdout to `out_path`; returns the exit status (grep: 0 found, 1 none, 2 error).
int spawn(const std::vector<std::string>& argv, const std::string& out_path) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> envs = {"LC_ALL=C", "PATH=/usr/bin:/bin"};
  std::vector<char*> env;
  for (auto& e : envs) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, a[0], &fa, nullptr, a.data(), env.data()) != 0) return -1;
  posix_spawn_file_actions_destroy(&fa);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::set<std::uint64_t> grep_lines(const std::string& path) {
  std::set<std::uint64_t> out;
  std::ifstream in(path);
  std::string l;
  while (std::getline(in, l)) out.insert(std::stoull(l.substr(0, l.find(':'))));
  return out;
}

// Writes `mb` MiB made by `chunk` to `path`, scans it as diagnose does, returns the seconds.
template <class Chunk>
double hostile(const ts::triage::Engine& engine, const std::string& path, std::uint64_t mb, unsigned threads, Chunk chunk) {
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::string buf;
    for (std::uint64_t n = 0; n < (mb << 20); n += buf.size()) {
      chunk(buf);
      std::fwrite(buf.data(), 1, buf.size(), f);
    }
    std::fflush(f);
    ::fdatasync(fileno(f));  // the disk's writeback must not overlap the timed scan
    std::fclose(f);
  }
  auto a = Clock::now();
  ts::triage::Scanner sc(engine, true, threads);
  std::string err;
  if (!ts::triage::scan_file(path, sc, err)) std::fprintf(stderr, "%s\n", err.c_str());
  sc.finish();
  const double t = secs(a, Clock::now());
  std::filesystem::remove(path);
  return t;
}

}  // namespace

// A whole number in [lo, hi], or exit 2 with the usage: a bench that dies in stoull teaches nothing.
static std::uint64_t arg_or(int argc, char** argv, int i, std::uint64_t dflt, std::uint64_t lo, std::uint64_t hi) {
  if (argc <= i) return dflt;
  const std::string a = argv[i];
  std::uint64_t v = 0;
  bool ok = !a.empty() && a.size() <= 9 && std::all_of(a.begin(), a.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (ok) v = std::stoull(a);
  if (!ok || v < lo || v > hi) {
    std::fprintf(stderr,
                 "bench_triage: argument %d is '%s', not a whole number in %llu..%llu\n"
                 "usage: bench_triage [SIZE_MB=1024 (1..65536)] [REPEAT=3 (1..100)] [HOSTILE_MB=200 (0..65536)]\n",
                 i, a.c_str(), static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi));
    std::exit(2);
  }
  return v;
}

int main(int argc, char** argv) {
  const std::uint64_t mb = arg_or(argc, argv, 1, 1024, 1, 65536);
  const int repeat = static_cast<int>(arg_or(argc, argv, 2, 3, 1, 100));
  const std::uint64_t hostile_mb = arg_or(argc, argv, 3, 200, 0, 65536);
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("ts-bench-triage-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path log = dir / "build.log", pats = dir / "patterns.txt", gout = dir / "grep.out";

  std::vector<std::string> errors;
  ts::triage::SignatureSet set = ts::triage::load_signatures({}, errors);
  for (auto& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
  {
    std::ofstream p(pats);
    for (const auto& s : set.signatures)
      for (const auto& re : s.patterns) p << ts::bench::re2_to_ere(re) << "\n";
  }
  const std::size_t signature_count = set.signatures.size();
  ts::triage::Engine engine(std::move(set));

  auto t0 = Clock::now();
  {
    std::FILE* f = std::fopen(log.c_str(), "wb");
    ts::bench::LogGen gen(42);
    gen.generate(mb << 20, 24, [&](std::string_view b) { std::fwrite(b.data(), 1, b.size(), f); });
    std::fflush(f);
    ::fdatasync(fileno(f));  // the disk's writeback must not overlap the timed scans
    std::fclose(f);
  }
  double gb = static_cast<double>(fs::file_size(log)) / 1e9;
  std::printf("log: %.2f GB generated in %.1f s (%s)\n", gb, secs(t0, Clock::now()), log.c_str());
  std::printf("signatures: %zu\n", signature_count);
  std::printf("patterns: %zu in the engine (signatures, log facts, markers; grep gets the signatures'); prefilter: %zu literals, stride %zu%s\n",
              engine.pattern_count(), engine.prefilter().literals().size(), engine.prefilter().stride(),
              engine.prefilter().match_all() ? " (MATCH ALL: some pattern has no literal)" : "");
#if defined(__x86_64__)
  std::printf("cpu: AVX2 %s (the prefilter's and the newline count's wide loops); prefilter loop: %s\n",
              __builtin_cpu_supports("avx2") ? "yes" : "no", engine.prefilter().path_name());
#endif
  std::printf("load average at start: %s", [] { std::string l; std::ifstream("/proc/loadavg") >> l; return l + "\n"; }().c_str());

  // Warm the page cache so both read from memory.
  { std::vector<std::string> cat = {"cat", log.string()}; spawn(cat, "/dev/null"); }
  // One scan of the log on this thread (the work grep does on its one thread); false on a read error.
  auto scan_one_thread = [&] {
    ts::triage::Scanner one(engine, false, 1);
    std::string err;
    if (!ts::triage::scan_file(log.string(), one, err)) { std::fprintf(stderr, "%s\n", err.c_str()); return false; }
    one.finish();
    return true;
  };
  // One untimed scan: the first after the log is written also pays for clocks and caches settling
  // (on a fresh GPU host it read 15-20% slower than the next ones), and every variant below is
  // measured in the steady state.
  if (!scan_one_thread()) return 2;

  double best_engine = 1e9, best_engine1 = 1e9, best_engine1_cpu = 1e9, best_portable_cpu = 1e9, best_unadapted_cpu = 1e9, best_grep = 1e9;
  unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  std::vector<std::uint64_t> engine_lines;
  std::set<std::uint64_t> grep_set;
  std::uint64_t lines = 0;
  std::string root;
  for (int r = 0; r < repeat; ++r) {  // interleaved, best of N: the machine is shared
    auto a = Clock::now();
    const double c0 = thread_cpu();
    if (!scan_one_thread()) return 2;
    best_engine1 = std::min(best_engine1, secs(a, Clock::now()));
    best_engine1_cpu = std::min(best_engine1_cpu, thread_cpu() - c0);
    {  // the same with the engine's probes, not adapted to this log: the baseline of adapt()
      ts::triage::Scanner::set_adapt_prefilter(false);
      const double p0 = thread_cpu();
      if (!scan_one_thread()) return 2;
      best_unadapted_cpu = std::min(best_unadapted_cpu, thread_cpu() - p0);
      ts::triage::Scanner::set_adapt_prefilter(true);
    }
    {  // the same with the prefilter's portable loop (what CPUs without AVX2 run), for comparison
      ts::triage::Prefilter::force_path(ts::triage::Prefilter::Path::portable);
      const double p0 = thread_cpu();
      if (!scan_one_thread()) return 2;
      best_portable_cpu = std::min(best_portable_cpu, thread_cpu() - p0);
      ts::triage::Prefilter::force_path(ts::triage::Prefilter::Path::fastest);
    }
    a = Clock::now();
    ts::triage::Scanner sc(engine, true, threads);
    std::string err;
    if (!ts::triage::scan_file(log.string(), sc, err)) { std::fprintf(stderr, "%s\n", err.c_str()); return 2; }
    auto d = sc.finish();
    auto b = Clock::now();
    best_engine = std::min(best_engine, secs(a, b));
    engine_lines = sc.matched_lines();
    lines = d.lines;
    root = d.root() ? d.root()->id : "(none)";

    a = Clock::now();
    int rc = spawn({"grep", "-E", "-n", "-f", pats.string(), log.string()}, gout.string());
    b = Clock::now();
    if (rc != 0 && rc != 1) { std::fprintf(stderr, "grep failed (%d)\n", rc); return 2; }
    best_grep = std::min(best_grep, secs(a, b));
    grep_set = grep_lines(gout.string());
  }
  std::set<std::uint64_t> eng_set(engine_lines.begin(), engine_lines.end());
  bool same = eng_set == grep_set;
  std::printf("lines: %llu; matching lines: engine %zu, grep %zu: %s\n", static_cast<unsigned long long>(lines),
              eng_set.size(), grep_set.size(), same ? "same" : "DIFFERENT");
  if (!same) {
    for (auto l : eng_set) if (!grep_set.count(l)) std::printf("  only engine: line %llu\n", static_cast<unsigned long long>(l));
    for (auto l : grep_set) if (!eng_set.count(l)) std::printf("  only grep: line %llu\n", static_cast<unsigned long long>(l));
  }
  std::printf("root cause: %s\n", root.c_str());
  std::printf("engine, 1 thread:  %.3f s  %.2f GB/s  (%.1fx grep)\n", best_engine1, gb / best_engine1, best_grep / best_engine1);
  std::printf("engine, 1 thread, CPU time of that thread: %.3f s  %.2f GB/s\n", best_engine1_cpu, gb / best_engine1_cpu);
  std::printf("  the same with the probes not adapted to this log: %.3f s  %.2f GB/s\n", best_unadapted_cpu, gb / best_unadapted_cpu);
  {  // what adapt() changes: probes that hit the bitmap (each a verify), on the log's first 64 MiB
    std::ifstream in(log, std::ios::binary);
    std::string head(64u << 20, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    ts::triage::Prefilter adapted = engine.prefilter();
    adapted.adapt(head);  // as the scanner does with a big chunk
    const double mb_head = static_cast<double>(head.size()) / 1e6;
    std::printf("  probes that verify, per MB: %.0f with the engine's windows, %.0f adapted to this log\n",
                static_cast<double>(engine.prefilter().probe_hits(head.data(), head.data() + head.size())) / mb_head,
                static_cast<double>(adapted.probe_hits(head.data(), head.data() + head.size())) / mb_head);
  }
  std::printf("  the same with the portable prefilter loop: %.3f s  %.2f GB/s\n", best_portable_cpu, gb / best_portable_cpu);
  std::printf("engine, %u threads: %.3f s  %.2f GB/s  (%.1fx grep)\n", threads, best_engine, gb / best_engine, best_grep / best_engine);
  std::printf("grep -E -f (LC_ALL=C): %.3f s  %.2f GB/s\n", best_grep, gb / best_grep);
  std::printf("ratio: %.1fx grep (best of %d, interleaved)\n", best_grep / best_engine, repeat);
  std::printf("ONE THREAD: %.2f GB/s of CPU time, %zu signatures (%s loop; target 2.5)\n", gb / best_engine1_cpu,
              signature_count, engine.prefilter().path_name());
  std::uint64_t x = 88172645463325252ull;  // xorshift: the same bytes every run
  const double random_s = hostile(engine, (dir / "random.bin").string(), hostile_mb, threads, [&](std::string& b) {
    b.resize(1 << 20);
    for (std::size_t i = 0; i < b.size(); i += 8) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      std::memcpy(b.data() + i, &x, 8);
    }
  });
  std::printf("hostile: %llu MB of random bytes: %.2f s\n", static_cast<unsigned long long>(hostile_mb), random_s);
  std::uint64_t k = 0;
  const double colour_s = hostile(engine, (dir / "colour.log").string(), hostile_mb, threads, [&](std::string& b) {
    b.clear();
    while (b.size() < (1 << 20)) {
      ++k;
      b += "\x1b[1m/src/mod" + std::to_string(k % 97) + ".cpp:" + std::to_string(k % 1000) +
           ":7: \x1b[0m\x1b[0;1;35mwarning: \x1b[0munused variable 'v" + std::to_string(k) +
           "' [-Wunused-variable]\x1b[0m\n";
    }
  });
  std::printf("hostile: %llu MB of coloured log (an ESC on every line): %.2f s\n",
              static_cast<unsigned long long>(hostile_mb), colour_s);
  fs::remove_all(dir);
  return same ? 0 : 1;
}

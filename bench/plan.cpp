// bench/plan: time per plan from a facts file (a `doctor --json` report), the target being
// < 50 ms. Measured in the same run: loading the knowledge once (embedded KB, build.toml, fixes),
// reading the facts file, and the whole per-plan path (read facts + identify GPUs + resolve +
// render --explain). Without a facts file it probes the S3 host fixture once and writes one.
// Usage: bench_plan [FACTS.json] [REQUIREMENT] [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/planner.h"
#include "plan/render.h"
#include "probe/probe.h"
#include "spec/raw_spec.h"
#include "util/fs.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Stats {
  double median, p90, max;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v[v.size() * 9 / 10], v.back()};
}

}  // namespace

int main(int argc, char** argv) {
  std::string facts_path = argc > 1 ? argv[1] : "";
  std::string requirement = argc > 2 ? argv[2] : "torch==2.4.1";
  int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 200;
  if (facts_path.empty()) {
    std::string err;
    auto host = ts::probe::Host::at(std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/s3-rtx5090-cmake4", &err);
    if (!host) {
      std::fprintf(stderr, "bench_plan: %s\n", err.c_str());
      return 2;
    }
    ts::probe::ProbeOptions po;
    po.import_torch = false;
    nlohmann::json report = {{"facts", ts::probe::probe(*host, po)}};
    facts_path = (std::filesystem::temp_directory_path() / "torchsmith-bench-plan-facts.json").string();
    ts::util::write_file_atomic(facts_path, report.dump());
  }
  ts::spec::RawSpec raw;
  raw.requirement = {requirement, "the requirement", true};
  std::string err;
  auto spec = ts::spec::check(raw, err);
  if (!spec) {
    std::fprintf(stderr, "bench_plan: %s\n", err.c_str());
    return 2;
  }

  auto t0 = Clock::now();
  ts::plan::Knowledge k = ts::plan::load_knowledge({});
  double load_ms = ms_since(t0);
  if (!k.errors.empty()) std::fprintf(stderr, "bench_plan: kb: %s\n", k.errors.front().c_str());

  std::vector<double> read_ms, plan_ms;
  std::size_t decisions = 0, conflicts = 0;
  for (int i = 0; i < runs; ++i) {
    auto a = Clock::now();
    auto facts = ts::plan::read_facts_file(facts_path, err);
    read_ms.push_back(ms_since(a));
    if (!facts) {
      std::fprintf(stderr, "bench_plan: %s\n", err.c_str());
      return 2;
    }
    auto b = Clock::now();
    auto f2 = ts::plan::read_facts_file(facts_path, err);
    auto r = ts::plan::make_plan(*spec, *f2, k);
    std::string text = ts::plan::render_explain(r);
    plan_ms.push_back(ms_since(b));
    decisions = r.plan.decisions.size();
    conflicts = r.conflicts.size();
    if (text.empty()) return 1;
  }
  Stats rd = stats(read_ms), pl = stats(plan_ms);
  std::printf("bench_plan: %s from %s, %d runs (%zu decisions, %zu conflicts)\n", requirement.c_str(),
              facts_path.c_str(), runs, decisions, conflicts);
  std::printf("  load knowledge (once per command): %8.2f ms\n", load_ms);
  std::printf("  read facts file only (baseline):   %8.3f ms median, %.3f p90\n", rd.median, rd.p90);
  std::printf("  per plan (read+resolve+explain):   %8.3f ms median, %.3f p90, %.3f max  -> %s (target < 50 ms)\n",
              pl.median, pl.p90, pl.max, pl.p90 < 50 ? "OK" : "SLOW");
  std::printf("  per plan / read facts:             %8.1fx\n", rd.median > 0 ? pl.median / rd.median : 0.0);
  std::printf("  first plan incl. knowledge load:   %8.2f ms\n", load_ms + plan_ms.front());
  return 0;
}

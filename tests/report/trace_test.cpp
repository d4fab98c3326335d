#include "report/trace.h"

#include <gtest/gtest.h>

#include <map>

#include "run_sample.h"
#include "util/fs.h"

using namespace ts::report;
using ts::build::NinjaJob;
using ts::build::NinjaLog;
using nlohmann::json;

namespace {

NinjaLog real_log() {
  return ts::build::read_ninja_log(std::string(TS_SOURCE_DIR) + "/tests/fixtures/ninja_logs/two_runs.v5.ninja_log");
}

std::vector<json> x_events(const json& t, int pid) {
  std::vector<json> out;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X" && e["pid"] == pid) out.push_back(e);
  return out;
}

}  // namespace

TEST(Lanes, OverlappingJobsNeverShareALane) {
  // Synthetic: many jobs with random-ish overlaps; check the invariant pairwise.
  std::vector<NinjaJob> jobs;
  for (int i = 0; i < 200; ++i) {
    std::int64_t s = (i * 37) % 500, d = 1 + (i * 53) % 90;
    jobs.push_back(NinjaJob{s, s + d, 0, {"t" + std::to_string(i)}});
  }
  std::stable_sort(jobs.begin(), jobs.end(), [](auto& a, auto& b) { return a.start_ms < b.start_ms; });
  auto lanes = assign_lanes(jobs);
  int max_lane = 0;
  for (std::size_t a = 0; a < jobs.size(); ++a) {
    max_lane = std::max(max_lane, lanes[a]);
    for (std::size_t b = a + 1; b < jobs.size(); ++b)
      if (lanes[a] == lanes[b]) {
        EXPECT_TRUE(jobs[a].end_ms <= jobs[b].start_ms || jobs[b].end_ms <= jobs[a].start_ms)
            << jobs[a].name() << " and " << jobs[b].name() << " overlap in lane " << lanes[a];
      }
  }
  // No more lanes than the peak number of jobs running at once.
  int peak = 0;
  for (std::int64_t t = 0; t < 600; ++t) {
    int n = 0;
    for (const auto& j : jobs) n += j.start_ms <= t && t < j.end_ms;
    peak = std::max(peak, n);
  }
  EXPECT_EQ(max_lane + 1, peak);
}

TEST(Lanes, BackToBackJobsReuseTheLane) {
  std::vector<NinjaJob> jobs = {{0, 10, 0, {"a"}}, {10, 20, 0, {"b"}}, {5, 15, 0, {"c"}}};
  std::stable_sort(jobs.begin(), jobs.end(), [](auto& a, auto& b) { return a.start_ms < b.start_ms; });
  EXPECT_EQ(assign_lanes(jobs), (std::vector<int>{0, 1, 0}));
}

TEST(Trace, RealLogParsesBackWithMatchingDurations) {
  NinjaLog log = real_log();
  json t = json::parse(chrome_trace_text(log, nullptr, {true}));
  ASSERT_TRUE(t["traceEvents"].is_array());
  std::map<std::string, double> dur;
  for (const auto& e : t["traceEvents"]) {
    ASSERT_TRUE(e.contains("name") && e.contains("ph") && e.contains("pid")) << e.dump();
    if (e["ph"] != "X") continue;
    for (const char* k : {"cat", "ts", "dur", "tid"}) ASSERT_TRUE(e.contains(k)) << k << " in " << e.dump();
    EXPECT_GE(e["dur"].get<double>(), 0);
    dur[e["name"]] = e["dur"];
  }
  EXPECT_EQ(dur.size(), 8u);  // 9 outputs, gen.h+gen.cpp one job
  for (const auto& en : log.entries)
    if (dur.count(en.output)) {
      EXPECT_DOUBLE_EQ(dur[en.output], double(en.duration_ms()) * 1000) << en.output;
    }
  // Both runs, each its own process; the default keeps only the newest run.
  EXPECT_EQ(x_events(t, 1).size() + x_events(t, 2).size(), 8u);
  json last = chrome_trace(log);
  EXPECT_EQ(x_events(last, 1).size(), 2u);
}

TEST(Trace, RealLogOverlapsGetDistinctLanes) {
  json t = chrome_trace(real_log(), nullptr, {true});
  auto ev = x_events(t, 1);  // the -j3 run
  ASSERT_EQ(ev.size(), 6u);
  int lanes = 0;
  for (std::size_t a = 0; a < ev.size(); ++a) {
    lanes = std::max(lanes, ev[a]["tid"].get<int>() + 1);
    for (std::size_t b = a + 1; b < ev.size(); ++b) {
      if (ev[a]["tid"] != ev[b]["tid"]) continue;
      double as = ev[a]["ts"], ae = as + ev[a]["dur"].get<double>();
      double bs = ev[b]["ts"], be = bs + ev[b]["dur"].get<double>();
      EXPECT_TRUE(ae <= bs || be <= as) << ev[a]["name"] << " / " << ev[b]["name"];
    }
  }
  EXPECT_EQ(lanes, 3);  // ninja -j3
}

TEST(Trace, RecordAddsStepsMemoryCountersAndAlignsNinjaToTheBuildStep) {
  RunRecord r = sample::sample_record();
  json t = chrome_trace(real_log(), &r);
  int counters = 0, steps = 0, instants = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "C") {
      ++counters;
      EXPECT_TRUE(e["args"].contains("used") && e["args"].contains("available"));
    }
    if (e["ph"] == "X" && e["pid"] == 0) ++steps;
    if (e["ph"] == "i") ++instants;
  }
  EXPECT_EQ(counters, 3);
  EXPECT_EQ(steps, 3);
  EXPECT_EQ(instants, 2);
  auto ninja = x_events(t, 1);
  ASSERT_EQ(ninja.size(), 2u);
  EXPECT_DOUBLE_EQ(ninja[0]["ts"].get<double>(), 40.5e6);  // mid1.o started at 0 ms of the build step
  EXPECT_EQ(t["traceEvents"][1]["args"]["name"], "ninja");
}

TEST(Trace, HostileNamesStayData) {
  NinjaLog log = ts::build::parse_ninja_log("# ninja log v5\n0\t5\t1\t\"},{\"x\":\"<script>\xff\tab\n");
  ASSERT_EQ(log.entries.size(), 1u);
  json t = json::parse(chrome_trace_text(log));
  auto ev = x_events(t, 1);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0]["name"].get<std::string>().substr(0, 17), "\"},{\"x\":\"<script>");
}

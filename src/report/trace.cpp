#include "report/trace.h"

#include <functional>
#include <queue>
#include <set>
#include <utility>

namespace ts::report {
namespace {

using nlohmann::json;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A category to filter on in Perfetto, from the output's name.
const char* category(const std::string& out) {
  if (ends_with(out, ".cu.o") || ends_with(out, ".cu.obj")) return "cuda";
  if (ends_with(out, ".o") || ends_with(out, ".obj")) return "compile";
  if (ends_with(out, ".so") || ends_with(out, ".a") || out.find(".so.") != std::string::npos) return "link";
  return "other";
}

json meta(const char* what, int pid, int tid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

std::vector<int> assign_lanes(const std::vector<build::NinjaJob>& jobs) {
  std::vector<int> lane(jobs.size(), 0);
  using Busy = std::pair<std::int64_t, int>;  // end, lane
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::set<int> free;
  int lanes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    while (!busy.empty() && busy.top().first <= jobs[i].start_ms) {
      free.insert(busy.top().second);
      busy.pop();
    }
    if (free.empty()) {
      lane[i] = lanes++;
    } else {
      lane[i] = *free.begin();
      free.erase(free.begin());
    }
    busy.emplace(jobs[i].end_ms, lane[i]);
  }
  return lane;
}

json chrome_trace(const build::NinjaLog& log, const RunRecord* record, TraceOptions opts) {
  json events = json::array();
  double offset_us = 0;
  if (record)
    if (const StepRecord* b = record->step("build")) offset_us = b->start * 1e6;
  events.push_back(meta("process_name", 0, 0, "torchsmith run"));

  auto jobs = log.jobs(!opts.all_runs);
  int newest = 0;
  for (const auto& j : jobs) newest = std::max(newest, j.run);
  std::set<int> runs;
  for (const auto& j : jobs) runs.insert(j.run);
  for (int run : runs) {
    std::vector<build::NinjaJob> mine;
    for (const auto& j : jobs)
      if (j.run == run) mine.push_back(j);
    int pid = opts.all_runs ? 1 + run : 1;
    events.push_back(meta("process_name", pid, 0,
                          opts.all_runs ? "ninja run " + std::to_string(run) : std::string("ninja")));
    // Only the newest run lines up with the record's build step; older runs keep their own clock.
    double base = run == newest ? offset_us : 0;
    auto lanes = assign_lanes(mine);
    for (std::size_t i = 0; i < mine.size(); ++i) {
      const auto& j = mine[i];
      json e = {{"name", j.name()},
                {"cat", category(j.name())},
                {"ph", "X"},
                {"ts", base + double(j.start_ms) * 1000.0},
                {"dur", double(j.duration_ms()) * 1000.0},
                {"pid", pid},
                {"tid", lanes[i]}};
      if (j.outputs.size() > 1) e["args"] = {{"outputs", j.outputs}};
      events.push_back(std::move(e));
    }
  }
  if (record) {
    for (const auto& s : record->steps)
      events.push_back({{"name", s.name},
                        {"cat", "step"},
                        {"ph", "X"},
                        {"ts", s.start * 1e6},
                        {"dur", s.seconds * 1e6},
                        {"pid", 0},
                        {"tid", 0},
                        {"args", {{"status", s.status}, {"note", s.note}}}});
    for (const auto& m : record->memory)
      events.push_back({{"name", "memory (MiB)"},
                        {"ph", "C"},
                        {"ts", m.at * 1e6},
                        {"pid", 0},
                        {"args",
                         {{"used", double(m.used_bytes) / 1048576.0},
                          {"available", double(m.available_bytes) / 1048576.0}}}});
    for (const auto& g : record->governor)
      events.push_back({{"name", g.action + " " + std::to_string(g.pid)},
                        {"cat", "governor"},
                        {"ph", "i"},
                        {"s", "p"},
                        {"ts", g.at * 1e6},
                        {"pid", 0},
                        {"tid", 0},
                        {"args", {{"reason", g.reason}}}});
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

std::string chrome_trace_text(const build::NinjaLog& log, const RunRecord* record, TraceOptions opts) {
  return chrome_trace(log, record, opts).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace ts::report

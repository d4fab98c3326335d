#pragma once
// trace.json: the build's jobs from .ninja_log in Chrome's trace event format, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open. Each job is a complete event ("ph":"X") on a lane
// (tid) rebuilt from the times, so jobs that overlapped never share a lane, as ninjatracing does.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/ninja_log.h"
#include "report/run_record.h"

namespace ts::report {

// A lane per job (same order as jobs): the lowest lane free when the job starts. Jobs must be
// sorted by start (NinjaLog::jobs gives them so). A job may start in the ms another ended.
std::vector<int> assign_lanes(const std::vector<build::NinjaJob>& jobs);

struct TraceOptions {
  bool all_runs = false;  // every run in the log (one process each) instead of the newest only
};

// Jobs as "X" events on pid 1 (ninja), the run's steps on pid 0, and memory samples as counter
// events ("ph":"C"). Times are µs since the run started: ninja's clock starts with the last
// "build" step of the record (or at 0 without one).
nlohmann::json chrome_trace(const build::NinjaLog& log, const RunRecord* record = nullptr,
                            TraceOptions opts = {});
// The file's text; invalid UTF-8 in names becomes U+FFFD.
std::string chrome_trace_text(const build::NinjaLog& log, const RunRecord* record = nullptr,
                              TraceOptions opts = {});

}  // namespace ts::report

#pragma once
// report.html: one self-contained file (inline CSS and SVG, no script, nothing fetched) that
// tells what a run did: outcome, plan, steps, retries, governor actions, cache hit rate, the
// slowest targets, a timeline and a memory chart, the diagnosis, verdicts and artifacts. Every
// string from the record or the log is escaped; the same input gives the same bytes.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "build/ninja_log.h"
#include "report/run_record.h"

namespace ts::report {

// &, <, >, " and ' as entities; bytes that are not valid UTF-8 become U+FFFD.
std::string html_escape(std::string_view s);

// The n longest jobs, longest first (ties by name, for a stable order).
std::vector<build::NinjaJob> slowest_jobs(const build::NinjaLog& log, std::size_t n);

struct HtmlOptions {
  std::size_t slowest = 20;          // rows in the slowest-targets table
  std::size_t max_timeline_bars = 4000;  // keeps report.html small for PyTorch's ~10k jobs
};

// `log` may be null (no ninja step ran, or its .ninja_log could not be read).
std::string render_run_html(const RunRecord& r, const build::NinjaLog* log, HtmlOptions opts = {});

}  // namespace ts::report

#pragma once
// Writes a run's three files into its run directory, each atomically: run.json, report.html and
// (when the build's .ninja_log can be read) trace.json. Safe to call again after every step, so
// an interrupted run still leaves a readable report.
#include <functional>
#include <string>
#include <vector>

#include "report/run_record.h"

namespace ts::report {

struct RunFiles {
  std::vector<std::string> written;  // paths written
  std::vector<std::string> notes;    // what was left out and why ("no trace.json: ...")
  std::string error;                 // a write failed: the path and the reason; "" when fine
  bool ok() const { return error.empty(); }
};

// Uses r.run_dir (must exist) and r.ninja_log (may be empty or unreadable: no timeline then).
RunFiles write_run_files(const RunRecord& r);
// The same through write(path, text) -> "" or the error (a build run's World).
using WriteFile = std::function<std::string(const std::string&, const std::string&)>;
RunFiles write_run_files(const RunRecord& r, const WriteFile& write);

}  // namespace ts::report

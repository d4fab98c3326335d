#pragma once
// The ninja logs of one build step as one: a setuptools build runs ninja in its build_temp (and
// torchsmith's helper one ninja per extension, side by side), never in build/ where a CMake
// build keeps its .ninja_log. Each log's newest run is placed at the wall-clock time its outputs
// were written (their mtime on disk minus their end_ms), so report.html's timeline and trace.json
// show the extensions as they ran.
#include <string>
#include <vector>

#include "build/ninja_log.h"

namespace ts::build {

// Every .ninja_log under root, at most max_depth directories down, sorted by path.
std::vector<std::string> find_ninja_logs(const std::string& root, int max_depth = 4);

struct MergedNinjaLog {
  NinjaLog log;                    // one run; outputs named "<dir under root>/<output>"
  std::vector<std::string> notes;  // a log that could not be read or placed
};

// Merges the logs found under root. A log none of whose outputs is left on disk starts at 0.
MergedNinjaLog merge_ninja_logs(const std::string& root, const std::vector<std::string>& logs);

// A log as .ninja_log text (v5 layout), which parse_ninja_log reads back.
std::string ninja_log_text(const NinjaLog& log);

}  // namespace ts::build

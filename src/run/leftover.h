#pragma once
// A torchsmith killed with SIGKILL cannot stop its build step: the compilers run on as orphans
// and would race a resumed build in the same tree. Each step's environment carries
// TORCHSMITH_RUN=<run id> and the journal keeps its process group, so the next run finds exactly
// those processes (a reused pgid without the marker is left alone) and stops them.
#include <string>
#include <vector>

namespace ts::run {

// Live processes in process group pgid whose environment has TORCHSMITH_RUN=run_id.
std::vector<int> find_leftovers(int pgid, const std::string& run_id, const std::string& proc_root = "/proc");
// SIGINT (as Ctrl-C: ninja exits cleanly), then SIGKILL after grace_ms; returns how many there were.
int stop_leftovers(int pgid, const std::string& run_id, int grace_ms);

}  // namespace ts::run

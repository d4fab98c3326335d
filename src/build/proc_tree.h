#pragma once
// The processes of one process group, read from /proc/<pid>/stat: what the governor governs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::build {

struct ProcInfo {
  int pid = 0, ppid = 0, pgrp = 0;
  char state = '?';         // R, S, D, T (stopped), Z, ...
  std::string comm;         // the kernel's 15-byte name
  std::uint64_t start = 0;  // clock ticks since boot
  std::uint64_t rss = 0;    // bytes
};

// One /proc/<pid>/stat line; nullopt when malformed.
std::optional<ProcInfo> parse_proc_stat(std::string_view stat);
// Every live process whose process group is pgid.
std::vector<ProcInfo> list_group(int pgid, const std::string& proc_root = "/proc");
// root and every live descendant (by parent pid). What a step really runs: ninja puts each
// command in a process group of its own, so the step's group alone misses the compilers.
std::vector<ProcInfo> list_tree(int root, const std::string& proc_root = "/proc");
// The compile jobs among them: leaves of the tree (the cc1plus, not the g++ waiting for it), not
// the group leader and not a build tool's own process (ninja, make, cmake, a shell).
std::vector<ProcInfo> job_processes(const std::vector<ProcInfo>& group, int leader);

}  // namespace ts::build

#pragma once
// cgroup lookups shared by the CPU and memory sections: containers and systemd slices limit
// what a build may use while /proc/meminfo and /proc/cpuinfo still show the whole machine.
#include <string>
#include <vector>

#include "probe/host.h"

namespace ts::probe {

// Host paths where `file` of our cgroup may be, innermost first: our own cgroup v2 directory
// and its ancestors (a parent's limit applies too), then v1's <controller> hierarchy.
std::vector<std::string> cgroup_candidates(const Host& h, const std::string& v1_controller,
                                           const std::string& file);

}  // namespace ts::probe

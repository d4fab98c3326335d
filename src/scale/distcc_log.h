#pragma once
// What distcc's own log (DISTCC_LOG with DISTCC_VERBOSE=1) says a build did: which units compiled
// on which host, and which were sent to a host that failed them (refused, gone, timed out) and so
// compiled elsewhere — here (distcc's fallback) or on another host — recorded so a lost host's
// cost is visible in run.json.
#include <map>
#include <string>
#include <vector>

namespace ts::scale {

struct MovedJob {
  std::string source;  // "aten/src/ATen/ops/add.cpp" as the compile named it
  std::string host;    // the host that failed it: "127.100.0.3:3632/4"
  std::string why;     // distcc's last error or warning for that unit
};

struct DistccSummary {
  std::map<std::string, int> remote;  // host (without /slots) -> units compiled there
  int local = 0;                      // units compiled here (fallback or no remote slot)
  std::vector<MovedJob> moved;
  int total() const;
};

DistccSummary parse_distcc_log(const std::string& text);

}  // namespace ts::scale

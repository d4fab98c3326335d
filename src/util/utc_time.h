#pragma once
// One clock for every timestamp torchsmith writes (run ids, lock holders, KB read dates), always UTC.
#include <ctime>
#include <string>

namespace ts::util {

inline constexpr const char* kIso8601 = "%Y-%m-%dT%H:%M:%SZ";  // run.json, lock files
inline constexpr const char* kCompact = "%Y%m%dT%H%M%SZ";       // names of dirs and ids
inline constexpr const char* kDate = "%Y-%m-%d";                // "read on" dates of KB sources

// `when` formatted in UTC with strftime's `fmt`; thread-safe (gmtime_r).
std::string utc_time(const char* fmt = kIso8601, std::time_t when = std::time(nullptr));

}  // namespace ts::util

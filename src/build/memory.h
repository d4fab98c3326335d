#pragma once
// What the governor watches: the machine's MemAvailable, memory pressure (PSI) and our cgroup's
// limit and usage, all read under a root directory so tests can hand in fake /proc and /sys files.
#include <cstdint>
#include <optional>
#include <string>

#include "probe/host.h"

namespace ts::build {

struct MemReading {
  std::uint64_t available = 0;             // MemAvailable, bytes (0 when unreadable)
  std::optional<double> psi_some_avg10;    // % of the last 10 s some task stalled on memory
  std::optional<std::uint64_t> cg_max;     // innermost finite cgroup limit, bytes
  std::optional<std::uint64_t> cg_current; // usage of that cgroup, bytes
  // What the build may still take: MemAvailable, or the cgroup's room when that is smaller.
  std::uint64_t headroom() const;
};

class MemoryReader {
 public:
  explicit MemoryReader(std::string root = "/");
  MemReading read() const;

 private:
  probe::Host host_;  // built once: Host::at copies our environment
  std::string cg_max_path_, cg_current_path_;  // host paths found once (the cgroup does not move)
};

// Parsers, for the tests: "MemAvailable:  123 kB" -> bytes; PSI "some avg10=1.23 ..." -> 1.23.
std::optional<std::uint64_t> parse_mem_available(const std::string& meminfo);
std::optional<double> parse_psi_some_avg10(const std::string& pressure);

// "500M", "2G", "1.5GiB", "123456" (bytes) -> bytes; nullopt when not a size.
std::optional<std::uint64_t> parse_size(const std::string& s);
std::string format_mib(std::uint64_t bytes);  // "512 MiB", "3.2 GiB"

}  // namespace ts::build

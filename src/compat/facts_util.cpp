#include "compat/facts_util.h"

#include <algorithm>
#include <cstdio>

namespace ts::compat {

std::string cite(const std::string& source, const kb::Origin& o) {
  std::string at = where(o);
  if (source.empty()) return at;
  if (at.empty()) return source;
  return source + " (" + at + ")";
}

std::string where(const kb::Origin& o) {
  return o.file.empty() ? "" : o.file + ":" + std::to_string(o.line);
}

const CompilerFacts* default_host_compiler(const HostFacts& f) {
  auto base = [](const std::string& p) {
    auto s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
  };
  for (const auto& c : f.compilers)
    if (c.family == "gcc" && (base(c.cxx) == "g++" || base(c.cc) == "gcc")) return &c;
  for (const auto& c : f.compilers)
    if (c.family == "gcc") return &c;
  return nullptr;
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buf;
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

int usable_cores(const CpuFacts& cpu) {
  return cpu.logical_cores > 0 ? cpu.logical_cores : std::max(cpu.online_cores, 0);
}

const kb::CudaRelease* newest_cuda_for_driver(const kb::Kb& kb, const Version& driver) {
  const kb::CudaRelease* best = nullptr;
  for (const auto& r : kb.cuda) {
    const Version& v = r.version;
    if (driver < r.driver_min_linux) continue;
    if (!best || v > best->version) best = &r;
  }
  return best;
}

}  // namespace ts::compat

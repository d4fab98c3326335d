#include "build/memory.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <sstream>

#include "probe/cgroup.h"
#include "probe/host.h"
#include "util/fs.h"

namespace ts::build {

std::uint64_t MemReading::headroom() const {
  std::uint64_t h = available;
  if (cg_max && cg_current) h = std::min(h, *cg_max > *cg_current ? *cg_max - *cg_current : 0);
  return h;
}

std::optional<std::uint64_t> parse_mem_available(const std::string& meminfo) {
  std::istringstream in(meminfo);
  std::string key, unit;
  std::uint64_t v = 0;
  while (in >> key >> v) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return v * 1024;  // the kernel always prints kB
  }
  return std::nullopt;
}

std::optional<double> parse_psi_some_avg10(const std::string& pressure) {
  auto p = pressure.find("some ");
  if (p == std::string::npos) return std::nullopt;
  auto a = pressure.find("avg10=", p);
  if (a == std::string::npos) return std::nullopt;
  double v = 0;
  const char* b = pressure.data() + a + 6;
  auto [end, ec] = std::from_chars(b, pressure.data() + pressure.size(), v);
  if (ec != std::errc() || end == b) return std::nullopt;
  return v;
}

namespace {

std::optional<std::uint64_t> read_number(const probe::Host& h, const std::string& path) {
  if (path.empty()) return std::nullopt;
  auto t = h.read(path, 4096);
  if (!t) return std::nullopt;
  std::string s = util::trim(*t);
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;  // "max" = no limit
  return v;
}

probe::Host host_at(const std::string& root) {
  std::string err;
  auto h = probe::Host::at(root, &err);
  return h ? *h : probe::Host::real();
}

}  // namespace

MemoryReader::MemoryReader(std::string root) : host_(host_at(root)) {
  const probe::Host& h = host_;
  // v2 (memory.max/current) first, then v1 (limit_in_bytes/usage_in_bytes); the innermost finite limit.
  for (auto [mx, cur] : {std::pair{"memory.max", "memory.current"},
                         std::pair{"memory.limit_in_bytes", "memory.usage_in_bytes"}}) {
    for (const auto& p : probe::cgroup_candidates(h, "memory", mx)) {
      auto v = read_number(h, p);
      // v1 says "no limit" with a huge number (PAGE_COUNTER_MAX pages).
      if (!v || *v >= (std::uint64_t(1) << 60)) continue;
      cg_max_path_ = p;
      cg_current_path_ = p.substr(0, p.rfind('/') + 1) + cur;
      return;
    }
  }
}

MemReading MemoryReader::read() const {
  const probe::Host& h = host_;
  MemReading r;
  r.available = parse_mem_available(h.read("/proc/meminfo", 1 << 16).value_or("")).value_or(0);
  if (auto p = h.read("/proc/pressure/memory", 4096)) r.psi_some_avg10 = parse_psi_some_avg10(*p);
  r.cg_max = read_number(h, cg_max_path_);
  r.cg_current = read_number(h, cg_current_path_);
  return r;
}

std::optional<std::uint64_t> parse_size(const std::string& s) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end == s.data() || v < 0) return std::nullopt;
  std::string u(end, s.data() + s.size());
  if (!u.empty() && (u.back() == 'B' || u.back() == 'b')) u.pop_back();
  if (u.size() == 2 && (u.back() == 'i' || u.back() == 'I')) u.pop_back();
  double m = 1;
  if (u.empty()) m = 1;
  else if (u == "K" || u == "k") m = 1024.0;
  else if (u == "M" || u == "m") m = 1024.0 * 1024;
  else if (u == "G" || u == "g") m = 1024.0 * 1024 * 1024;
  else if (u == "T" || u == "t") m = 1024.0 * 1024 * 1024 * 1024;
  else return std::nullopt;
  return static_cast<std::uint64_t>(v * m);
}

std::string format_mib(std::uint64_t bytes) {
  char buf[32];
  double mib = double(bytes) / (1024.0 * 1024);
  if (mib >= 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", mib / 1024);
  else std::snprintf(buf, sizeof buf, "%.0f MiB", mib);
  return buf;
}

}  // namespace ts::build

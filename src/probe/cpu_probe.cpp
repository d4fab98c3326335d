// CPU: architecture, model, ISA level, and how many cores a build may really use.
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmath>
#include <set>
#include <sstream>

#include "probe/cgroup.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

std::set<std::string> words(const std::string& s) {
  std::set<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.insert(w);
  return out;
}

bool has_all(const std::set<std::string>& f, std::initializer_list<const char*> need) {
  for (auto n : need)
    if (!f.count(n)) return false;
  return true;
}

// The x86-64 micro-architecture levels of the psABI, from /proc/cpuinfo flag names.
std::string x86_level(const std::set<std::string>& f) {
  if (!has_all(f, {"cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3"})) return "x86-64";
  if (!has_all(f, {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"}))
    return "x86-64-v2";
  if (!has_all(f, {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"})) return "x86-64-v3";
  return "x86-64-v4";
}

// A rough Armv8 level from the feature words (enough to tell v8.0 boards from v8.2+ / v9).
std::string arm_level(const std::set<std::string>& f) {
  if (f.count("sve2")) return "armv9-a";
  if (f.count("dcpop") || f.count("asimddp") || f.count("fphp")) return "armv8.2-a";
  if (f.count("atomics")) return "armv8.1-a";
  return "armv8-a";
}

// cgroup v2 cpu.max "200000 100000" -> 2 cores; "max 100000" -> 0 (no limit).
int cgroup_cpu_limit(const Host& h) {
  int best = 0;
  for (auto& p : cgroup_candidates(h, "cpu", "cpu.max")) {
    std::istringstream in(h.read(p).value_or(""));
    std::string quota;
    long long period = 0;
    if (!(in >> quota >> period) || quota == "max" || period <= 0 || !all_digits(quota)) continue;
    int n = static_cast<int>(std::ceil(std::stod(quota) / period));
    if (n > 0 && (best == 0 || n < best)) best = n;
  }
  // cgroup v1
  auto q = cgroup_candidates(h, "cpu", "cpu.cfs_quota_us");
  auto per = cgroup_candidates(h, "cpu", "cpu.cfs_period_us");
  if (!q.empty() && !per.empty()) {
    auto qs = util::trim(h.read(q[0]).value_or(""));
    auto ps = util::trim(h.read(per[0]).value_or(""));
    if (all_digits(qs) && all_digits(ps) && std::stoll(ps) > 0) {
      int n = static_cast<int>(std::ceil(std::stod(qs) / std::stod(ps)));
      if (n > 0 && (best == 0 || n < best)) best = n;
    }
  }
  return best;
}

}  // namespace

CpuFacts probe_cpu(const Host& h, Notes& notes) {
  CpuFacts c;
  auto info = h.read("/proc/cpuinfo", 4 << 20).value_or("");
  if (info.empty()) notes.push_back("cannot read /proc/cpuinfo");
  int processors = 0;
  std::string flags, features, cpu_arch, implementer, part;
  for (auto& l : lines(info)) {
    auto colon = l.find(':');
    if (colon == std::string::npos) continue;
    auto key = util::trim(std::string_view(l).substr(0, colon));
    auto val = util::trim(std::string_view(l).substr(colon + 1));
    if (key == "processor") ++processors;
    else if (key == "model name" && c.model.empty()) c.model = val;
    else if (key == "flags" && flags.empty()) flags = val;
    else if (key == "Features" && features.empty()) features = val;
    else if (key == "CPU architecture" && cpu_arch.empty()) cpu_arch = val;
    else if (key == "CPU implementer" && implementer.empty()) implementer = val;
    else if (key == "CPU part" && part.empty()) part = val;
  }
  if (h.is_real()) {
    struct utsname u {};
    if (::uname(&u) == 0) c.arch = u.machine;
  }
  if (c.arch.empty()) {
    if (!flags.empty()) c.arch = words(flags).count("lm") ? "x86_64" : "i686";
    else if (cpu_arch == "8" || !features.empty()) c.arch = "aarch64";
  }
  if (c.model.empty() && !implementer.empty())  // Arm cores name no model; keep the raw ids
    c.model = "Arm implementer " + implementer + " part " + part;
  if (!flags.empty()) c.isa_level = x86_level(words(flags));
  else if (!features.empty()) c.isa_level = arm_level(words(features));

  c.online_cores = processors;
  c.logical_cores = processors;
  if (h.is_real()) {
    long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    if (n > 0) c.online_cores = static_cast<int>(n);
    cpu_set_t set;
    CPU_ZERO(&set);
    c.logical_cores = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : c.online_cores;
  }
  int limit = cgroup_cpu_limit(h);
  if (limit > 0 && (c.logical_cores == 0 || limit < c.logical_cores)) c.logical_cores = limit;
  return c;
}

}  // namespace ts::probe

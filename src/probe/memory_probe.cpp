// Memory: /proc/meminfo, and the cgroup limit that containers hide from it.
#include <algorithm>

#include "probe/cgroup.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

std::uint64_t meminfo_bytes(const std::string& text, const char* key) {
  auto v = field(text, key, ':');  // "32795388 kB"
  auto n = find_version(v, {}, 1);
  return n.empty() ? 0 : std::stoull(n) * 1024;
}

// A number of bytes, or 0 for "max", empty, or v1's "no limit" (a page-rounded 2^63-1).
std::uint64_t limit_value(const std::string& s) {
  auto t = util::trim(s);
  if (!all_digits(t) || t.size() > 19) return 0;
  auto v = std::stoull(t);
  return v >= (1ULL << 60) ? 0 : v;
}

}  // namespace

MemoryFacts probe_memory(const Host& h, Notes& notes) {
  MemoryFacts m;
  auto info = h.read("/proc/meminfo").value_or("");
  if (info.empty()) notes.push_back("cannot read /proc/meminfo");
  m.total_bytes = meminfo_bytes(info, "MemTotal");
  m.available_bytes = meminfo_bytes(info, "MemAvailable");
  if (m.available_bytes == 0)  // kernels before 3.14 have no MemAvailable
    m.available_bytes = meminfo_bytes(info, "MemFree") + meminfo_bytes(info, "Cached");
  m.swap_total_bytes = meminfo_bytes(info, "SwapTotal");
  m.swap_free_bytes = meminfo_bytes(info, "SwapFree");

  // The tightest limit on the way from our cgroup to the root, with that cgroup's usage.
  auto consider = [&](const char* ctrl, const char* limit_file, const char* usage_file) {
    for (auto& p : cgroup_candidates(h, ctrl, limit_file)) {
      auto lim = limit_value(h.read(p).value_or(""));
      if (lim == 0 || (m.cgroup_limit_bytes && lim >= m.cgroup_limit_bytes)) continue;
      m.cgroup_limit_bytes = lim;
      auto dir = p.substr(0, p.rfind('/'));
      m.cgroup_current_bytes = limit_value(h.read(dir + "/" + usage_file).value_or(""));
    }
  };
  consider("memory", "memory.max", "memory.current");
  consider("memory", "memory.limit_in_bytes", "memory.usage_in_bytes");

  m.usable_bytes = m.available_bytes;
  if (m.cgroup_limit_bytes) {
    auto room = m.cgroup_limit_bytes > m.cgroup_current_bytes
                    ? m.cgroup_limit_bytes - m.cgroup_current_bytes : 0;
    m.usable_bytes = m.available_bytes ? std::min(m.available_bytes, room) : room;
  }
  return m;
}

}  // namespace ts::probe

#include "probe/cgroup.h"

#include <algorithm>

#include "probe/text.h"

namespace ts::probe {

std::vector<std::string> cgroup_candidates(const Host& h, const std::string& v1_controller,
                                           const std::string& file) {
  std::vector<std::string> out;
  auto add = [&](const std::string& p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  auto self = h.read("/proc/self/cgroup").value_or("");
  for (auto& l : lines(self)) {
    // "0::/user.slice/x.scope" (v2) or "4:memory:/docker/abc" (v1)
    auto c1 = l.find(':');
    auto c2 = c1 == std::string::npos ? c1 : l.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    std::string ctrls = l.substr(c1 + 1, c2 - c1 - 1);
    std::string path = normalize_path(l.substr(c2 + 1));
    std::string base;
    if (ctrls.empty()) {
      base = "/sys/fs/cgroup";
    } else {
      bool has = false;
      std::size_t b = 0;
      while (b <= ctrls.size()) {
        auto e = ctrls.find(',', b);
        if (e == std::string::npos) e = ctrls.size();
        if (ctrls.substr(b, e - b) == v1_controller) has = true;
        b = e + 1;
      }
      if (!has) continue;
      base = "/sys/fs/cgroup/" + v1_controller;
    }
    // Walk from our cgroup up to the hierarchy root (inside a container the path may not exist
    // under its own mount; then only the mount root is there).
    for (std::string p = path;;) {
      std::string dir = p == "/" ? base : base + p;
      if (h.exists(dir + "/" + file)) add(dir + "/" + file);
      if (p == "/") break;
      auto s = p.rfind('/');
      p = s == 0 ? "/" : p.substr(0, s);
    }
  }
  if (out.empty()) {  // no /proc/self/cgroup (a minimal fake root): the usual mount points
    for (auto p : {"/sys/fs/cgroup/" + file, "/sys/fs/cgroup/" + v1_controller + "/" + file})
      if (h.exists(p)) add(p);
  }
  return out;
}

}  // namespace ts::probe

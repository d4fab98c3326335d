// CMake vs what torch releases require: too old to configure, or CMake 4 without the policy floor.
#include "compat/assess.h"
#include "compat/facts_util.h"

namespace ts::compat {

namespace {

const ToolFacts* newest_cmake(const HostFacts& f) {
  const ToolFacts* best = nullptr;
  for (const auto& t : f.tools) {
    if (t.name != "cmake" && t.name != "cmake3") continue;
    auto v = ver(t.version);
    if (!v) continue;
    if (!best || *v > *ver(best->version)) best = &t;
  }
  return best;
}

Verdict cmake_vs_release(const ToolFacts& cm, const Version& cv, const kb::TorchRelease& rel,
                         const std::string& asked) {
  Verdict v;
  v.topic = "cmake";
  v.subject = "CMake " + cm.version + " (" + cm.path + ") for torch " + asked;
  v.source = rel.source;
  v.where = where(rel.origin);
  auto min = ver(rel.cmake_min);
  auto ceil = ver(rel.cmake_max_exclusive);
  if (min && cv < *min) {
    v.level = Level::fail;
    v.reason = "CMake " + cm.version + " is older than torch " + rel.version +
               " needs (>= " + rel.cmake_min + "): configure stops at cmake_minimum_required" +
               unverified(rel, "cmake_min");
    v.fix = "install CMake >= " + rel.cmake_min +
            (ceil ? " and < " + rel.cmake_max_exclusive : std::string()) +
            " (pip install 'cmake>=" + rel.cmake_min +
            (ceil ? ",<" + rel.cmake_max_exclusive : std::string()) + "' in the build env)";
  } else if (ceil && cv >= *ceil) {
    v.level = Level::warn;
    v.reason = "CMake " + cm.version + " breaks torch " + rel.version + ": CMake " +
               rel.cmake_max_exclusive +
               " removed compatibility with cmake_minimum_required < 3.5, which torch " +
               rel.version + " or its submodules declare";
    v.fix = "set CMAKE_POLICY_VERSION_MINIMUM=3.5 (torchsmith plan does), or use CMake < " +
            rel.cmake_max_exclusive;
  } else {
    v.level = Level::ok;
    v.reason = "torch " + rel.version + " needs CMake >= " + rel.cmake_min +
               (ceil ? " and < " + rel.cmake_max_exclusive : std::string());
  }
  return v;
}

}  // namespace

void check_cmake(const HostFacts& f, const kb::Kb& kb, const Target& t, std::vector<Verdict>& out) {
  const ToolFacts* cm = newest_cmake(f);
  if (!cm) {
    out.push_back({"cmake", "CMake", Level::fail, "cmake not found: every torch build needs it",
                   "apt-get install cmake, or pip install cmake in the build env", ""});
    return;
  }
  auto cv = *ver(cm->version);
  if (!t.torch.empty()) {
    if (const kb::TorchRelease* rel = kb.find_torch(t.torch))
      out.push_back(cmake_vs_release(*cm, cv, *rel, t.torch));
    return;
  }
  // No target: say which release lines this CMake serves, and which it does not.
  std::string ok_lo, ok_hi, too_new_for, too_old_for;
  for (const auto& rel : kb.torch) {
    auto min = ver(rel.cmake_min);
    auto ceil = ver(rel.cmake_max_exclusive);
    if (min && cv < *min) {
      too_old_for += (too_old_for.empty() ? "" : ", ") + rel.version;
    } else if (ceil && cv >= *ceil) {
      too_new_for += (too_new_for.empty() ? "" : ", ") + rel.version;
    } else {
      if (ok_lo.empty()) ok_lo = rel.version;
      ok_hi = rel.version;
    }
  }
  Verdict v;
  v.topic = "cmake";
  v.subject = "CMake " + cm->version + " (" + cm->path + ")";
  v.level = ok_lo.empty() ? Level::fail : (too_old_for.empty() ? Level::ok : Level::warn);
  v.reason = ok_lo.empty() ? "configures no torch release in the knowledge base as it is"
                           : "configures torch " + ok_lo + (ok_hi != ok_lo ? " to " + ok_hi : "");
  if (!too_new_for.empty())
    v.reason += "; torch " + too_new_for + " need CMAKE_POLICY_VERSION_MINIMUM=3.5 with it";
  if (!too_old_for.empty()) {
    v.reason += "; too old for torch " + too_old_for;
    v.fix = "a newer CMake (pip install cmake) for those releases";
  }
  out.push_back(v);
}

}  // namespace ts::compat

// CMake vs what torch releases require: too old to configure, or CMake 4 without the policy floor.
#include "compat/assess.h"
#include "compat/facts_util.h"

namespace ts::compat {

namespace {

const ToolFacts* newest_cmake(const HostFacts& f) {
  const ToolFacts* best = nullptr;
  for (const auto& t : f.tools) {
    if (t.name != "cmake" && t.name != "cmake3") continue;
    auto v = t.version.parsed();
    if (!v) continue;
    if (!best || *v > *best->version.parsed()) best = &t;
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
  const Version& min = rel.cmake_min;
  const auto& ceil = rel.cmake_max_exclusive;
  if (cv < min) {
    v.level = Level::fail;
    v.reason = "CMake " + cm.version + " is older than torch " + rel.version.original() +
               " needs (>= " + min.original() + "): configure stops at cmake_minimum_required" +
               unverified(rel, "cmake_min");
    v.fix = "install CMake >= " + min.original() +
            (ceil ? " and < " + ceil->original() : std::string()) +
            " (pip install 'cmake>=" + min.original() +
            (ceil ? ",<" + ceil->original() : std::string()) + "' in the build env)";
  } else if (ceil && cv >= *ceil) {
    v.level = Level::warn;
    v.reason = "CMake " + cm.version + " breaks torch " + rel.version.original() + ": CMake " +
               ceil->original() +
               " removed compatibility with cmake_minimum_required < 3.5, which torch " +
               rel.version.original() + " or its submodules declare";
    v.fix = "set CMAKE_POLICY_VERSION_MINIMUM=3.5 (torchsmith plan does), or use CMake < " +
            ceil->original();
  } else {
    v.level = Level::ok;
    v.reason = "torch " + rel.version.original() + " needs CMake >= " + min.original() +
               (ceil ? " and < " + ceil->original() : std::string());
  }
  return v;
}

}  // namespace

void check_cmake(const HostFacts& f, const kb::Kb& kb, const Target& t, std::vector<Verdict>& out) {
  const ToolFacts* cm = newest_cmake(f);
  if (!cm) {
    out.push_back({"cmake", "CMake", Level::fail, "cmake not found: every torch build needs it",
                   "apt-get install cmake, or pip install cmake in the build env", "", "", "cmake.present"});
    return;
  }
  auto cv = *cm->version.parsed();
  if (!t.torch.empty()) {
    if (const kb::TorchRelease* rel = kb.find_torch(t.torch)) {
      out.push_back(cmake_vs_release(*cm, cv, *rel, t.torch));
      out.back().rule = "cmake.target";
    }
    return;
  }
  // No target: say which release lines this CMake serves; each class is a contiguous run of
  // releases, because both limits are monotonic in the release.
  std::vector<std::string> ok, too_new_for, too_old_for;
  for (const auto& rel : kb.torch) {
    if (cv < rel.cmake_min)
      too_old_for.push_back(rel.version.original());
    else if (rel.cmake_max_exclusive && cv >= *rel.cmake_max_exclusive)
      too_new_for.push_back(rel.version.original());
    else
      ok.push_back(rel.version.original());
  }
  auto span = [](const std::vector<std::string>& v) {
    return v.size() == 1 ? v.front() : v.front() + " to " + v.back();
  };
  Verdict v;
  v.topic = "cmake";
  v.subject = "CMake " + cm->version + " (" + cm->path + ")";
  // Without --for no release is wanted yet: a release this CMake cannot configure is worth
  // knowing (info), not a warning on every run; one that configures nothing still fails.
  v.level = ok.empty() ? Level::fail
            : (too_old_for.empty() && too_new_for.empty()) ? Level::ok
                                                           : Level::info;
  v.reason = ok.empty() ? "configures no torch release in the knowledge base as it is"
                        : "configures torch " + span(ok);
  if (!too_new_for.empty())
    v.reason += "; breaks torch " + span(too_new_for) +
                " (CMake 4 dropped cmake_minimum_required < 3.5) unless "
                "CMAKE_POLICY_VERSION_MINIMUM=3.5 is set";
  if (!too_old_for.empty()) v.reason += "; too old for torch " + span(too_old_for);
  if (!too_old_for.empty())
    v.fix = "a newer CMake for torch " + span(too_old_for) + " (pip install cmake in the build env)";
  else if (!too_new_for.empty())
    v.fix = "for torch " + span(too_new_for) +
            ": torchsmith plan sets CMAKE_POLICY_VERSION_MINIMUM=3.5, or use CMake 3.x";
  v.rule = "cmake.releases";
  out.push_back(v);
}

}  // namespace ts::compat

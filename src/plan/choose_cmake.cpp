// CMake (new enough for the release; CMake 4 needs the policy floor on torch < 2.7) and Ninja.
#include "core/version.h"
#include "plan/provision_choice.h"
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

namespace {

using Tool = core::BuildTool;

// The newest catalog release of `kind` within [min, ceil) (either may be absent).
const ToolRelease* catalog_in_range(const Ctx& c, const char* kind, const std::optional<Version>& min,
                                    const std::optional<Version>& ceil) {
  const ProvisionContext* pc = c.in->provision;
  if (!pc || !pc->catalog || pc->cache_root.empty() || pc->choice.kind == ToolkitChoice::Kind::system) return nullptr;
  for (const auto* t : pc->catalog->of_kind(kind)) {  // newest first
    const Version& v = t->version;  // parsed when provision.toml loaded
    if (t->complete && (!min || v >= *min) && (!ceil || v < *ceil)) return t;
  }
  return nullptr;
}

// Takes catalog entry `t`: its bin/ goes on the build's PATH, the run's provision step makes it exist.
std::string use_provisioned_tool(Ctx& c, const ToolRelease& t, const std::string& why) {
  const ProvisionContext& pc = *c.in->provision;
  std::string bin = provisioned_path(pc, t) + "/bin/" + t.kind;
  add_provision(pc, t, c.provision_steps, c.p.provisioned);
  c.decide("provision", t.kind + " " + t.version.original() + " from " + provision_where(pc), why, cite(t.source, t.origin));
  return bin;
}

}  // namespace

void choose_cmake(Ctx& c) {
  const auto& rel = *c.release;
  std::string src = cite(rel.source, rel.origin);
  const Version& min = rel.cmake_min;
  const std::string min_text = min.original();
  const auto& ceil = rel.cmake_max_exclusive;
  auto tools = core::find_build_tools(c, "cmake");
  const Tool* best = nullptr;  // newest within [min, ceil), else newest >= min
  for (const auto& t : tools) {
    auto v = *t.version.parsed();
    if (v < min) continue;
    bool in = !ceil || v < *ceil;
    bool best_in = best && (!ceil || *best->version.parsed() < *ceil);
    if (!best || (in && !best_in) || (in == best_in && v > *best->version.parsed())) best = &t;
  }
  std::string range = ">=" + min_text + (ceil ? ",<" + ceil->original() : "");
  c.p.cmake_range = range;
  const ToolRelease* prov = best ? nullptr : catalog_in_range(c, "cmake", min, ceil);
  if (prov) {
    std::string had = tools.empty() ? "no CMake is installed" : "CMake " + tools.front().version + " (" + tools.front().path +
                                                                   ") is older than torch " + rel.version.original() + " needs";
    c.cmake_path = use_provisioned_tool(c, *prov, had + ": the newest CMake in " + range + " that can be provisioned, "
                                        "into the cache (no root, nothing installed into the build Python)");
    c.cmake_version = FactVersion(prov->version);
    c.p.cmake_version = prov->version.original();
    c.decide("cmake", prov->version.original() + " (" + c.cmake_path + ")",
             "provisioned from " + provision_where(*c.in->provision) + "; torch " + rel.version.original() + " needs CMake >= " + min_text,
             src);
  } else if (!best) {
    std::string found = tools.empty() ? "no CMake is installed" : "CMake " + tools.front().version + " (" +
                                                                       tools.front().path + ") is older than torch " +
                                                                       rel.version.original() + " needs (>= " + min_text + ")";
    c.conflict("CMake for torch " + c.version(), found + ": configure stops ('no cmake or cmake3 with version >= " +
               min_text + " found')",
               {"install a newer CMake into the build Python: " + pip_install(c.python, "'cmake" + range + "'") +
                    " (no root needed)",
                "or a distribution/Kitware CMake >= " + min_text},
               src);
    return;
  } else {
    c.cmake_path = best->path;
    c.cmake_version = best->version;
    c.p.cmake_version = best->version;
    c.decide("cmake", best->version + " (" + best->path + ")",
             best->how + "; torch " + rel.version.original() + " needs CMake >= " + min_text, src);
  }
  if (ceil && c.cmake_version.parsed() && *c.cmake_version.parsed() >= *ceil)
    c.set_env("CMAKE_POLICY_VERSION_MINIMUM", "3.5",
              "CMake " + c.cmake_version + " >= " + ceil->original() +
                  " removed compatibility with cmake_minimum_required < 3.5, which torch " + rel.version.original() +
                  "'s third_party projects declare");
  auto ninjas = core::find_build_tools(c, "ninja");
  if (!ninjas.empty()) {
    c.ninja_path = ninjas.front().path;
    c.set_env("USE_NINJA", "1", "Ninja " + ninjas.front().version + " (" + ninjas.front().path +
                                     "): faster than make, and its progress is parseable");
  } else if (const ToolRelease* t = catalog_in_range(c, "ninja", std::nullopt, std::nullopt)) {
    c.ninja_path = use_provisioned_tool(c, *t, "no ninja is installed: faster than make, and its progress is parseable");
    c.set_env("USE_NINJA", "1", "Ninja " + t->version.original() + " (" + c.ninja_path + "), provisioned");
  } else {
    c.warn("ninja", "not found", "setup.py falls back to make (slower, coarser progress); " +
           pip_install(c.python, "ninja"), src);
    c.p.env["USE_NINJA"] = "0";
  }
}

}  // namespace ts::plan::detail

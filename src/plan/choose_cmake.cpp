// CMake (new enough for the release; CMake 4 needs the policy floor on torch < 2.7) and Ninja.
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

namespace {

struct Tool {
  std::string path, version, how;
};

// cmake/ninja on the machine and pip's in the build Python.
std::vector<Tool> find_tools(const Ctx& c, const std::string& name) {
  std::vector<Tool> out;
  if (c.python) {
    auto it = c.python->packages.find(name);
    if (it != c.python->packages.end())
      out.push_back({dir_of(c.python->path) + "/" + name, it->second, "the build Python's " + name + " package"});
  }
  for (const auto& t : c.facts().tools)
    if ((t.name == name || (name == "cmake" && t.name == "cmake3")) && ver(t.version))
      out.push_back({t.path, t.version, "found on the machine"});
  return out;
}

}  // namespace

void choose_cmake(Ctx& c) {
  const auto& rel = *c.release;
  std::string src = cite(rel.source, rel.origin);
  auto min = ver(rel.cmake_min);
  auto ceil = ver(rel.cmake_max_exclusive);
  auto tools = find_tools(c, "cmake");
  const Tool* best = nullptr;  // newest within [min, ceil), else newest >= min
  for (const auto& t : tools) {
    auto v = *ver(t.version);
    if (min && v < *min) continue;
    bool in = !ceil || v < *ceil;
    bool best_in = best && (!ceil || *ver(best->version) < *ceil);
    if (!best || (in && !best_in) || (in == best_in && v > *ver(best->version))) best = &t;
  }
  std::string range = ">=" + rel.cmake_min + (ceil ? ",<" + rel.cmake_max_exclusive : "");
  c.p.cmake_range = range;
  if (!best) {
    std::string found = tools.empty() ? "no CMake is installed" : "CMake " + tools.front().version + " (" +
                                                                       tools.front().path + ") is older than torch " +
                                                                       rel.version + " needs (>= " + rel.cmake_min + ")";
    c.conflict("CMake for torch " + c.version(), found + ": configure stops ('no cmake or cmake3 with version >= " +
               rel.cmake_min + " found')",
               {"install a newer CMake into the build Python: " + pip_install(c.python, "'cmake" + range + "'") +
                    " (no root needed)",
                "or a distribution/Kitware CMake >= " + rel.cmake_min},
               src);
    return;
  }
  c.cmake_path = best->path;
  c.cmake_version = best->version;
  c.p.cmake_version = best->version;
  c.decide("cmake", best->version + " (" + best->path + ")",
           best->how + "; torch " + rel.version + " needs CMake >= " + rel.cmake_min, src);
  if (ceil && *ver(best->version) >= *ceil)
    c.set_env("CMAKE_POLICY_VERSION_MINIMUM", "3.5",
              "CMake " + best->version + " >= " + rel.cmake_max_exclusive +
                  " removed compatibility with cmake_minimum_required < 3.5, which torch " + rel.version +
                  "'s third_party projects declare");
  auto ninjas = find_tools(c, "ninja");
  if (!ninjas.empty()) {
    c.ninja_path = ninjas.front().path;
    c.set_env("USE_NINJA", "1", "Ninja " + ninjas.front().version + " (" + ninjas.front().path +
                                     "): faster than make, and its progress is parseable");
  } else {
    c.warn("ninja", "not found", "setup.py falls back to make (slower, coarser progress); " +
           pip_install(c.python, "ninja"), src);
    c.p.env["USE_NINJA"] = "0";
  }
}

}  // namespace ts::plan::detail

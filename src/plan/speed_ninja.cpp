// Ninja back on: a setup.py that passes use_ninja=False to torch's BuildExtension compiles one file
// at a time whatever MAX_JOBS says. torchsmith's build helper (src/run/pyshim) turns it back on for
// the build without touching the package's files, so every such package gets the same rule.
#include <algorithm>

#include "plan/extension_internal.h"
#include "util/split.h"

namespace ts::plan::ext {

namespace {

constexpr const char* kSource = "pytorch/pytorch@v1.13.1:torch/utils/cpp_extension.py (BuildExtension.build_extensions: "
                                "use_ninja selects unix_wrap_ninja_compile or unix_wrap_single_compile)";
constexpr const char* kWhy = "torch's BuildExtension compiles through ninja, MAX_JOBS at a time, only when use_ninja "
                             "is True; with False it compiles each source in turn";

// A ninja the build can use (core::find_build_tools) in a directory on the build's PATH.
bool ninja_on_build_path(const Ctx& c) {
  auto it = c.p.env.find("PATH");
  if (it == c.p.env.end()) return false;
  auto dirs = util::split(it->second, ':');
  for (const auto& t : core::find_build_tools(c, "ninja"))
    if (std::find(dirs.begin(), dirs.end(), core::dir_of(t.path)) != dirs.end()) return true;
  return false;
}

// The build runs setuptools through the target Python (not a CMake-only project).
bool python_setup_build(const Ctx& c) {
  const auto& r = *c.recipe;
  const auto& scan = c.req->scan;
  if (scan.scanned) return scan.setup_py;
  return r.build_system != "cmake" && r.build_system != "pep517";
}

}  // namespace

bool ninja_off(const Ctx& c) {
  // A setup.py read says it for its own version (torch-scatter 2.0.4 keeps ninja on); without one
  // (NAME==VERSION before the fetch) the recipe's serial_build does.
  const auto& scan = c.req->scan;
  bool off = scan.scanned && scan.setup_py ? scan.ninja_off : c.recipe->serial_build;
  return off && !c.ninja_fixed;
}

bool ninja_by_helper(const Ctx& c) {
  return c.python && ninja_off(c) && python_setup_build(c) && c.req->jobs != 1 && ninja_on_build_path(c);
}

void choose_ninja(Ctx& c) {
  if (!ninja_by_helper(c)) return;
  auto it = c.p.env.find("PYTHONPATH");
  c.set_env("PYTHONPATH", pythonpath_with_pyshim(it == c.p.env.end() ? "" : it->second),
            "torchsmith's build helper (sitecustomize.py, written by the run) comes first: it turns the "
            "package's use_ninja=False into True",
            "src/run/pyshim/sitecustomize.py");
  c.set_env("TORCHSMITH_NINJA", "1", "the build helper turns use_ninja back on when torch finds ninja", kSource);
  c.decide("ninja", "on through the build helper",
           "setup.py passes use_ninja=False to BuildExtension; " + std::string(kWhy) +
               ". The helper sets use_ninja=True before build_extensions reads it (same sources, same flags), "
               "without editing the package's files",
           kSource);
}

}  // namespace ts::plan::ext

// Side-by-side extensions: setuptools builds a package's extensions one after another, so a
// package of many (torch-scatter's 8) waits on each one's slowest file in turn. torchsmith's build
// helper (src/run/pyshim) builds them at once within the plan's job count.
#include <algorithm>
#include <cstdlib>

#include "plan/extension_internal.h"
#include "plan/speed_fixes.h"

namespace ts::plan::ext {

namespace {

constexpr const char* kWhy = "setuptools' build_ext builds extensions one after another "
                             "(setuptools/_distutils/command/build_ext.py _build_extensions_serial)";

bool ninja_fixed(const Ctx& c) {
  if (!c.fixes) return false;
  return std::any_of(c.p.fixes.begin(), c.p.fixes.end(), [&](const PlannedFix& f) {
    const source::Fix* fx = c.fixes->find(f.id);
    return fx && fix_enables_ninja(*fx);
  });
}

// The nvcc --threads the plan gave every CUDA compile (NVCC_APPEND_FLAGS or the recipe's knob); 1 if none.
int nvcc_threads(const Ctx& c) {
  auto get = [&](const std::string& k) {
    auto it = c.p.env.find(k);
    return it == c.p.env.end() ? std::string() : it->second;
  };
  std::string v;
  if (!c.recipe.nvcc_threads_env.empty()) {
    v = get(c.recipe.nvcc_threads_env);
  } else {
    std::string flags = get("NVCC_APPEND_FLAGS");
    if (auto at = flags.rfind("--threads "); at != std::string::npos) v = flags.substr(at + 10);
  }
  int n = std::atoi(v.c_str());
  return n > 1 ? n : 1;
}

}  // namespace

void choose_parallel_extensions(Ctx& c) {
  if (!c.py) return;
  auto build = std::find_if(c.p.steps.begin(), c.p.steps.end(), [](const Step& s) { return s.name == "build"; });
  // Only a Python build runs setuptools' build_ext; a CMake project schedules itself.
  if (build == c.p.steps.end() || build->argv.empty() || build->argv[0] != c.py->path) return;
  const auto& r = c.recipe;
  if (!r.parallel_extensions) {
    c.decide("extensions", "one after another", "the recipe says its extensions must not be built side by side "
             "(parallel_extensions = false)", c.recipe_source());
    return;
  }
  if (c.p.jobs < 2) return;
  if (r.serial_build && !ninja_fixed(c)) {
    c.decide("extensions", "one after another", r.name + " compiles without ninja (use_ninja=False), which cannot "
             "be shared between threads, and no fix for this version turns ninja on", c.recipe_source(), true);
    return;
  }
  // A CUDA source compiled with nvcc --threads T keeps T cores busy: slots count threads, not jobs.
  int threads = nvcc_threads(c);
  int slots = c.p.jobs * threads;
  std::string path = kPyshimDir;
  if (auto it = c.p.env.find("PYTHONPATH"); it != c.p.env.end() && !it->second.empty()) path += ":" + it->second;
  c.set_env("PYTHONPATH", path, "torchsmith's build helper (sitecustomize.py, written by the run) comes first: "
            "it builds the package's extensions side by side", "src/run/pyshim/sitecustomize.py");
  c.set_env("TORCHSMITH_EXT_JOBS", std::to_string(slots),
            "compile slots the extensions share (jobs x nvcc threads): an extension being built holds one per "
            "C++ source and one per nvcc thread of each CUDA source, so no more compile at once than the plan's "
            "jobs and threads allow", kWhy);
  if (threads > 1)
    c.set_env("TORCHSMITH_NVCC_THREADS", std::to_string(threads), "the slots one CUDA source holds (its nvcc --threads)",
              kWhy);
  c.decide("extensions", "side by side in " + std::to_string(slots) + " compile slots",
           std::string(kWhy) + "; each extension gets its own build_temp (its own build.ninja and objects); only "
           "torch's ninja path is run this way, and an extension of type setuptools Library (others link it) "
           "keeps the serial order",
           "src/run/pyshim/sitecustomize.py");
}

}  // namespace ts::plan::ext

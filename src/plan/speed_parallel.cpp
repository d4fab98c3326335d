// Side-by-side extensions: setuptools builds a package's extensions one after another, so a
// package of many (torch-scatter's 8) waits on each one's slowest file in turn. torchsmith's build
// helper (src/run/pyshim) builds them at once within the plan's job count.
#include <algorithm>

#include "plan/extension_internal.h"
#include "plan/parallelism.h"

namespace ts::plan::ext {

namespace {

constexpr const char* kWhy = "setuptools' build_ext builds extensions one after another "
                             "(setuptools/_distutils/command/build_ext.py _build_extensions_serial)";

}  // namespace

void choose_parallel_extensions(Ctx& c) {
  if (!c.python) return;
  auto build = std::find_if(c.p.steps.begin(), c.p.steps.end(), [](const Step& s) { return s.name == "build"; });
  // Only a Python build runs setuptools' build_ext; a CMake project schedules itself.
  if (build == c.p.steps.end() || build->argv.empty() || build->argv[0] != c.python->path) return;
  const auto& r = *c.recipe;
  if (!r.parallel_extensions) {
    c.decide("extensions", "one after another", "the recipe says its extensions must not be built side by side "
             "(parallel_extensions = false)", c.recipe_source());
    return;
  }
  if (c.p.jobs < 2) return;
  if (ninja_off(c) && !ninja_by_helper(c)) {
    c.record("extensions", "one after another", r.name + " compiles without ninja (use_ninja=False), which cannot "
             "be shared between threads, and no fix for this version turns ninja on", c.recipe_source(), true);
    return;
  }
  // A CUDA source compiled with nvcc --threads T keeps T cores busy: slots count threads, not jobs.
  int threads = c.nvcc_threads;
  c.p.side_by_side = true;
  int slots = job_slots(c.p);
  auto it = c.p.env.find("PYTHONPATH");
  c.set_env("PYTHONPATH", pythonpath_with_pyshim(it == c.p.env.end() ? "" : it->second),
            "torchsmith's build helper (sitecustomize.py, written by the run) comes first: it builds the "
            "package's extensions side by side",
            "src/run/pyshim/sitecustomize.py");
  c.set_env("TORCHSMITH_EXT_JOBS", std::to_string(slots),
            "compile slots the extensions share (jobs x nvcc threads): an extension being built holds one per "
            "nvcc thread of each CUDA source or, with no CUDA source, one per C++ source, so no more long compiles "
            "at once than the plan's jobs and threads allow", kWhy);
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

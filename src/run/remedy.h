#pragma once
// Auto-fix: a failed step's root cause (triage) carries a remedy from signatures.toml; the safe
// ones are applied to the run's environment and the step runs again. Each retry has a reason.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/arch_list.h"
#include "plan/parallelism.h"
#include "triage/diagnosis.h"

namespace ts::run {

struct RetryPolicy {
  bool auto_fix = true;           // --no-auto-fix turns every remedy off
  bool allow_arch_shrink = false; // shorten_arch_list only when the user allowed it
  // Per run. Each retry takes a remedy not tried before in the run, so this bounds the builds at
  // max_retries + 1; an old package's chain (CMake's policy floor, a vendored pybind11, a header, an
  // nvcc define) takes four or five.
  int max_retries = 5;
};

// What the failed step ran with, typed: the plan's values, or what an earlier remedy changed them
// to. The environment's knobs were written from these, and no remedy reads them back out of it.
struct Ran {
  plan::Parallelism parallel;  // MAX_JOBS, nvcc --threads/--split-compile, side-by-side slots
  ArchList arch_list;          // TORCH_CUDA_ARCH_LIST (empty: a CPU build)
  int cxx_std = 0;             // the C++ standard the build helper raises the package's -std to (0: its own)
  std::string torch_cmake_prefix;  // the target torch's torch.utils.cmake_prefix_path ("" = not an extension's)
  std::string version;             // the package version the plan was asked for ("" = none: NAME==X's X)
};
Ran ran_of(const plan::Plan& p);

struct RemedyPlan {
  bool retry = false;
  std::string kind;    // "halve_jobs", "set_env", "clean_build_dir", "reconfigure", "shorten_arch_list", "build_remedy"
  std::string reason;  // "OOM_CC1PLUS_KILLED: jobs 8 -> 4"
  std::map<std::string, std::string> env;  // set on top of the run's environment
  bool clean_build = false;                // remove build/ (logs kept) before retrying
  bool reconfigure = false;                // remove build/CMakeCache.txt before retrying
  std::string refused;  // a remedy exists but is not applied automatically, and why
  std::optional<plan::Parallelism> parallel;  // halve_jobs: the counts the retry runs with
  std::optional<ArchList> arch_list;          // shorten_arch_list: the list the retry builds
  std::optional<int> cxx_std;                 // build.cxx-std: the standard the retry raises to
  // build.pybind11-torch: the table of the pybind11 each Python needs; the pipeline replaces an old
  // vendored pybind11 that a CMake file adds (source/vendored_pybind11.h) before the retry.
  std::string pybind11_for;
  // build.header-source: the header file the build stopped on; the pipeline brings the folder that
  // build.toml's [[header_source]] names for it (run/header_source.h) before the retry, or refuses.
  std::string header_source;
  // build.own-header-dir: the header (as the #include names it) the build stopped on; the pipeline puts
  // the one directory of the build's source that holds it first on CPATH before the retry, or refuses.
  std::string own_header;
};

// What to do after a failure whose diagnosis is d, given the environment the step ran with, the
// typed values it ran with (`now`: the plan's, or a previous remedy's; env's knobs were written
// from them) and the retries already made. `native_arches` are the GPUs here (empty when
// unknown); the remedy writes them into TORCH_CUDA_ARCH_LIST. `build_step`: the failed step builds
// the package, so a signature that names a build helper remedy (build_remedy, or nvcc refusing an
// arch the plan's list lacks: the package's own) may trigger it; elsewhere (verify, a runtime) it
// is refused. `tried`: the reasons of the retries this step already made; a remedy whose reason is
// one of them (the same cause, the same change) already failed once and is refused.
RemedyPlan choose_remedy(const triage::Diagnosis& d, const std::map<std::string, std::string>& env,
                         const Ran& now, const RetryPolicy& policy, int retries_done,
                         const ArchList& native_arches, bool build_step = false,
                         const std::vector<std::string>& tried = {});

}  // namespace ts::run

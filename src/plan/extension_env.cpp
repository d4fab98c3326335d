// The extension build's environment, exactly: PATH, CUDA_HOME, compilers, the recipe's arch knob in
// its own spelling, its fixed knobs, and the job knobs sized from memory (recipe mem_per_job).
#include <algorithm>
#include <cmath>

#include "compat/facts_util.h"
#include "compat/jobs_rule.h"
#include "plan/extension_internal.h"
#include "plan/speed_arches.h"
#include "plan/speed_fixes.h"
#include "plan/speed_threads.h"
#include "plan/toolkit_env.h"

namespace ts::plan::ext {

using compat::num;
using core::dir_of;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr const char* kNvccThreadFactorSource = "resources.toml [memory] nvcc_thread_factor";

// PATH: the target Python's bin first; the core adds the toolkit, the compiler and the system's.
void set_path(Ctx& c) {
  core::set_path(c, {dir_of(c.python->path)}, "the target Python's bin (its pip, ninja), the toolkit, the compiler and "
                 "the system's: nothing else from the shell reaches the build");
}

}  // namespace

std::string format_arches(const ArchList& l, const std::string& format, std::string* error) {
  if (format == "torch" || format.empty()) return l.torch_cuda_arch_list();
  if (format == "cmake" || format == "semicolon-sm") {
    std::string s;
    for (const auto& a : l.arches()) s += (s.empty() ? "" : ";") + a.sass_only().number();
    return s;
  }
  if (error) *error = "arch_format '" + format + "' is not one of torch, cmake, semicolon-sm";
  return "";
}

void choose_env(Ctx& c) {
  if (!c.python) return;
  const auto& r = *c.recipe;
  std::string rsrc = c.recipe_source();
  set_path(c);
  if (c.compiler) {
    core::set_compiler_env(c, *c.compiler, "the chosen compiler (cpp_extension runs $CC/$CXX)", "facts");
  }
  if (c.cuda_on && c.toolkit) {
    // The toolkit checked against torch's CUDA, under every name a build looks for it.
    for (const auto& e : toolkit_env(c.toolkit->path)) c.set_env(e.name, e.value, e.reason, e.source);
    if (c.compiler) c.set_env("CUDAHOSTCXX", c.compiler->cxx, "nvcc's host compiler, the one checked above", "facts");
    if (!c.arches.empty()) {
      std::string err;
      std::string v = format_arches(c.arches, r.arch_format, &err);
      if (v.empty()) {
        c.conflict("recipe " + r.name, err, {"fix the recipe's arch_format"}, rsrc);
      } else {
        // arch_env "": no knob; its own -gencode list is steered by a package fix (speed_arches.h).
        if (!r.arch_env.empty())
          c.set_env(r.arch_env, v, "the arch list in the spelling " + r.name + " reads (" + r.arch_format + ")", rsrc);
        if (r.arch_env != "TORCH_CUDA_ARCH_LIST")
          c.set_env("TORCH_CUDA_ARCH_LIST", c.arches.torch_cuda_arch_list(),
                    "for the parts that still go through torch's cpp_extension", rsrc);
      }
    }
  }
  for (const auto& [k, v] : r.env) c.set_env(k, v, "the recipe sets it for every build", rsrc);
  for (const auto& [k, v] : c.cuda_on ? r.cuda_env : r.cpu_env)
    c.set_env(k, v, std::string("the recipe sets it for a ") + (c.cuda_on ? "CUDA" : "CPU") + " build", rsrc);
  if (cmake_only_build(c)) {
    c.set_env("CXXFLAGS", std::string("-D_GLIBCXX_USE_CXX11_ABI=") + (c.python->torch.cxx11_abi ? "1" : "0"),
              "a CMake build gets no ABI define from cpp_extension: torch's, passed explicitly", "torch's TorchConfig.cmake");
    c.set_env("CMAKE_PREFIX_PATH", c.python->torch.path + "/share/cmake", "find_package(Torch) finds the target torch",
              "torch's TorchConfig.cmake");
  }
}

// An extension's jobs: nvcc --threads balanced with them, --jobs, a serial setup.py (and the fix or
// the build helper that turns its ninja back on), the recipe's knobs.
void size_jobs(Ctx& c, const core::JobsFit& f, const compat::JobCost& job, const std::string& src) {
  const auto& r = *c.recipe;
  bool ninja_fix = r.serial_build && c.ninja_fixed;
  bool helper = ninja_by_helper(c);  // the ninja rule: it turns use_ninja=False back on
  int n = std::max<int>(1, static_cast<int>(c.arches.size()));
  const int cores = f.cores;
  const std::uint64_t usable = f.mem.bytes;
  const std::string& from = f.mem.what;
  const double cost = job.gib;
  const std::string& per = job.what;
  c.cores = cores;
  c.usable_gib = static_cast<double>(usable) / kGiB;
  c.nvcc_job_gib = cost;
  int jobs = f.fit.jobs;
  std::string why = f.fit.why;
  // Several arches: nvcc --threads compiles them at once; jobs x threads balanced (speed_threads.h).
  JobsThreads jt;
  bool threaded = c.cuda_on && (n > 1 || !r.nvcc_threads_env.empty());
  if (threaded) {
    jt = balance_jobs_threads({cores, usable / kGiB, cost, c.kb().resources.nvcc_thread_factor, n});
    if (n > 1) {
      jobs = jt.jobs;
      why = from + ", " + per + "; " + jt.why;
    }
  }
  if (c.req->jobs > 0) {
    jobs = c.req->jobs;
    core::warn_jobs_over_memory(c, jobs, "--jobs", f, why, src);
    why = "asked for (--jobs); " + why;
  }
  if (ninja_fix) {
    c.decide("jobs", std::to_string(jobs), r.name + "'s setup.py compiles one file at a time; the fix above turns "
             "ninja on, so MAX_JOBS bounds its compile jobs again", c.recipe_source());
  } else if (helper) {
    c.decide("jobs", std::to_string(jobs), r.name + "'s setup.py compiles one file at a time (use_ninja=False); the "
             "build helper turns ninja back on (the ninja decision), so MAX_JOBS bounds its compile jobs",
             "src/run/pyshim/sitecustomize.py");
  } else if (ninja_off(c)) {
    c.decide("jobs", "1", r.name + "'s setup.py compiles one file at a time (use_ninja=False): MAX_JOBS is ignored",
             c.req->scan.ninja_off ? "setup.py" : c.recipe_source());
    jobs = 1;
  }
  // distcc's remote slots join the count every knob gets (a serial build gains nothing from them);
  // `jobs` stays this machine's, which the nvcc threads below are sized with.
  c.p.jobs = ninja_off(c) && !ninja_fix && !helper ? jobs : core::with_remote_slots(c, jobs);
  for (const auto& k : r.jobs_env) c.set_env(k, std::to_string(c.p.jobs), why, src, compat::kJobsRule);
  if ((ninja_fix || helper) && std::find(r.jobs_env.begin(), r.jobs_env.end(), "MAX_JOBS") == r.jobs_env.end())
    c.set_env("MAX_JOBS", std::to_string(c.p.jobs), "cpp_extension's ninja build reads MAX_JOBS; " + why,
              "torch/utils/cpp_extension.py _get_num_workers; " + src, compat::kJobsRule);
  if (!threaded) return;
  // Jobs forced lower (serial build, --jobs) leave memory for more threads, never more than arches.
  int threads = jt.threads;
  if (jobs < jt.jobs && n > 1) {
    JobsThreadsInput one{cores, usable / kGiB / jobs, cost, c.kb().resources.nvcc_thread_factor, n};
    threads = std::max(threads, balance_jobs_threads(one).threads);
  }
  std::string twhy = std::to_string(jobs) + " job(s) x " + std::to_string(threads) + " nvcc thread(s) for " +
                     std::to_string(n) + " arch(es): " + jt.why + "; a thread costs memory like a job (" +
                     std::string(kNvccThreadFactorSource) + ")";
  c.nvcc_threads = threads;
  c.p.nvcc_threads = threads;
  if (!r.nvcc_threads_env.empty()) {
    c.set_env(r.nvcc_threads_env, std::to_string(threads), twhy, src);
  } else if (threads > 1) {
    // nvcc itself reads NVCC_APPEND_FLAGS (CUDA >= 11.x), so every nvcc call of the build gets it.
    std::string flags = "--threads " + std::to_string(threads);
    auto it = c.p.env.find("NVCC_APPEND_FLAGS");
    if (it != c.p.env.end() && !it->second.empty()) flags = it->second + " " + flags;
    c.set_env("NVCC_APPEND_FLAGS", flags, twhy + "; nvcc reads NVCC_APPEND_FLAGS itself, whatever calls it",
              "nvcc 13.0 (--dryrun shows NVCC_APPEND_FLAGS applied); NVIDIA/apex#2029");
  }
}

}  // namespace ts::plan::ext

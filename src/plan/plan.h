#pragma once
// Plan: everything a build will do, decided up front. Every choice is a Decision with its reason
// and source; every refusal a Conflict with the ways out. The lock file is this plan as JSON.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/arch_list.h"
#include "core/version.h"
#include "spec/build_spec.h"

namespace ts::plan {

struct Decision {
  std::string topic;   // "cuda", "compiler", "arch", "env", "feature", "jobs", "fix", "artifact", ...
  std::string value;   // what was chosen: "12.8 (/usr/local/cuda-12.8)"
  std::string reason;  // why, in one sentence
  std::string source;  // where the rule comes from: a KB entry (file:line) or an upstream reference, facts, a spec field
  bool warning = false;  // chosen, but the user should know (long arch list, driver older, ...)
  // The stable id of the rule that chose it: compat's ("jobs.memory", "gpu.toolkit") when one of
  // its rules decided, else the planner step's own ("plan.features"); tests assert it.
  std::string rule;
};

struct Conflict {
  std::string what;                // "arch 12.0 with CUDA 12.6"
  std::string why;                 // "sm_120 needs CUDA >= 12.8"
  std::vector<std::string> fixes;  // the ways out, most likely first
  std::string source;
  std::string rule;                // as Decision::rule: "compiler.nvcc_host", "plan.cmake"
};

// In an env value: the directory where a build run writes torchsmith's Python build helper
// (src/run/pyshim.h fills it in; `plan --format sh` leaves it out).
inline constexpr const char* kPyshimPlaceholder = "{pyshim}";

// The system's program directories, last on every plan's PATH; a lock may name them (lock_check.h).
inline constexpr const char* kSystemBinDirs[] = {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"};

// A PYTHONPATH value with the build helper first, once (each part that needs the helper asks this,
// so two of them never put it there twice).
inline std::string pythonpath_with_pyshim(const std::string& pythonpath) {
  const std::string ph = kPyshimPlaceholder;
  if (pythonpath == ph || pythonpath.rfind(ph + ":", 0) == 0) return pythonpath;
  return pythonpath.empty() ? ph : ph + ":" + pythonpath;
}

struct Step {
  std::string name;               // fetch, fix, clean, configure, build, package, verify
  std::vector<std::string> argv;  // run without a shell; "torchsmith ..." for our own stages
  std::string cwd;                // "{src}" = the source tree, "" = where torchsmith runs
  std::string note;               // why this step, or what it checks
};

struct Artifact {
  std::string kind;     // "wheel", "conda", "libtorch", "library"
  std::string name;     // exact expected file name ("" when only the pattern is known)
  std::string pattern;  // glob a build output must match
  std::string note;
};

struct PlannedFix {
  std::string id, reason, source, hash;
};

// A shared compile cache and distributed compilation (--cache, --distribute; src/scale/).
struct ScalePlan {
  std::string cache_engine;  // "ccache", "sccache"; "" = no shared store
  std::string cache_store;   // the store's URL: "redis://127.100.0.2:6379"
  std::string distribute;    // "distcc" or ""
  std::string hosts;         // the hosts kept, DISTCC_HOSTS form ("" = none)
  std::vector<std::string> left_out;  // "HOST: why"
  int remote_slots = 0, local_jobs = 0;
  std::string nvcc;          // where nvcc units run: "local", "local (through ccache)"
  bool empty() const { return cache_engine.empty() && distribute.empty(); }
};

// A tool the run provisions into the cache (docs/provision.md), as the lock pins it: each wheel's
// name, version, file and sha256. file/sha256 are "" until a run's provision step has checked the
// files (the run writes them into its lock); a build from a lock that has them checks them again.
struct LockedWheel {
  std::string name, version, file, sha256;
};
struct ProvisionedTool {
  std::string kind, version, provider, from, dir;  // provider "pip" or "wheelhouse" (from = its dir)
  std::vector<LockedWheel> wheels;
};

// The CUDA toolkit a plan compiles with: chosen (its version, spelled as the toolkit spells it:
// "12.8.93"), a conflict (a CUDA build the plan refused; the conflict's `what`), or none (a CPU
// build). Never an empty text standing for either: a step or renderer asks which it is.
class CudaChoice {
 public:
  CudaChoice() = default;  // none
  static CudaChoice chosen(Version v);
  static CudaChoice conflict(std::string what);
  // "" is none, else the version text (a lock's field, a test's literal); throws
  // std::invalid_argument on text no grammar accepts.
  static CudaChoice from_text(std::string_view text);

  bool is_chosen() const { return version_.has_value(); }
  bool is_conflict() const { return !conflict_.empty(); }
  bool is_none() const { return !is_chosen() && !is_conflict(); }
  const Version* version() const { return version_ ? &*version_ : nullptr; }  // null unless chosen
  const std::string& conflict_what() const { return conflict_; }                 // "" unless a conflict
  std::string text() const { return version_ ? version_->original() : ""; }      // "12.8.93"; "" unless chosen
  std::string major_minor() const { return version_ ? version_->major_minor() : ""; }  // "12.8"
  std::string cu_tag() const;  // "cu128" (builder's DESIRED_CUDA, torch's index); "" unless chosen

  friend bool operator==(const CudaChoice&, const CudaChoice&) = default;

 private:
  std::optional<Version> version_;
  std::string conflict_;
};

struct Plan {
  std::string schema = "torchsmith-plan/1";
  spec::BuildSpec spec;
  std::string torch_version;   // "2.4.1"
  std::string build_version;   // PYTORCH_BUILD_VERSION: "2.4.1+cu128.sm120"
  CudaChoice cuda;             // the toolkit's full version "12.8.93", a conflict, or none (a CPU build)
  std::string torch_cuda;      // an extension's torch: torch.version.cuda ("12.4"; "" = CPU torch or a torch build)
  // An extension's torch: its torch.utils.cmake_prefix_path, for build.torch-prefix's live trigger ("" = none).
  std::string torch_cmake_prefix;
  std::string cuda_home;
  std::string python;          // interpreter path
  FactVersion python_version;  // "3.12.3", parsed once where the interpreter reported it
  ArchList arch_list;          // empty for CPU builds; the lock spells it as TORCH_CUDA_ARCH_LIST
  std::string host_compiler;   // CXX path
  std::string cmake_version;   // the CMake chosen: "4.2.0"
  std::string cmake_range;     // what the release accepts: ">=3.18,<4" (for images that install their own)
  std::string numpy_version;   // the NumPy the build compiles against ("" = none)
  int jobs = 1;
  // With jobs, how the build runs in parallel; the job knobs in env are written from these
  // (plan/parallelism.h), and nothing reads them back.
  int nvcc_threads = 1;       // nvcc --threads of each CUDA compile
  int nvcc_split = 0;         // nvcc --split-compile (0 = none)
  bool side_by_side = false;  // the package's extensions built side by side in jobs x nvcc_threads slots
  // The C++ standard the build helper raises setup.py's -std to (build.cxx-std, TORCHSMITH_CXX_STD);
  // 0 = the package's own. A remedy compares with this, never with the env's text.
  int cxx_std = 0;
  std::map<std::string, std::string> env;            // exactly the build's environment
  std::map<std::string, std::string> cmake_options;  // NAME -> value (passed as -DNAME=value)
  std::map<std::string, bool> features;              // build.toml feature name -> on
  std::vector<PlannedFix> fixes;
  std::vector<Step> steps;
  std::vector<Artifact> artifacts;
  std::vector<Decision> decisions;
  ScalePlan scale;
  std::vector<ProvisionedTool> provisioned;  // what the run's provision-* steps make exist
  // Extension packages: the module verify imports and the recipe's smoke code (Python run after the
  // import, on `device`); "" for torch itself, whose checks verify knows.
  std::string import_name, smoke;
  // A CUDA build of a package whose tree has no .cu/.cuh (CUDAExtension over C++ sources): it needs the
  // toolkit's headers and runtime but compiles no GPU code, so verify expects none.
  bool no_device_code = false;
  // The wheel keeps the package's own version, with no '+pt..cu..' label: its Python reads that version
  // as a number (SourceScan::own_version_numeric). The label's facts stay in this lock.
  bool plain_version = false;
  // The recipe's runtime_requires: installed for verify beside the wheel's own Requires-Dist.
  std::vector<std::string> runtime_requires;
  // The source tree: URL and ref asked for; revision is filled when it is known (a local git tree).
  std::string source_url, source_ref, source_dir, source_revision;
};

struct PlanResult {
  Plan plan;
  std::vector<Conflict> conflicts;
  std::string bad_spec;  // a spec problem only the KB can see (unknown feature or arch name)
  bool ok() const { return conflicts.empty() && bad_spec.empty(); }
};

void to_json(nlohmann::json& j, const Decision& d);
void from_json(const nlohmann::json& j, Decision& d);
void to_json(nlohmann::json& j, const Conflict& c);
void from_json(const nlohmann::json& j, Conflict& c);
void to_json(nlohmann::json& j, const Step& s);
void from_json(const nlohmann::json& j, Step& s);
void to_json(nlohmann::json& j, const Artifact& a);
void from_json(const nlohmann::json& j, Artifact& a);
void to_json(nlohmann::json& j, const PlannedFix& f);
void from_json(const nlohmann::json& j, PlannedFix& f);
void to_json(nlohmann::json& j, const Plan& p);
void from_json(const nlohmann::json& j, Plan& p);  // throws nlohmann::json::exception on bad input
void to_json(nlohmann::json& j, const PlanResult& r);

}  // namespace ts::plan

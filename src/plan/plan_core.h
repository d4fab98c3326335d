#pragma once
// The planner core, one for every kind of plan (a torch build, an extension build): one working
// state (Ctx) and one runner. A kind declares what differs — its inputs (the Ctx fields it fills)
// and its steps, each a rule id, the part that runs under it, when it runs and whether the plan
// stops after it — and run() does the rest the same way for all: each part's decisions and
// conflicts carry the running step's id, provision steps go in front of the compiles, and the log
// is moved into the plan. Internal to src/plan.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/arch_list.h"
#include "core/host_facts.h"
#include "compat/jobs_rule.h"
#include "core/version.h"
#include "kb/kb.h"
#include "plan/contract.h"
#include "plan/plan.h"
#include "plan/recipe.h"
#include "plan/resolve.h"
#include "source/fix.h"

namespace ts::plan {
struct ExtensionRequest;
}

namespace ts::plan::core {

// The kinds of plan, a bit each: a step names the kinds it runs in.
enum Kind : unsigned { kTorchBuild = 1, kExtensionBuild = 2, kEveryKind = kTorchBuild | kExtensionBuild };

// ContractOut: the DecisionLog (rule = the running step's id) plus the torch cpp_extension fixes
// the contract checks ask for; run() moves the log into the plan at the end.
struct Ctx : ContractOut {
  PlanResult& out;
  Plan& p;
  Kind kind = kTorchBuild;  // set by the kind's entry point (resolve, make_extension_plan)

  // What the kind planned from (one of the two is set).
  const Inputs* in = nullptr;               // a torch build: spec, build.toml, fixes chooser, provision
  const ExtensionRequest* req = nullptr;    // an extension build: the request ...
  const Recipe* recipe = nullptr;           // ... its package recipe
  const source::FixSet* fix_set = nullptr;  // ... and the fix KB (null: none)

  // Chosen so far, by every kind (nullptr / empty = not chosen or not needed).
  const PythonFacts* python = nullptr;
  const CudaToolkitFacts* toolkit = nullptr;  // nvcc's toolkit
  CudaToolkitFacts provisioned;               // a toolkit the run provisions (toolkit points here then)
  std::vector<Step> provision_steps;          // run before anything compiles (provision_choice.h)
  std::string provisioned_cudnn;              // cuDNN's version when the provisioned CUDA_HOME holds it
  const CompilerFacts* compiler = nullptr;
  ArchList arches;
  bool cuda_on = false;
  const ScaleProbe* scale = nullptr;  // the command's --cache/--distribute probe (null: none)

  // Chosen by a torch build.
  const kb::TorchRelease* release = nullptr;
  const kb::CudaRelease* cuda_rel = nullptr;
  FactVersion cmake_version;  // the CMake chosen, parsed once where it was found or provisioned
  std::string cmake_path, ninja_path;
  bool redistributable = false;  // a package for other machines (conda, or --arch portable)
  std::vector<SelectedFix> selected_fixes;

  // Chosen by an extension build.
  std::string dist_name;     // the wheel's distribution name, escaped ("hello_ext")
  std::vector<const source::Fix*> package_fixes;  // its own fixes that hold (plan.fixes)
  bool ninja_fixed = false;  // a package fix turns its serial build's ninja back on (plan.jobs reads it)
  int nvcc_threads = 1;      // nvcc --threads every CUDA compile gets (choose_jobs)
  int cores = 1;             // the cores the plan's jobs are sized for (choose_jobs)
  double usable_gib = 0;     // memory the build may use, 0 = unknown (choose_jobs)
  double nvcc_job_gib = 0;   // one compile job's memory in the model (choose_jobs)

  Ctx(const HostFacts& f, const kb::Kb& k, PlanResult& o) : out(o), p(o.plan), facts_(f), kb_(k) {}

  const HostFacts& facts() const { return facts_; }
  const kb::Kb& kb() const { return kb_; }
  const spec::BuildSpec& spec() const { return in->spec; }  // a torch build's
  const FactVersion& version() const { return in->spec.version; }
  // The same, typed, for build.toml's ranges: a torch plan's steps past plan.release run only when the
  // KB knew it, so it parsed (an unparsed one reads as 0, which only an open range holds).
  const Version& torch_version() const;
  std::string cuda_mm() const;  // "12.8" of the chosen toolkit, "" when none
  FactVersion cuda_mm_version() const;  // the same, typed (a fix's condition reads it); empty when none

  // Sets a build environment variable with its decision; a torch build's default source is
  // build.toml's entry for the variable.
  void set_env(const std::string& name, const std::string& value, const std::string& reason,
               std::string source = "", std::string rule = "");
  std::string recipe_source() const;  // an extension build's: "source (packages/x.toml:3)" or "recipe_generic"

  // True when the CUDA choice (p.cuda) is a conflict: then `what` (a step's answer derived from the toolkit)
  // is recorded as skipped because of that conflict, so a refused plan states nothing false.
  bool skipped_for_cuda(const std::string& topic, const std::string& what);

 private:
  const HostFacts& facts_;
  const kb::Kb& kb_;
};

// One step of the plan (steps.cpp holds the one table).
struct PlanStep {
  const char* rule;                          // its id, carried by what it records ("plan.toolkit")
  void (*part)(Ctx&);
  unsigned kinds = kEveryKind;               // the kinds of plan it runs in
  bool (*when)(const Ctx&) = nullptr;        // null: always runs
  bool (*stop_after)(const Ctx&) = nullptr;  // true: the rest needs an answer this step did not give
};

// Runs the steps of c.kind in order, then puts provision steps first and moves the log into c.out.
void run(Ctx& c, std::span<const PlanStep> steps);

// The compilers' search paths the user exported (HostFacts::search_paths) go into the build's
// environment, which is otherwise the plan's alone; one given with --env (or set by the plan) wins.
void keep_search_paths(Ctx& c);

// The scale step, the same in every kind: runs the command's probe (when there is one and nothing
// is refused yet); its decisions are the step's.
void scale_step(Ctx& c);
// The job count with the kept distcc hosts' slots added (plan.scale.local_jobs keeps the local
// part); every kind's jobs step asks it before it writes a job knob.
int with_remote_slots(Ctx& c, int local_jobs);

// Compile jobs for this machine's memory, by compat's jobs.memory rule: every kind sizes its jobs
// here (its own cost per job: the KB's model, or a recipe's figure).
struct JobsFit {
  int cores = 1;              // usable cores, at least 1
  compat::UsableMemory mem;   // what the build may use (cgroup, --mem-budget)
  compat::JobsForMemory fit;  // jobs the memory carries, clamped to the cores
};
JobsFit fit_jobs(const Ctx& c, std::uint64_t mem_budget_bytes, const compat::JobCost& cost);
// The jobs asked for (--jobs, torchsmith.toml) when the memory model allows fewer: kept, with a
// warning that says what memory allows and why (`why`: the model's reasoning, src: its source).
void warn_jobs_over_memory(Ctx& c, int asked, const std::string& origin, const JobsFit& f, const std::string& why,
                           const std::string& src);

// A toolkit a build can compile with: it has nvcc and a readable version.
bool usable_toolkit(const CudaToolkitFacts& t);
// The usable installed toolkit at `dir` (--toolkit PATH); nullptr when there is none.
const CudaToolkitFacts* toolkit_at(const Ctx& c, const std::string& dir);

// The newest GCC major nvcc accepts for the CUDA this plan compiles with (compat's
// compiler.nvcc_host rule: a torch build's CUDA release, else the toolkit's version); 0 when the
// build compiles no CUDA or the limit is not known.
int nvcc_gcc_max(const Ctx& c);

// What an --arch name stands for, the same in every kind: "native" is the GPUs here (empty: none
// with a known compute capability), a family its arches as torch spells them.
std::vector<CudaArch> native_arches(const HostFacts& facts);
std::vector<CudaArch> family_arches(const kb::ArchFamily& f);

// PATH for a build, the same rule in every kind: the kind's own tool directories first, in its
// order (the build Python's bin, CMake, ninja), then the toolkit's bin (a CUDA build), the
// compiler's directory and the system's; nothing else from the shell reaches the build.
void set_path(Ctx& c, const std::vector<std::string>& tool_dirs, const std::string& why);
// CC and CXX for the chosen compiler (CC: its C driver when it has one, else the C++ driver).
void set_compiler_env(Ctx& c, const CompilerFacts& cc, const std::string& why, const std::string& source = "");
// Takes catalog entry `t` as nvcc's toolkit: CUDA_HOME is its cache directory and the run's
// provision step (put in front of the compiles) makes it exist. The kind records why.
void use_provisioned_toolkit(Ctx& c, const ProvisionContext& pc, const ToolRelease& t);

// The wheel tags of the Python a plan builds for (PEP 425): "cp3XX" and "linux_<cpu>" stand in
// for what is not known.
struct WheelTags {
  std::string abi;       // "cp312"
  std::string platform;  // "linux_x86_64"
};
WheelTags wheel_tags(const Ctx& c);

// The step that repairs the built wheel into {dist} (RPATHs, NEEDED, tags, RECORD), the same
// command in every kind; `note` says what it means for this kind.
Step package_step(const std::string& note);

// An --arch text read the same way in every kind: numbers, "native" (the GPUs here), a family
// name; the kind's own names (a torch build's "portable", an extension build's "torch") come from
// `own`. What was met while reading is left in the struct for the kind to word its conflict.
struct ArchNames {
  // The kind's own names: nullopt when `name` is not one of them, else its arches (empty, with
  // *err said, when the name is known but gives none here).
  std::function<std::optional<std::vector<CudaArch>>(const std::string& name, std::string* err)> own;
  // What to say of a name nothing knows.
  std::function<std::string(const std::string& name)> unknown_error;
  bool native = false;  // "native" gave the GPUs here
  bool no_gpu = false;  // "native" was asked and no GPU here has a known compute capability
  std::string unknown;  // the last name nothing knew
};
std::optional<ArchList> parse_arches(const Ctx& c, const std::string& text, ArchNames& names, std::string* err);

// The ways out when "native" finds no GPU: a CPU build, or the target GPU named. Where its compute
// capability can be read is said only as this machine allows (nvidia-smi only when it is here).
std::vector<std::string> no_gpu_ways_out(const HostFacts& facts);

// Helpers every part may use.
std::string cite(const std::string& source, const kb::Origin& o);
std::string dir_of(const std::string& path);  // "/a/b/c" -> "/a/b"

// A build tool (cmake, ninja) the build can use: the build Python's pip package first, then the
// machine's (a version that reads; cmake3 counts as cmake).
struct BuildTool {
  std::string path;
  FactVersion version;  // parsed where it was read (the probe, or here from the package list)
  std::string how;
};
std::vector<BuildTool> find_build_tools(const Ctx& c, const std::string& name);

}  // namespace ts::plan::core

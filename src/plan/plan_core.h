#pragma once
// The planner core, one for every kind of plan (a torch build, an extension build): one working
// state (Ctx) and one runner. A kind declares what differs — its inputs (the Ctx fields it fills)
// and its steps, each a rule id, the part that runs under it, when it runs and whether the plan
// stops after it — and run() does the rest the same way for all: each part's decisions and
// conflicts carry the running step's id, provision steps go in front of the compiles, and the log
// is moved into the plan. Internal to src/plan.
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

// ContractOut: the DecisionLog (rule = the running step's id) plus the torch cpp_extension fixes
// the contract checks ask for; run() moves the log into the plan at the end.
struct Ctx : ContractOut {
  PlanResult& out;
  Plan& p;

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
  const CompilerFacts* compiler = nullptr;
  ArchList arches;
  bool cuda_on = false;

  // Chosen by a torch build.
  const kb::TorchRelease* release = nullptr;
  const kb::CudaRelease* cuda_rel = nullptr;
  std::string cmake_version, cmake_path, ninja_path;
  bool redistributable = false;  // a package for other machines (conda, or --arch portable)
  std::vector<SelectedFix> selected_fixes;

  // Chosen by an extension build.
  std::string dist_name;     // the wheel's distribution name, escaped ("hello_ext")
  bool ninja_fixed = false;  // a package fix turns its serial build's ninja back on (choose_jobs)
  int nvcc_threads = 1;      // nvcc --threads every CUDA compile gets (choose_jobs)
  int cores = 1;             // the cores the plan's jobs are sized for (choose_jobs)
  double usable_gib = 0;     // memory the build may use, 0 = unknown (choose_jobs)
  double nvcc_job_gib = 0;   // one compile job's memory in the model (choose_jobs)

  Ctx(const HostFacts& f, const kb::Kb& k, PlanResult& o) : out(o), p(o.plan), facts_(f), kb_(k) {}

  const HostFacts& facts() const { return facts_; }
  const kb::Kb& kb() const { return kb_; }
  const spec::BuildSpec& spec() const { return in->spec; }  // a torch build's
  const std::string& version() const { return in->spec.version; }
  std::string cuda_mm() const;  // "12.8" of the chosen toolkit, "" when none

  // Sets a build environment variable with its decision; a torch build's default source is
  // build.toml's entry for the variable.
  void set_env(const std::string& name, const std::string& value, const std::string& reason,
               std::string source = "", std::string rule = "");
  std::string recipe_source() const;  // an extension build's: "source (packages/x.toml:3)" or "recipe_generic"

 private:
  const HostFacts& facts_;
  const kb::Kb& kb_;
};

// One step of a kind's plan.
struct PlanStep {
  const char* rule;                          // its id, carried by what it records ("plan.toolkit")
  void (*part)(Ctx&);
  bool (*when)(const Ctx&) = nullptr;        // null: always runs
  bool (*stop_after)(const Ctx&) = nullptr;  // true: the rest needs an answer this step did not give
};

// Runs the steps in order, then puts provision steps first and moves the log into c.out.
void run(Ctx& c, std::span<const PlanStep> steps);

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

// What an --arch name stands for, the same in every kind: "native" is the GPUs here (empty: none
// with a known compute capability), a family its arches as torch spells them.
std::vector<CudaArch> native_arches(const HostFacts& facts);
std::vector<CudaArch> family_arches(const kb::ArchFamily& f);

// Helpers every part may use.
std::optional<Version> ver(std::string_view s);
std::string cite(const std::string& source, const kb::Origin& o);
std::string dir_of(const std::string& path);  // "/a/b/c" -> "/a/b"

}  // namespace ts::plan::core

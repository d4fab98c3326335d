#pragma once
// The extension planner's working state, shared by its parts (extension*.cpp). Internal to src/plan.
#include <string>
#include <utility>

#include "core/arch_list.h"
#include "plan/contract.h"
#include "plan/extension.h"

namespace ts::plan::ext {

struct Ctx {
  const ExtensionRequest& req;
  const HostFacts& facts;
  const kb::Kb& kb;
  const Recipe& recipe;
  PlanResult& out;
  Plan& p;
  ContractOut co;  // decisions/conflicts gathered in order, moved into the plan at the end

  const PythonFacts* py = nullptr;
  const CudaToolkitFacts* nvcc = nullptr;
  CudaToolkitFacts provisioned;      // a toolkit the run provisions (nvcc points here then)
  std::vector<Step> provision_steps;  // run before the build (provision_choice.h)
  const CompilerFacts* cc = nullptr;
  const source::FixSet* fixes = nullptr;  // null: no fix KB
  bool cuda_on = false;
  ArchList arches;
  std::string dist_name;  // the wheel's distribution name, escaped ("hello_ext")
  bool ninja_fixed = false;  // a package fix turns its serial build's ninja back on (choose_jobs)
  int nvcc_threads = 1;      // nvcc --threads every CUDA compile gets (choose_jobs)
  int cores = 1;             // the cores the plan's jobs are sized for (choose_jobs)
  double usable_gib = 0;     // memory the build may use, 0 = unknown (choose_jobs)
  double nvcc_job_gib = 0;   // one compile job's memory in the model (choose_jobs)

  Ctx(const ExtensionRequest& r, const HostFacts& f, const kb::Kb& k, const Recipe& rc, PlanResult& o)
      : req(r), facts(f), kb(k), recipe(rc), out(o), p(o.plan) {}

  // The planner's parts record through co (DecisionLog: the running step's rule id in co.rule).
  template <typename... A>
  void decide(A&&... a) { co.decide(std::forward<A>(a)...); }
  template <typename... A>
  void record(A&&... a) { co.record(std::forward<A>(a)...); }
  void conflict(std::string what, std::string why, std::vector<std::string> fixes, std::string source,
                std::string rule = "") {
    co.conflict(std::move(what), std::move(why), std::move(fixes), std::move(source), std::move(rule));
  }
  void set_env(const std::string& k, const std::string& v, const std::string& reason, const std::string& source,
               std::string rule = "") {
    p.env[k] = v;
    co.decide("env", k + "=" + v, reason, source, std::move(rule));
  }
  std::string recipe_source() const;  // "source (packages/x.toml:3)" or "recipe_generic"
};

// The parts, in the order make_extension_plan calls them.
void choose_toolkit(Ctx& c);
void choose_compiler(Ctx& c);
void choose_arches(Ctx& c);
void choose_env(Ctx& c);
bool choose_package_fixes(Ctx& c);  // true when a fix turns the package's ninja on (-> ninja_fixed)
void choose_jobs(Ctx& c);
void choose_steps(Ctx& c);
void choose_nvcc_split(Ctx& c);           // speed_split.cpp
void choose_parallel_extensions(Ctx& c);  // speed_parallel.cpp

// "80;90" / "8.0;9.0+PTX" / "80;90" (cmake): the recipe's arch_format; "" and *error when unknown.
std::string format_arches(const ArchList& l, const std::string& format, std::string* error);

}  // namespace ts::plan::ext

#pragma once
// The resolver's working state, shared by its parts (one file per topic). Internal to src/plan.
#include <optional>
#include <string>

#include "core/arch_list.h"
#include "core/version.h"
#include "plan/decision_log.h"
#include "plan/resolve.h"

namespace ts::plan::detail {

// Decisions and conflicts go to the DecisionLog (rule: the running step's id, set by resolve());
// resolve() moves them into the plan at the end.
struct Ctx : DecisionLog {
  const Inputs& in;
  PlanResult& out;
  Plan& p;

  // Chosen so far (nullptr / empty = not chosen or not needed).
  const kb::TorchRelease* release = nullptr;
  const PythonFacts* python = nullptr;
  const CudaToolkitFacts* toolkit = nullptr;
  CudaToolkitFacts provisioned;        // a toolkit the run provisions (toolkit points here then)
  std::vector<Step> provision_steps;   // run before anything compiles (provision_choice.h)
  const kb::CudaRelease* cuda_rel = nullptr;
  const CompilerFacts* compiler = nullptr;
  std::string cmake_version, cmake_path, ninja_path;
  ArchList arches;
  bool cuda_on = true;
  bool redistributable = false;  // a package for other machines (conda, or --arch portable)
  std::vector<SelectedFix> fixes;
  Ctx(const Inputs& i, PlanResult& o) : in(i), out(o), p(o.plan) {}

  const spec::BuildSpec& spec() const { return in.spec; }
  const HostFacts& facts() const { return in.facts; }
  const std::string& version() const { return in.spec.version; }
  std::string cuda_mm() const;  // "12.8" of the chosen toolkit, "" when none

  // Sets a build environment variable with its decision (source: build.toml's entry for it).
  void set_env(const std::string& name, const std::string& value, const std::string& reason,
               std::string source = "", std::string rule = "");
};

// Each part, called by resolve() in this order. A part that finds a conflict records it and
// lets the others run, so one plan run reports every conflict at once.
void choose_release(Ctx& c);
void choose_python(Ctx& c);
void choose_features(Ctx& c);
void choose_toolkit(Ctx& c);
void choose_compiler(Ctx& c);
void choose_cmake(Ctx& c);
void choose_arches(Ctx& c);
void choose_fixes(Ctx& c);
void check_arch_fixes(Ctx& c);  // after choose_fixes: unknown arch names need a fix
void choose_libraries(Ctx& c);
void choose_version(Ctx& c);
void choose_jobs(Ctx& c);
void choose_steps(Ctx& c);

// Helpers.
// "PY -m pip install WHAT", or for an externally managed Python (PEP 668) the venv to make instead.
std::string pip_install(const PythonFacts* py, const std::string& what);
std::optional<Version> ver(std::string_view s);
std::string cite(const std::string& source, const kb::Origin& o);
std::string dir_of(const std::string& path);  // "/a/b/c" -> "/a/b"

}  // namespace ts::plan::detail

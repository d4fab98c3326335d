#pragma once
// One build run's state, shared by its three parts: start_run (refusals, locks, run directory,
// journal, environment, caches, triage), the step loop in pipeline.cpp, and finish_run (counters,
// artifacts, outcome, report files).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "build/memory.h"
#include "build/runner.h"
#include "run/compile_cache.h"
#include "run/early_verify.h"
#include "run/journal.h"
#include "run/pipeline.h"
#include "plan/parallelism.h"
#include "run/remedy.h"
#include "run/run_paths.h"
#include "run/world.h"
#include "triage/engine.h"

namespace ts::run {

struct RunState {
  RunState(const plan::Plan& p, const BuildOptions& opts, BuildOutcome& o, World& world)
      : plan(p), o(opts), out(o), rec(o.record), w(world), t0(world.now()) {}
  const plan::Plan& plan;
  const BuildOptions& o;
  BuildOutcome& out;
  report::RunRecord& rec;
  World& w;  // the disk, clock, git, processes and memory the run goes through (world.h)

  double t0;  // w.now() when the run began
  double cpu_at_start = 0;
  std::string run_id;
  RunPaths paths;
  std::map<std::string, std::string> env;         // every external step's environment
  std::map<std::string, std::string> remedy_env;  // what remedies set on top of it
  Ran ran = ran_of(plan);  // the typed values the environment's knobs were written from (remedies change them)
  int retries = 0;
  bool ported = false, ports_reverted = false;    // the source ports' one try (pipeline.cpp)
  bool python_ported = false;  // that try was the Python ports, after a verify failed (pipeline.cpp)
  bool instantiated = false;   // port.template-instantiation, after verify's import lacked a symbol (pipeline.cpp)
  bool subpackaged = false;    // build.subpackages, after verify's import lacked a subpackage (pipeline.cpp)
  CompileCache cache;
  std::optional<CacheCounts> counts_before;
  bool remote_store = false;
  std::unique_ptr<World::Lock> out_lock, src_lock;
  Journal journal;
  std::string plan_hash, shim_dir;
  std::string copied_from;  // the user's tree when an extension is built from its copy in OUT/src
  std::unique_ptr<triage::Engine> engine;  // nullptr when the signatures did not load
  std::function<void(const build::Status&)> printer;
  double last_plain = -1e9, last_sample = -1e9;
  EarlyVerify early_verify;  // verify's checker, started with the build step; last, so stopped first

  void say(const std::string& s) const { if (o.say) o.say(s); }
  double since() const { return w.now() - t0; }
  // Refuses the run: out.error and out.exit_code; returns false for `if (!start_run(s)) return`.
  bool refuse(const std::string& error, int code) { out.error = error; out.exit_code = code; return false; }
  // A setuptools build's ninja logs merged into the run directory, so the report has a timeline.
  void gather_ninja_logs();
  void write_files();
};

// Everything before the first step; false (out.error, out.exit_code set) when the run is refused.
bool start_run(RunState& s);
// Everything after the last step: the record's counters, artifacts and outcome, written out.
void finish_run(RunState& s, bool failed, bool interrupted);

}  // namespace ts::run

#pragma once
// Runs one step of a plan: argv with exactly the plan's environment, output streamed to a log
// file in full and, line by line, through live triage and ninja's progress parser. A fatal
// finding stops the step early (its process group is terminated) with the diagnosis; a governor,
// when given, ticks alongside; a status callback sees progress, memory and the governor's state.
#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "build/governor.h"
#include "build/memory.h"
#include "build/ninja_status.h"
#include "plan/plan.h"
#include "triage/diagnosis.h"
#include "triage/engine.h"

namespace ts::build {

struct StepSpec {
  std::string name;  // phase shown in the status line: configure, build, ...
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // the whole environment, nothing inherited
  std::string cwd;
};

// The plan's step with the plan's env, NINJA_STATUS set to kNinjaStatus, "{src}" replaced by src_dir.
StepSpec step_from_plan(const plan::Plan& p, const plan::Step& s, const std::string& src_dir);

struct Status {
  std::string phase;
  int pgid = 0;  // the step's process group (for a caller that samples or cancels it)
  double elapsed = 0;
  std::optional<NinjaProgress> progress;
  MemReading mem;
  std::optional<GovernorState> governor;
  std::string eta;  // an estimate better than the rate's (history from .ninja_log), with its method
};
// "build [312/1800 4.1/s] 17% ETA 6m02s | mem avail 9.8 GiB | gov 3 running, 1 paused"
std::string format_status(const Status& s);
// A printer that redraws one line on stream `fd` when it is a terminal; empty function otherwise.
std::function<void(const Status&)> tty_status_printer(int fd);

struct RunnerOptions {
  std::string log_path;                     // the full output; "" = not kept
  const triage::Engine* engine = nullptr;   // live triage; nullptr = none
  bool stop_on_fatal = true;
  Governor* governor = nullptr;             // attached to the step's process group while it runs
  std::function<void(const Status&)> status;
  int tick_ms = 100;                        // governor and status period
  int kill_grace_ms = 2000;                 // SIGTERM -> SIGKILL when stopping early
  MemoryReader* memory = nullptr;           // for the status line when there is no governor
  // Set (by a SIGINT handler) to stop the step: SIGINT to its group first, as Ctrl-C would, so
  // ninja stops cleanly with its log and deps intact; SIGTERM/SIGKILL after kill_grace_ms.
  const std::atomic<bool>* cancel = nullptr;
  // Each complete output line, after the parsers saw it (the run stage's progress for pipes).
  std::function<void(std::string_view)> on_line;
};

struct StepResult {
  int exit_code = -1;       // when it exited; -1 otherwise
  int signal = 0;           // the signal that ended it
  bool stopped_early = false;
  bool cancelled = false;   // stopped because RunnerOptions::cancel was set
  std::string fatal_id;     // the signature that stopped it
  std::string error;        // could not start / log not writable
  double seconds = 0;
  std::optional<NinjaProgress> last_progress;
  triage::Diagnosis diagnosis;  // filled when an engine was given
  bool ok() const { return exit_code == 0 && !stopped_early && error.empty(); }
};

StepResult run_step(const StepSpec& step, const RunnerOptions& o);

}  // namespace ts::build

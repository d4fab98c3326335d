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
  // The same estimate in seconds, as of the last progress line (< 0: none); the line counts it
  // down by progress_age so the ETA moves while a long compile prints nothing.
  double eta_seconds = -1;
  double progress_age = 0;  // seconds since the last progress line
  std::string what;         // what compiles now, from the newest output line ("scatter_cpu.cpp")
  long compiles_seen = 0;   // compiler commands seen (a build without ninja has no count)
  std::vector<ExtensionProgress> extensions;  // side by side: each extension's own ninja count
  std::string stopping;     // why the step is being stopped ("" = it is not): never a 100% line
};
// "build 6m10s | 312/1800 17% ETA 6m02s | compiling scatter_cpu.cpp | memory: 9.8 GiB free, 1 job paused",
// fitted to `width` columns (0 = as long as it is): the parts that do not fit are left out, least
// useful first, and the line never reaches the last column (a terminal would wrap it).
std::string format_status(const Status& s, int width = 0);
// A printer that redraws one line on stream `fd` when it is a terminal, fitted to its width
// (TIOCGWINSZ, read again after SIGWINCH); empty function otherwise.
std::function<void(const Status&)> tty_status_printer(int fd);
// The terminal's columns on fd (TIOCGWINSZ); 80 when it says nothing.
int terminal_width(int fd);

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

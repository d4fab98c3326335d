#pragma once
// Running the check script (python_script.h) in a child Python and reading its marker lines back:
// which steps began, which ended and how, and what became of the process. Hangs, crashes and
// garbage are facts here, never exceptions.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "util/process.h"

namespace ts::verify {

struct StepResult {
  std::string step;
  bool finished = false;  // its "end" line came
  bool ok = false;
  nlohmann::json value;  // the step's value when ok
  std::string error;     // the exception's last line when not ok
};

struct ScriptRun {
  std::vector<StepResult> steps;  // in the order they began
  bool done = false;              // the script's final line came
  int garbage_lines = 0;          // marker lines that were not JSON objects
  util::RunResult proc;
  std::chrono::milliseconds timeout{0};

  const StepResult* find(std::string_view step) const;
  // "" when the process ran to its end and exited 0; else why not ("timed out after 120 s",
  // "killed by signal 11 (Segmentation fault)", "exit 1: ModuleNotFoundError: ...").
  std::string process_problem() const;
};

// An early checker (started before the wheel was installed, waiting for its go file) whose time ran
// out in that wait: it finished 'torch facts' and began nothing after, so the install and the
// runtime dependencies took its time, not a check. The checks are then run afresh.
bool timed_out_waiting_for_go(const ScriptRun& r);

// Reads marker lines out of stdout (anything else is ignored). proc and timeout are left unset.
ScriptRun parse_script_output(std::string_view out);

// The environment the child gets, and nothing else: PATH (the interpreter's directory first), HOME
// (a scratch directory), C.UTF-8 locale, no user site, no bytecode writes, PYTHONPATH when set, and
// from ours only what selects devices or libraries: LD_LIBRARY_PATH, CUDA_VISIBLE_DEVICES,
// CUDA_DEVICE_ORDER, TMPDIR. PYTHONSAFEPATH=1: no cwd or script directory on sys.path.
// `from`: where those come from instead of our environment (the environment a step will run with).
std::map<std::string, std::string> check_env(const std::string& python, const std::string& home,
                                             const std::string& pythonpath,
                                             const std::map<std::string, std::string>* from = nullptr);

// The directory every verify spawn runs in: check_env's scratch HOME (it exists and holds no package),
// so `python -c`/`-m` on a Python older than 3.11 finds nothing of the caller's cwd either.
std::string neutral_cwd(const std::map<std::string, std::string>& env);

// How verify spawns pip: check_env(python, home) in neutral_cwd, and pip reads no user config, asks
// nothing and skips its version check. Callers add what is theirs (index, cache, output cap).
util::RunOptions pip_run_options(const std::string& python, const std::string& home, std::chrono::milliseconds timeout);

// `python -c SCRIPT ARGS` in neutral_cwd(env) with env, timeout and a 4 MiB output cap.
ScriptRun run_check_script(const std::string& python, const nlohmann::json& args,
                           const std::map<std::string, std::string>& env,
                           std::chrono::milliseconds timeout);

// The last non-empty line of a text, cut to 200 characters ("" when none).
std::string last_line(std::string_view text);

}  // namespace ts::verify

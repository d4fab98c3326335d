#pragma once
// The check script started ahead of `torchsmith verify` by another process: a build run starts it
// with its build step, so torch is imported (and CUDA initialised, with --gpu) by the time the wheel
// exists, and verify only installs the wheel and says go. The two meet in one directory:
//   DIR/early.json     what the script was started for: {"python": PY, "gpu": bool}
//   DIR/home, DIR/install/target   its HOME and the (still empty) target on its PYTHONPATH
//   DIR/go.json        verify's word (what to import, the smoke code, a deadline) or {"go": false}
//   DIR/result.json    the ended script's output and exit, written by the process that started it
#include <chrono>
#include <map>
#include <string>

#include "verify/python_run.h"

namespace ts::verify {

struct EarlyCheck {
  std::string dir;     // created by run_early_check; empty or absent before
  std::string python;  // the interpreter verify will be given (--python)
  bool gpu = false;    // verify's --gpu
  std::map<std::string, std::string> env;  // the environment verify will run with
};

// DIR made afresh with early.json: "" or why not (then nothing is started and verify starts its own).
std::string prepare_early_check(const EarlyCheck& e);

// Runs the script in a prepared DIR to its end (blocking: the starter calls it in a thread) and
// writes DIR/result.json. The script ends by itself when the starter dies, on {"go": false}, or at
// the go file's deadline. Returns "" or why result.json could not be written.
std::string run_early_check(const EarlyCheck& e);

// Ends a script waiting for a wheel that will not come: {"go": false}, unless verify spoke first.
void release_early_check(const std::string& dir);

// verify's side: DIR holds a script started for this interpreter and GPU setting that nobody has
// told anything yet. Anything else (another Python, --gpu differs, already released) is not used.
bool early_check_usable(const std::string& dir, const std::string& python, bool gpu);

// The go file verify writes: args for the script, deps' directories, and the deadline (seconds
// from go) after which the script is ended by SIGALRM, as verify's own --timeout would end it.
std::string early_go(const std::string& dir, const nlohmann::json& args, const std::vector<std::string>& path,
                     std::chrono::milliseconds timeout);

// The ended script's run from DIR/result.json, waiting up to timeout (plus a grace) for it; a
// script ended by its deadline reads as timed out, one that never reported as timed out too.
ScriptRun wait_early_check(const std::string& dir, std::chrono::milliseconds timeout);

}  // namespace ts::verify

#pragma once
// Run a program from an argv vector (never a shell), with a timeout, an output cap and a clean
// kill of its whole process group, so that no probe or build step can hang torchsmith.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::util {

struct RunResult {
  int exit_code = -1;      // exit status when it exited normally; -1 otherwise; 127 when not found
  int signal = 0;          // the signal that ended it (SIGKILL after a timeout included), else 0
  bool timed_out = false;  // killed because it ran past RunOptions::timeout
  bool not_found = false;  // the program could not be found or executed
  bool truncated = false;  // stopped because it printed more than RunOptions::max_output
  bool cancelled = false;  // stopped because RunOptions::cancel was set (our own SIGINT/SIGTERM)
  std::string out, err;
  double seconds = 0;      // wall time from spawn to reap
  std::string error;       // why it could not be started (errno text), "" otherwise

  bool ok() const { return exit_code == 0 && !timed_out && !not_found && !cancelled; }
  // One line for people: "exit 2", "killed by signal 11 (Segmentation fault)", "timed out after 5 s".
  std::string describe(std::chrono::milliseconds timeout) const;
};

struct RunOptions {
  std::chrono::milliseconds timeout{10000};
  // Full replacement of the environment; when unset the child inherits ours.
  std::optional<std::map<std::string, std::string>> env;
  std::map<std::string, std::string> extra_env;  // set on top of env / ours
  std::string cwd;                               // "" = ours
  std::size_t max_output = 1 << 20;              // per stream; past it the process is killed
  // After SIGTERM, how long the group gets before SIGKILL.
  std::chrono::milliseconds kill_grace{300};
  // Set (from a signal handler) when we are told to stop: the child's group is stopped as at a
  // timeout. A child in its own group does not get the terminal's Ctrl-C or a kill of ours.
  const std::atomic<bool>* cancel = nullptr;
};

RunResult run(const std::vector<std::string>& argv, const RunOptions& o = {});

// PATH split on ':' ("" entries mean "." as POSIX says, and are skipped here on purpose).
std::vector<std::string> split_path(const std::string& path_var);
// First dirs[i]/name that is an executable regular file; "" when none. name with '/' is checked as is.
std::string find_program(const std::string& name, const std::vector<std::string>& dirs);

}  // namespace ts::util

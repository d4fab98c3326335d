#pragma once
// Starting a child from argv (never a shell) the same way for every caller — probes, git, short
// tools (util::run) and build steps (build::run_step): a process group of its own, so a timeout,
// Ctrl-C or the memory governor reaches everything it starts; no signal blocked and every one back
// to its default (an ignored SIGINT or SIGPIPE of ours is not inherited); stdin /dev/null; argv[0]
// without '/' looked up in the child's PATH (/usr/local/bin:/usr/bin:/bin when it has none); exec
// and chdir errors come back as text, not as a silent exit 127. The lookup is util::find_program
// (util/process.h).
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::util {

struct SpawnOptions {
  std::optional<std::map<std::string, std::string>> env;  // full replacement; unset: ours
  std::map<std::string, std::string> extra_env;           // set on top of env / ours
  std::string cwd;                                        // "" = ours
  bool merge_output = false;  // stderr into stdout's pipe (a build step's one log, in order)
};

struct Child {
  int pid = -1;       // also its process group id
  int out_fd = -1;    // read end of its stdout (and stderr when merged), O_CLOEXEC; the caller closes it
  int err_fd = -1;    // read end of its stderr when not merged
  bool not_found = false;  // the program could not be found or executed (exit status 127 to callers)
  std::string error;  // why it did not start: "tool: not found", "x: is a directory, not a program", ...
  bool ok() const { return pid > 0; }
};

Child spawn(const std::vector<std::string>& argv, const SpawnOptions& o = {});

// Stops a child's group: SIGTERM and SIGCONT (a stopped member must run to see it) to the group and
// to `also` (descendants in groups of their own, as ninja's commands are); what is left after
// `grace` gets SIGKILL. Reaps the leader and returns its wait status (nullopt: reaped elsewhere).
std::optional<int> stop_group(int pgid, std::chrono::milliseconds grace, const std::vector<int>& also = {});

// Waits for pid, EINTR retried; the raw wait status (0 when it was reaped elsewhere).
int wait_status(int pid);

}  // namespace ts::util

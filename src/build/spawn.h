#pragma once
// A streaming child: spawned from argv (never a shell) with exactly the given environment, in its
// own process group (so the governor and Ctrl-C reach all of its descendants), stdout and stderr
// merged into one pipe that the caller reads as the lines arrive.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::build {

struct Child {
  int pid = -1;       // also the process group id
  int out_fd = -1;    // read end: stdout + stderr, O_CLOEXEC
  std::string error;  // why it could not start ("" when it did)
  bool ok() const { return pid > 0; }
};

// argv[0] without '/' is looked up in env's PATH (not ours). stdin is /dev/null.
Child spawn_streaming(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      const std::string& cwd);

// SIGTERM to the group, SIGCONT so stopped members see it, SIGKILL after `grace_ms` if any is left.
// Reaps the leader when it ends within the grace period and returns its wait status then.
std::optional<int> terminate_group(int pgid, int grace_ms);

// Waits for pid; returns the raw wait status.
int wait_child(int pid);

}  // namespace ts::build

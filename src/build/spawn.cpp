#include "build/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "build/proc_tree.h"
#include "util/process.h"

namespace ts::build {

Child spawn_streaming(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      const std::string& cwd) {
  Child c;
  if (argv.empty()) { c.error = "empty command"; return c; }
  std::string prog = argv[0];
  if (prog.find('/') == std::string::npos) {
    auto it = env.find("PATH");
    prog = util::find_program(prog, util::split_path(it == env.end() ? "" : it->second));
    if (prog.empty()) { c.error = argv[0] + ": not found in the step's PATH"; return c; }
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) { c.error = std::strerror(errno); return c; }

  std::vector<char*> av, ev;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  std::vector<std::string> kv;
  kv.reserve(env.size());
  for (const auto& [k, v] : env) kv.push_back(k + "=" + v);
  for (auto& s : kv) ev.push_back(s.data());
  ev.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);  // dup2 clears CLOEXEC on the copies
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  posix_spawnattr_setpgroup(&at, 0);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &all);  // a build must not inherit our ignored SIGPIPE/SIGINT
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, prog.c_str(), &fa, &at, av.data(), ev.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    c.error = prog + ": " + std::strerror(rc);
    return c;
  }
  c.pid = pid;
  c.out_fd = fds[0];
  return c;
}

std::optional<int> terminate_group(int pgid, int grace_ms) {
  if (pgid <= 0) return std::nullopt;
  // The tree too: ninja gives each command a process group of its own.
  auto tree = list_tree(pgid);
  auto signal_all = [&](int sig) {
    ::kill(-pgid, sig);
    for (const auto& p : tree) ::kill(p.pid, sig);
  };
  signal_all(SIGTERM);
  signal_all(SIGCONT);
  std::optional<int> status;
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  while (std::chrono::steady_clock::now() < until) {
    int st = 0;
    if (!status && waitpid(pgid, &st, WNOHANG) == pgid) status = st;  // a zombie leader keeps the group alive
    if (status && ::kill(-pgid, 0) != 0) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  signal_all(SIGKILL);
  return status;
}

int wait_child(int pid) {
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  return st;
}

}  // namespace ts::build

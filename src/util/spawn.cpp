#include "util/spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/process.h"

extern char** environ;

namespace ts::util {
namespace {

using Clock = std::chrono::steady_clock;

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> m;
  for (char** e = environ; e && *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq) m.emplace(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  return m;
}

// Why a program cannot be run: "not found", "is a directory, not a program", "exists but is not
// executable (...)". For names without a '/', "not found".
std::string why_not_runnable(const std::string& name) {
  struct stat st {};
  if (name.find('/') == std::string::npos || ::stat(name.c_str(), &st) != 0) return "not found";
  if (S_ISDIR(st.st_mode)) return "is a directory, not a program";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (::access(name.c_str(), X_OK) != 0) return "exists but is not executable (chmod +x it, or give another)";
  return "not found";
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

Child failed(const std::string& error) {
  Child c;
  c.not_found = true;
  c.error = error;
  return c;
}

}  // namespace

Child spawn(const std::vector<std::string>& argv, const SpawnOptions& o) {
  if (argv.empty()) return failed("empty command");
  auto env = o.env ? *o.env : current_environment();
  for (const auto& [k, v] : o.extra_env) env[k] = v;
  auto path_it = env.find("PATH");
  std::string program = find_program(
      argv[0], split_path(path_it != env.end() ? path_it->second : "/usr/local/bin:/usr/bin:/bin"));
  if (program.empty()) return failed(argv[0] + ": " + why_not_runnable(argv[0]));

  // Everything the child needs is built before fork: after it only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto& e : env_strings) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  // O_CLOEXEC: a pipe must not leak into a child spawned at the same time by another thread, or
  // that child would hold our pipe open and make us wait for it.
  int out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, exec_p[2] = {-1, -1};
  auto close_all = [&] {
    for (int* p : {out_p, err_p, exec_p}) close_fd(p[0]), close_fd(p[1]);
  };
  if (::pipe2(out_p, O_CLOEXEC) != 0 || (!o.merge_output && ::pipe2(err_p, O_CLOEXEC) != 0) ||
      ::pipe2(exec_p, O_CLOEXEC) != 0) {
    std::string e = std::string("pipe: ") + std::strerror(errno);
    close_all();
    return failed(e);
  }
  int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const char* cwd = o.cwd.empty() ? nullptr : o.cwd.c_str();
  const int err_w = o.merge_output ? out_p[1] : err_p[1];

  pid_t pid = ::fork();
  if (pid < 0) {
    std::string e = std::string("fork: ") + std::strerror(errno);
    close_all();
    if (devnull >= 0) ::close(devnull);
    return failed(e);
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // own group, so a stop reaches it and everything it started
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; ++s) ::sigaction(s, &dfl, nullptr);  // SIGKILL/SIGSTOP just fail
    if (devnull >= 0) ::dup2(devnull, 0); else ::close(0);
    ::dup2(out_p[1], 1);  // dup2 clears CLOEXEC on the copies
    ::dup2(err_w, 2);
    int e[2] = {0, 0};  // {0 chdir | 1 exec, errno}
    if (cwd && ::chdir(cwd) != 0) {
      e[1] = errno;
    } else {
      ::execve(program.c_str(), cargv.data(), cenv.data());
      e[0] = 1;
      e[1] = errno;
    }
    ssize_t ignored = ::write(exec_p[1], e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: no race with a stop that comes before the child ran
  close_fd(out_p[1]);
  close_fd(err_p[1]);
  close_fd(exec_p[1]);
  if (devnull >= 0) ::close(devnull);

  int child_error[2] = {0, 0};
  ssize_t n;
  while ((n = ::read(exec_p[0], child_error, sizeof child_error)) < 0 && errno == EINTR) {
  }
  close_fd(exec_p[0]);
  if (n == static_cast<ssize_t>(sizeof child_error)) {  // the exec never happened: EOF means it did
    wait_status(pid);
    close_all();
    return failed((child_error[0] == 0 ? "cd " + o.cwd : argv[0]) + ": " + std::strerror(child_error[1]));
  }
  Child c;
  c.pid = pid;
  c.out_fd = out_p[0];
  c.err_fd = err_p[0];
  return c;
}

int wait_status(int pid) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return st;
}

std::optional<int> stop_group(int pgid, std::chrono::milliseconds grace, const std::vector<int>& also) {
  if (pgid <= 0) return std::nullopt;
  auto signal_all = [&](int sig) {
    ::kill(-pgid, sig);
    for (int p : also) ::kill(p, sig);
  };
  signal_all(SIGTERM);
  signal_all(SIGCONT);
  std::optional<int> status;
  bool gone = false;  // reaped here, or by someone else (ECHILD)
  auto until = Clock::now() + grace;
  int wait = 1;
  while (Clock::now() < until) {
    int st = 0;
    if (!gone) {
      pid_t r = ::waitpid(pgid, &st, WNOHANG);
      if (r == pgid) status = st, gone = true;
      else if (r < 0 && errno != EINTR) gone = true;
    }
    if (gone && ::kill(-pgid, 0) != 0) return status;  // a zombie leader keeps the group alive until reaped
    ::poll(nullptr, 0, wait);
    wait = std::min(wait * 2, 20);
  }
  signal_all(SIGKILL);
  if (!gone) {
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(pgid, &st, 0)) < 0 && errno == EINTR) {
    }
    if (r == pgid) status = st;
  }
  return status;
}

}  // namespace ts::util

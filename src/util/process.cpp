#include "util/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace ts::util {
namespace {

using Clock = std::chrono::steady_clock;

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> m;
  for (char** e = environ; e && *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq) m.emplace(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  return m;
}

// waitpid without blocking; true when the child is gone (status filled).
bool reaped(pid_t pid, int& status) {
  for (;;) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno == EINTR) continue;
    return r < 0;  // ECHILD: someone else reaped it; treat as gone
  }
}

void sleep_ms(int ms) { ::poll(nullptr, 0, ms); }

// SIGTERM the group, give it kill_grace, then SIGKILL; reaps the leader.
void kill_group(pid_t pid, std::chrono::milliseconds grace, int& status) {
  ::kill(-pid, SIGTERM);
  auto until = Clock::now() + grace;
  int wait = 1;
  while (Clock::now() < until) {
    if (reaped(pid, status)) {
      ::kill(-pid, SIGKILL);  // the leader is gone; take the rest of its group too
      return;
    }
    sleep_ms(wait);
    wait = std::min(wait * 2, 20);
  }
  ::kill(-pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::vector<std::string> split_path(const std::string& path_var) {
  std::vector<std::string> dirs;
  std::size_t b = 0;
  while (b <= path_var.size()) {
    std::size_t e = path_var.find(':', b);
    if (e == std::string::npos) e = path_var.size();
    if (e > b) dirs.push_back(path_var.substr(b, e - b));
    b = e + 1;
  }
  return dirs;
}

std::string find_program(const std::string& name, const std::vector<std::string>& dirs) {
  auto runnable = [](const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return runnable(name) ? name : "";
  for (const auto& d : dirs) {
    std::string p = d + (d.ends_with('/') ? "" : "/") + name;
    if (runnable(p)) return p;
  }
  return "";
}

namespace {

// Why a program path cannot be run: "not found", "is a directory, not a program", "exists but is
// not executable (...)". For names without a '/', "not found".
std::string why_not_runnable(const std::string& name) {
  struct stat st {};
  if (name.find('/') == std::string::npos || ::stat(name.c_str(), &st) != 0) return "not found";
  if (S_ISDIR(st.st_mode)) return "is a directory, not a program";
  if (!S_ISREG(st.st_mode)) return "is not a regular file";
  if (::access(name.c_str(), X_OK) != 0) return "exists but is not executable (chmod +x it, or give another)";
  return "not found";
}

}  // namespace

std::string RunResult::describe(std::chrono::milliseconds timeout) const {
  if (not_found) return error.empty() ? "not found" : error;
  if (timed_out) {
    double s = timeout.count() / 1000.0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s", s);
    return buf;
  }
  if (truncated) return "printed more than the output limit and was stopped";
  if (signal) return "killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

RunResult run(const std::vector<std::string>& argv, const RunOptions& o) {
  RunResult r;
  const auto start = Clock::now();
  auto finish = [&] {
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  if (argv.empty()) {
    r.not_found = true;
    r.exit_code = 127;
    r.error = "empty command";
    return finish();
  }

  auto env = o.env ? *o.env : current_environment();
  for (const auto& [k, v] : o.extra_env) env[k] = v;
  auto path_it = env.find("PATH");
  std::string program = find_program(
      argv[0], split_path(path_it != env.end() ? path_it->second : "/usr/local/bin:/usr/bin:/bin"));
  if (program.empty()) {
    r.not_found = true;
    r.exit_code = 127;
    r.error = argv[0] + ": " + why_not_runnable(argv[0]);
    return finish();
  }

  // Everything the child needs is built before fork: after it only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (auto& e : env_strings) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  int out_p[2], err_p[2], exec_p[2];
  // O_CLOEXEC: a pipe must not leak into a child spawned at the same time by another thread,
  // or that child would hold our pipe open and make us wait for it.
  if (::pipe2(out_p, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    r.not_found = true;
    return finish();
  }
  Fd out_r(out_p[0]), out_w(out_p[1]);
  if (::pipe2(err_p, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    r.not_found = true;
    return finish();
  }
  Fd err_r(err_p[0]), err_w(err_p[1]);
  if (::pipe2(exec_p, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    r.not_found = true;
    return finish();
  }
  Fd exec_r(exec_p[0]), exec_w(exec_p[1]);
  Fd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const char* cwd = o.cwd.empty() ? nullptr : o.cwd.c_str();

  pid_t pid = ::fork();
  if (pid < 0) {
    r.error = std::string("fork: ") + std::strerror(errno);
    r.not_found = true;
    return finish();
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // own group, so a timeout kills it and everything it started
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &dfl, nullptr);
    if (devnull.fd >= 0) ::dup2(devnull.fd, 0); else ::close(0);
    ::dup2(out_w.fd, 1);
    ::dup2(err_w.fd, 2);
    int e = 0;
    if (cwd && ::chdir(cwd) != 0) {
      e = errno;
    } else {
      ::execve(program.c_str(), cargv.data(), cenv.data());
      e = errno;
    }
    ssize_t ignored = ::write(exec_w.fd, &e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: no race with a kill that comes before the child ran
  out_w.reset();
  err_w.reset();
  exec_w.reset();
  devnull.reset();

  int status = 0;
  int child_errno = 0;
  ssize_t n;
  while ((n = ::read(exec_r.fd, &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
  }
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.not_found = true;
    r.exit_code = 127;
    r.error = argv[0] + ": " + std::strerror(child_errno);
    return finish();
  }

  const auto deadline = start + o.timeout;
  bool exited = false;
  Clock::time_point exited_at{};
  bool killed = false;
  int idle_wait = 1;
  auto take = [&](Fd& fd, std::string& buf) {
    char chunk[65536];
    ssize_t got = ::read(fd.fd, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (got <= 0) {
      fd.reset();
      return;
    }
    std::size_t room = o.max_output > buf.size() ? o.max_output - buf.size() : 0;
    buf.append(chunk, std::min(room, static_cast<std::size_t>(got)));
    if (static_cast<std::size_t>(got) > room && !r.truncated) {
      r.truncated = true;  // printing forever: cut it off now rather than at the timeout
      ::kill(-pid, SIGKILL);
    }
  };

  for (;;) {
    if (!exited && reaped(pid, status)) {
      exited = true;
      exited_at = Clock::now();
    }
    bool pipes_open = out_r.fd >= 0 || err_r.fd >= 0;
    if (exited && !pipes_open) break;
    auto now = Clock::now();
    if (!exited && now >= deadline) {
      r.timed_out = true;
      kill_group(pid, o.kill_grace, status);
      exited = killed = true;
      break;
    }
    if (exited && now - exited_at > std::chrono::milliseconds(200)) {
      // It exited but something it left behind still holds the pipes: stop waiting for them.
      ::kill(-pid, SIGKILL);
      break;
    }
    if (!pipes_open) {  // closed its output but still running: wait for the exit
      sleep_ms(idle_wait);
      idle_wait = std::min(idle_wait * 2, 20);
      continue;
    }
    pollfd fds[2];
    int nfds = 0;
    if (out_r.fd >= 0) fds[nfds++] = {out_r.fd, POLLIN, 0};
    if (err_r.fd >= 0) fds[nfds++] = {err_r.fd, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    int wait_ms = static_cast<int>(std::clamp<long long>(left, 0, exited ? 20 : 50));
    int pr = ::poll(fds, nfds, wait_ms);
    if (pr <= 0) continue;
    for (int i = 0; i < nfds; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (fds[i].fd == out_r.fd) take(out_r, r.out);
      else if (fds[i].fd == err_r.fd) take(err_r, r.err);
    }
  }
  (void)killed;

  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return finish();
}

}  // namespace ts::util

#include "util/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/spawn.h"
#include "util/split.h"

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

}  // namespace

std::vector<std::string> split_path(const std::string& path_var) { return split_nonempty(path_var, ':'); }

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

std::string RunResult::describe(std::chrono::milliseconds timeout) const {
  if (not_found) return error.empty() ? "not found" : error;
  if (timed_out) {
    double s = timeout.count() / 1000.0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s", s);
    return buf;
  }
  if (truncated) return "printed more than the output limit and was stopped";
  if (cancelled) return "stopped: we were interrupted";
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
  SpawnOptions so;
  so.env = o.env;
  so.extra_env = o.extra_env;
  so.cwd = o.cwd;
  Child c = spawn(argv, so);
  if (!c.ok()) {
    r.not_found = true;
    r.exit_code = 127;
    r.error = c.error;
    return finish();
  }
  const pid_t pid = c.pid;
  Fd out_r(c.out_fd), err_r(c.err_fd);
  int status = 0;

  const auto deadline = start + o.timeout;
  bool exited = false;
  Clock::time_point exited_at{};
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
    if (!exited && o.cancel && o.cancel->load()) {
      r.cancelled = true;
      status = stop_group(pid, o.kill_grace).value_or(0);
      exited = true;
      break;
    }
    if (!exited && now >= deadline) {
      r.timed_out = true;
      status = stop_group(pid, o.kill_grace).value_or(0);
      exited = true;
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

  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return finish();
}

}  // namespace ts::util

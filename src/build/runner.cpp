#include "build/runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "build/fatal_watch.h"
#include "build/proc_tree.h"
#include "triage/line.h"
#include "triage/scanner.h"
#include "util/spawn.h"

namespace ts::build {

StepSpec step_from_plan(const plan::Plan& p, const plan::Step& s, const std::string& src_dir) {
  StepSpec o;
  o.name = s.name;
  o.env = p.env;
  o.env["NINJA_STATUS"] = std::string(kNinjaStatus);
  auto subst = [&](std::string v) {
    for (auto at = v.find("{src}"); at != std::string::npos; at = v.find("{src}", at + src_dir.size()))
      v.replace(at, 5, src_dir);
    return v;
  };
  for (const auto& a : s.argv) o.argv.push_back(subst(a));
  o.cwd = subst(s.cwd);
  return o;
}

namespace {

// The step's group and every descendant outside it: ninja gives each command a group of its own.
std::optional<int> stop_step(int pgid, int grace_ms) {
  std::vector<int> tree;
  for (const auto& p : list_tree(pgid)) tree.push_back(p.pid);
  return util::stop_group(pgid, std::chrono::milliseconds(grace_ms), tree);
}

}  // namespace

StepResult run_step(const StepSpec& step, const RunnerOptions& o) {
  StepResult r;
  auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::unique_ptr<FILE, int (*)(FILE*)> log(nullptr, fclose);
  if (!o.log_path.empty()) {
    log.reset(std::fopen(o.log_path.c_str(), "ab"));
    if (!log) { r.error = o.log_path + ": cannot write the log"; return r; }
  }
  util::SpawnOptions so;
  so.env = step.env;  // exactly the plan's: nothing of ours leaks into a build
  so.cwd = step.cwd;
  so.merge_output = true;
  util::Child c = util::spawn(step.argv, so);
  if (!c.ok()) {
    r.error = c.error;
    if (log) std::fprintf(log.get(), "torchsmith: %s\n", c.error.c_str());
    return r;
  }
  std::optional<triage::Scanner> scanner;
  std::optional<FatalWatch> watch;
  if (o.engine) { scanner.emplace(*o.engine, false, 1); watch.emplace(*o.engine); }
  if (o.governor) o.governor->attach(c.pid);

  std::string line;  // the current line, capped: only its head matters to the parsers
  // What the status line says besides the count: the newest thing compiling, every extension's own
  // count when they build side by side, and when the count last moved.
  std::string what;
  long compiles = 0;
  double progress_at = 0;
  std::vector<ExtensionProgress> extensions;
  auto on_line = [&] {
    if (auto p = parse_ninja_status(line)) {
      r.last_progress = p;
      progress_at = since();
      if (!p->what.empty()) what = p->what;
    } else if (auto e = parse_extension_status(line)) {
      auto it = std::find_if(extensions.begin(), extensions.end(), [&](const auto& x) { return x.name == e->name; });
      if (it == extensions.end()) extensions.push_back(*e);
      else *it = *e;
      if (!e->what.empty()) what = e->what;
    } else if (auto subject = compile_subject(line); !subject.empty()) {
      what = subject;  // a build without ninja: its compiler commands
      if (subject.rfind("linking ", 0) != 0) ++compiles;
    }
    if (watch && o.stop_on_fatal && r.fatal_id.empty()) r.fatal_id = watch->check(line);
    if (o.on_line) o.on_line(line);
    line.clear();
  };
  auto tick = [&](std::string stopping) {
    if (o.governor) o.governor->tick();
    if (!o.status) return;
    Status s{step.name, c.pid, since(), r.last_progress, {}, std::nullopt};
    if (o.governor) { s.mem = o.governor->last_reading(); s.governor = o.governor->state(); }
    else if (o.memory) s.mem = o.memory->read();
    s.progress_age = r.last_progress ? since() - progress_at : 0;
    s.what = what;
    s.compiles_seen = compiles;
    s.extensions = extensions;
    s.stopping = std::move(stopping);
    o.status(s);
  };
  auto next_tick = std::chrono::steady_clock::now();
  char buf[65536];
  std::optional<int> status;
  std::optional<std::chrono::steady_clock::time_point> interrupted_at;
  for (;;) {
    auto now = std::chrono::steady_clock::now();
    if (o.cancel && o.cancel->load() && !interrupted_at) {
      r.cancelled = true;
      interrupted_at = now;
      if (o.governor) o.governor->stop();  // paused jobs must run to see the signal
      kill(-c.pid, SIGINT);
    }
    if (interrupted_at && now - *interrupted_at > std::chrono::milliseconds(o.kill_grace_ms)) {
      status = stop_step(c.pid, o.kill_grace_ms);
      interrupted_at = now + std::chrono::hours(24);  // once
    }
    if (now >= next_tick) { tick(interrupted_at ? "interrupted" : ""); next_tick = now + std::chrono::milliseconds(o.tick_ms); }
    int wait = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(next_tick - now).count());
    pollfd pf{c.out_fd, POLLIN, 0};
    int pr = poll(&pf, 1, std::max(wait, 1));
    if (pr <= 0) continue;
    ssize_t n = read(c.out_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: every writer (the step and its children) is gone
    std::string_view chunk(buf, static_cast<std::size_t>(n));
    if (log) std::fwrite(chunk.data(), 1, chunk.size(), log.get());
    if (scanner) scanner->feed(chunk);
    for (char ch : chunk) {
      if (ch == '\n') on_line();
      else if (line.size() < triage::kLineCap) line.push_back(ch);
    }
    if (!r.fatal_id.empty()) {
      r.stopped_early = true;
      tick("failed: " + r.fatal_id);  // the line says so while the step is stopped, not a percentage
      if (o.governor) o.governor->stop();  // resume what it paused so SIGTERM reaches them
      status = stop_step(c.pid, o.kill_grace_ms);
      // What is still in the pipe belongs in the log (and may add context to the diagnosis).
      pollfd df{c.out_fd, POLLIN, 0};
      while (poll(&df, 1, 0) > 0 && (n = read(c.out_fd, buf, sizeof buf)) > 0) {
        if (log) std::fwrite(buf, 1, static_cast<std::size_t>(n), log.get());
        if (scanner) scanner->feed(std::string_view(buf, static_cast<std::size_t>(n)));
      }
      break;
    }
  }
  if (!line.empty()) on_line();
  close(c.out_fd);
  if (o.governor) o.governor->stop();
  int st = status ? *status : util::wait_status(c.pid);
  if (WIFEXITED(st)) r.exit_code = WEXITSTATUS(st);
  else if (WIFSIGNALED(st)) r.signal = WTERMSIG(st);
  if (scanner) r.diagnosis = scanner->finish();
  r.seconds = since();
  if (log && r.stopped_early)
    std::fprintf(log.get(), "\ntorchsmith: stopped early after %s\n", r.fatal_id.c_str());
  return r;
}

}  // namespace ts::build

// The live status line: its words (format_status) and its terminal (tty_status_printer).
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>

#include "build/eta.h"
#include "build/runner.h"

namespace ts::build {
namespace {

std::string short_duration(double s) {
  char b[32];
  long t = std::lround(std::max(0.0, s));
  if (t >= 3600) std::snprintf(b, sizeof b, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else std::snprintf(b, sizeof b, "%ldm%02lds", t / 60, t % 60);
  return b;
}

std::string gib(std::uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f GiB", double(bytes) / double(1ull << 30));
  return b;
}

// "312/1800 17% ETA 6m02s", or what a build without ninja's count can say.
std::string progress_part(const Status& s) {
  if (!s.stopping.empty()) return "stopping: " + s.stopping;
  if (!s.progress) return s.compiles_seen > 0 ? std::to_string(s.compiles_seen) + " compiled" : "";
  const auto& p = *s.progress;
  char b[64];
  std::snprintf(b, sizeof b, "%ld/%ld %d%%", p.done, p.total, int(p.fraction() * 100));
  std::string out = b;
  double eta = s.eta_seconds;
  if (eta < 0)
    if (auto e = p.eta()) eta = *e;
  if (eta >= 0 && p.done < p.total) {
    double left = eta - s.progress_age;  // counted down between progress lines
    out += left >= 1 ? " ETA " + short_duration(left) : " ETA soon";
  }
  return out;
}

std::string what_part(const Status& s) {
  std::string what = s.what;
  std::string ext;
  for (const auto& e : s.extensions)
    if (e.done < e.total) {
      if (what.empty()) what = e.what;
      ext += (ext.empty() ? "" : ", ") + e.name + " " + std::to_string(e.done) + "/" + std::to_string(e.total);
    }
  if (what.empty() && ext.empty()) return "";
  std::string out = what.empty() ? "" : (what.rfind("linking ", 0) == 0 ? what : "compiling " + what);
  if (!ext.empty()) out += (out.empty() ? "" : " ") + std::string("(") + ext + ")";
  return out;
}

std::string memory_part(const Status& s) {
  if (!s.mem.available) return "";
  std::string out = "memory: " + gib(s.mem.headroom()) + " free";
  if (s.governor && s.governor->paused > 0)
    out += ", " + std::to_string(s.governor->paused) + (s.governor->paused == 1 ? " job paused" : " jobs paused");
  return out;
}

std::atomic<bool> g_resized{true};
void on_winch(int) { g_resized.store(true); }

}  // namespace

std::string format_status(const Status& s, int width) {
  // In the order shown; kept by usefulness when the width is short: progress, what, memory.
  std::string head = s.phase + " " + short_duration(s.elapsed);
  std::string parts[3] = {progress_part(s), what_part(s), memory_part(s)};
  const int keep_order[3] = {0, 1, 2};
  bool kept[3] = {false, false, false};
  const std::size_t limit = width > 0 ? std::size_t(width - 1) : std::string::npos;  // never the last column
  std::size_t used = head.size();
  for (int i : keep_order) {
    if (parts[i].empty()) continue;
    if (used + 3 + parts[i].size() <= limit) {
      kept[i] = true;
      used += 3 + parts[i].size();
    } else if (i == 1 && used + 3 + 12 <= limit) {  // what compiles, shortened: its tail is the file name
      std::size_t room = limit - used - 3;
      parts[i] = "..." + parts[i].substr(parts[i].size() - (room - 3));
      kept[i] = true;
      used += 3 + parts[i].size();
    }
  }
  std::string out = head;
  for (int i = 0; i < 3; ++i)
    if (kept[i]) out += " | " + parts[i];
  if (out.size() > limit) out.resize(limit);
  return out;
}

int terminal_width(int fd) {
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

std::function<void(const Status&)> tty_status_printer(int fd) {
  if (!isatty(fd)) return {};
  struct sigaction sa {};
  sa.sa_handler = on_winch;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGWINCH, &sa, nullptr);
  g_resized.store(true);
  auto width = std::make_shared<int>(80);
  return [fd, width](const Status& s) {
    if (g_resized.exchange(false)) *width = terminal_width(fd);
    std::string l = "\r\x1b[K" + format_status(s, *width);
    (void)!write(fd, l.data(), l.size());
  };
}

}  // namespace ts::build

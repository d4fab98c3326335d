#include "util/partial_files.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

namespace ts::util {

std::optional<pid_t> pid_after(std::string_view name, std::string_view marker) {
  const auto at = name.find(marker);
  if (marker.empty() || at == std::string_view::npos) return std::nullopt;
  std::size_t p = at + marker.size(), digits = 0;
  long long pid = 0;
  while (p < name.size() && name[p] >= '0' && name[p] <= '9' && digits < 10) {
    pid = pid * 10 + (name[p] - '0');
    ++p;
    ++digits;
  }
  if (digits == 0 || pid <= 0 || pid > 0x7fffffff) return std::nullopt;
  if (p < name.size() && name[p] != '-' && name[p] != '.') return std::nullopt;
  return static_cast<pid_t>(pid);
}

bool process_alive(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

int remove_stale(const std::string& dir, std::string_view marker) {
  namespace fs = std::filesystem;
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    auto pid = pid_after(name, marker);
    if (!pid || *pid == ::getpid() || process_alive(*pid)) continue;
    std::error_code rec;
    if (fs::remove_all(it->path(), rec) > 0 && !rec) ++removed;
  }
  return removed;
}

}  // namespace ts::util

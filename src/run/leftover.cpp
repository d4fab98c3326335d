#include "run/leftover.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "util/fs.h"

namespace ts::run {

namespace {

int pgrp_of(const std::string& stat) {
  // "pid (comm) state ppid pgrp ..."; comm may hold spaces and ')' so parse after the last ')'.
  auto rp = stat.rfind(')');
  if (rp == std::string::npos) return -1;
  char state = 0;
  int ppid = 0, pgrp = 0;
  if (std::sscanf(stat.c_str() + rp + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) return -1;
  if (state == 'Z') return -1;  // a zombie is gone already
  return pgrp;
}

}  // namespace

std::vector<int> find_leftovers(int pgid, const std::string& run_id, const std::string& proc_root) {
  std::vector<int> out;
  if (pgid <= 0 || run_id.empty()) return out;
  std::error_code ec;
  std::string marker = "TORCHSMITH_RUN=" + run_id;
  for (const auto& e : std::filesystem::directory_iterator(proc_root, ec)) {
    std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    auto stat = util::read_file_prefix(e.path().string() + "/stat", 1024);
    if (!stat || pgrp_of(*stat) != pgid) continue;
    auto env = util::read_file_prefix(e.path().string() + "/environ", 1 << 20);
    if (!env) continue;
    bool found = false;
    for (std::size_t at = 0; at < env->size();) {
      auto end = env->find('\0', at);
      if (env->compare(at, (end == std::string::npos ? env->size() : end) - at, marker) == 0) { found = true; break; }
      if (end == std::string::npos) break;
      at = end + 1;
    }
    if (found) out.push_back(std::stoi(name));
  }
  return out;
}

int stop_leftovers(int pgid, const std::string& run_id, int grace_ms) {
  auto pids = find_leftovers(pgid, run_id);
  if (pids.empty()) return 0;
  for (int pid : pids) { kill(pid, SIGCONT); kill(pid, SIGINT); }
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  while (std::chrono::steady_clock::now() < until && !find_leftovers(pgid, run_id).empty())
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (int pid : find_leftovers(pgid, run_id)) kill(pid, SIGKILL);
  for (int i = 0; i < 40 && !find_leftovers(pgid, run_id).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return static_cast<int>(pids.size());
}

}  // namespace ts::run

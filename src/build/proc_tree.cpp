#include "build/proc_tree.h"

#include <dirent.h>
#include <unistd.h>

#include <charconv>
#include <set>

#include "util/fs.h"

namespace ts::build {

std::optional<ProcInfo> parse_proc_stat(std::string_view s) {
  auto open = s.find('('), close = s.rfind(')');  // comm may hold spaces and ')'
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  ProcInfo p;
  if (std::from_chars(s.data(), s.data() + open, p.pid).ec != std::errc()) return std::nullopt;
  p.comm = std::string(s.substr(open + 1, close - open - 1));
  std::vector<std::string_view> f;  // fields from 3 (state) on
  std::string_view rest = s.substr(close + 1);
  while (!rest.empty()) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    auto e = rest.find_first_of(" \n");
    if (e == std::string_view::npos) e = rest.size();
    if (e) f.push_back(rest.substr(0, e));
    rest.remove_prefix(e);
    if (!rest.empty() && rest.front() == '\n') break;
  }
  if (f.size() < 22) return std::nullopt;  // up to field 24 (rss)
  auto num = [&](std::size_t field, auto& out) {  // 1-based field number of proc(5)
    auto v = f[field - 3];
    return std::from_chars(v.data(), v.data() + v.size(), out).ec == std::errc();
  };
  std::int64_t rss_pages = 0;
  p.state = f[0].empty() ? '?' : f[0][0];
  if (!num(4, p.ppid) || !num(5, p.pgrp) || !num(22, p.start) || !num(24, rss_pages)) return std::nullopt;
  static const long page = sysconf(_SC_PAGESIZE);
  p.rss = rss_pages > 0 ? static_cast<std::uint64_t>(rss_pages) * static_cast<std::uint64_t>(page) : 0;
  return p;
}

namespace {

template <class Keep>
std::vector<ProcInfo> scan(const std::string& proc_root, Keep keep) {
  std::vector<ProcInfo> out;
  DIR* d = opendir(proc_root.c_str());
  if (!d) return out;
  while (auto* e = readdir(d)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    auto t = util::read_file_prefix(proc_root + "/" + e->d_name + "/stat", 4096);
    if (!t) continue;  // gone meanwhile
    auto p = parse_proc_stat(*t);
    if (p && p->state != 'Z' && keep(*p)) out.push_back(std::move(*p));
  }
  closedir(d);
  return out;
}

}  // namespace

std::vector<ProcInfo> list_group(int pgid, const std::string& proc_root) {
  return scan(proc_root, [&](const ProcInfo& p) { return p.pgrp == pgid; });
}

std::vector<ProcInfo> list_tree(int root, const std::string& proc_root) {
  auto all = scan(proc_root, [](const ProcInfo&) { return true; });
  std::set<int> in{root};
  std::vector<ProcInfo> out;
  // Parents usually have smaller pids, but pids wrap: repeat until nothing is added.
  for (bool grew = true; grew;) {
    grew = false;
    for (auto& p : all)
      if (p.pid && (p.pid == root || in.count(p.ppid))) {
        in.insert(p.pid);
        out.push_back(std::move(p));
        p.pid = 0;
        grew = true;
      }
  }
  return out;
}

std::vector<ProcInfo> job_processes(const std::vector<ProcInfo>& group, int leader) {
  static const std::set<std::string> tools = {"ninja", "make", "gmake", "cmake", "ctest", "sh", "bash", "dash"};
  std::set<int> parents;
  for (const auto& p : group) parents.insert(p.ppid);
  std::vector<ProcInfo> out;
  for (const auto& p : group)
    if (p.pid != leader && !parents.count(p.pid) && !tools.count(p.comm)) out.push_back(p);
  return out;
}

}  // namespace ts::build

#pragma once
// An in-memory World (run/world.h) for the run loop's tests, as ninja's build_test.cc runs its
// Builder over a VirtualFileSystem: files and directories in maps, a clock that moves only when a
// step runs, git heads set by the test, tree locks in a set, scripted step attempts (fake_step_runner.h's
// Scripted) and a memory reading. Nothing touches the disk, spawns a process or reads the time.
#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fake_step_runner.h"
#include "run/world.h"
#include "source/hash.h"
#include "util/utc_time.h"

namespace ts::run::testing {

// Thrown by a step scripted with `killed`: torchsmith died mid-step (kill -9). What the world holds
// then is what such a run leaves behind.
struct Killed {};

class FakeWorld final : public World {
 public:
  std::map<std::string, std::string> files;
  std::set<std::string> dirs{"/"};
  std::map<std::string, std::string> links;
  std::map<std::string, long> written_at;    // the order files were written in: their "mtime"
  long writes = 0;
  std::map<std::string, std::string> heads;  // a git checkout's directory -> its commit
  std::set<std::string> locked;              // trees held (by this run, or another when the test adds one)
  double clock = 1000;                       // seconds; a step's attempt moves it by step_seconds
  double step_seconds = 2;
  build::MemReading mem{.available = 6ull << 30};

  std::map<std::string, std::deque<Scripted>> script;  // per step name, one per attempt
  std::set<std::string> killed_in;                     // steps during which torchsmith "dies"
  std::vector<build::StepSpec> calls;
  std::atomic<bool>* cancel_flag = nullptr;
  std::vector<std::pair<int, std::string>> stopped;  // stop_leftovers(pgid, run)
  int next_pgid = 7000;

  std::optional<std::string> read(const std::string& path) override {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
  std::string write(const std::string& path, const std::string& text) override {
    if (!dirs.count(parent(path))) return path + ": No such file or directory";
    files[path] = text;
    written_at[path] = ++writes;
    return "";
  }
  std::string make_dirs(const std::string& dir) override {
    for (std::string d = dir; d.size() > 1; d = parent(d)) {
      if (files.count(d)) return dir + ": Not a directory";
      dirs.insert(d);
    }
    return "";
  }
  bool exists(const std::string& path) override {
    std::string p = normal(path);
    return files.count(p) || dirs.count(p) || links.count(p);
  }
  bool is_dir(const std::string& path) override { return dirs.count(normal(path)) > 0; }
  std::vector<std::string> list(const std::string& dir, bool files_only) override {
    std::set<std::string> names;
    auto add = [&](const std::string& p) {
      if (parent(p) == dir) names.insert(p.substr(dir.size() + 1));
    };
    for (const auto& [p, _] : files) add(p);
    if (!files_only) {
      for (const auto& d : dirs) add(d);
      for (const auto& [p, _] : links) add(p);
    }
    return {names.begin(), names.end()};
  }
  void remove(const std::string& path) override { files.erase(path), links.erase(path); }
  void remove_all(const std::string& path) override {
    auto under = [&](const std::string& p) { return p == path || p.rfind(path + "/", 0) == 0; };
    std::erase_if(files, [&](const auto& e) { return under(e.first); });
    std::erase_if(dirs, [&](const auto& d) { return under(d); });
    std::erase_if(links, [&](const auto& e) { return under(e.first); });
  }
  void link(const std::string& target, const std::string& at) override { links[at] = target; }
  std::string newest_wheel(const std::string& dir) override {
    std::string best;
    for (const auto& name : list(dir, true))
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".whl") == 0 &&
          (best.empty() || written_at[dir + "/" + name] > written_at[best]))
        best = dir + "/" + name;
    return best;
  }
  std::optional<Sum> sum(const std::string& path) override {
    auto text = read(path);
    if (!text) return std::nullopt;
    return Sum{text->size(), source::sha256_hex(*text)};
  }

  std::unique_ptr<Lock> lock(const std::string& dir, const std::string&, bool, std::string* error) override {
    if (locked.count(dir)) {
      if (error) *error = "another build holds " + dir + " (give --wait to wait for it)";
      return nullptr;
    }
    locked.insert(dir);
    return std::make_unique<Held>(locked, dir);
  }

  double now() override { return clock; }
  std::string utc(const char* format) override {
    return util::utc_time(format, static_cast<std::time_t>(1'790'000'000 + clock));
  }
  std::string git_head(const std::string& dir) override {
    auto it = heads.find(dir);
    return it == heads.end() ? "" : it->second;
  }

  build::StepResult run(const build::StepSpec& spec, const build::RunnerOptions& o) override {
    calls.push_back(spec);
    Scripted s = take_scripted(script, spec.name);
    int pgid = next_pgid++;
    if (o.status) {  // the step's process group is known: the loop journals it
      build::Status st;
      st.phase = spec.name;
      st.pgid = pgid;
      o.status(st);
    }
    clock += step_seconds;
    if (killed_in.count(spec.name)) throw Killed{};
    if (!o.log_path.empty()) write(o.log_path, s.log.empty() ? "fake " + spec.name + "\n" : s.log);
    for (const auto& [path, bytes] : s.writes) make_dirs(parent(path)), write(path, bytes);
    if (const std::string* report = report_path(spec); report && !s.report_json.empty()) write(*report, s.report_json);
    return scripted_result(s, cancel_flag);
  }
  int pid() override { return 4242; }
  double cpu(int) override { return 0; }
  int stop_leftovers(int pgid, const std::string& run_id) override {
    stopped.emplace_back(pgid, run_id);
    return 1;
  }
  build::MemReading memory() override { return mem; }

  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& c : calls) v.push_back(c.name);
    return v;
  }

 private:
  struct Held final : Lock {
    Held(std::set<std::string>& s, std::string d) : set(s), dir(std::move(d)) {}
    ~Held() override { set.erase(dir); }
    std::set<std::string>& set;
    std::string dir;
  };
  static std::string normal(const std::string& p) {
    std::string n = p;
    while (n.size() > 3 && n.compare(n.size() - 3, 3, "/..") == 0) n = parent(n.substr(0, n.size() - 3));
    return n;
  }
  static std::string parent(const std::string& p) {
    auto slash = p.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : p.substr(0, slash);
  }
};

}  // namespace ts::run::testing

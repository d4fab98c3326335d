#include "verify/python_check.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

#include "core/package_name.h"
#include "util/fs.h"
#include "util/scratch_dir.h"
#include "verify/early_check.h"
#include "verify/install_deps.h"
#include "verify/install_wheel.h"
#include "formats/mapped_file.h"
#include "verify/python_compare.h"
#include "verify/python_run.h"
#include "verify/wheel_meta.h"
#include "formats/wheel.h"
#include "formats/zip.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

// Without a plan naming the extension, the wheel says what it is: its distribution name comes
// first in its file name (PEP 427). For anything but torch, the module it installs: the first line
// of its top_level.txt, else its one top-level package or module; "" when that is not clear.
struct WheelKind {
  bool torch = true;
  std::string module;
};

WheelKind wheel_kind(const std::string& wheel, const std::string& scratch) {
  WheelKind k;
  std::string base = fs::path(wheel).filename().string();
  if (normalize_name(base.substr(0, base.find('-'))) == "torch") return k;
  k.torch = false;
  formats::MappedFile m(wheel);
  if (!m.ok()) return k;
  std::string err;
  auto zip = formats::ZipArchive::open(m.bytes(), &err);
  if (!zip) return k;
  std::set<std::string> tops;
  for (const auto& mem : zip->members()) {
    auto slash = mem.name.find('/');
    std::string top = mem.name.substr(0, slash);
    if (top.ends_with(".dist-info")) {
      if (mem.name.substr(slash + 1) != "top_level.txt") continue;
      std::string to = scratch + "/top_level.txt";
      if (!zip->extract(mem, to).empty()) continue;
      std::istringstream in(util::read_file(to).value_or(""));
      std::string line;
      while (std::getline(in, line))
        if (!(line = util::trim(line)).empty()) {
          k.module = line;
          return k;
        }
      continue;
    }
    if (top.ends_with(".data")) continue;
    if (slash == std::string::npos) top = top.substr(0, top.find('.'));  // mod.py, mod.cpython-311-x86_64-linux-gnu.so
    if (!top.empty()) tops.insert(top);
  }
  if (tops.size() == 1) k.module = *tops.begin();
  return k;
}

}  // namespace

PythonCheckReport verify_python_install(const PythonCheckOptions& o) {
  PythonCheckReport rep;
  rep.steps = nlohmann::json::object();
  // The check repair, conda and index make, before anything is installed or imported: a wheel
  // whose RECORD does not match its bytes (or that another command refuses) is never run.
  if (!o.wheel.empty()) {
    std::string why;
    formats::MappedFile m(o.wheel);
    std::optional<formats::ZipArchive> zip;
    if (!m.ok()) why = m.error();
    else if (!(zip = formats::ZipArchive::open(m.bytes(), &why))) why = o.wheel + ": " + why;
    else if (!formats::check_wheel(*zip, &why, o.wheel)) why = o.wheel + ": " + why;
    if (!zip || !why.empty()) {
      if (!o.early_dir.empty()) release_early_check(o.early_dir);
      rep.verdicts.push_back({o.wheel, "install", Outcome::fail, "not installed: " + why});
      return rep;
    }
  }
  // Removed on every way out, a signal included (unless the caller gave its own directory).
  std::optional<util::ScratchDir> own;
  if (o.work_dir.empty()) own.emplace("torchsmith-verify");
  const std::string scratch = own ? own->path() : o.work_dir;
  if (scratch.empty()) {
    rep.verdicts.push_back({"", "python", Outcome::fail, own->error()});
    return rep;
  }
  bool ext = o.plan && !o.plan->import_name.empty();
  std::string import_name = ext ? o.plan->import_name : "";
  if (!o.plan && !o.wheel.empty()) {  // a plan says what the wheel must be; without one, the wheel does
    WheelKind k = wheel_kind(o.wheel, scratch);
    ext = !k.torch;
    import_name = k.module;
  }
  std::optional<plan::Plan> plan = o.plan;
  std::string python = o.python, pythonpath, torch_dir, ext_dir;
  std::vector<std::string> modules;  // imported besides the plan's module: the wheel's own
  std::error_code ec;
  fs::create_directories(scratch + "/home", ec);
  // An extension's checker starts now and imports torch while pip installs the wheel; it waits for
  // the go file (what to import, the dependencies' paths) or for "no go" when installing failed.
  // Not for a torch wheel: the torch being checked is the one being installed.
  // One started by the build run with its build step has imported torch already: install into its
  // target. Not usable (another Python or --gpu, a torch wheel): told to end, and ours starts.
  const bool external = !o.early_dir.empty() && !o.wheel.empty() && ext &&
                        early_check_usable(o.early_dir, o.python, o.gpu);
  if (!o.early_dir.empty() && !external) release_early_check(o.early_dir);
  const std::string install_dir = (external ? o.early_dir : scratch) + "/install";
  const std::string site = target_site(install_dir);
  const std::string go_file = (external ? o.early_dir : scratch) + "/go.json";
  ScriptRun early;
  std::thread checker;
  if (!external && !o.wheel.empty() && ext && fs::create_directories(site, ec)) {
    nlohmann::json a = {{"gpu", o.gpu}, {"go_file", go_file}, {"go_after", site}};
    checker = std::thread([&early, &o, a, env = check_env(o.python, scratch + "/home", site)] {
      early = run_check_script(o.python, a, env, o.timeout);
    });
  }
  struct NoGo {  // "no go" on every early return, so the checker never waits for its timeout
    std::thread& t;
    const std::string& file;
    bool external;
    void release() {
      if (external) {  // its starter reaps it
        release_early_check(fs::path(file).parent_path().string());
        external = false;
      }
      if (!t.joinable()) return;
      (void)util::write_file_atomic(file, R"({"go": false})");
      t.join();
    }
    ~NoGo() { release(); }
  } no_go{checker, go_file, external};
  if (!o.wheel.empty()) {
    InstallOptions io;
    // A target directory first on PYTHONPATH, for extensions too: torch then comes from PY's own
    // site-packages. A venv made from PY would see the base interpreter's packages, not PY's when
    // PY is itself a venv (torch 2.11 in /opt/torch/.venv: "No module named 'torch'").
    io.python = o.python, io.wheel = o.wheel, io.dir = install_dir, io.venv = false;
    io.timeout = o.timeout, io.prefer_pip = o.prefer_pip;
    Installed in = install_wheel(io);
    rep.verdicts.push_back({"", "install", in.ok ? Outcome::pass : Outcome::fail, in.detail});
    if (!in.ok) return rep;
    python = in.python, pythonpath = in.pythonpath;
    (ext ? ext_dir : torch_dir) = in.site;
    if (ext && plan) {  // without a plan: the module wheel_kind found is imported
      std::string err;
      auto meta = read_wheel_meta(o.wheel, &err);
      if (!meta) {
        rep.verdicts.push_back({"", "wheel metadata", Outcome::fail, err});
      } else {
        rep.requires_dist = meta->requires_dist;
        split_op_libraries(*meta, in.site);
        // The plan's module when the wheel has it; a guessed one (no recipe) gives way to the wheel's.
        const auto& tops = meta->top_level;
        std::string& name = plan->import_name;
        std::string top = name.substr(0, name.find('.'));
        if (!tops.empty() && std::find(tops.begin(), tops.end(), top) == tops.end()) {
          std::string list;
          for (const auto& t : tops) list += (list.empty() ? "" : ", ") + t;
          rep.verdicts.push_back({"", "modules", Outcome::note,
                                  "the wheel has no module " + name + "; its top-level modules are imported instead: " + list});
          name = tops.front();
          for (const auto& c : meta->compiled)  // the module that holds compiled code goes first
            if (std::find(tops.begin(), tops.end(), c.substr(0, c.find('.'))) != tops.end()) {
              name = c.substr(0, c.find('.'));
              break;
            }
        }
        for (const auto& t : tops)
          if (t != name) modules.push_back(t);
        for (const auto& c : meta->compiled)
          if (c != name) modules.push_back(c);
        for (const auto& l : meta->libraries)
          rep.verdicts.push_back({"", "library " + l, Outcome::note,
                                  "no PyInit_" + l.substr(l.rfind('.') + 1) + ": an op library the package loads "
                                  "itself (torch.ops.load_library), not imported here (a variant it did not choose "
                                  "would register its ops twice)"});
        rep.modules = modules;
        if (o.runtime_deps) {
          DepsOptions d;
          d.python = o.python, d.requires_dist = meta->requires_dist, d.dir = scratch + "/runtime";
          d.undeclared = plan->runtime_requires;
          d.wheelhouse = o.wheelhouse, d.cache_dir = o.pip_cache, d.timeout = o.timeout, d.kb = o.kb;
          DepsResult dr = install_dependencies(d);
          for (auto& v : dr.verdicts) rep.verdicts.push_back(std::move(v));
          for (const auto& p : dr.pythonpath) pythonpath += (pythonpath.empty() ? "" : ":") + p;
        } else if (!meta->requires_dist.empty() || !plan->runtime_requires.empty()) {
          rep.verdicts.push_back(skipped("dependencies", std::to_string(meta->requires_dist.size()) +
                                                             " Requires-Dist and " + std::to_string(plan->runtime_requires.size()) +
                                                             " runtime_requires of the recipe not installed (--no-runtime-deps)"));
        }
      }
    }
  }
  nlohmann::json args = {{"import_name", ext && plan ? plan->import_name : import_name},
                         {"smoke", ext && plan ? plan->smoke : ""},
                         {"modules", modules},
                         {"gpu", o.gpu}};
  ScriptRun run;
  bool ran = false;
  if ((checker.joinable() || no_go.external) && python == o.python && pythonpath.rfind(site, 0) == 0) {
    std::vector<std::string> deps;  // what runtime dependencies added after the target directory
    std::stringstream rest(pythonpath.substr(site.size()));
    for (std::string d; std::getline(rest, d, ':');)
      if (!d.empty()) deps.push_back(d);
    if (no_go.external) {
      if (early_go(o.early_dir, args, deps, o.timeout).empty()) {
        no_go.external = false;  // it has its word; its starter reaps it
        run = wait_early_check(o.early_dir, o.timeout);
        // A slow install (runtime dependencies from the index) used up the checker's time: check afresh.
        ran = !timed_out_waiting_for_go(run);
      }
    } else {
      nlohmann::json go = {{"go", true}, {"args", args}, {"path", deps}};
      if (util::write_file_atomic(go_file, go.dump()).empty()) {
        checker.join();
        run = std::move(early);
        ran = !timed_out_waiting_for_go(run);
      }
    }
  }
  if (!ran) {  // no early checker, or it could not be told to go
    no_go.release();
    run = run_check_script(python, args, check_env(python, scratch + "/home", pythonpath), o.timeout);
  }
  for (const auto& s : run.steps) {
    nlohmann::json j = {{"finished", s.finished}, {"ok", s.ok}};
    if (s.ok)
      j["value"] = s.value;
    else
      j["error"] = s.error;
    rep.steps[s.step] = j;
  }
  JudgeOptions jo;
  jo.plan = plan ? &*plan : nullptr;
  jo.modules = modules;
  jo.gpu = o.gpu, jo.torch_dir = torch_dir, jo.ext_dir = ext_dir;
  jo.import_name = import_name;
  if (ext && !o.wheel.empty()) {  // name-version-...whl (PEP 427)
    std::string base = fs::path(o.wheel).filename().string();
    auto a = base.find('-'), b = a == std::string::npos ? a : base.find('-', a + 1);
    if (b != std::string::npos) jo.wheel_version = base.substr(a + 1, b - a - 1);
  }
  for (auto& v : judge_python_run(run, jo)) rep.verdicts.push_back(std::move(v));
  return rep;
}

}  // namespace ts::verify

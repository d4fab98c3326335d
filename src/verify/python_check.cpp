#include "verify/python_check.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>

#include "verify/install_deps.h"
#include "verify/install_wheel.h"
#include "verify/python_compare.h"
#include "verify/python_run.h"
#include "verify/wheel_meta.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

// A scratch directory removed on every way out (unless the caller gave its own).
class Scratch {
 public:
  explicit Scratch(const std::string& given) : path_(given), owned_(given.empty()) {
    if (owned_) {
      std::string tmpl = (fs::temp_directory_path() / "torchsmith-verify-XXXXXX").string();
      path_ = ::mkdtemp(tmpl.data()) ? tmpl : "";
    }
  }
  ~Scratch() {
    std::error_code ec;
    if (owned_ && !path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool owned_;
};

}  // namespace

PythonCheckReport verify_python_install(const PythonCheckOptions& o) {
  PythonCheckReport rep;
  rep.steps = nlohmann::json::object();
  Scratch scratch(o.work_dir);
  if (scratch.path().empty()) {
    rep.verdicts.push_back(
        {"", "python", Outcome::fail,
         "cannot create a scratch directory under " + fs::temp_directory_path().string()});
    return rep;
  }
  const bool ext = o.plan && !o.plan->import_name.empty();
  std::optional<plan::Plan> plan = o.plan;
  std::string python = o.python, pythonpath, torch_dir, ext_dir;
  std::vector<std::string> modules;  // imported besides the plan's module: the wheel's own
  if (!o.wheel.empty()) {
    InstallOptions io;
    // A target directory first on PYTHONPATH, for extensions too: torch then comes from PY's own
    // site-packages. A venv made from PY would see the base interpreter's packages, not PY's when
    // PY is itself a venv (torch 2.11 in /opt/torch/.venv: "No module named 'torch'").
    io.python = o.python, io.wheel = o.wheel, io.dir = scratch.path() + "/install", io.venv = false;
    io.timeout = o.timeout;
    Installed in = install_wheel(io);
    rep.verdicts.push_back({"", "install", in.ok ? Outcome::pass : Outcome::fail, in.detail});
    if (!in.ok) return rep;
    python = in.python, pythonpath = in.pythonpath;
    (ext ? ext_dir : torch_dir) = in.site;
    if (ext) {
      std::string err;
      auto meta = read_wheel_meta(o.wheel, &err);
      if (!meta) {
        rep.verdicts.push_back({"", "wheel metadata", Outcome::fail, err});
      } else {
        rep.requires_dist = meta->requires_dist;
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
        rep.modules = modules;
        if (o.runtime_deps) {
          DepsOptions d;
          d.python = o.python, d.requires_dist = meta->requires_dist, d.dir = scratch.path() + "/runtime";
          d.wheelhouse = o.wheelhouse, d.cache_dir = o.pip_cache, d.timeout = o.timeout;
          DepsResult dr = install_dependencies(d);
          for (auto& v : dr.verdicts) rep.verdicts.push_back(std::move(v));
          for (const auto& p : dr.pythonpath) pythonpath += (pythonpath.empty() ? "" : ":") + p;
        } else if (!meta->requires_dist.empty()) {
          rep.verdicts.push_back(skipped("dependencies", std::to_string(meta->requires_dist.size()) +
                                                             " Requires-Dist not installed (--no-runtime-deps)"));
        }
      }
    }
  }
  nlohmann::json args = {{"import_name", ext ? plan->import_name : ""},
                         {"smoke", ext ? plan->smoke : ""},
                         {"modules", modules},
                         {"gpu", o.gpu}};
  std::error_code ec;
  fs::create_directories(scratch.path() + "/home", ec);
  ScriptRun run = run_check_script(
      python, args, check_env(python, scratch.path() + "/home", pythonpath), o.timeout);
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
  for (auto& v : judge_python_run(run, jo)) rep.verdicts.push_back(std::move(v));
  return rep;
}

}  // namespace ts::verify

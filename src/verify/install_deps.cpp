#include "verify/install_deps.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "util/fs.h"
#include "util/process.h"
#include "verify/check.h"
#include "verify/python_run.h"
#include "verify/requirement.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

// What reaches pip from our environment: the index and proxy it must use, nothing else of the user's.
constexpr const char* kPassed[] = {"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "http_proxy",
                                   "https_proxy",   "HTTP_PROXY",          "HTTPS_PROXY",      "no_proxy",
                                   "NO_PROXY",      "SSL_CERT_FILE",       "SSL_CERT_DIR"};

util::RunResult run_in(const std::vector<std::string>& argv, const std::string& python, const std::string& home,
                       std::chrono::milliseconds t) {
  util::RunOptions ro = pip_run_options(python, home, t);
  for (const char* k : kPassed)
    if (const char* v = std::getenv(k)) (*ro.env)[k] = v;
  ro.max_output = 4 << 20;
  return util::run(argv, ro);
}

std::string why_not(const util::RunResult& r, std::chrono::milliseconds t) {
  if (r.timed_out) return "timed out after " + std::to_string(t.count() / 1000) + " s";
  // pip's verdict is its last "ERROR:" line; a build failure's cause is above it.
  std::string text = r.err + "\n" + r.out, error;
  std::size_t at = 0;
  while ((at = text.find("ERROR: ", at)) != std::string::npos) {
    std::size_t e = text.find('\n', at);
    error = text.substr(at + 7, e == std::string::npos ? std::string::npos : e - at - 7);
    at = e == std::string::npos ? text.size() : e;
  }
  if (error.empty()) error = last_line(r.err);
  if (error.empty()) error = last_line(r.out);
  if (error.size() > 300) error = error.substr(0, 300) + "...";
  return error.empty() ? r.describe(t) : error;
}

}  // namespace

std::vector<std::string> torch_constraints(const std::string& torch_version, const kb::Kb* kb) {
  std::vector<std::string> c{"torch" + (torch_version.empty() ? std::string("===0+the-torch-under-test") : "==" + torch_version)};
  const kb::TorchRelease* rel = kb && !torch_version.empty() ? kb->find_torch(torch_version) : nullptr;
  if (rel && !rel->numpy.is_any()) c.push_back("numpy" + rel->numpy.str());
  return c;
}

std::string installed_version(const std::string& pip_output, const std::string& key) {
  const std::string tag = "Successfully installed ";
  auto at = pip_output.rfind(tag);
  if (at == std::string::npos) return "";
  auto end = pip_output.find('\n', at);
  std::string line = pip_output.substr(at + tag.size(), end == std::string::npos ? std::string::npos : end - at - tag.size());
  std::size_t i = 0;
  while (i < line.size()) {
    auto sp = line.find(' ', i);
    std::string item = line.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
    i = sp == std::string::npos ? line.size() : sp + 1;
    // NAME-VERSION where NAME may hold '-': the version starts after the last '-'.
    auto dash = item.rfind('-');
    if (dash != std::string::npos && normalize_name(item.substr(0, dash)) == key) return item.substr(dash + 1);
  }
  return "";
}

namespace {

// One install of a wheel's dependencies, in phases: the requirements that apply here, the venv that
// sees the interpreter's own packages, the constraints that keep torch, and pip. Each phase adds its
// verdicts and returns false when the rest has nothing to do.
class DepsInstall {
 public:
  DepsInstall(const DepsOptions& o, DepsResult& res)
      : o_(o), res_(res), home_(o.dir + "/home"),
        short_t_(std::min<long long>(o.timeout.count(), 60000)), venv_(o.dir + "/deps"), vpy_(venv_ + "/bin/python") {}

  // Which requirements apply to this interpreter: markers evaluated in its environment, extras left
  // out, torch never installed again, one the recipe adds asked for once.
  bool applicable() {
    std::error_code ec;
    fs::create_directories(home_, ec);
    auto env_run = run_in({o_.python, "-c", marker_env_script()}, o_.python, home_, short_t_);
    nlohmann::json envj = nlohmann::json::parse(env_run.out, nullptr, false);
    if (!env_run.ok() || !envj.is_object()) {
      add(Check::dependencies, Outcome::fail, "cannot read the marker environment of " + o_.python + ": " + why_not(env_run, short_t_));
      return false;
    }
    MarkerEnv env;
    for (auto& [k, v] : envj.items())
      if (v.is_string()) env[k] = v.get<std::string>();
    torch_version_ = env["torch_distribution_version"];
    std::vector<std::string> declared;  // what the wheel asks for here (normalized), seen first
    std::vector<std::pair<std::string, bool>> texts;
    for (const auto& text : o_.requires_dist) texts.emplace_back(text, false);
    for (const auto& text : o_.undeclared) texts.emplace_back(text, true);
    for (const auto& [text, undeclared] : texts) {
      std::string err;
      auto req = parse_requirement(text, &err);
      if (!req) {
        add({Check::dependency, text}, Outcome::fail, "Requires-Dist does not parse: " + err);
        continue;
      }
      auto applies = evaluate_marker(req->marker, env, &err);
      if (!applies) {
        add({Check::dependency, req->name}, Outcome::fail, "Requires-Dist marker does not parse: " + err);
        continue;
      }
      if (!*applies) continue;  // an extra, or another platform or Python
      if (undeclared && std::find(declared.begin(), declared.end(), req->key) != declared.end()) continue;
      if (!undeclared) declared.push_back(req->key);
      if (req->key == "torch") {
        add({Check::dependency, req->name}, Outcome::pass,
            "the torch under test" + (torch_version_.empty() ? std::string() : " (" + torch_version_ + ")") +
                ", never installed again (" + req->specifier + ")");
        continue;
      }
      deps_.push_back({*req, undeclared});
      res_.wanted.push_back(req->specifier);
    }
    return !deps_.empty();
  }

  // The venv: its site reads the interpreter's own site directories, so torch and whatever else is
  // there count as installed; pip writes only into the venv (what is outside it is never uninstalled).
  bool make_venv() {
    std::error_code ec;
    auto mk = run_in({o_.python, "-m", "venv", "--system-site-packages", "--without-pip", venv_}, o_.python, home_, short_t_);
    if (!mk.ok()) return fail_all("python -m venv failed: " + why_not(mk, short_t_));
    auto paths = run_in({o_.python, "-c",
                         "import json, site, sysconfig; p = sysconfig.get_paths(); "
                         "print(json.dumps([x for x in [p['purelib'], p['platlib']] + site.getsitepackages()]))"},
                        o_.python, home_, short_t_);
    auto vpaths = run_in({vpy_, "-c", "import json, sysconfig; p = sysconfig.get_paths(); print(json.dumps([p['purelib'], p['platlib']]))"},
                         vpy_, home_, short_t_);
    nlohmann::json base = nlohmann::json::parse(paths.out, nullptr, false), own = nlohmann::json::parse(vpaths.out, nullptr, false);
    if (!base.is_array() || !own.is_array() || own.empty() || !own[0].is_string())
      return fail_all("cannot read the site directories: " + why_not(paths.ok() ? vpaths : paths, short_t_));
    std::string pth;
    for (const auto& p : base)
      if (p.is_string()) pth += p.get<std::string>() + "\n";
    for (const auto& p : own)
      if (p.is_string() && std::find(res_.pythonpath.begin(), res_.pythonpath.end(), p.get<std::string>()) == res_.pythonpath.end())
        res_.pythonpath.push_back(p.get<std::string>());
    fs::create_directories(res_.pythonpath.front(), ec);
    if (auto e = util::write_file_atomic(res_.pythonpath.front() + "/torchsmith-base-site.pth", pth); !e.empty())
      return fail_all(e);
    return true;
  }

  // torch stays the one under test: a dependency that wants another fails to resolve, nothing
  // downloads; NumPy stays in the range that torch's binaries run with (pip would otherwise take a
  // NumPy 2 for opencv and break a NumPy-1 torch).
  bool constrain() {
    constraints_ = o_.dir + "/constraints.txt";
    std::string lines;
    for (const auto& c : torch_constraints(torch_version_, o_.kb)) lines += c + "\n";
    if (auto e = util::write_file_atomic(constraints_, lines); !e.empty()) return fail_all(e);
    if (auto c = torch_constraints(torch_version_, o_.kb); c.size() > 1) {
      std::string kept;
      for (std::size_t i = 1; i < c.size(); ++i) kept += (kept.empty() ? "" : ", ") + c[i];
      add(Check::dependency_constraints, Outcome::note,
          kept + ": what torch " + torch_version_ + "'s binaries run with (the KB's torch " +
              o_.kb->find_torch(torch_version_)->version.original() + " entry), kept while installing");
    }
    return true;
  }

  // pip: all together; when that fails, each alone, to say which cannot be had (what did install
  // stays for the imports), or that they conflict.
  void install() {
    auto pip = run_in({vpy_, "-m", "pip", "--version"}, vpy_, home_, short_t_);
    if (!pip.ok()) {
      fail_all(o_.python + " has no pip (python -m pip --version: " + why_not(pip, short_t_) + ")");
      return;
    }
    std::vector<std::string> base_argv{vpy_, "-m", "pip", "install", "--no-warn-script-location", "--constraint", constraints_};
    if (!o_.wheelhouse.empty()) base_argv.insert(base_argv.end(), {"--no-index", "--find-links", o_.wheelhouse});
    if (!o_.cache_dir.empty()) base_argv.insert(base_argv.end(), {"--cache-dir", o_.cache_dir});
    else base_argv.push_back("--no-cache-dir");
    base_argv.push_back("--");
    auto all = base_argv;
    for (const auto& d : deps_) all.push_back(d.req.specifier);
    auto r = run_in(all, vpy_, home_, o_.timeout);
    const std::string from = o_.wheelhouse.empty() ? "the package index" : o_.wheelhouse;
    if (r.ok()) {
      for (const auto& d : deps_) {
        std::string v = installed_version(r.out, d.req.key);
        add({Check::dependency, d.req.name}, Outcome::pass,
            (v.empty() ? d.req.specifier + ": already satisfied by " + o_.python + "'s own packages"
                       : d.req.specifier + ": installed " + v + " from " + from) + why_asked(d));
      }
      return;
    }
    for (const auto& d : deps_) {
      auto one = base_argv;
      one.push_back(d.req.specifier);
      auto r1 = run_in(one, vpy_, home_, o_.timeout);
      if (r1.ok()) {
        std::string v = installed_version(r1.out, d.req.key);
        add({Check::dependency, d.req.name}, Outcome::pass,
            d.req.specifier + (v.empty() ? ": already satisfied" : ": installed " + v + " from " + from) + why_asked(d));
      } else {
        add({Check::dependency, d.req.name}, Outcome::fail,
            "not installable from " + from + ": " + why_not(r1, o_.timeout) + why_asked(d));
      }
    }
    // All installable alone but not together: the conflict is the failure.
    bool any = false;
    for (const auto& v : res_.verdicts) any = any || v.outcome == Outcome::fail;
    if (!any) add(Check::dependencies, Outcome::fail, "each installs alone, not together: " + why_not(r, o_.timeout));
  }

 private:
  struct Dep {
    Requirement req;
    bool undeclared = false;
  };

  void add(const CheckName& check, Outcome oc, const std::string& detail) {
    res_.verdicts.push_back(verdict("", check, oc, detail));
  }
  // Said on each of its verdicts: the recipe asked for it, not the wheel.
  static std::string why_asked(const Dep& d) {
    return d.undeclared ? std::string(" (the recipe's runtime_requires: the wheel does not declare it)") : std::string();
  }
  bool fail_all(const std::string& why) {
    for (const auto& d : deps_) add({Check::dependency, d.req.name}, Outcome::fail, "not installable: " + why + why_asked(d));
    return false;
  }

  const DepsOptions& o_;
  DepsResult& res_;
  const std::string home_;
  const std::chrono::milliseconds short_t_;
  const std::string venv_, vpy_;
  std::string torch_version_, constraints_;
  std::vector<Dep> deps_;
};

}  // namespace

DepsResult install_dependencies(const DepsOptions& o) {
  DepsResult res;
  if (o.requires_dist.empty() && o.undeclared.empty()) return res;  // nothing asked for: no Python to start
  DepsInstall in(o, res);
  if (in.applicable() && in.make_venv() && in.constrain()) in.install();
  return res;
}

}  // namespace ts::verify

// torchsmith matrix NAME==VER --torch 2.4,2.5: one package built against several torch releases,
// each torch from PyPI (or --wheelhouse) in its own cached venv, each build the normal `torchsmith
// build` in a child, the wheels gathered into a find-links index laid out per torch and CUDA.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/plan_request.h"
#include "cli/request_options.h"
#include "package/matrix_index.h"
#include "plan/extension.h"
#include "util/cache_dir.h"
#include "util/fs.h"
#include "util/printable.h"
#include "util/process.h"
#include "util/safe_path.h"

namespace ts::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct MatrixCliOptions {
  std::string requirement, torch, cuda = "auto", out = "torchsmith-matrix", wheelhouse, python = "python3";
  Request req;  // the request options table's matrix rows, checked once and passed on to every build
  bool json = false;
};

// Ctrl-C or SIGTERM: each venv's pip and each build runs in its own process group, which the
// terminal's Ctrl-C (or a kill of ours) does not reach; they are stopped through this flag.
std::atomic<bool> g_cancel{false};
void on_signal(int) { g_cancel.store(true); }

int bad(const std::string& msg) {
  std::fprintf(stderr, "torchsmith matrix: %s\n", msg.c_str());
  return 2;
}

void say(const std::string& s) { std::fprintf(stderr, "torchsmith matrix: %s\n", s.c_str()); }

// This binary's path for the child builds; a torchsmith replaced while a long matrix runs reads
// "PATH (deleted)" here, and the builds then run the one now at PATH.
std::string self_exe() {
  std::error_code ec;
  std::string p = fs::read_symlink("/proc/self/exe", ec).string();
  const std::string deleted = " (deleted)";
  if (p.size() > deleted.size() && p.compare(p.size() - deleted.size(), deleted.size(), deleted) == 0)
    p.resize(p.size() - deleted.size());
  return ec ? "torchsmith" : p;
}

bool is_flag(const std::string& name) {
  for (const auto& r : request_options())
    if (r.name == name) return r.type.empty();
  return false;
}

std::string first_line(const std::string& s) {
  std::string t = util::trim(s);
  auto nl = t.find('\n');
  return nl == std::string::npos ? t : t.substr(0, nl);
}

// "cp311" of the base interpreter: venvs are per Python as well as per torch.
std::string python_tag(const std::string& python, std::string* error) {
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  auto r = util::run({python, "-c", "import sys; print('cp%d%d' % sys.version_info[:2])"}, o);
  if (!r.ok()) *error = "--python " + python + ": cannot run it (" + first_line(r.err.empty() ? r.describe(o.timeout) : r.err) + ")";
  if (!r.ok()) return "";
  // The reply names a directory in the cache: only cpNN passes ("../x" made venvs outside it).
  std::string tag = util::trim(r.out);
  bool ok = tag.size() > 2 && tag.size() < 12 && tag.rfind("cp", 0) == 0 &&
            tag.find_first_not_of("0123456789", 2) == std::string::npos;
  if (!ok) *error = "--python " + python + ": its version reply '" + util::printable(tag.substr(0, 60)) +
                    "' is not cpNN (is it a Python interpreter?)";
  return ok ? tag : "";
}

struct TorchVenv {
  std::string python, version, cuda, error;  // version without its local part
};

// torch's version and CUDA as the venv's Python imports it (import fails: not usable).
TorchVenv read_torch(const std::string& py) {
  TorchVenv t;
  util::RunOptions o;
  o.timeout = std::chrono::minutes(3);
  auto r = util::run({py, "-c", "import torch; print(torch.__version__); print(torch.version.cuda or '')"}, o);
  if (!r.ok()) { t.error = "import torch failed: " + first_line(r.err.empty() ? r.describe(o.timeout) : r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1)); return t; }
  std::string out = r.out;
  auto nl = out.find('\n');
  t.version = util::trim(out.substr(0, nl));
  t.version = t.version.substr(0, t.version.find('+'));
  t.cuda = nl == std::string::npos ? "" : util::trim(out.substr(nl + 1));
  t.python = py;
  return t;
}

// CACHE/matrix-venvs/torch-2.5-cp311, made once (python -m venv) and reused. pip install runs every
// time: a no-op in seconds when torch, setuptools and wheel are there, and it completes an install
// that was interrupted; a venv pip cannot use is removed (it is ours, in the cache) and made again.
TorchVenv torch_venv(const MatrixCliOptions& o, const package::TorchAsk& t, const std::string& cache,
                     const std::string& pytag) {
  std::string join_err;
  auto joined = util::join_components(cache, {"matrix-venvs", "torch-" + t.asked + "-" + pytag + (o.wheelhouse.empty() ? "" : "-wheelhouse")}, &join_err);
  if (!joined) return {"", "", "", join_err};  // never a venv made or removed outside CACHE/matrix-venvs
  const std::string dir = *joined;
  std::string py = dir + "/bin/python";
  util::RunOptions ro;
  ro.timeout = std::chrono::minutes(60);
  ro.max_output = 64 << 20;
  ro.cancel = &g_cancel;
  std::vector<std::string> pip{py, "-m", "pip", "install", "--disable-pip-version-check", "--quiet"};
  if (!o.wheelhouse.empty()) pip.insert(pip.end(), {"--no-index", "--find-links", o.wheelhouse});
  pip.insert(pip.end(), {"--", t.requirement, "setuptools", "wheel"});
  std::error_code ec;
  util::RunResult r;
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool fresh = !fs::exists(py, ec) || attempt > 0;
    if (fresh) {
      fs::remove_all(dir, ec);
      fs::create_directories(fs::path(dir).parent_path(), ec);
      r = util::run({o.python, "-m", "venv", "--", dir}, ro);
      if (!r.ok())
        return {"", "", "", "python -m venv " + dir + " failed: " + first_line(r.err) + " (Debian: apt-get install python3-venv)"};
      say("installing " + t.requirement + " into " + dir + (o.wheelhouse.empty() ? " from PyPI" : " from " + o.wheelhouse));
    }
    r = util::run(pip, ro);
    if (r.ok() || r.cancelled) break;
    if (fresh) break;  // a new venv that pip cannot fill: the requirement is the problem, not the venv
  }
  if (!r.ok()) return {"", "", "", "pip install " + t.requirement + " failed: " + first_line(r.err.empty() ? r.describe(ro.timeout) : r.err)};
  return read_torch(py);
}

// Copies dist/*.whl of a build into the cell's directory (each through a .part file, renamed).
std::string gather_wheels(const std::string& dist, const std::string& cell, package::MatrixCell& c) {
  std::error_code ec;
  fs::create_directories(cell, ec);
  if (ec) return "cannot create " + cell + ": " + ec.message();
  for (fs::directory_iterator it(dist, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".whl") continue;
    std::string name = it->path().filename().string(), to = cell + "/" + name;
    fs::copy_file(it->path(), to + ".part", fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::rename(to + ".part", to, ec);
    if (ec) return "cannot copy " + name + " into " + cell + ": " + ec.message();
    c.wheels.push_back(name);
    c.bytes += fs::file_size(to, ec);
  }
  return "";
}

package::MatrixCell build_cell(const MatrixCliOptions& o, const package::TorchAsk& t, const std::string& cache,
                               const std::string& pytag) {
  package::MatrixCell c;
  c.asked = t.asked;
  TorchVenv v = torch_venv(o, t, cache, pytag);
  if (!v.error.empty()) {
    c.result = "torch not installed: " + v.error;
    return c;
  }
  c.torch_version = v.version;
  bool cpu = o.cuda == "cpu" || v.cuda.empty();
  std::string label = package::cell_dir(v.version, cpu ? "" : v.cuda);
  std::string work = o.out + "/builds/" + label;
  std::vector<std::string> argv{self_exe(), "build", "--torch", v.python, "--out", work};
  if (cpu) argv.insert(argv.end(), {"--without", "cuda"});
  if (!o.wheelhouse.empty()) argv.insert(argv.end(), {"--wheelhouse", o.wheelhouse});
  for (const auto& [name, value] : o.req.given) {  // as the user wrote them (the table checked them)
    argv.push_back(name);
    if (!is_flag(name)) argv.push_back(value);
  }
  argv.insert(argv.end(), {"--", o.requirement});
  say("building " + o.requirement + " against torch " + v.version + (cpu ? " (CPU)" : " (CUDA " + v.cuda + ")"));
  util::RunOptions ro;
  ro.timeout = std::chrono::hours(6);
  ro.max_output = 256 << 20;
  ro.cancel = &g_cancel;
  ro.kill_grace = std::chrono::seconds(30);  // a build stops its compilers and leaves a resumable state
  auto r = util::run(argv, ro);
  if (r.cancelled) {
    c.result = "interrupted (the build in " + work + " was stopped)";
    return c;
  }
  c.log = o.out + "/builds/" + label + ".log";
  util::write_file_atomic(c.log, r.out + r.err);
  auto text = util::read_file(work + "/last/run.json");
  json run = text ? json::parse(*text, nullptr, false) : json();
  if (run.is_object() && run.contains("plan") && run["plan"].is_object()) {
    c.cuda = run["plan"].value("cuda", "");
    c.arches = c.cuda.empty() ? "" : run["plan"].value("arch_list", "");
  } else if (!cpu) {
    c.cuda = v.cuda;
  }
  if (r.exit_code != 0) {
    std::string failed;
    if (run.is_object() && run.contains("steps"))
      for (const auto& s : run["steps"])
        if (s.value("status", "") == "failed") failed = s.value("name", "");
    c.result = "failed" + (failed.empty() ? "" : " at " + failed) + " (exit " + std::to_string(r.exit_code) + ", " + c.log + ")";
    return c;
  }
  std::string err = gather_wheels(work + "/dist", o.out + "/" + package::cell_dir(v.version, c.cuda), c);
  int passed = 0;
  if (run.is_object() && run.contains("checks") && run["checks"].is_array())
    for (const auto& k : run["checks"]) passed += k.is_object() && k.value("outcome", "") == "pass";
  c.ok = err.empty() && !c.wheels.empty();
  c.result = !err.empty() ? err : c.wheels.empty() ? "built, but no wheel in " + work + "/dist"
                                                   : "verified: " + std::to_string(passed) + " checks passed";
  return c;
}

int run_matrix(const GlobalOptions& g, MatrixCliOptions& o) {
  (void)g;
  std::string err;
  o.req.requirement = o.requirement;
  if (plan::is_extension_requirement(o.requirement))
    if (std::string e = apply_request_options(o.req, extension_request); !e.empty()) return bad(e);
  auto src = plan::parse_extension_source(o.requirement, &err);
  if (!src) return bad(err);
  if (!plan::is_extension_requirement(o.requirement)) return bad(o.requirement + ": matrix builds an extension package against each torch (NAME==VERSION, a directory or URL@REF)");
  if (o.torch.empty()) return bad("give the torch releases to build against: --torch-versions 2.4,2.5");
  auto torches = package::parse_torch_list(o.torch, &err);
  if (!torches) return bad(err);
  if (o.cuda != "auto" && o.cuda != "cpu") return bad("--cuda " + o.cuda + ": write auto (each torch's own CUDA) or cpu");
  if (!o.wheelhouse.empty() && !fs::is_directory(o.wheelhouse))
    return bad("--wheelhouse " + o.wheelhouse + ": not a directory (give the directory of torch's wheels)");
  std::string cache = util::cache_dir(o.req.cache_dir);
  if (cache.empty()) return bad("no cache directory for the torch venvs: give --cache-dir, or set HOME or TORCHSMITH_CACHE");
  std::string pytag = python_tag(o.python, &err);
  if (pytag.empty()) return bad(err);
  MatrixCliOptions abs = o;
  abs.out = fs::absolute(o.out).lexically_normal().string();
  if (!o.wheelhouse.empty()) abs.wheelhouse = fs::absolute(o.wheelhouse).lexically_normal().string();
  if (src->kind == plan::ExtensionSource::Kind::dir) abs.requirement = fs::absolute(o.requirement).lexically_normal().string();
  std::error_code ec;
  fs::create_directories(abs.out, ec);
  if (ec) return bad("--out " + o.out + ": cannot create it (" + ec.message() + ")");

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);

  std::vector<package::MatrixCell> cells;
  for (const auto& t : *torches) {
    if (g_cancel.load()) break;
    cells.push_back(build_cell(abs, t, cache, pytag));  // one failing torch never stops the others
    say("torch " + t.asked + ": " + cells.back().result);
  }
  if (g_cancel.load()) {  // the rows not built are not rows: no index that looks complete
    say("interrupted: nothing more is built; the torch venvs made so far stay in " + cache + "/matrix-venvs/");
    return 130;
  }
  std::string name = src->name.empty() ? o.requirement : src->name;
  std::string e1 = util::write_file_atomic(abs.out + "/index.html", package::render_matrix_html(name, cells));
  std::string e2 = util::write_file_atomic(abs.out + "/index.json", package::matrix_json(name, cells).dump(2) + "\n");
  if (!e1.empty() || !e2.empty()) { std::fprintf(stderr, "torchsmith matrix: %s\n", (e1 + e2).c_str()); return 1; }
  bool all = true;
  for (const auto& c : cells) all &= c.ok;
  if (o.json) {
    std::printf("%s\n", package::matrix_json(name, cells).dump(2).c_str());
  } else {
    for (const auto& c : cells)
      std::printf("%-8s %-22s %s\n", c.ok ? "ok" : "FAILED",
                  c.torch_version.empty() ? ("torch " + c.asked).c_str() : package::cell_dir(c.torch_version, c.cuda).c_str(),
                  c.result.c_str());
    std::printf("index: %s/index.html\n", abs.out.c_str());
  }
  return all ? 0 : 1;
}

}  // namespace

void register_matrix(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [c, o] = add_command<MatrixCliOptions>(
      app, exit_code, [&g](MatrixCliOptions& x) { return run_matrix(g, x); },
      "matrix",
      "Build one extension package against several torch releases: each torch installed from PyPI\n"
      "(or --wheelhouse) into its own cached venv, each build a normal `torchsmith build`, the wheels\n"
      "gathered into OUT/torch-<version>+<cpu|cuXY>/ (pip install --find-links THAT_DIR NAME) with\n"
      "OUT/index.html and OUT/index.json. A failing torch does not stop the others.");
  exit_codes(c, "0 all built and verified, 1 any failed, 2 bad input, 130 interrupted");
  c->add_option("requirement", o->requirement, "The package: NAME==VERSION, a directory or URL@REF.")->type_name("SPEC");
  // --torch names an interpreter in plan and build: here the releases have a name of their own.
  c->add_option("--torch-versions", o->torch, "torch releases, comma-separated: 2.5 (the newest 2.5.x) or 2.5.1.")
      ->type_name("LIST");
  c->add_option("--torch", o->torch, "Old spelling of --torch-versions.")->type_name("LIST")->group("");
  c->add_option("--cuda", o->cuda, "auto (default): each torch's own CUDA (needs a toolkit); cpu: CPU builds.")
      ->type_name("auto|cpu");
  c->add_option("-o,--out", o->out, "The index directory (default ./torchsmith-matrix); builds under OUT/builds/.")
      ->type_name("DIR");
  c->add_option("--wheelhouse", o->wheelhouse,
                "torch and the packages' dependencies from this directory only (offline), not PyPI.")
      ->type_name("DIR");
  c->add_option("--python", o->python, "The Python the venvs are made from (default python3).")->type_name("PATH");
  // --cache-dir (the venvs live in CACHE/matrix-venvs/), --index, --source, --jobs...: each build's own.
  add_request_options(c, o->req, matrix_command);
  c->add_flag("--json", o->json, "Print index.json instead of the table.");
}

}  // namespace ts::cli

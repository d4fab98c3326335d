// torchsmith verify PATH... | --python PY [WHEEL] [--plan LOCK] [--arch LIST] [--gpu] [--json]: prove
// what a build made is what was asked: each ELF (alone, under a directory, or inside a wheel) reads,
// every NEEDED resolves, its GPU code covers the arch list; with --python, torch (or the wheel,
// installed where nothing else sees it) imports and matches the plan, and with --gpu runs on the GPUs.
// Exit 0: every check passed (notes, warnings and skips allowed); 1: a check failed; 2: bad input.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/verdict_word.h"
#include "cli/kb_access.h"
#include "cli/option_table.h"
#include "plan/lock.h"
#include "verify/cuda_runtime.h"
#include "plan/plan.h"
#include "report/style.h"
#include "util/cache_dir.h"
#include "util/fs.h"
#include "util/process.h"
#include "verify/python_check.h"
#include "verify/python_compare.h"
#include "verify/verify.h"

namespace ts::cli {
namespace {

struct VerifyCliOptions {
  std::vector<std::string> paths;
  std::string plan;
  std::string arch;
  std::vector<std::string> ld_library_path;
  std::vector<std::string> preload;
  bool json = false;
  std::string python;
  bool gpu = false;
  int timeout_s = 300;
  std::string wheelhouse;
  bool no_runtime_deps = false;
  std::string report;  // also write the --json document here (the build runner reads it)
  std::string early_check;  // the build runner's checker, started with its build step (early_check.h)
};

int bad_input(const std::string& msg) {
  std::fprintf(stderr, "torchsmith verify: %s\n", msg.c_str());
  return 2;
}

std::string colored(const report::Style& s, verify::Outcome o) {
  const char* n = verify::outcome_name(o);
  switch (o) {
    case verify::Outcome::pass: return s.green(n);
    case verify::Outcome::note: return s.cyan(n);
    case verify::Outcome::warn: return s.yellow(n);
    case verify::Outcome::fail: return s.red(n);
  }
  return n;
}

void print_table(const verify::VerifyReport& rep, const report::Style& s) {
  std::string last;
  int fails = 0, warns = 0;
  for (const auto& v : rep.verdicts) {
    if (v.file != last) {
      std::printf("%s\n", s.bold(v.file.empty() ? "(all files)" : v.file).c_str());
      last = v.file;
    }
    // Pad before colouring so the columns line up whatever the escape codes.
    std::string check = v.check;
    check.resize(std::max<std::size_t>(check.size(), 16), ' ');
    std::string outcome = verify::outcome_name(v.outcome);
    std::string pad(outcome.size() < 5 ? 5 - outcome.size() : 0, ' ');
    std::printf("  %s %s%s %s\n", check.c_str(), colored(s, v.outcome).c_str(), pad.c_str(), v.detail.c_str());
    fails += v.outcome == verify::Outcome::fail;
    warns += v.outcome == verify::Outcome::warn;
  }
  std::printf("%zu file%s, %d failed check%s, %d warning%s\n", rep.files.size(), rep.files.size() == 1 ? "" : "s",
              fails, fails == 1 ? "" : "s", warns, warns == 1 ? "" : "s");
}

nlohmann::json to_json(const verify::VerifyReport& rep) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : rep.files) {
    nlohmann::json j = {{"path", f.path}, {"elf", f.elf}, {"kind", f.kind}, {"soname", f.soname},
                        {"needed", f.needed}, {"rpath", f.rpath}, {"runpath", f.runpath},
                        {"versions", f.versions}};
    if (f.cuda) {
      nlohmann::json sass = nlohmann::json::array(), ptx = nlohmann::json::array();
      for (const auto& a : f.cuda->sass) sass.push_back(a.sm());
      for (const auto& a : f.cuda->ptx) ptx.push_back(a.compute());
      j["cuda"] = {{"sass", sass}, {"ptx", ptx}, {"entries", f.cuda->entries},
                   {"compressed", f.cuda->compressed}, {"sections", f.cuda->sections},
                   {"releases", f.cuda->releases}, {"unversioned", f.cuda->unversioned}};
    }
    files.push_back(std::move(j));
  }
  return {{"ok", !verify::any_failed(rep.verdicts)}, {"files", files}, {"verdicts", rep.verdicts}};
}

// "ok", "FAIL", "skip", "note", "warn": the first column of the --python table.
std::string label(const verify::Verdict& v) {
  if (verify::is_skip(v)) return std::string(verdict_word(VerdictWord::skip));
  return std::string(verdict_word(verify::outcome_name(v.outcome)));
}

std::string colored_label(const report::Style& s, const verify::Verdict& v) {
  std::string l = label(v);
  std::string padded = l + std::string(l.size() < 5 ? 5 - l.size() : 0, ' ');
  if (verify::is_skip(v)) return s.yellow(padded);
  switch (v.outcome) {
    case verify::Outcome::pass: return s.green(padded);
    case verify::Outcome::fail: return s.red(padded);
    case verify::Outcome::warn: return s.yellow(padded);
    case verify::Outcome::note: return s.cyan(padded);
  }
  return padded;
}

// One line a check: "ok    import torch      torch 2.11.0 from ...". ELF checks name their file.
void print_lines(const std::vector<verify::Verdict>& vs, const report::Style& s) {
  int fails = 0, skips = 0;
  for (const auto& v : vs) {
    std::string check = v.check;
    check.resize(std::max<std::size_t>(check.size(), 16), ' ');
    std::string detail = verify::is_skip(v) ? v.detail.substr(9) : v.detail;  // the label says "skip"
    if (!v.file.empty()) detail = v.file + ": " + detail;
    std::printf("%s %s %s\n", colored_label(s, v).c_str(), check.c_str(), detail.c_str());
    fails += v.outcome == verify::Outcome::fail;
    skips += verify::is_skip(v);
  }
  std::printf("%zu check%s, %d failed, %d skipped\n", vs.size(), vs.size() == 1 ? "" : "s", fails, skips);
}

int run_python(const VerifyCliOptions& o, const GlobalOptions& g, const std::optional<plan::Plan>& plan,
               verify::VerifyOptions vo) {
  if (o.paths.size() > 1) return bad_input("--python installs one wheel; give one WHEEL (or none to check PY's own torch)");
  std::string wheel = o.paths.empty() ? "" : o.paths.front();
  if (!wheel.empty() && (wheel.size() < 4 || wheel.compare(wheel.size() - 4, 4, ".whl") != 0))
    return bad_input(wheel + ": --python checks a wheel (*.whl) or, without one, the torch PY has installed");
  if (!wheel.empty() && !util::read_file_prefix(wheel, 4))
    return bad_input(wheel + ": cannot read");
  std::string py = o.python;
  if (py.find('/') == std::string::npos) {
    const char* path = std::getenv("PATH");
    py = util::find_program(py, util::split_path(path ? path : ""));
    if (py.empty()) return bad_input("--python " + o.python + ": not found on PATH; give its path");
  } else if (util::find_program(py, {}).empty()) {
    return bad_input("--python " + py + ": no such executable");
  }
  if (!o.wheelhouse.empty() && !std::filesystem::is_directory(o.wheelhouse))
    return bad_input("--wheelhouse " + o.wheelhouse + ": not a directory (give the directory of wheels and sdists "
                     "the dependencies come from)");

  verify::PythonCheckOptions po;
  po.python = py, po.wheel = wheel, po.plan = plan, po.gpu = o.gpu;
  po.timeout = std::chrono::seconds(o.timeout_s);
  po.runtime_deps = !o.no_runtime_deps, po.wheelhouse = o.wheelhouse;
  po.early_dir = o.early_check;
  if (auto c = util::cache_dir(); !c.empty()) po.pip_cache = c + "/pip";
  if (po.runtime_deps && !wheel.empty()) {  // the NumPy range of the torch under test, kept while installing
    po.kb = load_kb(g);
    if (!po.kb) return 2;
  }
  verify::PythonCheckReport pr = verify::verify_python_install(po);
  verify::VerifyReport rep;
  if (!wheel.empty()) {
    // The wheel's libraries resolve as they do at import: after torch/lib of the torch that was imported.
    const auto& imp = pr.steps.contains("import torch") ? pr.steps["import torch"] : nlohmann::json();
    if (vo.resolve.preload.empty() && imp.is_object() && imp.contains("value") && imp["value"].contains("file") &&
        imp["value"]["file"].is_string()) {
      std::string f = imp["value"]["file"], err;
      if (auto pre = verify::collect_files({f.substr(0, f.rfind('/')) + "/lib"}, &err)) vo.resolve.preload = *pre;
    }
    rep = verify::verify_files({wheel}, vo);
    // The CUDA runtime the wheel's libraries need against the torch they were imported with.
    std::string torch_cuda = imp.is_object() && imp.contains("value") && imp["value"].contains("cuda") &&
                                     imp["value"]["cuda"].is_string()
                                 ? imp["value"]["cuda"].get<std::string>()
                                 : "";
    auto cr = verify::check_cuda_runtime(rep, torch_cuda);
    rep.verdicts.insert(rep.verdicts.end(), cr.begin(), cr.end());
  }
  std::vector<verify::Verdict> all = rep.verdicts;
  all.insert(all.end(), pr.verdicts.begin(), pr.verdicts.end());
  nlohmann::json j = to_json(rep);
  nlohmann::json vs = nlohmann::json::array();
  for (const auto& v : all) {
    nlohmann::json x = v;
    if (verify::is_skip(v)) x["outcome"] = "skip";
    vs.push_back(std::move(x));
  }
  j["ok"] = !verify::any_failed(all);
  j["verdicts"] = vs;
  j["python"] = {{"interpreter", py}, {"wheel", wheel}, {"steps", pr.steps},
                 {"requires_dist", pr.requires_dist}, {"modules", pr.modules}};
  if (!o.report.empty())
    if (auto e = util::write_file_atomic(o.report, j.dump(2) + "\n"); !e.empty())
      std::fprintf(stderr, "torchsmith verify: --report: %s\n", e.c_str());
  if (o.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    print_lines(all, report::style_for(STDOUT_FILENO, g.no_color));
  }
  return verify::any_failed(all) ? 1 : 0;
}

int run(const VerifyCliOptions& o, const GlobalOptions& g) {
  if (!o.plan.empty() && !o.arch.empty()) return bad_input("--plan and --arch both give the arch list; give one");
  if (o.python.empty() && o.paths.empty()) return bad_input("nothing to verify: give PATH..., or --python PY [WHEEL]");
  if (o.python.empty() && o.gpu) return bad_input("--gpu runs torch: give --python PY");
  verify::VerifyOptions vo;
  std::string err;
  std::optional<plan::Plan> plan;
  if (!o.plan.empty()) {
    plan = plan::read_lock(o.plan, &err);
    if (!plan) return bad_input(err);
    // An extension's arch list is its own code's; torch's libraries are not judged by it.
    if (!plan->arch_list.empty()) vo.arches = plan->arch_list;  // a CPU plan judges no GPU code
    // Target-only: the plan's arches are what was built, so code for another generation is a failure.
    vo.only_asked_arches = true;
    vo.no_device_code = plan->no_device_code;
  } else if (!o.arch.empty()) {
    auto list = ArchList::parse(o.arch, nullptr, &err);
    if (!list) return bad_input("arch list '" + o.arch + "': " + err);
    vo.arches = *list;
  }
  for (const auto& p : o.ld_library_path)
    for (auto& d : util::split_path(p)) vo.resolve.ld_library_path.push_back(d);
  // A directory given to --preload stands for every library in it (torch/lib, as `import torch` loads).
  if (!o.preload.empty()) {
    auto pre = verify::collect_files(o.preload, &err);
    if (!pre) return bad_input("--preload: " + err);
    vo.resolve.preload = *pre;
  }
  if (!o.python.empty()) return run_python(o, g, plan, vo);

  auto files = verify::collect_files(o.paths, &err);
  if (!files) return bad_input(err);
  if (files->empty()) return bad_input("no ELF files under " + o.paths.front());

  verify::VerifyReport rep = verify::verify_files(*files, vo);
  if (!o.report.empty())
    if (auto e = util::write_file_atomic(o.report, to_json(rep).dump(2) + "\n"); !e.empty())
      std::fprintf(stderr, "torchsmith verify: --report: %s\n", e.c_str());
  if (o.json) {
    std::cout << to_json(rep).dump(2) << "\n";
  } else {
    print_table(rep, report::style_for(STDOUT_FILENO, g.no_color));
  }
  return verify::any_failed(rep.verdicts) ? 1 : 0;
}

}  // namespace

void register_verify(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [cmd, o] = add_command<VerifyCliOptions>(
      app, exit_code, [&g](VerifyCliOptions& x) { return run(x, g); },
      "verify", "Check built libraries (ELF, NEEDED, symbol versions, CUDA arches) and, with --python, that torch imports and runs.");
  exit_codes(cmd, "0 every check passed (notes and skips included), 1 a check failed, 2 bad input");
  cmd->add_option("paths", o->paths,
                  "ELF files, wheels, or directories to search for ELF files; with --python, one wheel to install and import")
      ->type_name("PATH...");
  cmd->add_option("--python", o->python,
                  "Import torch in this interpreter (or the wheel, installed into a fresh target) and compare it with the plan")
      ->type_name("PY");
  cmd->add_flag("--gpu", o->gpu, "With --python: also run on the GPUs (device count, fp16 randn, matmul, each cuda:N)");
  add_number(cmd, "--timeout", o->timeout_s, 1, 604800, "With --python: seconds each child process may run (default 300)")
      ->type_name("SECONDS");
  cmd->add_option("--plan", o->plan, "Lock file: the arch list the GPU code must cover; with --python, what torch must match (version, CUDA, cuDNN, arches, settings) and the extension to import")->type_name("LOCK");
  cmd->add_option("--arch", o->arch, "Arch list the GPU code must cover (\"8.0;9.0+PTX\")")->type_name("LIST");
  cmd->add_option("--ld-library-path", o->ld_library_path,
                  "Directories searched as LD_LIBRARY_PATH would be (':'-separated, repeatable); "
                  "this process's LD_LIBRARY_PATH is not used")
      ->type_name("DIRS");
  cmd->add_option("--preload", o->preload,
                  "Library, or directory of libraries, already loaded when these are (as `import torch` loads "
                  "torch/lib first); repeatable")
      ->type_name("LIB|DIR");
  cmd->add_flag("--json", o->json, "Machine-readable output");
  cmd->add_option("--report", o->report, "Also write the --json document to this file")->type_name("FILE");
  cmd->add_option("--wheelhouse", o->wheelhouse,
                  "With --python: install the wheel's runtime dependencies (Requires-Dist) from this directory only, "
                  "not from the package index")
      ->type_name("DIR");
  cmd->add_flag("--no-runtime-deps", o->no_runtime_deps,
                "With --python: do not install the wheel's runtime dependencies (imports that need them warn)");
  // Internal (the build runner passes it): not in --help.
  cmd->add_option("--early-check", o->early_check,
                  "With --python: the directory of a checker the build run started with its build step")
      ->type_name("DIR")
      ->group("");
}

}  // namespace ts::cli

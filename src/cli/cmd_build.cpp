// torchsmith build: plan (or read a lock), then run it: fetch, fix, clean, build, package, verify,
// report, within the machine's memory, resumable.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/kb_access.h"
#include "cli/knowledge.h"
#include "cli/plan_request.h"
#include "core/arch_list.h"
#include "plan/lock.h"
#include "plan/lock_check.h"
#include "plan/render.h"
#include "run/pipeline.h"
#include "run/reports.h"
#include "spec/raw_spec.h"
#include "triage/specialize.h"
#include "util/fs.h"
#include "util/redact_json.h"

namespace ts::cli {

namespace {

std::atomic<bool> g_cancel{false};

void on_signal(int) { g_cancel.store(true); }

struct BuildCliOptions {
  Request req;
  std::string lock_file, out = "torchsmith-build";
  bool resume = false, wait = false, auto_fix = true, no_auto_fix = false, allow_arch_shrink = false;
  bool no_governor = false, json = false, no_port = false, trust_lock = false;
};

int bad(const std::string& msg) {
  std::fprintf(stderr, "torchsmith build: %s\n", msg.c_str());
  return 2;
}

std::string self_exe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "torchsmith" : p.string();
}

// This process's argv as typed (the report's reproduce line, the summary's --resume line).
std::vector<std::string> command_line() {
  std::vector<std::string> argv;
  if (auto text = util::read_file("/proc/self/cmdline"))
    for (std::size_t at = 0; at < text->size();) {
      std::size_t end = text->find('\0', at);
      if (end == std::string::npos) end = text->size();
      argv.push_back(text->substr(at, end - at));
      at = end + 1;
    }
  return argv;
}

int run_build_cmd(const GlobalOptions& g, BuildCliOptions& o) {
  if (!o.lock_file.empty() && !o.req.requirement.empty())
    return bad("give a requirement or --lock FILE, not both");
  // Options are checked before any work (planning, copying the tree).
  RequestKind kind = o.lock_file.empty() ? request_kind(o.req) : locked_request;
  if (std::string err = apply_request_options(o.req, kind); !err.empty()) return bad(err);
  plan::Plan plan;
  ArchList native;  // the GPUs here (planned here only), for the arch-shrink remedy
  std::optional<HostFacts> facts;  // this machine, when the plan was made here
  if (!o.lock_file.empty()) {
    std::string err;
    plan::LockSeal seal = plan::LockSeal::unsealed;
    auto p = plan::read_lock(o.lock_file, &err, &seal);
    if (!p) return bad("--lock " + err);
    plan = *p;
    // A lock is data: it runs what a plan could have made (lock_check.h) unless the user vouches for it.
    if (!o.trust_lock) {
      if (seal == plan::LockSeal::edited)
        return bad("--lock " + o.lock_file + ": changed after torchsmith wrote it (its digest no longer matches); "
                   "write it again with `torchsmith plan SPEC -o FILE`, or pass --trust-lock to build it as edited");
      auto problems = plan::lock_problems(plan);
      if (!problems.empty()) {
        for (const auto& pr : problems) std::fprintf(stderr, "torchsmith build: --lock %s: %s\n", o.lock_file.c_str(), pr.c_str());
        return bad("--lock " + o.lock_file + ": " + std::to_string(problems.size()) +
                   " thing(s) above no plan makes; nothing was run. Write the lock with `torchsmith plan SPEC -o FILE`, "
                   "or pass --trust-lock to run a lock you wrote yourself as it is");
      }
      if (seal == plan::LockSeal::unsealed)
        std::fprintf(stderr, "torchsmith build: --lock %s carries no digest (written by hand or by an older torchsmith); "
                     "its steps and environment were checked\n", o.lock_file.c_str());
    }
  } else {
    PlannedRequest pr = plan_request(g, o.req);
    if (!pr.error.empty()) return bad(pr.error);
    if (!pr.result.ok()) {
      std::cout << plan::render_summary(pr.result);
      return 3;
    }
    plan = pr.result.plan;
    facts = pr.facts;
    if (g.verbose) std::cerr << util::redact_text(plan::render_summary(pr.result));
    // What the source scan found missing from this build (a sibling extension the package imports, an
    // include directory from an unset variable): said before anything compiles, not only in --explain.
    else if (!g.quiet)
      for (const auto& d : plan.decisions)
        if (d.warning && d.topic == "extension")
          std::fprintf(stderr, "torchsmith: plan warning: %s: %s\n", util::redact_text(d.value).c_str(),
                       util::redact_text(d.reason).c_str());
    native = ArchList(native_gpu_arches(pr.facts));
  }

  // --cache-dir is the cache of the whole run: its own steps (the sdist fetch, verify's pip cache) are
  // torchsmith commands that find it through TORCHSMITH_CACHE (util/cache_dir.h), as this process does.
  if (!o.req.cache_dir.empty())
    setenv("TORCHSMITH_CACHE", std::filesystem::absolute(o.req.cache_dir).lexically_normal().c_str(), 1);
  run::BuildOptions bo;
  bo.out_dir = o.out;
  bo.self_exe = self_exe();
  // Steps run in other directories: overlays must not depend on where torchsmith was started.
  for (const auto& d : g.kb_dirs) bo.kb_dirs.push_back(std::filesystem::absolute(d).lexically_normal().string());
  // Triage reads the command's signatures; with errors the run says "triage off" and why.
  const auto& sig = g.knowledge().signatures();
  bo.signatures = &sig.value;
  bo.signature_errors = sig.errors;
  bo.resume = o.resume;
  bo.wait_for_lock = o.wait;
  bo.retry.auto_fix = !o.no_auto_fix;
  bo.retry.allow_arch_shrink = o.allow_arch_shrink;
  bo.retry.max_retries = o.req.max_retries;
  // Source ports after a failed build of a fetched tree; a catalogue with errors is not used.
  const auto& ports = g.knowledge().get(source::kPortTable);
  for (const auto& e : ports.errors) std::fprintf(stderr, "torchsmith build: kb: %s (source ports off)\n", e.c_str());
  if (!o.no_port && ports.errors.empty()) bo.ports = &ports.value;
  // build.header-source's folders (build.toml); a table with errors brings none.
  const auto& build_kb = g.knowledge().get(plan::kBuildTable);
  if (build_kb.errors.empty()) bo.build_kb = &build_kb.value;
  bo.stop_on_fatal = o.req.keep_going_after == 0;
  bo.compile_cache = o.req.compile_cache;
  bo.governor = !o.no_governor;
  bo.mem_budget = plan.spec.mem_budget_bytes;
  bo.native_arches = native;
  // A remedy that needs this machine (an installed host compiler that fits) is chosen from its facts.
  const kb::Kb* known = facts ? load_kb(g) : nullptr;
  if (known)
    bo.sharpen = [facts, known, budget = bo.mem_budget](triage::Diagnosis& d) {
      triage::specialize(d, &*facts, known, budget);
    };
  bo.what = !plan.import_name.empty() ? plan.spec.package + " against torch " + plan.torch_version
             : plan.spec.package + (plan.torch_version.empty() ? "" : "==" + plan.torch_version);
  bo.torchsmith_version = TS_VERSION;
  bo.command = command_line();
  bo.say = [quiet = g.quiet](const std::string& s) {
    if (!quiet) std::fprintf(stderr, "torchsmith: %s\n", util::redact_text(s).c_str());
  };
  if (g.quiet) bo.status_fd = -1;  // no live line either
  bo.cancel = &g_cancel;

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);

  run::BuildOutcome r = run::run_build(plan, bo);
  if (!r.error.empty()) {
    std::fprintf(stderr, "torchsmith build: %s\n", util::redact_text(r.error).c_str());
    return r.exit_code;
  }
  if (o.json) {
    nlohmann::json j = r.record;
    util::redact_json(j);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << util::redact_text(run::summary_text(r, !g.no_color && isatty(1) && !std::getenv("NO_COLOR")));
  }
  return r.exit_code;
}

}  // namespace

void register_build(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [c, o] = add_command<BuildCliOptions>(
      app, exit_code, [&g](BuildCliOptions& x) { return run_build_cmd(g, x); },
      "build",
      "Build from one plan: fetch, fix, clean a stale tree, configure and compile (within the machine's\n"
      "memory, with live progress and diagnosis), package, verify, report. Re-run with --resume after\n"
      "Ctrl-C or a failure: finished steps whose inputs are unchanged are skipped and the compile\n"
      "continues where it stopped.");
  exit_codes(c, "0 built and verified, 1 failed (the diagnosis says why), 2 bad input, 3 conflicts at plan time, "
                "130 interrupted (--resume continues)");
  c->add_option("requirement", o->req.requirement, "What to build: torch==2.4.1.")->type_name("SPEC");
  c->add_option("--lock", o->lock_file, "Build exactly this plan (`torchsmith plan SPEC -o FILE` wrote it).")
      ->type_name("FILE");
  add_request_options(c, o->req, build_command);
  c->add_option("-o,--out", o->out,
                "Run directory: journal, dist/ (the packages), runs/<id>/ (logs, run.json, report.html, "
                "trace.json), src/ when fetched. Default ./torchsmith-build.")
      ->type_name("DIR");
  c->add_flag("--trust-lock", o->trust_lock,
              "Run the --lock's steps and environment as written, even those no plan makes (a lock you wrote or "
              "edited yourself); without it such a lock is refused before anything runs.");
  c->add_flag("--resume", o->resume, "Skip the steps an earlier run in --out finished with the same inputs.");
  c->add_flag("--wait", o->wait, "If another build holds this tree, wait for it instead of failing.");
  c->add_flag("--no-auto-fix", o->no_auto_fix,
              "Never retry with a remedy (fewer jobs after an OOM kill, CMAKE_POLICY_VERSION_MINIMUM, a clean "
              "build directory): stop at the first failure with its diagnosis.");
  c->add_flag("--no-port", o->no_port,
              "Never port the source: by default a failed build of the build's own copy (a git URL@REF, NAME==VERSION, "
              "or an extension's directory copied to OUT/src) is retried once with the rewrites of removed torch APIs that match it (data/kb/ports.toml), reverted "
              "byte for byte if it still fails.");
  c->add_flag("--allow-arch-shrink", o->allow_arch_shrink,
              "Let auto-fix shorten the arch list to the GPUs here when the compiler fails on an old arch.");
  c->add_flag("--no-governor", o->no_governor,
              "Do not pause compile jobs when memory runs short (the job count still comes from the plan).");
  c->add_flag("--json", o->json, "Print run.json instead of the summary.");
}

}  // namespace ts::cli

#include "run/pipeline.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "build/eta.h"
#include "build/governor.h"
#include "build/ninja_log.h"
#include "build/ninja_log_merge.h"
#include "build/memory.h"
#include "build/runner.h"
#include "plan/lock.h"
#include "plan/render.h"
#include "report/run_files.h"
#include "report/run_text.h"
#include "run/compile_cache.h"
#include "run/journal.h"
#include "run/leftover.h"
#include "run/mirror.h"
#include "run/pyshim.h"
#include "run/run_paths.h"
#include "run/scale_setup.h"
#include "scale/distcc_log.h"
#include "run/stale.h"
#include "run/tree_lock.h"
#include "source/git.h"
#include "source/hash.h"
#include "triage/engine.h"
#include "triage/render.h"
#include "util/fs.h"
#include "util/process.h"
#include "util/utc_time.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {

std::string utc_now(const char* fmt = util::kIso8601) { return util::utc_time(fmt); }

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
  return s;
}

double cpu_of(int who) {
  rusage u{};
  getrusage(who, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

std::string two_digits(std::size_t i) { return (i < 10 ? "0" : "") + std::to_string(i); }

// Steps that compile: they run under the governor and their output goes through live triage.
bool compiles(const std::string& name) { return name == "build" || name == "configure"; }

// The variables a build needs that are about the user, not the build (git and pip want a home).
constexpr const char* kInherited[] = {"HOME", "TMPDIR", "USER", "LOGNAME"};

// verify's --report document: its verdicts, or null when it wrote none (it crashed, or an old lock).
nlohmann::json read_checks(const std::string& path) {
  auto t = util::read_file(path);
  if (!t) return nullptr;
  auto j = nlohmann::json::parse(*t, nullptr, false);
  if (!j.is_object() || !j.contains("verdicts") || !j["verdicts"].is_array()) return nullptr;
  return j["verdicts"];
}

// "2 checks failed: import simple_knn (No module named ...); dependency yapf (not installable: ...)".
std::string failed_checks(const nlohmann::json& checks) {
  if (!checks.is_array()) return "";
  std::string list;
  int n = 0;
  for (const auto& c : checks) {
    if (!c.is_object() || c.value("outcome", "") != "fail") continue;
    ++n;
    std::string d = c.value("detail", "");
    if (d.size() > 160) d = d.substr(0, 157) + "...";
    std::string f = c.value("file", "");
    list += (list.empty() ? "" : "; ") + (f.empty() ? "" : f + ": ") + c.value("check", "?") + " (" + d + ")";
  }
  if (n == 0) return "";
  return std::to_string(n) + (n == 1 ? " check failed: " : " checks failed: ") + list;
}

}  // namespace

std::string source_state(const std::string& src, bool with_fixes) {
  std::string state;
  source::GitOptions git;
  git.timeout = std::chrono::milliseconds(10000);
  if (auto head = source::own_head(src, git); !head.empty()) state += "head " + head + "\n";
  if (with_fixes)
    if (auto j = util::read_file(src + "/.torchsmith/journal.json")) state += "fixes " + source::sha256_hex(*j) + "\n";
  return state;
}

BuildOutcome run_build(const plan::Plan& plan, const BuildOptions& o) {
  BuildOutcome out;
  const double cpu_at_start = cpu_of(RUSAGE_SELF);  // planning and probing are not the run's cost
  auto say = [&](const std::string& s) { if (o.say) o.say(s); };
  auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  std::error_code ec;
  std::string out_dir = fs::absolute(o.out_dir, ec).lexically_normal().string();
  if (!out_dir.empty() && out_dir.back() == '/') out_dir.pop_back();
  std::string run_id = utc_now(util::kCompact) + "-" + std::to_string(getpid());
  std::string src = plan.source_dir.empty() ? "" : fs::absolute(plan.source_dir, ec).lexically_normal().string();
  if (!src.empty() && src.back() == '/') src.pop_back();
  // An extension's own directory stays as the user left it: pip would write build/, dist/ and
  // *.egg-info into it. Its copy in OUT/src is built instead (a torch tree is built in place).
  std::string copy_from;
  if (!plan.import_name.empty() && !src.empty()) {
    copy_from = src;
    src.clear();
  }
  RunPaths paths = RunPaths::make(out_dir, src, run_id);

  // Everything that can be refused is checked before anything is written or copied.
  if (!copy_from.empty()) {
    fs::path from = fs::weakly_canonical(copy_from, ec), to = fs::weakly_canonical(paths.out, ec);
    if (from == to) {
      out.error = "--out " + paths.out + " is the source tree itself; give another --out (the default is "
                  "./torchsmith-build)";
      out.exit_code = 2;
      return out;
    }
  }
  // The environment every external step gets: the plan's, plus what this run adds.
  std::map<std::string, std::string> env = plan.env;
  for (const char* k : kInherited)
    if (!env.count(k))
      if (const char* v = std::getenv(k)) env[k] = v;
  env["TORCHSMITH_RUN"] = run_id;  // finds this run's orphans after a kill -9 (leftover.h)
  std::string cerr;
  CompileCache cache = find_compile_cache(o.compile_cache, env.count("PATH") ? env["PATH"] : "", &cerr);
  if (!cerr.empty()) { out.error = cerr; out.exit_code = 2; return out; }

  for (const auto& d : {paths.out, paths.dist}) {
    fs::create_directories(d, ec);
    if (ec) { out.error = d + ": " + ec.message(); out.exit_code = 2; return out; }
  }
  if (auto e = write_out_marker(paths.out); !e.empty()) { out.error = e; out.exit_code = 2; return out; }

  std::string lock_error;
  TreeLock out_lock = TreeLock::acquire(paths.out, o.what, o.wait_for_lock, &lock_error);
  if (!out_lock.held()) { out.error = lock_error; out.exit_code = 1; return out; }
  TreeLock src_lock;
  if (!src.empty() && src.rfind(paths.out + "/", 0) != 0) {
    src_lock = TreeLock::acquire(src, o.what, o.wait_for_lock, &lock_error);
    if (!src_lock.held()) { out.error = lock_error; out.exit_code = 1; return out; }
  }
  // The run's own directory only once the run holds the tree: a refused run leaves nothing.
  out.run_dir = paths.run_dir;
  fs::create_directories(paths.run_dir + "/logs", ec);
  if (ec) { out.error = paths.run_dir + ": " + ec.message(); out.exit_code = 2; return out; }
  if (!copy_from.empty()) {
    MirrorResult m = mirror_tree(copy_from, paths.src, {paths.out});
    if (!m.error.empty()) { out.error = m.error; out.exit_code = 2; return out; }
    say("building a copy of " + copy_from + " in " + paths.src + " (the original is not touched; " +
        std::to_string(m.copied) + " file(s) copied, " + std::to_string(m.removed) + " removed as in the source)");
    for (const auto& s : m.skipped) say("not copied: " + s + " (a build output or cache, not source)");
  }
  fs::path last = fs::path(paths.out) / "last";
  fs::remove(last, ec);
  fs::create_symlink(fs::path("runs") / run_id, last, ec);

  std::string jerr;
  Journal journal = load_journal(paths.journal, &jerr);
  if (!jerr.empty()) say(jerr);
  if (journal.active_pgid > 0) {
    int n = stop_leftovers(journal.active_pgid, journal.active_run, 3000);
    if (n > 0)
      say("stopped " + std::to_string(n) + " process(es) of step '" + (journal.steps.empty() ? "" : journal.steps.back().name) +
          "' left running by an earlier torchsmith that did not exit cleanly (process group " +
          std::to_string(journal.active_pgid) + ")");
    journal.active_pgid = 0;
    journal.active_run.clear();
  }

  nlohmann::json lock = plan::lock_json(plan);
  std::string lock_text = lock.dump(2) + "\n";
  std::string plan_hash = plan::build_identity_hash(plan);
  if (auto werr = util::write_file_atomic(paths.lock, lock_text); !werr.empty()) {
    out.error = werr; out.exit_code = 2; return out;
  }
  if (!journal.steps.empty() && journal.plan_hash != plan_hash) {
    if (o.resume) say("the plan changed since the last run in " + paths.out + ": every step runs again");
    journal.steps.clear();
  }
  journal.plan_hash = plan_hash;

  report::RunRecord& rec = out.record;
  rec.what = o.what;
  rec.torchsmith_version = o.torchsmith_version;
  rec.run_dir = paths.run_dir;
  rec.ninja_log = paths.src + "/build/.ninja_log";
  // A setuptools build keeps its ninja logs in build_temp (one per extension with the side-by-side
  // helper), not in build/: after a compile step they are merged into the run directory, so the
  // report has a timeline.
  auto gather_ninja_logs = [&] {
    std::error_code e;
    if (fs::exists(paths.src + "/build/.ninja_log", e)) return;
    auto logs = build::find_ninja_logs(paths.src + "/build");
    if (logs.empty()) return;
    auto merged = build::merge_ninja_logs(paths.src + "/build", logs);
    std::string to = paths.run_dir + "/build.ninja_log";
    if (!merged.log.entries.empty() && util::write_file_atomic(to, build::ninja_log_text(merged.log)).empty())
      rec.ninja_log = to;
  };
  auto write_files = [&] {
    auto f = report::write_run_files(rec);
    if (!f.ok()) say(f.error);
  };
  rec.started_at = utc_now();
  rec.plan = lock;

  // The plan's PYTHONPATH may name torchsmith's build helper: written fresh for every run.
  const std::string shim_dir = paths.out + "/.torchsmith/pyshim";
  if (expand_pyshim(env, shim_dir)) {
    if (auto e = write_pyshim(shim_dir); !e.empty()) { out.error = "the build helper: " + e; out.exit_code = 2; return out; }
  }

  // A shared store (--cache): checked now; down or slow, the build goes on without it.
  if (auto t = prepare_store(plan.scale, paths.out, rec.cache, env); !t.empty()) {
    cache = find_compile_cache(t, env.count("PATH") ? env["PATH"] : "", &cerr);
    if (!cerr.empty()) { out.error = cerr; out.exit_code = 2; return out; }
  }
  if (!rec.cache.warning.empty()) say("warning: " + rec.cache.warning);
  else if (rec.cache.store_ok) say("shared cache: " + plan.scale.cache_engine + " with " + rec.cache.store);
  bool cmake_build = plan.import_name.empty();  // torch itself configures with CMake; extensions call CXX
  std::string distcc_log = paths.run_dir + "/distcc.log";
  if (auto e = apply_distcc(plan.scale, cache, paths.out + "/.distcc", distcc_log, env); !e.empty()) {
    say("warning: not distributed: " + e);
  } else if (!plan.scale.hosts.empty()) {
    rec.distributed.engine = plan.scale.distribute;
    rec.distributed.hosts = plan.scale.hosts;
    rec.distributed.log = distcc_log;
    say("distributed: distcc on " + plan.scale.hosts + " (MAX_JOBS " + std::to_string(plan.jobs) + ")");
  }
  rec.distributed.left_out = plan.scale.left_out;
  if (rec.distributed.engine.empty() && !plan.scale.left_out.empty()) rec.distributed.engine = plan.scale.distribute;
  if (auto e = apply_compile_cache(cache, cmake_build, paths.out + "/.cache-bin", env); !e.empty()) {
    say("compile cache not used: " + e);
    cache = {};
  }
  keep_nvcc_local(cache, env);
  if (!cache.tool.empty()) say("compile cache: " + cache.tool + " (" + cache.path + ")");
  bool remote_store = rec.cache.store_ok;
  auto counts_before = read_cache_counts(cache, remote_store);
  rec.cache.tool = cache.tool == "distcc" ? "" : cache.tool;

  std::vector<std::string> kerrs;
  triage::SignatureSet sigs = triage::load_signatures(o.kb_dirs, kerrs);
  std::unique_ptr<triage::Engine> engine;
  try {
    if (kerrs.empty()) engine = std::make_unique<triage::Engine>(std::move(sigs));
  } catch (const std::exception& e) {
    kerrs.push_back(e.what());
  }
  for (const auto& e : kerrs) say("triage off: " + e);

  build::MemoryReader memory;
  auto printer = build::tty_status_printer(o.status_fd);
  double last_plain = -1e9, last_sample = -1e9;

  std::string prev_hash = plan_hash;
  bool after_fix = false;
  bool failed = false, interrupted = false;
  int retries = 0;
  std::map<std::string, std::string> remedy_env;
  for (std::size_t i = 0; i < plan.steps.size() && !failed && !interrupted; ++i) {
    const plan::Step& step = plan.steps[i];
    bool self = !step.argv.empty() && step.argv[0] == "torchsmith";
    // A step's inputs: the steps before it (chained), its command, the tree's revision, and for
    // the steps after `fix` the fix journal (a reverted fix changes what is built). The fix step
    // itself must not hash the journal it writes, or a resume would always redo it.
    std::vector<std::string> parts{prev_hash, step.name, join(step.argv), step.cwd};
    if (step.name != "fetch") parts.push_back(source_state(paths.src, after_fix));
    if (step.name == "fix") after_fix = true;
    std::string hash = hash_parts(parts);
    prev_hash = hash;

    report::StepRecord sr;
    sr.name = step.name;
    sr.input_hash = hash;
    sr.start = since();
    const JournalStep* before = journal.find(step.name);
    if (o.resume && before && before->status == "ok" && before->input_hash == hash) {
      sr.status = "skipped";
      sr.note = "done in an earlier run with the same inputs";
      say("[" + std::to_string(i + 1) + "/" + std::to_string(plan.steps.size()) + "] " + step.name + ": skipped (" + sr.note + ")");
      rec.steps.push_back(sr);
      continue;
    }

    for (int attempt = 0;; ++attempt) {
      std::string missing;
      build::StepSpec spec;
      spec.name = step.name;
      spec.argv = expand_placeholders(step.argv, paths, &missing);
      spec.cwd = step.cwd.empty() ? paths.out : expand_placeholders(step.cwd, paths, &missing);
      if (!missing.empty()) {
        sr.status = "failed";
        sr.note = "nothing for " + missing + " yet: the step before it produced no wheel";
        say(step.name + ": " + sr.note);
        failed = true;
        break;
      }
      if (self) {
        spec.argv[0] = o.self_exe;
        std::vector<std::string> globals{"--no-color"};
        for (const auto& d : o.kb_dirs) { globals.push_back("--kb"); globals.push_back(d); }
        spec.argv.insert(spec.argv.begin() + 1, globals.begin(), globals.end());
      }
      // verify hands its verdicts back as JSON, not as log text.
      const std::string verdicts_json = paths.run_dir + "/verify.json";
      if (self && step.name == "verify") {
        spec.argv.insert(spec.argv.end(), {"--report", verdicts_json});
        if (!o.wheelhouse.empty()) spec.argv.insert(spec.argv.end(), {"--wheelhouse", o.wheelhouse});
        fs::remove(verdicts_json, ec);
      }
      spec.env = env;
      for (const auto& [k, v] : remedy_env) spec.env[k] = v;
      if (compiles(step.name)) spec.env["NINJA_STATUS"] = std::string(build::kNinjaStatus);
      if (step.name == "fetch" && !fs::exists(paths.src + "/..", ec)) fs::create_directories(fs::path(paths.src).parent_path(), ec);

      std::string log_name = "logs/" + two_digits(i + 1) + "-" + step.name + (attempt ? ".retry" + std::to_string(attempt) : "") + ".log";
      sr.log = log_name;
      say("[" + std::to_string(i + 1) + "/" + std::to_string(plan.steps.size()) + "] " + step.name + ": " + join(spec.argv));

      auto& js = journal.upsert(step.name);
      js.input_hash = hash;
      js.status = "running";
      journal.active_run = run_id;
      bool pgid_saved = false;
      save_journal(paths.journal, journal);

      std::unique_ptr<build::Governor> gov;
      if (o.governor && compiles(step.name)) {
        std::uint64_t budget = o.mem_budget ? o.mem_budget : plan.spec.mem_budget_bytes;
        gov = std::make_unique<build::Governor>(
            build::GovernorConfig::for_budget(budget), build::MemoryReader(),
            [&rec, &say, t = sr.start](const build::GovernorAction& a) {
              rec.governor.push_back({t + a.t, a.what, a.pid, a.line()});
              say("governor: " + a.line());
            });
      }
      // ETA from the previous run's per-target times when this tree has a .ninja_log.
      std::optional<build::EtaEstimator> eta;
      std::optional<build::NinjaLogTail> tail;
      if (compiles(step.name)) {
        build::NinjaLog hist = build::read_ninja_log(rec.ninja_log);
        eta.emplace(build::history_from(hist));
        tail.emplace(build::NinjaLogTail::at_end(rec.ninja_log));
      }
      build::RunnerOptions ro;
      ro.log_path = paths.run_dir + "/" + log_name;
      ro.engine = (!self && engine) ? engine.get() : nullptr;
      ro.stop_on_fatal = o.stop_on_fatal;
      ro.governor = gov.get();
      ro.memory = &memory;
      ro.cancel = o.cancel;
      ro.tick_ms = 500;  // the governor scans /proc each tick: 2 a second keeps it under 1% of a build
      ro.status = [&](const build::Status& s) {
        if (!pgid_saved && s.pgid > 0) {
          journal.active_pgid = s.pgid;
          save_journal(paths.journal, journal);
          pgid_saved = true;
        }
        double now = since();
        build::Status shown = s;
        if (eta && tail && s.progress) {
          for (const auto& e : tail->poll()) eta->finished(e.output);
          if (auto est = eta->estimate(*s.progress)) shown.eta = est->text();
        }
        if (now - last_sample >= 1.0) {
          last_sample = now;
          std::uint64_t used = s.governor ? s.governor->jobs_rss : 0;
          rec.memory.push_back({now, used, s.mem.headroom()});
        }
        if (printer) printer(shown);
        else if (now - last_plain >= o.plain_status_every && s.progress) {
          last_plain = now;
          say("status: " + build::format_status(shown));
        }
      };
      double children_before = cpu_of(RUSAGE_CHILDREN);
      build::StepResult r = build::run_step(spec, ro);
      sr.cpu_seconds += cpu_of(RUSAGE_CHILDREN) - children_before;
      if (compiles(step.name)) gather_ninja_logs();
      if (printer) (void)!write(o.status_fd, "\r\x1b[K", 4);
      journal.active_pgid = 0;
      sr.seconds = since() - sr.start;
      sr.exit_code = r.exit_code;
      if (self && step.name == "verify") {
        rec.checks = read_checks(verdicts_json);
        rec.verdicts = report::check_lines(rec.checks);
      }

      if (r.cancelled || (o.cancel && o.cancel->load())) {
        sr.status = "interrupted";
        js.status = "interrupted";
        interrupted = true;
        say(step.name + ": interrupted; `torchsmith build --resume` with the same plan and --out continues");
        break;
      }
      if (r.ok()) {
        sr.status = "ok";
        js.status = "ok";
        js.seconds = sr.seconds;
        js.finished_at = utc_now();
        break;
      }
      // Failed: what triage says, and whether a safe remedy lets it run again.
      std::string why = !r.error.empty() ? r.error
                        : r.stopped_early ? "stopped early: " + r.fatal_id
                        : r.signal ? "killed by signal " + std::to_string(r.signal)
                                   : "exit " + std::to_string(r.exit_code);
      if (o.sharpen) o.sharpen(r.diagnosis);
      RemedyPlan rem = choose_remedy(r.diagnosis, spec.env, o.retry, retries, o.native_arches);
      if (rem.retry) {
        ++retries;
        rec.retries.push_back({step.name, rem.reason, rem.kind, since()});
        say(step.name + " failed (" + why + "); retrying: " + rem.reason);
        for (const auto& [k, v] : rem.env) remedy_env[k] = v;
        // A remedy may put the build helper on PYTHONPATH (force_include): written like the plan's.
        if (expand_pyshim(remedy_env, shim_dir))
          if (auto e = write_pyshim(shim_dir); !e.empty()) say("the build helper: " + e);
        std::string build_dir = paths.src + "/build";
        if (rem.clean_build) {
          std::vector<std::string> kept;
          if (auto e = clean_build_dir(build_dir, paths.run_dir + "/stale-build", &kept); !e.empty()) say(e);
        } else if (rem.reconfigure) {
          fs::remove(build_dir + "/CMakeCache.txt", ec);
          fs::remove_all(build_dir + "/CMakeFiles", ec);
        }
        sr.note = "retried: " + rem.reason;
        continue;
      }
      sr.status = "failed";
      js.status = "failed";
      sr.note = why;
      if (step.name == "verify")
        if (auto f = failed_checks(rec.checks); !f.empty()) sr.note = f;
      if (!rem.refused.empty()) sr.note += "; remedy " + rem.kind + " not applied: " + rem.refused;
      if (ro.engine) {
        rec.diagnosis = triage::to_json(r.diagnosis, false);
        if (r.diagnosis.root()) say(triage::render_text(r.diagnosis, false, false));
      }
      say(step.name + " failed: " + sr.note + " (log: " + ro.log_path + ")");
      failed = true;
      break;
    }
    rec.steps.push_back(sr);
    save_journal(paths.journal, journal);
    write_files();  // an interrupted or killed run still leaves a readable report
  }

  if (auto after = read_cache_counts(cache, remote_store); after && counts_before) {
    CacheCounts d = counts_between(*counts_before, *after);
    rec.cache.hits = d.hits;
    rec.cache.misses = d.misses;
    rec.cache.local_hits = d.local_hits;
    rec.cache.remote_hits = d.remote_hits;
    rec.cache.remote_errors = d.remote_errors;
  }
  if (!rec.distributed.log.empty())
    if (auto text = util::read_file(rec.distributed.log)) {
      scale::DistccSummary ds = scale::parse_distcc_log(*text);
      rec.distributed.remote_jobs = ds.remote;
      rec.distributed.local_jobs = ds.local;
      for (const auto& m : ds.moved) rec.distributed.moved.push_back({m.source, m.host, m.why});
      if (!ds.moved.empty())
        say(std::to_string(ds.moved.size()) + " compile job(s) moved here from a distcc host that failed them (run.json: distributed.moved)");
    }
  for (const auto& e : fs::directory_iterator(paths.dist, ec))
    if (e.is_regular_file(ec)) rec.artifacts.push_back(e.path().filename().string());
  std::sort(rec.artifacts.begin(), rec.artifacts.end());
  rec.outcome = interrupted ? "interrupted" : failed ? "failed" : "ok";
  rec.self_cpu_seconds = cpu_of(RUSAGE_SELF) - cpu_at_start;
  rec.seconds = since();
  journal.active_pgid = 0;
  save_journal(paths.journal, journal);
  out.exit_code = interrupted ? 130 : failed ? 1 : 0;
  write_files();
  return out;
}

}  // namespace ts::run

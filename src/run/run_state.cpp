#include "run/run_state.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "build/ninja_log.h"
#include "build/ninja_log_merge.h"
#include "plan/lock.h"
#include "plan/render.h"
#include "report/run_files.h"
#include "source/outside_reach.h"
#include "run/artifacts.h"
#include "run/leftover.h"
#include "run/mirror.h"
#include "run/pyshim.h"
#include "run/scale_setup.h"
#include "scale/distcc_log.h"
#include "util/fs.h"
#include "util/printable.h"
#include "util/safe_path.h"
#include "util/utc_time.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {

// The variables a build needs that are about the user, not the build (git and pip want a home).
// The cache's variables too: torchsmith's own steps (fetch --sdist, verify) use the cache the run uses.
constexpr const char* kInherited[] = {"HOME", "TMPDIR", "USER", "LOGNAME", "TORCHSMITH_CACHE", "XDG_CACHE_HOME"};

std::string absolute_dir(const std::string& d) {
  if (d.empty()) return d;
  std::error_code ec;
  std::string a = fs::absolute(d, ec).lexically_normal().string();
  if (!a.empty() && a.back() == '/') a.pop_back();
  return a;
}

// The files the package reaches above its directory, copied beside the package's copy at the same
// relative place (new or changed ones only); "" or the error.
std::string copy_outside_reach(const std::string& from, const std::string& to, const source::OutsideReach& reach,
                               RunState& s) {
  for (const auto& l : reach.left) s.say("not copied beside the source copy: setup.py names " + l);
  for (const auto& n : reach.own_name) s.say("the source copy keeps the package's folder name: setup.py names " + n);
  if (reach.files.empty()) return "";
  for (const auto& rel : reach.files) {
    std::error_code ec;
    fs::path a = (fs::path(from) / rel).lexically_normal(), b = (fs::path(to) / rel).lexically_normal();
    fs::create_directories(b.parent_path(), ec);
    if (!ec) fs::copy_file(a, b, fs::copy_options::update_existing, ec);
    if (ec) return "copying " + a.string() + " beside the source copy: " + ec.message();
  }
  s.say("the package reaches " + std::to_string(reach.files.size()) + " file(s) above its directory (" + reach.why.front() +
        (reach.files.size() > 1 ? ", ..." : "") + "): copied with it, the package at the same place below them (" +
        to + ")");
  return "";
}

// Refusals, the locks, the run directory and the source copy; false when refused.
bool claim_trees(RunState& s) {
  const plan::Plan& plan = s.plan;
  std::error_code ec;
  World& w = s.w;
  s.run_id = w.utc(util::kCompact) + "-" + std::to_string(w.pid());
  std::string src = absolute_dir(plan.source_dir);
  // An extension's own directory stays as the user left it: pip would write build/, dist/ and
  // *.egg-info into it. Its copy in OUT/src is built instead (a torch tree is built in place).
  std::string copy_from;
  source::OutsideReach reach;
  if (!plan.import_name.empty() && !src.empty()) {
    copy_from = src;
    src.clear();
    // A package that includes files above its directory, or whose setup.py names paths above it
    // (include_dirs, sources), is copied with them, at the same relative place: OUT/src holds its
    // last `depth` directories, the package below them.
    reach = source::find_outside_reach(copy_from);
    if (reach.depth > 0)
      src = absolute_dir(s.o.out_dir) + "/src/" + source::tail_components(fs::weakly_canonical(copy_from, ec).string(),
                                                                           reach.depth);
  }
  s.paths = RunPaths::make(absolute_dir(s.o.out_dir), src, s.run_id);
  const RunPaths& paths = s.paths;

  // Everything that can be refused is checked before anything is written or copied.
  if (auto why = util::build_path_problem(paths.out); !why.empty())
    return s.refuse("--out " + util::printable(paths.out) + ": " + why, 2);
  if (auto why = util::build_path_problem(paths.src); !why.empty())
    return s.refuse("the source tree " + util::printable(paths.src) + ": " + why, 2);
  if (!copy_from.empty()) {
    fs::path from = fs::weakly_canonical(copy_from, ec), to = fs::weakly_canonical(paths.out, ec);
    if (from == to)
      return s.refuse("--out " + paths.out + " is the source tree itself; give another --out (the default is "
                      "./torchsmith-build)", 2);
  }
  // The environment every external step gets: the plan's, plus what this run adds.
  s.env = plan.env;
  for (const char* k : kInherited)
    if (!s.env.count(k))
      if (const char* v = std::getenv(k)) s.env[k] = v;
  s.env["TORCHSMITH_RUN"] = s.run_id;  // finds this run's orphans after a kill -9 (leftover.h)
  std::string cerr;
  s.cache = find_compile_cache(s.o.compile_cache, s.env.count("PATH") ? s.env["PATH"] : "", &cerr);
  if (!cerr.empty()) return s.refuse(cerr, 2);

  // The marker tells `clean` the directory is ours: never put on a directory that held the user's
  // files before (a later `clean` would remove them with it).
  std::string marker = paths.out + "/" + kOutMarker;
  if (w.is_dir(paths.out) && !w.list(paths.out, false).empty() && !w.exists(marker))
    return s.refuse("--out " + paths.out + " already holds files torchsmith did not write (it has no " +
                        kOutMarker + "); give a new or empty directory for the build output", 2);
  for (const auto& d : {paths.out, paths.dist})
    if (auto e = w.make_dirs(d); !e.empty()) return s.refuse(e, 2);
  if (auto e = w.write(marker, kOutMarkerText); !e.empty()) return s.refuse(e, 2);

  std::string lock_error;
  s.out_lock = w.lock(paths.out, s.o.what, s.o.wait_for_lock, &lock_error);
  if (!s.out_lock) return s.refuse(lock_error, 1);
  if (!src.empty() && src.rfind(paths.out + "/", 0) != 0) {
    s.src_lock = w.lock(src, s.o.what, s.o.wait_for_lock, &lock_error);
    if (!s.src_lock) return s.refuse(lock_error, 1);
  }
  // The run's own directory only once the run holds the tree: a refused run leaves nothing.
  s.out.run_dir = paths.run_dir;
  if (auto e = w.make_dirs(paths.run_dir + "/logs"); !e.empty()) return s.refuse(e, 2);
  if (!copy_from.empty()) {
    s.copied_from = copy_from;
    MirrorResult m = mirror_tree(copy_from, paths.src, {paths.out});
    if (!m.error.empty()) return s.refuse(m.error, 2);
    s.say("building a copy of " + copy_from + " in " + paths.src + " (the original is not touched; " +
          std::to_string(m.copied) + " file(s) copied, " + std::to_string(m.removed) + " removed as in the source)");
    for (const auto& k : m.skipped) s.say("not copied: " + k + " (a build output or cache, not source)");
    if (auto e = copy_outside_reach(copy_from, paths.src, reach, s); !e.empty()) return s.refuse(e, 2);
  }
  w.link("runs/" + s.run_id, paths.out + "/last");
  return true;
}

// The journal of earlier runs: leftovers of a killed one stopped, steps forgotten when the plan changed.
bool open_journal(RunState& s) {
  std::string jerr;
  Journal& journal = s.journal;
  journal = parse_journal(s.w.read(s.paths.journal), s.paths.journal, &jerr);
  if (!jerr.empty()) s.say(jerr);
  if (journal.active_pgid > 0) {
    int n = s.w.stop_leftovers(journal.active_pgid, journal.active_run);
    if (n > 0)
      s.say("stopped " + std::to_string(n) + " process(es) of step '" + (journal.steps.empty() ? "" : journal.steps.back().name) +
            "' left running by an earlier torchsmith that did not exit cleanly (process group " +
            std::to_string(journal.active_pgid) + ")");
    journal.active_pgid = 0;
    journal.active_run.clear();
  }
  nlohmann::json lock = plan::lock_json(s.plan);
  plan::seal_lock(lock);
  s.plan_hash = plan::build_identity_hash(s.plan);
  if (auto werr = s.w.write(s.paths.lock, lock.dump(2) + "\n"); !werr.empty()) return s.refuse(werr, 2);
  if (!journal.steps.empty() && journal.plan_hash != s.plan_hash) {
    if (s.o.resume) s.say("the plan changed since the last run in " + s.paths.out + ": every step runs again");
    journal.steps.clear();
  }
  journal.plan_hash = s.plan_hash;

  report::RunRecord& rec = s.rec;
  rec.what = s.o.what;
  rec.torchsmith_version = s.o.torchsmith_version;
  rec.run_dir = s.paths.run_dir;
  rec.command = s.o.command;
  if (!s.copied_from.empty()) rec.source_dir = s.copied_from, rec.source_copy = s.paths.src;
  rec.ninja_log = s.paths.src + "/build/.ninja_log";
  rec.started_at = s.w.utc(util::kIso8601);
  rec.plan = lock;
  return true;
}

// The build helper, the shared store, distcc and the compile cache, each added to the environment.
bool set_up_tools(RunState& s) {
  const plan::Plan& plan = s.plan;
  report::RunRecord& rec = s.rec;
  // The plan's PYTHONPATH may name torchsmith's build helper: written fresh for every run.
  s.shim_dir = s.paths.out + "/.torchsmith/pyshim";
  if (expand_pyshim(s.env, s.shim_dir))
    if (auto e = write_pyshim(s.shim_dir); !e.empty()) return s.refuse("the build helper: " + e, 2);

  // A shared store (--cache): checked now; down or slow, the build goes on without it.
  std::string cerr;
  if (auto t = prepare_store(plan.scale, s.paths.out, rec.cache, s.env); !t.empty()) {
    s.cache = find_compile_cache(t, s.env.count("PATH") ? s.env["PATH"] : "", &cerr);
    if (!cerr.empty()) return s.refuse(cerr, 2);
  }
  if (!rec.cache.warning.empty()) s.say("warning: " + rec.cache.warning);
  else if (rec.cache.store_ok) s.say("shared cache: " + plan.scale.cache_engine + " with " + rec.cache.store);
  bool cmake_build = plan.import_name.empty();  // torch itself configures with CMake; extensions call CXX
  std::string distcc_log = s.paths.run_dir + "/distcc.log";
  if (auto e = apply_distcc(plan.scale, s.cache, s.paths.out + "/.distcc", distcc_log, s.env); !e.empty()) {
    s.say("warning: not distributed: " + e);
  } else if (!plan.scale.hosts.empty()) {
    rec.distributed.engine = plan.scale.distribute;
    rec.distributed.hosts = plan.scale.hosts;
    rec.distributed.log = distcc_log;
    s.say("distributed: distcc on " + plan.scale.hosts + " (MAX_JOBS " + std::to_string(plan.jobs) + ")");
  }
  rec.distributed.left_out = plan.scale.left_out;
  if (rec.distributed.engine.empty() && !plan.scale.left_out.empty()) rec.distributed.engine = plan.scale.distribute;
  if (auto e = apply_compile_cache(s.cache, cmake_build, s.paths.out + "/.cache-bin", s.env); !e.empty()) {
    s.say("compile cache not used: " + e);
    s.cache = {};
  }
  keep_nvcc_local(s.cache, s.env);
  if (!s.cache.tool.empty()) s.say("compile cache: " + s.cache.tool + " (" + s.cache.path + ")");
  s.remote_store = rec.cache.store_ok;
  s.counts_before = read_cache_counts(s.cache, s.remote_store);
  rec.cache.tool = s.cache.tool == "distcc" ? "" : s.cache.tool;

  std::vector<std::string> kerrs = s.o.signature_errors;
  if (!s.o.signatures) kerrs.push_back("no failure signatures were given");
  try {
    if (kerrs.empty()) s.engine = std::make_unique<triage::Engine>(*s.o.signatures);
  } catch (const std::exception& e) {
    kerrs.push_back(e.what());
  }
  for (const auto& e : kerrs) s.say("triage off: " + e);
  s.printer = build::tty_status_printer(s.o.status_fd);
  return true;
}

}  // namespace

void RunState::gather_ninja_logs() {
  if (w.exists(paths.src + "/build/.ninja_log")) return;
  auto logs = build::find_ninja_logs(paths.src + "/build");
  if (logs.empty()) return;
  auto merged = build::merge_ninja_logs(paths.src + "/build", logs);
  std::string to = paths.run_dir + "/build.ninja_log";
  if (!merged.log.entries.empty() && w.write(to, build::ninja_log_text(merged.log)).empty())
    rec.ninja_log = to;
}

void RunState::write_files() {
  auto f = report::write_run_files(rec, [this](const std::string& path, const std::string& text) { return w.write(path, text); });
  out.run_files = f.written;  // the summary points only to these
  if (!f.ok()) say(f.error);
}

bool start_run(RunState& s) {
  s.cpu_at_start = s.w.cpu(RUSAGE_SELF);  // planning and probing are not the run's cost
  return claim_trees(s) && open_journal(s) && set_up_tools(s);
}

void finish_run(RunState& s, bool failed, bool interrupted) {
  report::RunRecord& rec = s.rec;
  if (auto after = read_cache_counts(s.cache, s.remote_store); after && s.counts_before) {
    CacheCounts d = counts_between(*s.counts_before, *after);
    rec.cache.hits = d.hits;
    rec.cache.misses = d.misses;
    rec.cache.local_hits = d.local_hits;
    rec.cache.remote_hits = d.remote_hits;
    rec.cache.remote_errors = d.remote_errors;
  }
  if (!rec.distributed.log.empty())
    if (auto text = s.w.read(rec.distributed.log)) {
      scale::DistccSummary ds = scale::parse_distcc_log(*text);
      rec.distributed.remote_jobs = ds.remote;
      rec.distributed.local_jobs = ds.local;
      for (const auto& m : ds.moved) rec.distributed.moved.push_back({m.source, m.host, m.why});
      if (!ds.moved.empty())
        s.say(std::to_string(ds.moved.size()) + " compile job(s) moved here from a distcc host that failed them (run.json: distributed.moved)");
    }
  rec.artifacts = s.w.list(s.paths.dist, true);
  rec.artifact_files = collect_artifacts(s.w, s.paths.out, s.paths.dist, s.plan);
  rec.outcome = interrupted ? "interrupted" : failed ? "failed" : "ok";
  rec.self_cpu_seconds = s.w.cpu(RUSAGE_SELF) - s.cpu_at_start;
  rec.seconds = s.since();
  s.journal.active_pgid = 0;
  s.w.write(s.paths.journal, journal_text(s.journal));
  s.out.exit_code = interrupted ? 130 : failed ? 1 : 0;
  s.write_files();
}

}  // namespace ts::run

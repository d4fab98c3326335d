#include "run/pipeline.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include "build/eta.h"
#include "build/governor.h"
#include "build/ninja_log.h"
#include "formats/elf.h"
#include "plan/lock.h"
#include "plan/lock_check.h"
#include "plan/plan.h"
#include "report/command_line.h"
#include "report/run_text.h"
#include "run/header_source.h"
#include "run/lock_hashes.h"
#include "run/own_cause.h"
#include "run/pyshim.h"
#include "run/run_state.h"
#include "run/stale.h"
#include "run/step_kind.h"
#include "run/tree_lock.h"
#include "source/git.h"
#include "source/hash.h"
#include "source/vendored_pybind11.h"
#include "triage/render.h"
#include "util/cache_dir.h"
#include "util/split.h"
#include "util/fs.h"
#include "util/utc_time.h"

namespace ts::run {

namespace fs = std::filesystem;

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
  return s;
}

std::string two_digits(std::size_t i) { return (i < 10 ? "0" : "") + std::to_string(i); }

// verify's --report document: its verdicts, or null when it wrote none (it crashed, or an old lock).
nlohmann::json read_checks(World& w, const std::string& path) {
  auto t = w.read(path);
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

// How one step ended, for the loop.
enum class Ended { ok, failed, interrupted, retry };

// Written into a build overlay once pip installed all of it (the folder's name is the hash of its inputs).
constexpr const char* kOverlayComplete = "/.torchsmith/complete";

// One plan step in this run: where it is, what it is, what it ran with.
struct StepCtx {
  std::size_t i;
  const plan::Step& step;
  StepKind kind;
  bool self;  // one of torchsmith's own commands (own_command)
  report::StepRecord& sr;
  JournalStep* js = nullptr;
  std::string counter() const { return "[" + std::to_string(i + 1) + "/"; }
};

std::string verdicts_path(const RunState& s) { return s.paths.run_dir + "/verify.json"; }

// The step's argv, cwd and environment for this attempt; "" or what is missing ({wheel} before a wheel).
std::string make_spec(RunState& s, const StepCtx& c, build::StepSpec& spec) {
  std::string missing;
  spec.name = c.step.name;
  auto newest = [&s](const std::string& dir) { return s.w.newest_wheel(dir); };
  spec.argv = expand_placeholders(c.step.argv, s.paths, &missing, newest);
  spec.cwd = c.step.cwd.empty() ? s.paths.out : expand_placeholders(c.step.cwd, s.paths, &missing, newest);
  if (!missing.empty()) return missing;
  if (c.self) {
    spec.argv[0] = s.o.self_exe;
    std::vector<std::string> globals{"--no-color"};
    for (const auto& d : s.o.kb_dirs) { globals.push_back("--kb"); globals.push_back(d); }
    spec.argv.insert(spec.argv.begin() + 1, globals.begin(), globals.end());
  }
  // verify hands its verdicts back as JSON, not as log text.
  if (c.kind == StepKind::verify && runs_kind_command(c.kind, c.step.argv)) {
    spec.argv.insert(spec.argv.end(), {"--report", verdicts_path(s)});
    if (s.early_verify.started()) spec.argv.insert(spec.argv.end(), {"--early-check", s.early_verify.dir()});
    s.w.remove(verdicts_path(s));
  }
  spec.env = s.env;
  for (const auto& [k, v] : s.remedy_env) spec.env[k] = v;
  // A plain CMake project's configure step reads the helper's include when a CMake remedy is asked.
  if (auto d = cmake_include_define(spec.argv, spec.env, s.shim_dir); !d.empty()) {
    if (auto e = write_pyshim(s.shim_dir); e.empty()) spec.argv.push_back(d);
    else s.say("the build helper's CMake include: " + e);
  }
  if (compiles(c.kind)) spec.env["NINJA_STATUS"] = std::string(build::kNinjaStatus);
  if (c.kind == StepKind::fetch && !s.w.exists(s.paths.src + "/.."))
    s.w.make_dirs(fs::path(s.paths.src).parent_path().string());
  return "";
}

// Runs one attempt through the StepRunner: governor, ETA and status line around it.
build::StepResult attempt(RunState& s, const StepCtx& c, const build::StepSpec& spec, build::RunnerOptions& ro) {
  report::RunRecord& rec = s.rec;
  bool pgid_saved = false;
  std::unique_ptr<build::Governor> gov;
  if (s.o.governor && compiles(c.kind)) {
    std::uint64_t budget = s.o.mem_budget ? s.o.mem_budget : s.plan.spec.mem_budget_bytes;
    gov = std::make_unique<build::Governor>(
        build::GovernorConfig::for_budget(budget), build::MemoryReader(),
        [&s, t = c.sr.start](const build::GovernorAction& a) {
          s.rec.governor.push_back({t + a.t, a.what, a.pid, a.line()});
          s.say("governor: " + a.line());
        });
  }
  // ETA from the previous run's per-target times when this tree has a .ninja_log.
  std::optional<build::EtaEstimator> eta;
  std::optional<build::NinjaLogTail> tail;
  if (compiles(c.kind)) {
    eta.emplace(build::history_from(build::read_ninja_log(rec.ninja_log)));
    tail.emplace(build::NinjaLogTail::at_end(rec.ninja_log));
  }
  ro.engine = (!c.self && s.engine) ? s.engine.get() : nullptr;
  ro.stop_on_fatal = s.o.stop_on_fatal;
  ro.governor = gov.get();
  ro.memory = nullptr;  // the loop reads memory through the world (below) when no governor does
  ro.cancel = s.o.cancel;
  ro.tick_ms = 500;  // the governor scans /proc each tick: 2 a second keeps it under 1% of a build
  ro.status = [&](const build::Status& st) {
    if (!pgid_saved && st.pgid > 0) {
      s.journal.active_pgid = st.pgid;
      s.w.write(s.paths.journal, journal_text(s.journal));
      pgid_saved = true;
    }
    double now = s.since();
    build::Status shown = st;
    if (!st.governor) shown.mem = s.w.memory();
    if (eta && tail && st.progress) {
      for (const auto& e : tail->poll()) eta->finished(e.output);
      if (auto est = eta->estimate(*st.progress)) shown.eta = est->text(), shown.eta_seconds = est->seconds;
    }
    if (now - s.last_sample >= 1.0) {
      s.last_sample = now;
      rec.memory.push_back({now, st.governor ? st.governor->jobs_rss : 0, shown.mem.headroom()});
    }
    if (s.printer) s.printer(shown);
    // Not a terminal: a line every plain_status_every seconds, with or without ninja's count (a
    // serial build has none), so a log never goes quiet for minutes.
    else if (now - std::max(s.last_plain, c.sr.start) >= s.o.plain_status_every) {
      s.last_plain = now;
      s.say("status: " + build::format_status(shown));
    }
  };
  double children_before = s.w.cpu(RUSAGE_CHILDREN);
  build::StepResult r = s.w.run(spec, ro);
  ro.status = nullptr;  // it refers to this frame's governor, ETA and pgid flag
  ro.governor = nullptr;
  c.sr.cpu_seconds += s.w.cpu(RUSAGE_CHILDREN) - children_before;
  if (compiles(c.kind)) s.gather_ninja_logs();
  if (s.printer) (void)!write(s.o.status_fd, "\r\x1b[K", 4);
  s.journal.active_pgid = 0;
  return r;
}

// The source ports, once, after a failed build of the build's own copy of the source (a fetched
// tree under OUT, or an extension's directory copied to OUT/src; a tree built in place is never
// ported): true when some matched and the build retries.
bool try_ports(RunState& s, const StepCtx& c, const triage::Diagnosis& d) {
  if (!s.o.ports || s.ported || c.kind != StepKind::build || !s.o.retry.auto_fix) return false;
  // A named cause before any compile (setup.py's own failure, a fetch, a driver it asks): no
  // rewrite of the C++/CUDA sources changes it, so no retry is spent on one. An import-phase cause
  // may be an undefined symbol of a removed API, which a port can remove: still tried.
  // A port that answers that cause by name (port.merge-conflict-same-code: setup.py Python cannot read
  // for a committed conflict) gets the round as a failed compile does, with every port.
  if (const triage::Finding* f = d.known() ? d.root() : nullptr; f && (f->phase == "package" || f->phase == "runtime")) {
    source::PortSet own;
    std::vector<std::string> ids;
    for (const auto& p : s.o.ports->ports)
      if (std::find(p.answers.begin(), p.answers.end(), f->id) != p.answers.end()) {
        own.ports.push_back(p);
        ids.push_back(p.id);
      }
    if (own.ports.empty() || !source::apply_ports(s.paths.src, own, true).changed()) {
      if (!source::apply_ports(s.paths.src, *s.o.ports, true).changed()) return false;
      s.say("source ports not tried: the failure is " + f->id + " (" + f->phase + " phase), which " +
            (ids.empty() ? std::string("no source port changes") : join(ids) + " finds nothing in the source to change"));
      return false;
    }
  }
  if (!s.plan.source_dir.empty() && s.copied_from.empty()) {
    auto dry = source::apply_ports(s.paths.src, *s.o.ports, true);
    if (dry.changed())
      s.say("source ports " + join(dry.ports) + " match " + std::to_string(dry.files.size()) + " file(s) of your tree; "
            "not applied to it (`torchsmith fix " + s.paths.src + " --port --dry-run` shows the diff; a git URL@REF or "
            "NAME==VERSION build ports its own copy)");
    return false;
  }
  auto r = source::apply_ports(s.paths.src, *s.o.ports);
  for (const auto& e : r.errors) s.say("source ports: " + e);
  if (!r.ok && r.changed()) source::revert_ports(s.paths.src);
  if (!r.ok || !r.changed()) return false;
  s.ported = true;
  ++s.retries;
  std::string reason = "source ports " + join(r.ports) + " in " + std::to_string(r.files.size()) +
                       " file(s) of the build's copy of the source (ports.diff); reverted byte for byte if it still fails";
  s.rec.retries.push_back({c.step.name, reason, "source-port", s.since(), r.diff});
  if (auto e = s.w.write(s.paths.run_dir + "/ports.diff", r.diff); !e.empty()) s.say("ports.diff: " + e);
  s.say(c.step.name + " failed; retrying with " + reason);
  c.sr.note = "retried: " + reason;
  return true;
}

// Ports for the package's own Python (`files` all .py): an API its environment lost (pkg_resources),
// which a clean build cannot show and the wheel's verify does.
bool python_only(const source::Port& p) {
  return !p.files.empty() &&
         std::all_of(p.files.begin(), p.files.end(), [](const std::string& e) { return e == ".py"; });
}

// After verify failed on a wheel the build made without trouble, on an import: the Python ports,
// once, in the build's own copy (the same rules as try_ports); true when some matched, so the steps
// run again from the build.
bool try_python_ports(RunState& s, const StepCtx& c) {
  if (!s.o.ports || s.ported || c.kind != StepKind::verify || !s.o.retry.auto_fix) return false;
  // Only an import that failed (the smoke's or verify's own) is what a Python port can change.
  std::string failed = failed_checks(s.rec.checks);
  if (failed.find("No module named") == std::string::npos && failed.find("ImportError") == std::string::npos &&
      failed.find("cannot import name") == std::string::npos && failed.find("TabError") == std::string::npos)
    return false;
  source::PortSet py;
  for (const auto& p : s.o.ports->ports)
    if (python_only(p)) py.ports.push_back(p);
  if (py.ports.empty()) return false;
  if (!s.plan.source_dir.empty() && s.copied_from.empty()) {
    auto dry = source::apply_ports(s.paths.src, py, true);
    if (dry.changed())
      s.say("source ports " + join(dry.ports) + " match " + std::to_string(dry.files.size()) + " Python file(s) of your "
            "tree; not applied to it (`torchsmith fix " + s.paths.src + " --port --dry-run` shows the diff)");
    return false;
  }
  auto r = source::apply_ports(s.paths.src, py);
  for (const auto& e : r.errors) s.say("source ports: " + e);
  if (!r.ok && r.changed()) source::revert_ports(s.paths.src);
  if (!r.ok || !r.changed()) return false;
  s.ported = s.python_ported = true;
  ++s.retries;
  std::string reason = "source ports " + join(r.ports) + " in " + std::to_string(r.files.size()) +
                       " Python file(s) of the build's copy of the source (ports.diff); built and verified once more, "
                       "reverted byte for byte if it still fails";
  s.rec.retries.push_back({c.step.name, reason, "source-port", s.since(), r.diff});
  if (auto e = s.w.write(s.paths.run_dir + "/ports.diff", r.diff); !e.empty()) s.say("ports.diff: " + e);
  s.say(c.step.name + " failed; " + reason);
  c.sr.note += "; " + reason;
  return true;
}

// The mangled C++ names (_Z...) `read` gives of the ELF file in `bytes`, each added to `out` once.
void add_mangled(std::vector<std::string>& out, const std::string& bytes,
                 std::vector<std::string> (*read)(const formats::ElfFile&)) {
  formats::Bytes b(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  if (auto elf = formats::ElfFile::parse(b, nullptr))
    for (const auto& u : read(*elf))
      if (u.rfind("_Z", 0) == 0 && std::find(out.begin(), out.end(), u) == out.end()) out.push_back(u);
}

// The mangled symbols a failed import could not find: each "LIB.so: undefined symbol: NAME" in
// verify's checks, and the other undefined symbols of that library where it can still be read (the
// path the import named, else a file of that name under the build's copy), so one retry answers all.
std::vector<std::string> undefined_symbols(RunState& s) {
  std::vector<std::string> out;
  if (!s.rec.checks.is_array()) return out;
  static const RE2 re(R"(([^\s:'"]+\.so[^\s:'"]*): undefined symbol: ([A-Za-z0-9_.$]+))");
  for (const auto& c : s.rec.checks) {
    if (!c.is_object() || c.value("outcome", "") != "fail") continue;
    std::string detail = c.value("detail", "");
    re2::StringPiece in(detail);
    std::string lib, sym;
    while (RE2::FindAndConsume(&in, re, &lib, &sym)) {
      if (std::find(out.begin(), out.end(), sym) == out.end()) out.push_back(sym);
      std::optional<std::string> bytes = s.w.read(lib);
      const std::string base = fs::path(lib).filename().string();
      for (std::vector<std::string> dirs{s.paths.src + "/build"}; !bytes && !dirs.empty();) {
        std::string d = dirs.back();
        dirs.pop_back();
        for (const auto& n : s.w.list(d, false)) {
          if (n == base) bytes = s.w.read(d + "/" + n);
          else if (s.w.is_dir(d + "/" + n) && dirs.size() < 64) dirs.push_back(d + "/" + n);
        }
      }
      if (bytes) add_mangled(out, *bytes, formats::undefined_dynamic_symbols);
    }
  }
  return out;
}

// After verify's import failed on an undefined symbol of the package's own function template (one
// file calls what another defines and its compiler did not emit): port.template-instantiation, once,
// in the build's own copy, after any other ports (they stay); true when it added instantiations, so
// the steps run again from the build, and everything ported goes back byte for byte if verify fails again.
bool try_instantiation(RunState& s, const StepCtx& c) {
  if (!s.o.ports || s.instantiated || s.python_ported || s.ports_reverted || c.kind != StepKind::verify ||
      !s.o.retry.auto_fix)
    return false;
  const source::Port* p = s.o.ports->find("port.template-instantiation");
  if (!p) return false;
  std::vector<std::string> undefined = undefined_symbols(s);
  if (undefined.empty()) return false;
  source::PortSet one{{*p}};
  if (!s.plan.source_dir.empty() && s.copied_from.empty()) {
    auto dry = source::apply_ports(s.paths.src, one, true, &undefined);
    if (dry.changed())
      s.say("source port " + p->id + " matches " + std::to_string(dry.files.size()) + " file(s) of your tree; not "
            "applied to it (the import's undefined symbols: " + join(undefined) + ")");
    return false;
  }
  auto r = source::apply_ports(s.paths.src, one, false, &undefined);
  for (const auto& e : r.errors) s.say("source ports: " + e);
  if (!r.ok && r.changed()) source::revert_ports(s.paths.src);
  if (!r.ok || !r.changed()) return false;
  s.ported = s.instantiated = true;
  ++s.retries;
  std::string reason = "source port " + p->id + " in " + std::to_string(r.files.size()) +
                       " file(s) of the build's copy of the source (the import could not find a specialization of "
                       "the package's own template; ports.diff); built and verified once more, every port reverted "
                       "byte for byte if it still fails";
  s.rec.retries.push_back({c.step.name, reason, "source-port", s.since(), r.diff});
  std::string diff = r.diff;
  if (auto old = s.w.read(s.paths.run_dir + "/ports.diff")) diff = *old + diff;  // the build's ports, kept
  if (auto e = s.w.write(s.paths.run_dir + "/ports.diff", diff); !e.empty()) s.say("ports.diff: " + e);
  s.say(c.step.name + " failed; " + reason);
  c.sr.note += "; " + reason;
  return true;
}

// A subpackage the wheel's import could not find ("No module named 'dnls.utils'") that the build's
// copy of the source has as a package directory (dnls/utils/__init__.py, at its root or one or two
// folders down: lib/, src/): its name, or "". setup.py listed the top package only, which an editable
// install hides (the whole tree is on sys.path) and a wheel does not.
std::string missing_subpackage(RunState& s) {
  static const RE2 re(R"(No module named '([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)')");
  std::string failed = failed_checks(s.rec.checks), name;
  re2::StringPiece in(failed);
  while (RE2::FindAndConsume(&in, re, &name)) {
    std::string rel = name;
    std::replace(rel.begin(), rel.end(), '.', '/');
    std::vector<std::string> roots{s.paths.src};
    for (std::size_t k = 0; k < roots.size() && k < 64; ++k) {
      if (s.w.exists(roots[k] + "/" + rel + "/__init__.py")) return name;
      if (std::count(roots[k].begin() + static_cast<long>(s.paths.src.size()), roots[k].end(), '/') >= 2) continue;
      for (const auto& n : s.w.list(roots[k], false))
        if (n[0] != '.' && n != "build" && s.w.is_dir(roots[k] + "/" + n)) roots.push_back(roots[k] + "/" + n);
    }
  }
  return "";
}

// A remedy's variables on top of the run's, for every step after it; one that puts the build helper
// on PYTHONPATH ({pyshim}) gets it written like the plan's.
void add_remedy_env(RunState& s, const std::map<std::string, std::string>& env) {
  for (const auto& [k, v] : env) s.remedy_env[k] = v;
  if (expand_pyshim(s.remedy_env, s.shim_dir))
    if (auto e = write_pyshim(s.shim_dir); !e.empty()) s.say("the build helper: " + e);
}

// After verify's import stopped on a subpackage the source has and the wheel lacks: build.subpackages,
// once: the build helper adds to setup()'s packages every subpackage of a package it lists (as
// find_packages would under the same package_dir), and the steps run again from the build.
bool try_subpackages(RunState& s, const StepCtx& c) {
  if (s.subpackaged || c.kind != StepKind::verify || !s.o.retry.auto_fix) return false;
  const std::string name = missing_subpackage(s);
  if (name.empty()) return false;
  s.subpackaged = true;
  ++s.retries;
  std::map<std::string, std::string> env = s.env;
  for (const auto& [k, v] : s.remedy_env) env[k] = v;
  add_remedy_env(s, {{"PYTHONPATH", plan::pythonpath_with_pyshim(env.count("PYTHONPATH") ? env["PYTHONPATH"] : "")},
                     {"TORCHSMITH_SUBPACKAGES", "1"}});
  std::string reason = "[build.subpackages] the wheel's import could not find " + name + ", a package directory of the "
                       "source that setup.py's packages do not list (an editable install would find it): setup()'s "
                       "packages get every subpackage of the packages it lists, as find_packages would "
                       "(TORCHSMITH_SUBPACKAGES); built and verified once more";
  s.rec.retries.push_back({c.step.name, reason, "build_remedy", s.since(), ""});
  s.say(c.step.name + " failed; " + reason);
  c.sr.note += "; " + reason;
  return true;
}

// The hidden symbols the build's objects use and none defines: nvcc declares the host stub of a
// __global__ function template hidden in each file that launches it, so a launch of a template
// another file defines and never instantiates stops the link ("hidden symbol `_Z...' isn't defined")
// before any library exists for verify's import to name. Read from every object under the build's copy.
std::vector<std::string> hidden_undefined_in_objects(RunState& s) {
  std::vector<std::string> out;
  std::vector<std::string> dirs{s.paths.src + "/build"};
  for (int seen = 0; !dirs.empty() && seen < 4096; ++seen) {
    std::string d = dirs.back();
    dirs.pop_back();
    for (const auto& n : s.w.list(d, false)) {
      const std::string p = d + "/" + n;
      if (s.w.is_dir(p)) {
        dirs.push_back(p);
        continue;
      }
      if (n.size() < 3 || n.compare(n.size() - 2, 2, ".o") != 0) continue;
      if (auto bytes = s.w.read(p)) add_mangled(out, *bytes, formats::hidden_undefined_symbols);
    }
  }
  return out;
}

// A build that stopped at its link on hidden symbols of the package's own kernel templates
// (3DLUT-interpolation: tetrahedral_cuda.cpp launches TetrahedralForward<scalar_t>, which its .cu
// defines and never instantiates): port.template-instantiation, once, in the build's own copy, as
// after verify's import; the build retries, and the port goes back byte for byte if it fails again.
bool try_link_instantiation(RunState& s, const StepCtx& c) {
  if (!s.o.ports || s.ported || s.instantiated || s.ports_reverted || c.kind != StepKind::build || !s.o.retry.auto_fix)
    return false;
  if (!s.plan.source_dir.empty() && s.copied_from.empty()) return false;  // a tree built in place is never ported
  const source::Port* p = s.o.ports->find("port.template-instantiation");
  if (!p) return false;
  std::vector<std::string> hidden = hidden_undefined_in_objects(s);
  if (hidden.empty()) return false;
  source::PortSet one{{*p}};
  auto r = source::apply_ports(s.paths.src, one, false, &hidden);
  for (const auto& e : r.errors) s.say("source ports: " + e);
  if (!r.ok && r.changed()) source::revert_ports(s.paths.src);
  if (!r.ok || !r.changed()) return false;
  s.ported = s.instantiated = true;
  ++s.retries;
  std::string reason = "source port " + p->id + " in " + std::to_string(r.files.size()) +
                       " file(s) of the build's copy of the source (the link could not find a specialization of the "
                       "package's own template, hidden in the objects that use it: " + join(hidden) +
                       "; ports.diff); reverted byte for byte if it still fails";
  s.rec.retries.push_back({c.step.name, reason, "source-port", s.since(), r.diff});
  if (auto e = s.w.write(s.paths.run_dir + "/ports.diff", r.diff); !e.empty()) s.say("ports.diff: " + e);
  s.say(c.step.name + " failed; retrying with " + reason);
  c.sr.note = "retried: " + reason;
  return true;
}

// build.pybind11-torch's CMake half, before its retry: an old vendored pybind11 that a CMake file of the
// build's own copy adds gets torchsmith's stand-in as its CMakeLists.txt (source/vendored_pybind11.h);
// of a tree built in place, only what would change is said. The diff, or "".
std::string stand_in_pybind11(RunState& s, RemedyPlan& rem) {
  auto need = source::pybind11_needed(rem.pybind11_for, s.plan.python_version);
  if (need.first == 0) return "";
  const bool in_place = !s.plan.source_dir.empty() && s.copied_from.empty();
  auto r = source::stand_in_vendored_pybind11(s.paths.src, need, std::string(pyshim_fetch_pybind11()), in_place, s.plan.python);
  for (const auto& e : r.errors) s.say("build.pybind11-torch: " + e);
  if (!r.changed()) return "";
  std::vector<std::string> dirs;
  for (const auto& v : r.found)
    if (v.old)
      dirs.push_back(v.dir + " (pybind11 " + std::to_string(v.major) + "." + std::to_string(v.minor) + ", added by " +
                     v.cmake_file + ")");
  if (in_place) {
    s.say("build.pybind11-torch: " + join(dirs) + " in your tree is older than the target Python needs; its "
          "CMakeLists.txt is not replaced there (a git URL@REF or NAME==VERSION build replaces it in its own copy)");
    return "";
  }
  if (!r.ok) return "";
  rem.reason += "; " + join(dirs) + ": its CMakeLists.txt replaced by torchsmith's stand-in in the build's copy of the "
                "source, which takes the build's own pybind11 (pybind11.diff; `torchsmith fix --revert` restores it)";
  if (auto e = s.w.write(s.paths.run_dir + "/pybind11.diff", r.diff); !e.empty()) s.say("pybind11.diff: " + e);
  return r.diff;
}

// build.header-source, before its retry: the folder build.toml names for the missing header into the
// cache and the build's copy (a tree built in place: the cache's folder alone), first on the retry's
// CPATH. False, with rem.refused, when the KB has no such folder or the files could not be had.
bool bring_header_source(RunState& s, RemedyPlan& rem, const std::map<std::string, std::string>& env) {
  const plan::HeaderSource* h = s.o.build_kb ? s.o.build_kb->header_source(rem.header_source) : nullptr;
  if (!h) {
    rem.refused = "build.toml names no repository folder with " + rem.header_source;
    return false;
  }
  const char* mirror = std::getenv(kHeaderSourceMirrorEnv);
  const bool in_place = !s.plan.source_dir.empty() && s.copied_from.empty();
  HeaderSourceResult got = provide_header_source(*h, util::cache_dir(), mirror ? mirror : "", s.paths.src, in_place);
  if (!got.error.empty()) {
    rem.refused = "build.header-source: " + got.error;
    return false;
  }
  auto cpath = env.find("CPATH");
  rem.env["CPATH"] = got.include_dir + (cpath == env.end() || cpath->second.empty() ? "" : ":" + cpath->second);
  rem.reason += "; " + h->repository + "@" + h->tag + ":" + h->path + " (" + std::to_string(h->headers.size()) +
                " files from " + got.from + ", " + h->source + ")" +
                (got.copied.empty() ? " at " + got.include_dir
                                    : " copied into the build's copy of the source at " + got.include_dir +
                                          " (header-source.diff; `torchsmith fix --revert` removes them)");
  if (!got.diff.empty())
    if (auto e = s.w.write(s.paths.run_dir + "/header-source.diff", got.diff); !e.empty()) s.say("header-source.diff: " + e);
  return true;
}

// build.own-header-dir, before its retry: the directories of the build's source (its copy, or the tree
// built in place; never build outputs or .git) in which the header's path, as the #include wrote it,
// names a file. Exactly one goes first on the retry's CPATH; none (a dependency's header) or two (which
// one is meant is not known) refuse, with rem.refused.
bool add_own_header_dir(RunState& s, RemedyPlan& rem, const std::map<std::string, std::string>& env) {
  namespace fs = std::filesystem;
  const fs::path header = fs::path(rem.own_header).lexically_normal();
  std::vector<std::string> dirs;
  std::error_code ec;
  const fs::path root(s.paths.src);
  if (header.is_absolute() || header.empty() || *header.begin() == "..") {
    rem.refused = "build.own-header-dir: " + rem.own_header + " is no relative header path";
    return false;
  }
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name == ".git" || (it.depth() == 0 && (name == "build" || name == "dist")))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_directory(ec)) continue;
    if (fs::is_regular_file(it->path() / header, ec)) dirs.push_back(it->path().string());
  }
  if (fs::is_regular_file(root / header, ec)) dirs.insert(dirs.begin(), root.string());
  if (dirs.size() != 1) {
    rem.refused = dirs.empty() ? "build.own-header-dir: the package's source has no " + rem.own_header +
                                     " (a header of a dependency, not its own)"
                               : "build.own-header-dir: " + std::to_string(dirs.size()) + " directories of the source hold " +
                                     rem.own_header + " (" + dirs[0] + ", " + dirs[1] + "): which one is meant is not known";
    return false;
  }
  auto cpath = env.find("CPATH");
  rem.env["CPATH"] = dirs[0] + (cpath == env.end() || cpath->second.empty() ? "" : ":" + cpath->second);
  rem.reason += "; " + dirs[0] + " first on CPATH";
  return true;
}

// torchsmith's own step (repair, verify) refused in its own words, which no signature knows: the run's
// diagnosis takes the cause its verdicts state, so the summary's cause: line names it (own_cause.h).
void name_own_refusal(RunState& s, const StepCtx& c, const std::string& log_path) {
  std::string what = c.kind == StepKind::verify ? failed_checks(s.rec.checks) : "";
  if (what.empty())
    if (auto log = s.w.read(log_path)) what = util::join(own_failures(*log), "; ");
  if (!what.empty()) s.rec.diagnosis = own_cause(c.step.name, what, log_path);
}

// A failed attempt: a remedy and Ended::retry, or the failure recorded with triage's diagnosis.
Ended after_failure(RunState& s, const StepCtx& c, build::StepResult& r, const build::StepSpec& spec,
                    const build::RunnerOptions& ro) {
  std::string why = !r.error.empty() ? r.error
                    : r.stopped_early ? "stopped early: " + r.fatal_id
                    : r.signal ? "killed by signal " + std::to_string(r.signal)
                               : "exit " + std::to_string(r.exit_code);
  if (s.o.sharpen) s.o.sharpen(r.diagnosis);
  std::vector<std::string> tried;
  for (const auto& t : s.rec.retries)
    if (t.step == c.step.name) tried.push_back(t.reason);
  RemedyPlan rem = choose_remedy(r.diagnosis, spec.env, s.ran, s.o.retry, s.retries, s.o.native_arches,
                                 c.kind == StepKind::build, tried);
  if (rem.retry && !rem.header_source.empty() && !bring_header_source(s, rem, spec.env)) {
    rem.retry = false;
    s.say("no retry: " + rem.refused);
  }
  if (rem.retry && !rem.own_header.empty() && !add_own_header_dir(s, rem, spec.env)) {
    rem.retry = false;
    s.say("no retry: " + rem.refused);
  }
  // Ported and still failing: the ports go back, byte for byte (their own journal), unless a remedy
  // retries a later cause the build now reaches (spconv: past the ported all.cc, maxpool.cu's half
  // operators): they stay for that retry, and go back if it fails with nothing left to try.
  if (s.ported && !s.ports_reverted && c.kind == StepKind::build) {
    if (rem.retry) {
      s.say("the source ports stay for the next retry: the build now stops on " + rem.reason.substr(0, rem.reason.find(':')));
    } else {
      s.ports_reverted = true;
      std::string e = source::revert_ports(s.paths.src);
      s.say(e.empty() ? "the source ports did not make it build: reverted byte for byte"
                      : "the source ports could not be reverted: " + e);
    }
  }
  if (!rem.retry && (try_link_instantiation(s, c) || try_ports(s, c, r.diagnosis))) return Ended::retry;
  if (rem.retry) {
    ++s.retries;
    std::string diff = rem.pybind11_for.empty() ? "" : stand_in_pybind11(s, rem);
    s.rec.retries.push_back({c.step.name, rem.reason, rem.kind, s.since(), diff});
    s.say(c.step.name + " failed (" + why + "); retrying: " + rem.reason);
    add_remedy_env(s, rem.env);  // a remedy may put the build helper on PYTHONPATH (force_include)
    if (rem.parallel) s.ran.parallel = *rem.parallel;
    if (rem.arch_list) s.ran.arch_list = *rem.arch_list;
    if (rem.cxx_std) s.ran.cxx_std = *rem.cxx_std;
    std::string build_dir = build_tree(s.plan.steps, s.paths);  // the tree the plan configured
    if (rem.clean_build) {
      std::vector<std::string> kept;
      if (auto e = clean_build_dir(build_dir, s.paths.run_dir + "/stale-build", &kept); !e.empty()) s.say(e);
    } else if (rem.reconfigure) {
      std::vector<std::string> trees{build_dir};
      // setup.py's tree: a build_ext that runs CMake configures in build/temp.<platform>-<python>,
      // whose cache keeps the first configure's CXXFLAGS; each one level down goes too.
      if (build_dir == s.paths.src + "/build")
        for (const auto& n : s.w.list(build_dir, false))
          if (s.w.exists(build_dir + "/" + n + "/CMakeCache.txt")) trees.push_back(build_dir + "/" + n);
      for (const auto& t : trees) {
        s.w.remove(t + "/CMakeCache.txt");
        s.w.remove_all(t + "/CMakeFiles");
      }
    }
    c.sr.note = "retried: " + rem.reason;
    return Ended::retry;
  }
  c.sr.status = "failed";
  c.js->status = "failed";
  c.sr.note = why;
  if (c.kind == StepKind::verify)
    if (auto f = failed_checks(s.rec.checks); !f.empty()) c.sr.note = f;
  if (!rem.refused.empty()) c.sr.note += "; remedy " + rem.kind + " not applied: " + rem.refused;
  if (ro.engine) {
    s.rec.diagnosis = triage::to_json(r.diagnosis, false);
    if (r.diagnosis.root())
      s.say(triage::render_text(r.diagnosis, false, false, "torchsmith diagnose " + report::shell_word(ro.log_path) + " --all"));
  }
  if (!r.diagnosis.root() && c.self) name_own_refusal(s, c, ro.log_path);
  s.say(c.step.name + " failed: " + c.sr.note + " (log: " + ro.log_path + ")");
  return Ended::failed;
}

// One attempt of step c: spec, journal, the runner, then what its result means.
Ended run_attempt(RunState& s, StepCtx& c, int n) {
  build::StepSpec spec;
  if (auto missing = make_spec(s, c, spec); !missing.empty()) {
    c.sr.status = "failed";
    c.sr.note = "nothing for " + missing + " yet: the step before it produced no wheel";
    s.rec.diagnosis = own_cause(c.step.name, c.sr.note, "");
    s.say(c.step.name + ": " + c.sr.note);
    return Ended::failed;
  }
  std::string log_name = "logs/" + two_digits(c.i + 1) + "-" + c.step.name + (s.python_ported || s.instantiated ? ".ported" : "") +
                         (n ? ".retry" + std::to_string(n) : "") + ".log";
  c.sr.log = log_name;
  s.say(c.counter() + std::to_string(s.plan.steps.size()) + "] " + c.step.name + ": " + join(spec.argv));
  c.js = &s.journal.upsert(c.step.name);
  c.js->input_hash = c.sr.input_hash;
  c.js->status = "running";
  s.journal.active_run = s.run_id;
  s.w.write(s.paths.journal, journal_text(s.journal));

  build::RunnerOptions ro;
  ro.log_path = s.paths.run_dir + "/" + log_name;
  build::StepResult r = attempt(s, c, spec, ro);
  c.sr.seconds = s.since() - c.sr.start;
  c.sr.exit_code = r.exit_code;
  if (c.kind == StepKind::verify && runs_kind_command(c.kind, c.step.argv)) {
    s.rec.checks = read_checks(s.w, verdicts_path(s));
    s.rec.verdicts = report::check_lines(s.rec.checks);
  }
  if (r.cancelled || (s.o.cancel && s.o.cancel->load())) {
    c.sr.status = "interrupted";
    c.js->status = "interrupted";
    s.say(c.step.name + ": interrupted; `torchsmith build --resume` with the same plan and --out continues");
    return Ended::interrupted;
  }
  if (r.ok()) {
    c.sr.status = "ok";
    c.js->status = "ok";
    c.js->seconds = c.sr.seconds;
    c.js->finished_at = s.w.utc(util::kIso8601);
    // The wheels it checked, pinned in this run's lock for a build from it.
    if (c.kind == StepKind::provision && record_provisioned_hashes(s.rec.plan) > 0) {
      plan::seal_lock(s.rec.plan);
      if (auto werr = s.w.write(s.paths.lock, s.rec.plan.dump(2) + "\n"); !werr.empty())
        s.say("the lock's wheel hashes: " + werr);
    }
    return Ended::ok;
  }
  return after_failure(s, c, r, spec, ro);
}

}  // namespace

std::string source_state(World& w, const std::string& src, bool with_fixes) {
  std::string state;
  if (auto head = w.git_head(src); !head.empty()) state += "head " + head + "\n";
  if (with_fixes)
    if (auto j = w.read(src + "/.torchsmith/journal.json")) state += "fixes " + source::sha256_hex(*j) + "\n";
  return state;
}

BuildOutcome run_build(const plan::Plan& plan, const BuildOptions& o) {
  BuildOutcome out;
  RealWorld machine(o.runner);
  RunState s(plan, o, out, o.world ? *o.world : machine);
  if (!start_run(s)) return out;

  std::string prev_hash = s.plan_hash;
  bool after_fix = false, failed = false, interrupted = false;
  std::vector<std::string> hash_in(plan.steps.size());  // prev_hash as step i began (a rerun from the build)
  for (std::size_t i = 0; i < plan.steps.size() && !failed && !interrupted; ++i) {
    const plan::Step& step = plan.steps[i];
    const StepKind kind = step_kind(step.name);
    hash_in[i] = prev_hash;
    // A step's inputs: the steps before it (chained), its command, the tree's revision, and for
    // the steps after `fix` the fix journal (a reverted fix changes what is built). The fix step
    // itself must not hash the journal it writes, or a resume would always redo it.
    std::vector<std::string> parts{prev_hash, step.name, join(step.argv), step.cwd};
    if (traits(kind).hashes_tree) parts.push_back(source_state(s.w, s.paths.src, after_fix));
    if (kind == StepKind::fix) after_fix = true;
    prev_hash = hash_parts(parts);

    report::StepRecord sr;
    sr.name = step.name;
    sr.input_hash = prev_hash;
    sr.start = s.since();
    StepCtx c{i, step, kind, own_command(step.argv), sr};
    const JournalStep* before = s.journal.find(step.name);
    if (o.resume && before && before->status == "ok" && before->input_hash == prev_hash) {
      sr.status = "skipped";
      sr.note = "done in an earlier run with the same inputs";
      s.say(c.counter() + std::to_string(plan.steps.size()) + "] " + step.name + ": skipped (" + sr.note + ")");
      s.rec.steps.push_back(sr);
      continue;
    }
    // Builds side by side may share a build overlay (its folder is named by the hash of what it holds):
    // one installs it at a time, and one that finds it complete leaves it alone (pip --upgrade would
    // remove files the other build is reading).
    const std::string overlay = !o.runner && !o.world ? plan::overlay_dir(plan, step) : "";
    TreeLock overlay_lock;
    if (!overlay.empty()) {
      overlay_lock = TreeLock::acquire(overlay, "build overlay", true, nullptr);
      if (std::filesystem::exists(overlay + kOverlayComplete)) {
        sr.status = "skipped";
        sr.note = "the build overlay " + overlay + " is complete (an earlier or a side-by-side build installed it)";
        s.say(c.counter() + std::to_string(plan.steps.size()) + "] " + step.name + ": skipped (" + sr.note + ")");
        s.rec.steps.push_back(sr);
        continue;
      }
    }
    // verify's Python imports torch while the build compiles (early_verify.h), in the environment
    // verify gets.
    if (kind == StepKind::build && o.early_verify && !o.runner && !o.world && !s.python_ported && !s.instantiated)
      if (auto req = early_verify_request(plan)) {
        auto env = s.env;
        for (const auto& [k, v] : s.remedy_env) env[k] = v;
        s.early_verify.start(*req, s.paths.run_dir + "/verify-early", env);
      }
    Ended e = Ended::retry;
    for (int n = 0; e == Ended::retry; ++n) e = run_attempt(s, c, n);
    if (!overlay.empty() && e == Ended::ok) (void)util::write_file_atomic(overlay + kOverlayComplete, "complete\n");
    if (kind == StepKind::verify) s.early_verify.stop();
    failed = e == Ended::failed;
    interrupted = e == Ended::interrupted;
    // Verify failed on the package's own Python: ported once, the steps run again from the build;
    // failing again, the ports go back byte for byte.
    std::size_t rerun_from = plan.steps.size();
    if (failed && kind == StepKind::verify && (s.python_ported || s.instantiated) && !s.ports_reverted) {
      s.ports_reverted = true;
      std::string err = source::revert_ports(s.paths.src);
      const std::string which = s.python_ported ? "the Python ports" : "the ports";
      s.say(err.empty() ? which + " did not make it verify: reverted byte for byte"
                        : which + " could not be reverted: " + err);
    } else if (failed && (try_python_ports(s, c) || try_instantiation(s, c) || try_subpackages(s, c))) {
      for (std::size_t j = 0; j < i && rerun_from == plan.steps.size(); ++j)
        if (step_kind(plan.steps[j].name) == StepKind::build) rerun_from = j;
    }
    s.rec.steps.push_back(sr);
    s.w.write(s.paths.journal, journal_text(s.journal));
    s.write_files();  // an interrupted or killed run still leaves a readable report
    if (rerun_from < plan.steps.size()) {
      failed = false;
      s.rec.diagnosis = nullptr;  // the failure the ports answer; the rerun's own, if any, replaces it
      prev_hash = hash_in[rerun_from];
      i = rerun_from - 1;  // unsigned: wraps to the maximum when rerun_from is 0, and ++i makes it 0
    }
  }
  finish_run(s, failed, interrupted);
  return out;
}

}  // namespace ts::run

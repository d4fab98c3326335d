// torchsmith fix DIR: apply the knowledge base's fixes for a build to a source tree (or revert them).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/knowledge.h"
#include "core/arch_list.h"
#include "kb/kb.h"
#include "source/apply.h"
#include "source/fix.h"
#include "source/fix_plan.h"
#include "source/port.h"
#include "util/fs.h"
#include "util/printable.h"

namespace ts::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct FixOptions {
  std::string dir, spec, cuda, arches, cmake, gcc, plan;
  std::vector<std::string> ids;
  bool dry_run = false, revert = false, force = false, json = false, list = false, port = false;
};

int bad_input(const std::string& msg) {
  std::fprintf(stderr, "torchsmith fix: %s\n", msg.c_str());
  return 2;
}

// "torch==2.4.1" (or "torch 2.4.1"); when no spec is given, a torch tree's version.txt says.
bool read_context(const FixOptions& o, source::FixContext& ctx, std::string& error) {
  std::string from;
  if (!o.spec.empty()) {
    auto eq = o.spec.find("==");
    if (eq == std::string::npos || eq == 0 || eq + 2 >= o.spec.size()) {
      error = "--for '" + o.spec + "': write PACKAGE==VERSION, e.g. torch==2.4.1";
      return false;
    }
    ctx.package = o.spec.substr(0, eq);
    ctx.version = FactVersion(o.spec.substr(eq + 2));
  } else if (auto v = util::read_file((fs::path(o.dir) / "version.txt").string())) {
    ctx.version = FactVersion(util::trim(*v));  // torch trees carry version.txt ("2.4.0a0")
    from = " (" + (fs::path(o.dir) / "version.txt").string() + ")";
  }
  if (!ctx.version.empty() && !ctx.version.parsed()) {
    // What a file holds is shown with its control characters escaped: an ESC from version.txt
    // must not reach the terminal.
    error = "version '" + util::printable(ctx.version.text()) + "'" + from + " does not parse; give --for torch==X.Y.Z";
    return false;
  }
  for (auto [flag, value, into] : {std::tuple{"--cuda", &o.cuda, &ctx.cuda}, {"--cmake", &o.cmake, &ctx.cmake},
                                   {"--gcc", &o.gcc, &ctx.gcc}}) {
    *into = FactVersion(*value);  // the one parse of the flag
    if (!value->empty() && !into->parsed()) {
      error = std::string(flag) + " '" + *value + "' is not a version";
      return false;
    }
  }
  if (!o.arches.empty()) {
    std::string why;
    auto list = ArchList::parse(o.arches, nullptr, &why);
    if (!list) {
      error = "--arch '" + o.arches + "': " + why + " (give numbers: \"8.9\", \"12.0\", \"sm_120\")";
      return false;
    }
    ctx.arches = list->arches();
  }
  return true;
}

// The fixes a lock file pins, in the plan's order (source/fix_plan.h).
bool read_plan(const std::string& path, const source::FixSet& set, std::vector<const source::Fix*>& out,
               std::string& error) {
  auto text = util::read_file(path);
  if (!text) {
    error = path + ": cannot read the plan";
    return false;
  }
  json j = json::parse(*text, nullptr, false);
  if (!source::planned_fixes(j, set, out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

int run_revert(const FixOptions& o) {
  auto r = source::revert_fixes(o.dir, {o.force, o.dry_run});
  if (o.json) {
    std::printf("%s\n", json{{"ok", r.ok}, {"restored", r.restored}, {"unchanged", r.unchanged},
                             {"refused", r.refused}, {"errors", r.errors}, {"dry_run", o.dry_run}}
                            .dump(2)
                            .c_str());
  } else {
    if (o.dry_run) std::fputs(r.diff.c_str(), stdout);
    if (!r.had_journal && r.ok) std::printf("nothing to revert: torchsmith has not edited %s\n", o.dir.c_str());
    for (const auto& f : r.restored) std::printf("%s %s\n", o.dry_run ? "would restore" : "restored", f.c_str());
    for (const auto& e : r.errors) std::fprintf(stderr, "torchsmith fix: %s\n", e.c_str());
  }
  return r.ok ? 0 : 1;
}

// --port: the source ports (data/kb/ports.toml) on DIR, journaled apart from the fixes.
int run_ports(const GlobalOptions& g, const FixOptions& o) {
  if (o.revert) {
    std::string why = source::revert_ports(o.dir);
    if (!why.empty()) std::fprintf(stderr, "torchsmith fix: %s\n", why.c_str());
    else std::printf("the source ports in %s are reverted (byte for byte)\n", o.dir.c_str());
    return why.empty() ? 0 : 1;
  }
  const auto& [set, errors] = g.knowledge().get(source::kPortTable);
  for (const auto& e : errors) std::fprintf(stderr, "torchsmith fix: kb: %s\n", e.c_str());
  if (!errors.empty()) return bad_input("the ports in the knowledge base have errors (torchsmith kb check lists them)");
  auto r = source::apply_ports(o.dir, set, o.dry_run);
  if (o.json) {
    json files = json::array();
    for (const auto& f : r.files) files.push_back({{"path", f.path}, {"ports", f.ports}, {"rewrites", f.rewrites}});
    std::printf("%s\n", json{{"ok", r.ok}, {"dry_run", o.dry_run}, {"ports", r.ports}, {"files", files},
                             {"errors", r.errors}, {"diff", r.diff}}.dump(2).c_str());
    return r.ok ? 0 : 1;
  }
  if (!r.changed()) std::printf("no port applies to %s\n", o.dir.c_str());
  for (const auto& id : r.ports) {
    const source::Port* p = set.find(id);  // ids come from the set
    std::string when = p->removed_in.empty() ? "deprecated" : "removed in torch " + p->removed_in;
    std::printf("%-28s %s (%s)\n", id.c_str(), when.c_str(), p->source.substr(0, p->source.find(' ')).c_str());
  }
  if (o.dry_run) std::fputs(r.diff.c_str(), stdout);
  else if (r.changed())
    std::printf("ported %zu file(s); `torchsmith fix %s --port --revert` restores them\n", r.files.size(), o.dir.c_str());
  for (const auto& e : r.errors) std::fprintf(stderr, "torchsmith fix: %s\n", e.c_str());
  return r.ok ? 0 : 1;
}

int run_fix(const GlobalOptions& g, const FixOptions& o) {
  std::error_code ec;
  if (o.dir.empty() && !o.list) return bad_input("give the source tree to fix: torchsmith fix DIR (--list names the fixes)");
  if (!o.list && !fs::is_directory(o.dir, ec)) return bad_input(o.dir + ": not a directory; give the source tree to fix");
  if (o.force && !o.revert) return bad_input("--force goes with --revert (it restores files changed since torchsmith edited them)");
  if (o.port) return run_ports(g, o);
  if (o.revert) return run_revert(o);

  const auto& [set, errors] = g.knowledge().fixes();
  for (const auto& e : errors) std::fprintf(stderr, "torchsmith fix: kb: %s\n", e.c_str());
  if (!errors.empty()) return bad_input("the fixes in the knowledge base have errors (torchsmith kb check lists them)");

  if (o.list) {
    // id, what it is for, where it is written: enough to pick one for --fix or to read it.
    auto what = [](const source::Fix& f) {
      return f.when.package + " " + (f.when.version ? f.when.version->describe() : "any version");
    };
    int id_w = 0, what_w = 0;
    for (const auto& f : set.fixes) {
      id_w = std::max(id_w, static_cast<int>(f.id.size()));
      what_w = std::max(what_w, static_cast<int>(what(f).size()));
    }
    for (const auto& f : set.fixes)
      std::printf("%-*s  %-*s  %s:%d\n", id_w, f.id.c_str(), what_w, what(f).c_str(), f.file.c_str(), f.line);
    return 0;
  }
  source::FixContext ctx;
  std::string why;
  if (!read_context(o, ctx, why)) return bad_input(why);

  std::vector<const source::Fix*> chosen;
  if (!o.plan.empty()) {
    if (!o.ids.empty()) return bad_input("--plan and --fix both choose the fixes; give one of them");
    if (!read_plan(o.plan, set, chosen, why)) return bad_input(why);
  } else if (!o.ids.empty()) {
    for (const auto& id : o.ids) {
      const source::Fix* f = set.find(id);
      if (!f) return bad_input("no fix '" + id + "' in the knowledge base; `torchsmith fix DIR --list` names them");
      chosen.push_back(f);
    }
  } else {
    if (ctx.version.empty())
      return bad_input(o.dir + " has no version.txt naming a torch version (it may not be a torch tree); say which "
                       "build this is: --for PACKAGE==VERSION (torch==2.4.1), or name fixes with --fix ID");
    chosen = source::select_fixes(set, ctx);
  }

  auto r = source::apply_fixes(o.dir, chosen, ctx, {o.dry_run});
  if (o.json) {
    json fixes = json::array();
    for (const auto& f : r.fixes)
      fixes.push_back({{"id", f.id}, {"hash", f.hash}, {"state", std::string(source::to_string(f.state))},
                       {"messages", f.messages}});
    json env = json::object();
    for (const auto& [k, v] : r.env) env[k] = v;
    std::printf("%s\n", json{{"ok", r.ok}, {"dry_run", o.dry_run}, {"fixes", fixes}, {"changed_files", r.changed_files},
                             {"env", env}, {"cmake_options", r.cmake_options}, {"errors", r.errors},
                             {"diff", r.diff}}
                            .dump(2)
                            .c_str());
    return r.ok ? 0 : 1;
  }
  if (chosen.empty()) {
    // Say what was looked for: a lock's list, or the knowledge base's fixes for this package and version.
    if (!o.plan.empty()) std::printf("%s pins no fixes; nothing to do\n", o.plan.c_str());
    else std::printf("no fix in the knowledge base applies to %s %s (`torchsmith fix --list` names them all)\n",
                     ctx.package.c_str(), ctx.version.empty() ? "(version not known)" : ctx.version.text().c_str());
  }
  for (const auto& f : r.fixes)
    std::printf("%-40s %s\n", f.id.c_str(), std::string(source::to_string(f.state)).c_str());
  for (const auto& [k, v] : r.env) std::printf("  build environment: %s=%s\n", k.c_str(), v.c_str());
  for (const auto& c : r.cmake_options) std::printf("  cmake option: %s\n", c.c_str());
  if (o.dry_run) std::fputs(r.diff.c_str(), stdout);
  else if (!r.changed_files.empty())
    std::printf("edited %zu file(s); `torchsmith fix %s --revert` restores them\n", r.changed_files.size(), o.dir.c_str());
  for (const auto& e : r.errors) std::fprintf(stderr, "torchsmith fix: %s\n", e.c_str());
  if (!r.ok) std::fprintf(stderr, "torchsmith fix: nothing was written\n");
  return r.ok ? 0 : 1;
}

}  // namespace

void register_fix(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [c, o] = add_command<FixOptions>(
      app, exit_code, [&g](FixOptions& x) { return run_fix(g, x); },
      "fix",
      "Apply the knowledge base's fixes to a source tree: edits that an older torch or extension\n"
      "package needs for a newer CUDA, GPU, compiler or CMake, or to compile only the planned arches\n"
      "(--arch), each anchored to text that must match exactly once ('upstream drifted'\n"
      "otherwise, and nothing is written). Idempotent; journaled in DIR/.torchsmith/ so that --revert\n"
      "restores every file byte for byte.");
  exit_codes(c, "0 applied or nothing to do, 1 upstream drifted or a fix failed (nothing written), 2 bad input");
  c->add_option("dir", o->dir, "The source tree (not needed with --list).")->type_name("DIR");
  c->add_option("--for", o->spec, "What is built: torch==2.4.1 (default: the tree's version.txt).")->type_name("SPEC");
  c->add_option("--cuda", o->cuda, "nvcc version the build uses, e.g. 12.8.")->type_name("VER");
  c->add_option("--arch", o->arches, "Arches asked for, e.g. \"8.9;12.0\".")->type_name("LIST");
  c->add_option("--cmake", o->cmake, "CMake version, e.g. 4.2.")->type_name("VER");
  c->add_option("--gcc", o->gcc, "Host compiler version, e.g. 13.3.")->type_name("VER");
  c->add_option("--plan", o->plan, "Apply the fixes this lock file pins (checked by their hashes).")->type_name("LOCK");
  c->add_option("--fix", o->ids, "Apply these fixes by id, whatever their conditions (repeatable).")->type_name("ID");
  c->add_flag("--dry-run", o->dry_run, "Print the unified diff; write nothing.");
  c->add_flag("--revert", o->revert, "Restore every file torchsmith edited in DIR.");
  c->add_flag("--force", o->force, "With --revert: restore files changed since torchsmith edited them too.");
  c->add_flag("--list", o->list, "List the fixes the knowledge base holds.");
  c->add_flag("--port", o->port, "Apply the source ports instead (data/kb/ports.toml: rewrites of torch APIs a release\n"
              "removed, in every C/C++/CUDA file); with --dry-run the diff, with --revert undo them.");
  c->add_flag("--json", o->json, "Machine-readable result.");
}

}  // namespace ts::cli

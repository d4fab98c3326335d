// torchsmith fetch SPEC: a complete source tree (every submodule at its recorded commit), or the
// same check and repair on a tree already here (--source DIR).
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/knowledge.h"
#include "cli/option_table.h"
#include "kb/kb.h"
#include "source/fetch.h"
#include "source/pypi.h"
#include "util/cache_dir.h"
#include "util/safe_path.h"
#include "util/url.h"

namespace ts::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct FetchCliOptions {
  std::string spec, dir, source;
  std::string sdist, sha256;  // a source archive by URL, checked by the index's sha256
  std::vector<std::string> mirrors;
  int jobs = 8, retries = 3;
  bool json = false;
};

int bad_input(const std::string& msg) {
  std::fprintf(stderr, "torchsmith fetch: %s\n", util::redact_text(msg).c_str());
  return 2;
}

// "pytorch-v2.4.1" from https://github.com/pytorch/pytorch and v2.4.1.
std::string default_dir(const source::SourceSpec& s) {
  std::string name = s.url;
  while (!name.empty() && name.back() == '/') name.pop_back();
  name = name.substr(name.find_last_of("/:") == std::string::npos ? 0 : name.find_last_of("/:") + 1);
  if (name.size() > 4 && name.substr(name.size() - 4) == ".git") name.resize(name.size() - 4);
  std::string ref = s.ref;
  for (auto& c : ref)
    if (c == '/') c = '-';
  return ref.empty() ? name : name + "-" + ref;
}

json report_json(const source::RepairResult& r) {
  json mods = json::array();
  for (const auto& m : r.after.modules)
    mods.push_back({{"path", m.path}, {"expected", m.expected}, {"actual", m.actual},
                    {"ok", m.problem == source::SubmoduleState::Problem::ok}, {"detail", m.describe()}});
  return {{"complete", r.after.complete()}, {"submodules", mods}, {"repaired", r.repaired},
          {"moved_aside", r.moved_aside}, {"errors", r.errors}};
}

void print_report(const source::RepairResult& r) {
  for (const auto& p : r.repaired) std::printf("repaired %s\n", p.c_str());
  for (const auto& p : r.moved_aside) std::printf("kept a half-populated copy in %s\n", p.c_str());
  for (const auto& m : r.after.broken()) std::printf("broken: %s\n", m.describe().c_str());
  for (const auto& e : r.errors) std::fprintf(stderr, "torchsmith fetch: %s\n", e.c_str());
}

int run_fetch(const GlobalOptions& g, const FetchCliOptions& o) {
  source::GitOptions git;
  for (const auto& m : o.mirrors) {
    auto eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size())
      return bad_input("--mirror '" + m + "': write FROM=TO, e.g. https://github.com/=https://mirror.example/github/");
    git.mirrors.push_back({m.substr(0, eq), m.substr(eq + 1)});
    if (auto e = util::check_git_url(git.mirrors.back().to); !e.empty()) return bad_input("--mirror: " + e);
    if (source::is_local_url(git.mirrors.back().to)) git.allow_file_protocol = true;
  }
  auto progress = [&](const std::string& line) {
    if (!o.json && !g.quiet) std::fprintf(stderr, "torchsmith fetch: %s\n", util::redact_text(line).c_str());
  };

  if (!o.sdist.empty()) {
    // A plan's sdist: into the cache by its sha256 (a second build reuses it), then unpacked as {src}.
    if (o.sha256.empty() || o.dir.empty()) return bad_input("--sdist needs --sha256 (the index's) and -o DIR");
    if (o.sdist.rfind("https://", 0) != 0 && o.sdist.rfind("file://", 0) != 0)
      return bad_input("--sdist " + o.sdist + ": only https:// and file:// URLs are fetched");
    source::Sdist sd;
    sd.url = o.sdist;
    sd.sha256 = o.sha256;
    sd.filename = o.sdist.substr(o.sdist.find_last_of('/') + 1);
    std::string cache = util::cache_dir(), why;
    if (cache.empty()) return bad_input("no cache directory: set HOME, XDG_CACHE_HOME or TORCHSMITH_CACHE");
    std::string archive = source::fetch_sdist(sd, cache, std::chrono::minutes(10), &why);
    if (archive.empty()) { std::fprintf(stderr, "torchsmith fetch: %s\n", why.c_str()); return 1; }
    progress("sdist " + sd.filename + " (sha256 checked) at " + archive);
    if (!source::unpack_sdist(archive, o.dir, &why)) { std::fprintf(stderr, "torchsmith fetch: %s\n", why.c_str()); return 1; }
    if (o.json) std::printf("%s\n", json{{"ok", true}, {"dir", o.dir}, {"archive", archive}, {"sha256", o.sha256}}.dump(2).c_str());
    else std::printf("%s: unpacked from %s\n", o.dir.c_str(), sd.filename.c_str());
    return 0;
  }

  if (!o.source.empty()) {
    std::error_code ec;
    std::string tree = o.source;
    if (fs::is_regular_file(o.source, ec)) {
      // A release archive: unpacked next to it (or into --dir), then checked like any tree.
      std::string name = fs::path(o.source).filename().string();
      name = name.substr(0, name.find(".tar"));
      std::string why;
      tree = source::extract_archive(o.source, o.dir.empty() ? name : o.dir, &why);
      if (tree.empty()) return bad_input(why);
      progress("unpacked " + o.source + " into " + tree);
    } else if (!fs::is_directory(o.source, ec)) {
      return bad_input(o.source + ": neither a directory nor an archive");
    }
    auto r = source::check_and_repair(tree, git, o.retries, progress);
    if (o.json) std::printf("%s\n", report_json(r).dump(2).c_str());
    else {
      print_report(r);
      if (r.ok)
        std::printf("%s: complete, %zu submodule(s) %s\n", tree.c_str(), r.after.modules.size(),
                    r.after.archive ? "present (an archive: no commits to compare)" : "at their recorded commits");
    }
    return r.ok ? 0 : 1;
  }

  if (o.spec.empty()) return bad_input("give what to fetch (torch==2.4.1 or URL@REF), or --source DIR to check a tree");
  const auto& [sources, errors] = g.knowledge().sources();
  for (const auto& e : errors) std::fprintf(stderr, "torchsmith fetch: kb: %s\n", e.c_str());
  source::SourceSpec spec;
  std::string why;
  if (!source::parse_source_spec(o.spec, sources, spec, why)) return bad_input(why);
  if (spec.url.find(std::string(util::kRedacted) + "@") != std::string::npos ||
      spec.url.find("=" + std::string(util::kRedacted)) != std::string::npos)
    return bad_input("'" + spec.url + "' holds credentials that were redacted when the plan was stored; give the "
                     "URL with them again (--source URL@REF), or let git's credential helper supply them");
  if (source::is_local_url(spec.url)) git.allow_file_protocol = true;  // the user's own local repository

  source::FetchOptions fo;
  fo.dir = o.dir.empty() ? default_dir(spec) : o.dir;
  // A name made from the URL is one directory here, never '..' or a path: else ask for --dir.
  if (o.dir.empty())
    if (std::string why = util::check_path_component(fo.dir); !why.empty())
      return bad_input("cannot name a directory after '" + spec.url + "' (" + why + "); give -o DIR");
  fo.git = git;
  fo.jobs = o.jobs;
  fo.retries = o.retries;
  fo.progress = progress;
  auto r = source::fetch_source(spec, fo);
  if (o.json) {
    json j = report_json(r.check);
    j["ok"] = r.ok;
    j["dir"] = fo.dir;
    j["url"] = util::redact_url(spec.url);
    j["ref"] = spec.ref;
    j["head"] = r.head;
    j["resumed"] = r.resumed;
    j["errors"] = r.errors;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    print_report(r.check);
    for (const auto& e : r.errors)
      if (std::find(r.check.errors.begin(), r.check.errors.end(), e) == r.check.errors.end())
        std::fprintf(stderr, "torchsmith fetch: %s\n", e.c_str());
    if (r.ok) std::printf("%s at %s (%s)\n", fo.dir.c_str(), r.head.substr(0, 12).c_str(), spec.ref.empty() ? "default branch" : spec.ref.c_str());
    else std::fprintf(stderr, "torchsmith fetch: incomplete; run it again to resume, or `torchsmith fetch --source %s` to check and repair\n", fo.dir.c_str());
  }
  return r.ok ? 0 : 1;
}

}  // namespace

void register_fetch(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [c, o] = add_command<FetchCliOptions>(
      app, exit_code, [&g](FetchCliOptions& x) { return run_fetch(g, x); },
      "fetch",
      "Get a complete source tree: clone (partial where the server allows), check out the release tag\n"
      "or ref, bring in every submodule recursively with retries, then check that each one is\n"
      "populated and at the recorded commit, repairing only the broken ones. Re-running resumes.\n"
      "--source DIR runs the check and repair on an existing tree.");
  exit_codes(c, "0 complete, 1 not complete (run it again to resume) or the download failed, 2 bad input");
  c->add_option("spec", o->spec, "torch==2.4.1, or a git URL with @REF (tag, branch or commit).")->type_name("SPEC");
  c->add_option("-o,--out", o->dir, "Where the tree goes (default: <repo>-<ref> here).")->type_name("DIR");
  c->add_option("--dir", o->dir, "Old spelling of --out.")->type_name("DIR")->group("");
  c->add_option("--mirror", o->mirrors, "Rewrite URLs starting with FROM to TO (git insteadOf); repeatable.")
      ->type_name("FROM=TO");
  add_number(c, "-j,--jobs", o->jobs, 1, 256, "Submodules cloned in parallel (default 8).");
  add_number(c, "--retries", o->retries, 0, 99, "Retries for each network step (default 3).");
  c->add_option("--source", o->source, "Check (and repair) this existing tree, or unpack this source archive\n"
                                     "(into --out) and check it, instead of cloning.")->type_name("DIR|ARCHIVE");
  c->add_option("--sdist", o->sdist, "Download this source archive into the cache (kept only when its sha256 is\n"
                                   "--sha256's) and unpack it as --out (a plan's NAME==VERSION from an index).")
      ->type_name("URL");
  c->add_option("--sha256", o->sha256, "The sdist's sha256 as the index gives it.")->type_name("HEX");
  c->add_flag("--json", o->json, "Machine-readable result.");
}

}  // namespace ts::cli

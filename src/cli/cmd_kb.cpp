// torchsmith kb check: validate the knowledge base (built-in and overlays), every bad entry with
// file:line.
#include <cstdio>

#include "cli/commands.h"
#include "cli/kb_refresh.h"
#include "cli/knowledge.h"
#include "kb/check.h"

namespace ts::cli {

namespace {

struct KbOptions {
  std::vector<std::string> dirs;
  bool only_dirs = false;
};

int run_check(const GlobalOptions& g, const KbOptions& o) {
  std::vector<std::string> dirs = g.kb_dirs;
  dirs.insert(dirs.end(), o.dirs.begin(), o.dirs.end());
  if (!o.only_dirs) dirs = Knowledge::overlay_dirs(dirs);
  auto errors = kb::check_kb(dirs, !o.only_dirs, stage_tables());
  for (const auto& e : errors) std::printf("%s\n", e.str().c_str());
  if (errors.empty())
    for (const auto& r : kb::overlay_replacements(dirs)) std::printf("note: %s; the overlay wins\n", r.c_str());
  if (!errors.empty()) {
    std::fprintf(stderr, "torchsmith kb check: %zu error(s)\n", errors.size());
    return 2;
  }
  std::printf("knowledge base ok: built-in%s%zu overlay dir(s)\n",
              o.only_dirs ? " skipped, " : " + ", dirs.size());
  return 0;
}

}  // namespace

void register_kb(CLI::App& app, GlobalOptions& g, int& exit_code) {
  CLI::App* kbc = app.add_subcommand(
      "kb",
      "Work with the knowledge base: the data files (GPUs, CUDA toolkits, torch releases,\n"
      "failure signatures, fixes) that every decision comes from.");
  kbc->require_subcommand(1);
  auto [check, o] = add_command<KbOptions>(
      *kbc, exit_code, [&g](KbOptions& x) { return run_check(g, x); },
      "check",
      "Validate the built-in knowledge base and overlays: TOML syntax, required keys, versions\n"
      "and ranges that parse, arches that exist, patterns that compile. Every bad entry is\n"
      "printed as FILE:LINE: problem. Exit 0 when clean, 2 when anything is wrong.");
  check->add_option("dirs", o->dirs, "Overlay directories to check (as --kb DIR).")
      ->type_name("DIR");
  check->add_flag("--only", o->only_dirs, "Check only the given directories, not the built-in KB.");

  auto [refresh, r] = add_command<RefreshOptions>(
      *kbc, exit_code, [&g](RefreshOptions& x) { return run_refresh(g, x); },
      "refresh",
      "Read upstream metadata (PyPI's JSON for torch and nvidia-cuda-nvcc*) and write an overlay\n"
      "(torch.toml, cuda.toml) with what it says: new torch release lines, the CUDA of each\n"
      "default wheel, toolkits the KB lacks (with the arches their nvcc lists, when a toolkit of\n"
      "that version is on this machine). Each entry cites the URL and the date it was read and has\n"
      "status \"refreshed\". The built-in data is never edited; where PyPI disagrees with it the\n"
      "conflict is printed and the refreshed value wins. Bad metadata: FILE:LINE errors, nothing\n"
      "written (exit 2).");
  refresh->add_option("--out", r->out,
                      "Overlay directory to write (default: ~/.config/torchsmith/kb/refreshed, which every\n"
                      "command loads).")
      ->type_name("DIR");
  refresh->add_option("--index", r->index, "PyPI JSON API base URL (default https://pypi.org/pypi).")->type_name("URL");
  refresh->add_option("--offline", r->offline,
                      "Read recorded metadata instead of the network: '# url: URL', '# read: YYYY-MM-DD', then\n"
                      "the JSON; several responses per file, repeatable.")
      ->type_name("FILE");
  refresh->add_option("--save", r->save, "Also write what was fetched as a recording (for --offline).")->type_name("FILE");
}

}  // namespace ts::cli

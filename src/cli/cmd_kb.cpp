// torchsmith kb check: validate the knowledge base (built-in and overlays), every bad entry with
// file:line.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/commands.h"
#include "cli/kb_refresh.h"
#include "cli/knowledge.h"
#include "kb/check.h"
#include "kb/embedded.h"

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

// Bare `torchsmith kb`: what the commands read, overlays included, and which built-in entries they replace.
int run_show(const GlobalOptions& g) {
  std::printf("built-in: %zu files (data/kb, in the binary)\n", kb::embedded_files().size());
  std::vector<std::string> dirs = Knowledge::overlay_dirs(g.kb_dirs);
  if (dirs.empty()) {
    std::printf("overlays: none; the built-in knowledge base alone decides\n");
  } else {
    std::printf("overlays in use, in load order (a later entry wins over an earlier one and over the built-in):\n");
    auto defaults = kb::default_overlay_dirs();
    for (const auto& d : dirs) {
      bool every = std::find(defaults.begin(), defaults.end(), d) != defaults.end();
      std::string names;
      std::error_code ec;
      for (std::filesystem::recursive_directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".toml")
          names += (names.empty() ? "" : ", ") + std::filesystem::relative(it->path(), d, ec).generic_string();
      if (ec) names = "unreadable: " + ec.message();
      std::printf("  %s (%s): %s\n", d.c_str(), every ? "read by every command" : "--kb",
                  names.empty() ? "no .toml files" : names.c_str());
    }
    for (const auto& r : kb::overlay_replacements(dirs)) std::printf("  replaces %s\n", r.c_str());
  }
  std::printf("`torchsmith kb check` validates them; `torchsmith kb refresh` reads newer torch and CUDA "
              "releases from PyPI into an overlay\n");
  return 0;
}

}  // namespace

void register_kb(CLI::App& app, GlobalOptions& g, int& exit_code) {
  CLI::App* kbc = app.add_subcommand(
      "kb",
      "Work with the knowledge base: the data files (GPUs, CUDA toolkits, torch releases,\n"
      "failure signatures, fixes) that every decision comes from.");
  kbc->require_subcommand(0, 1);
  exit_codes(kbc, "0 listed (kb alone: the overlays in use), 2 bad usage; each subcommand's --help lists its own");
  kbc->callback([&g, &exit_code, kbc] {
    if (kbc->get_subcommands().empty()) exit_code = run_show(g);
  });
  auto [check, o] = add_command<KbOptions>(
      *kbc, exit_code, [&g](KbOptions& x) { return run_check(g, x); },
      "check",
      "Validate the built-in knowledge base and overlays: TOML syntax, required keys, versions\n"
      "and ranges that parse, arches that exist, patterns that compile. Every bad entry is\n"
      "printed as FILE:LINE: problem.");
  exit_codes(check, "0 clean, 2 anything is wrong (each problem printed as FILE:LINE)");
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
      "written.");
  exit_codes(refresh, "0 written, 1 PyPI could not be read or the overlay not written (nothing written), "
                      "2 bad metadata or a broken knowledge base (nothing written)");
  refresh->add_option("-o,--out", r->out,
                      "Overlay directory to write (default: ~/.config/torchsmith/kb/refreshed, which every "
                      "command loads, so its entries then win over the built-in ones).")
      ->type_name("DIR");
  refresh->add_option("--index", r->index, "PyPI JSON API base URL (default https://pypi.org/pypi).")->type_name("URL");
  refresh->add_option("--offline", r->offline,
                      "Read recorded metadata instead of the network: '# url: URL', '# read: YYYY-MM-DD', then\n"
                      "the JSON; several responses per file, repeatable.")
      ->type_name("FILE");
  refresh->add_option("--save", r->save, "Also write what was fetched as a recording (for --offline).")->type_name("FILE");
}

}  // namespace ts::cli

// torchsmith kb check: validate the knowledge base (built-in and overlays), every bad entry with
// file:line.
#include <cstdio>

#include "cli/commands.h"
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
  if (!o.only_dirs) {
    auto defaults = kb::default_overlay_dirs();
    dirs.insert(dirs.begin(), defaults.begin(), defaults.end());
  }
  auto errors = kb::check_kb(dirs, !o.only_dirs);
  for (const auto& e : errors) std::printf("%s\n", e.str().c_str());
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
  auto o = std::make_shared<KbOptions>();
  CLI::App* check = kbc->add_subcommand(
      "check",
      "Validate the built-in knowledge base and overlays: TOML syntax, required keys, versions\n"
      "and ranges that parse, arches that exist, patterns that compile. Every bad entry is\n"
      "printed as FILE:LINE: problem. Exit 0 when clean, 2 when anything is wrong.");
  check->add_option("dirs", o->dirs, "Overlay directories to check (as --kb DIR).")
      ->type_name("DIR");
  check->add_flag("--only", o->only_dirs, "Check only the given directories, not the built-in KB.");
  check->callback([&g, &exit_code, o] { exit_code = run_check(g, *o); });
}

}  // namespace ts::cli

// torchsmith kb check: validate the knowledge base (built-in and overlays), every bad entry with
// file:line.
#include <cctype>
#include <cstdio>

#include "cli/commands.h"
#include "cli/kb_refresh.h"
#include "kb/check.h"
#include "package/wheel_policy.h"
#include "plan/build_kb.h"
#include "plan/provision_request.h"
#include "source/fix.h"
#include "triage/signature.h"

namespace ts::cli {

namespace {

// Stages that own a KB file report "file:line: message"; kb check wants {file, line} back.
kb::KbError to_kb_error(const std::string& e, std::string_view file) {
  std::string rest = e;
  if (rest.rfind(file, 0) == 0) rest = rest.substr(file.size());
  int line = 0;
  if (!rest.empty() && rest[0] == ':') {
    std::size_t i = 1;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) line = line * 10 + (rest[i++] - '0');
    rest = rest.substr(i);
    if (rest.rfind(": ", 0) == 0) rest = rest.substr(2);
  }
  return {{std::string(file), line}, rest};
}

// Each stage validates the files it reads; the KB check runs them all.
void register_stage_validators() {
  plan::register_kb_validators();  // build.toml
  plan::register_provision_validator();  // provision.toml
  auto wrap = [](auto check) {
    return [check](std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
      for (const auto& e : check(file, text)) errors.push_back(to_kb_error(e, file));
    };
  };
  kb::register_validator("signatures.toml", wrap(triage::check_signatures_text));
  kb::register_validator("fixes/", wrap(source::check_fixes_text));
  package::register_wheel_policy_validator();  // manylinux.toml
}

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
  register_stage_validators();
  auto errors = kb::check_kb(dirs, !o.only_dirs);
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

  auto r = std::make_shared<RefreshOptions>();
  CLI::App* refresh = kbc->add_subcommand(
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
  refresh->callback([&g, &exit_code, r] { exit_code = run_refresh(g, *r); });
}

}  // namespace ts::cli

// torchsmith verify PATH... [--plan LOCK] [--arch LIST] [--json]: prove what a build made is what
// was asked: each ELF (alone, under a directory, or inside a wheel) reads, every NEEDED resolves,
// and its GPU code covers the arch list.
// Exit 0: every check passed (notes and warnings allowed); 1: a check failed; 2: bad input.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "plan/plan.h"
#include "report/style.h"
#include "util/fs.h"
#include "util/process.h"
#include "verify/verify.h"

namespace ts::cli {
namespace {

struct VerifyCliOptions {
  std::vector<std::string> paths;
  std::string plan;
  std::string arch;
  std::vector<std::string> ld_library_path;
  std::vector<std::string> preload;
  bool json = false;
};

int bad_input(const std::string& msg) {
  std::fprintf(stderr, "torchsmith verify: %s\n", msg.c_str());
  return 2;
}

// The arch list a lock file asks for ("" for a CPU build), or nullopt with *error.
std::optional<std::string> plan_arch_list(const std::string& path, std::string* error) {
  auto text = util::read_file(path);
  if (!text) { *error = path + ": cannot read"; return std::nullopt; }
  try {
    nlohmann::json j = nlohmann::json::parse(*text);
    if (j.is_object() && j.contains("plan") && j["plan"].is_object()) j = j["plan"];
    return j.get<plan::Plan>().arch_list;
  } catch (const std::exception& e) {
    *error = path + ": not a torchsmith lock file (" + std::string(e.what()) +
             "); write one with `torchsmith plan SPEC -o LOCK`";
    return std::nullopt;
  }
}

std::string colored(const report::Style& s, verify::Outcome o) {
  const char* n = verify::outcome_name(o);
  switch (o) {
    case verify::Outcome::pass: return s.green(n);
    case verify::Outcome::note: return s.cyan(n);
    case verify::Outcome::warn: return s.yellow(n);
    case verify::Outcome::fail: return s.red(n);
  }
  return n;
}

void print_table(const verify::VerifyReport& rep, const report::Style& s) {
  std::string last;
  int fails = 0, warns = 0;
  for (const auto& v : rep.verdicts) {
    if (v.file != last) {
      std::printf("%s\n", s.bold(v.file.empty() ? "(all files)" : v.file).c_str());
      last = v.file;
    }
    // Pad before colouring so the columns line up whatever the escape codes.
    std::string check = v.check;
    check.resize(std::max<std::size_t>(check.size(), 16), ' ');
    std::string outcome = verify::outcome_name(v.outcome);
    std::string pad(outcome.size() < 5 ? 5 - outcome.size() : 0, ' ');
    std::printf("  %s %s%s %s\n", check.c_str(), colored(s, v.outcome).c_str(), pad.c_str(), v.detail.c_str());
    fails += v.outcome == verify::Outcome::fail;
    warns += v.outcome == verify::Outcome::warn;
  }
  std::printf("%zu file%s, %d failed check%s, %d warning%s\n", rep.files.size(), rep.files.size() == 1 ? "" : "s",
              fails, fails == 1 ? "" : "s", warns, warns == 1 ? "" : "s");
}

nlohmann::json to_json(const verify::VerifyReport& rep) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : rep.files) {
    nlohmann::json j = {{"path", f.path}, {"elf", f.elf}, {"kind", f.kind}, {"soname", f.soname},
                        {"needed", f.needed}, {"rpath", f.rpath}, {"runpath", f.runpath},
                        {"versions", f.versions}};
    if (f.cuda) {
      nlohmann::json sass = nlohmann::json::array(), ptx = nlohmann::json::array();
      for (const auto& a : f.cuda->sass) sass.push_back(a.sm());
      for (const auto& a : f.cuda->ptx) ptx.push_back(a.compute());
      j["cuda"] = {{"sass", sass}, {"ptx", ptx}, {"entries", f.cuda->entries},
                   {"compressed", f.cuda->compressed}, {"sections", f.cuda->sections}};
    }
    files.push_back(std::move(j));
  }
  return {{"ok", !verify::any_failed(rep.verdicts)}, {"files", files}, {"verdicts", rep.verdicts}};
}

int run(const VerifyCliOptions& o, const GlobalOptions& g) {
  if (!o.plan.empty() && !o.arch.empty()) return bad_input("--plan and --arch both give the arch list; give one");
  verify::VerifyOptions vo;
  std::string arch_text = o.arch, err;
  if (!o.plan.empty()) {
    auto a = plan_arch_list(o.plan, &err);
    if (!a) return bad_input(err);
    arch_text = *a;
  }
  if (!arch_text.empty()) {
    auto list = ArchList::parse(arch_text, nullptr, &err);
    if (!list) return bad_input("arch list '" + arch_text + "': " + err);
    vo.arches = *list;
  }
  for (const auto& p : o.ld_library_path)
    for (auto& d : util::split_path(p)) vo.resolve.ld_library_path.push_back(d);
  // A directory given to --preload stands for every library in it (torch/lib, as `import torch` loads).
  if (!o.preload.empty()) {
    auto pre = verify::collect_files(o.preload, &err);
    if (!pre) return bad_input("--preload: " + err);
    vo.resolve.preload = *pre;
  }

  auto files = verify::collect_files(o.paths, &err);
  if (!files) return bad_input(err);
  if (files->empty()) return bad_input("no ELF files under " + o.paths.front());

  verify::VerifyReport rep = verify::verify_files(*files, vo);
  if (o.json) {
    std::cout << to_json(rep).dump(2) << "\n";
  } else {
    print_table(rep, report::style_for(STDOUT_FILENO, g.no_color));
  }
  return verify::any_failed(rep.verdicts) ? 1 : 0;
}

}  // namespace

void register_verify(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto o = std::make_shared<VerifyCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "verify", "Check built libraries: ELF, NEEDED resolution, symbol versions, CUDA arches inside.");
  cmd->add_option("paths", o->paths, "ELF files, wheels, or directories to search for ELF files")->required()->type_name("PATH...");
  cmd->add_option("--plan", o->plan, "Lock file whose arch list the GPU code must cover")->type_name("LOCK");
  cmd->add_option("--arch", o->arch, "Arch list the GPU code must cover (\"8.0;9.0+PTX\")")->type_name("LIST");
  cmd->add_option("--ld-library-path", o->ld_library_path,
                  "Directories searched as LD_LIBRARY_PATH would be (':'-separated, repeatable); "
                  "this process's LD_LIBRARY_PATH is not used")
      ->type_name("DIRS");
  cmd->add_option("--preload", o->preload,
                  "Library, or directory of libraries, already loaded when these are (as `import torch` loads "
                  "torch/lib first); repeatable")
      ->type_name("LIB|DIR");
  cmd->add_flag("--json", o->json, "Machine-readable output");
  cmd->callback([o, &g, &exit_code]() { exit_code = run(*o, g); });
}

}  // namespace ts::cli

// torchsmith conda WHEEL [-o DIR] [--plan LOCK] [--format tar.bz2,conda] [--build-number N]
// [--depends SPEC ...]: a built wheel as conda packages in DIR/<subdir>/ (a channel layout that
// `torchsmith index DIR` turns into a channel). Exit 0 ok, 1 the work failed, 2 bad input.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/knowledge.h"
#include "cli/option_table.h"
#include "package/conda_package.h"
#include "plan/build_kb.h"
#include "plan/lock.h"
#include "plan/plan.h"

namespace ts::cli {
namespace {

struct CondaCliOptions {
  std::string wheel, out_dir = ".", plan, name, python, cuda, cudnn;
  std::vector<std::string> formats{"tar.bz2"}, depends;
  int build_number = -1;
  bool no_rpath = false, no_wheel_depends = false, json = false;
};

int bad_input(const std::string& msg) {
  std::fprintf(stderr, "torchsmith conda: %s\n", msg.c_str());
  return 2;
}

int run(const CondaCliOptions& c, const GlobalOptions& g) {
  package::CondaOptions o;
  o.out_dir = c.out_dir;
  o.formats = c.formats;
  if (c.build_number >= 0) o.build_number = c.build_number;
  o.depends = c.depends;
  o.name = c.name;
  o.python = c.python;
  o.cuda = c.cuda;
  o.cudnn = c.cudnn;
  o.wheel_depends = !c.no_wheel_depends;
  plan::Plan plan;
  if (!c.plan.empty()) {
    std::string err;
    auto read = plan::read_lock(c.plan, &err);
    if (!read) return bad_input(err);
    plan = std::move(*read);
    o.plan = &plan;
  }
  if (!c.no_rpath) {
    const auto& kb = g.knowledge().build();
    if (!kb.errors.empty()) return bad_input("build.toml: " + kb.errors.front());
    for (const auto& r : kb.value.rpaths)
      if (r.package == "conda") o.rpaths.push_back(r);
  }
  auto r = package::make_conda_packages(c.wheel, o);
  if (r.exit_code != 0) {
    std::fprintf(stderr, "torchsmith conda: %s\n", r.error.c_str());
    return r.exit_code;
  }
  if (c.json) {
    nlohmann::json j = {{"outputs", r.outputs}, {"index", r.index}, {"notes", r.notes}};
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  for (const auto& out : r.outputs) std::printf("wrote %s\n", out.c_str());
  std::printf("  %s %s %s (%s), depends: ", r.index["name"].get<std::string>().c_str(),
              r.index["version"].get<std::string>().c_str(),
              r.index["build"].get<std::string>().c_str(),
              r.index["subdir"].get<std::string>().c_str());
  bool first = true;
  for (const auto& d : r.index["depends"]) {
    std::printf("%s%s", first ? "" : ", ", d.get<std::string>().c_str());
    first = false;
  }
  std::printf("\n");
  for (const auto& n : r.notes) std::printf("  note: %s\n", n.c_str());
  return 0;
}

}  // namespace

void register_conda(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [cmd, o] = add_command<CondaCliOptions>(
      app, exit_code, [&g](CondaCliOptions& x) { return run(x, g); },
      "conda", "Turn a built wheel into conda packages (.tar.bz2 and/or .conda) in DIR/<subdir>/.");
  cmd->add_option("wheel", o->wheel, "The wheel (torch or an extension)")
      ->required()
      ->type_name("WHEEL");
  exit_codes(cmd, "0 written, 1 the work failed (patchelf, disk), 2 bad input");
  cmd->add_option("-o,--out", o->out_dir,
                  "Channel directory; packages go to DIR/<subdir>/ (default .)")
      ->type_name("DIR");
  cmd->add_option("--plan", o->plan, "Lock file: Python, CUDA, cuDNN, NumPy and the package name")
      ->type_name("LOCK");
  cmd->add_option("--format", o->formats,
                  "tar.bz2, conda, or both (comma-separated; default tar.bz2)")
      ->delimiter(',')
      ->check(CLI::IsMember({"tar.bz2", "conda"}))
      ->type_name("FMT");
  add_number(cmd, "--build-number", o->build_number, 0, 999999,
             "The build number N (the last part of the build string)");
  cmd->add_option("--depends", o->depends, "Extra run dependency, a conda match spec (repeatable)")
      ->type_name("SPEC");
  cmd->add_option("--name", o->name, "Conda package name (default: the plan's, else the wheel's)");
  cmd->add_option("--python-version", o->python, "Python X.Y (for a pure-Python wheel without a plan)")
      ->type_name("X.Y");
  // --python is an interpreter's path in every other command.
  cmd->add_option("--python", o->python, "Old spelling of --python-version.")->type_name("X.Y")->group("");
  cmd->add_option("--cuda", o->cuda, "CUDA version for the build string when there is no plan")
      ->type_name("VER");
  cmd->add_option("--cudnn", o->cudnn, "cuDNN version for the build string")->type_name("VER");
  cmd->add_flag("--no-rpath", o->no_rpath, "Leave RPATHs as the wheel has them (no patchelf)");
  cmd->add_flag("--no-wheel-depends", o->no_wheel_depends,
                "Do not translate the wheel's Requires-Dist into run dependencies");
  cmd->add_flag("--json", o->json, "Machine-readable output");
}

}  // namespace ts::cli

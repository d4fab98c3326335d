#include "cli/plan_request.h"

#include <filesystem>

#include "plan/planner.h"
#include "probe/probe.h"
#include "spec/spec_file.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::cli {

namespace {

std::string git_head(const std::string& dir) {
  util::RunOptions o;
  o.timeout = std::chrono::milliseconds(5000);
  auto r = util::run({"git", "-C", dir, "rev-parse", "HEAD"}, o);
  return r.ok() ? util::trim(r.out) : "";
}

void field(CLI::App* c, const std::string& flag, spec::RawField& f, const std::string& help, const std::string& type) {
  c->add_option_function<std::string>(flag, [&f, flag](const std::string& v) { f = {v, flag, true}; }, help)
      ->type_name(type);
}

}  // namespace

PlannedRequest plan_request(const GlobalOptions& g, const PlanRequest& r) {
  PlannedRequest out;
  spec::RawSpec file;
  std::string err;
  std::string path = r.spec_file;
  if (path.empty() && std::filesystem::exists("torchsmith.toml") && r.requirement.empty()) path = "torchsmith.toml";
  if (!path.empty() && !spec::read_spec_file(path, file, err)) { out.error = err; return out; }
  spec::RawSpec cli = r.raw;
  if (!r.requirement.empty()) cli.requirement = {r.requirement, "the requirement", true};
  if (r.debug && r.relwithdebinfo) { out.error = "--debug and --relwithdebinfo: give one"; return out; }
  if (r.debug) cli.build_type = {"debug", "--debug", true};
  if (r.relwithdebinfo) cli.build_type = {"relwithdebinfo", "--relwithdebinfo", true};
  auto spec = spec::check(spec::merge(file, cli), err);
  if (!spec) { out.error = err; return out; }

  std::vector<std::string> dirs = kb::default_overlay_dirs();
  dirs.insert(dirs.end(), g.kb_dirs.begin(), g.kb_dirs.end());
  plan::Knowledge k = plan::load_knowledge(dirs);
  if (!k.errors.empty()) {
    out.error = "the knowledge base has errors: " + k.errors.front() + " (torchsmith kb check lists them)";
    return out;
  }
  if (!spec->facts_file.empty()) {
    auto f = plan::read_facts_file(spec->facts_file, err);
    if (!f) { out.error = err; return out; }
    out.facts = *f;
  } else {
    std::string root_error = probe::check_root(spec->root);
    if (!root_error.empty()) { out.error = root_error; return out; }
    auto host = probe::Host::at(spec->root, &err);
    if (!host) { out.error = err; return out; }
    probe::ProbeOptions po;
    if (spec->python.find('/') != std::string::npos) po.pythons.push_back(spec->python);
    po.import_torch = false;  // the plan needs the build packages, not an installed torch
    out.facts = probe::probe(*host, po);
  }
  out.result = plan::make_plan(*spec, out.facts, k);
  if (!out.result.bad_spec.empty()) { out.error = out.result.bad_spec; return out; }
  if (!out.result.plan.source_dir.empty()) out.result.plan.source_revision = git_head(out.result.plan.source_dir);
  return out;
}

void add_plan_options(CLI::App* c, PlanRequest& r) {
  c->add_option("--spec", r.spec_file, "Read the request from this torchsmith.toml (the command line wins).")
      ->type_name("FILE");
  field(c, "--cuda", r.raw.cuda, "CUDA toolkit to build with (default: the best installed one).", "X.Y");
  field(c, "--arch", r.raw.arch,
        "GPU arches: native (default, the GPUs here), portable (the official list for the CUDA), a family "
        "(ada, ampere...), or numbers \"8.9;12.0+PTX\".", "LIST");
  field(c, "--python", r.raw.python, "Interpreter path, or a version among those found (3.8).", "PATH|X.Y");
  field(c, "--with", r.raw.with, "Features to turn on (cudnn, nccl, test, split-cuda, ...).", "F,...");
  field(c, "--without", r.raw.without, "Features to turn off (cuda for a CPU build).", "F,...");
  c->add_flag("--debug", r.debug, "A Debug build (DEBUG=1: -O0 -g).");
  c->add_flag("--relwithdebinfo", r.relwithdebinfo, "A RelWithDebInfo build.");
  field(c, "--jobs", r.raw.jobs, "Parallel compile jobs (default auto: from memory).", "N|auto");
  field(c, "--mem-budget", r.raw.mem_budget, "Memory the build may use (16G); jobs and the governor keep to it.", "SIZE");
  field(c, "--package", r.raw.packages, "What to produce: wheel (default), conda, libtorch.", "KIND,...");
  field(c, "--source", r.raw.source, "A source tree, or a git URL@REF (default: the release tag upstream).", "DIR|URL@REF");
  field(c, "--facts", r.raw.facts, "Plan for the machine a `doctor --json` report describes.", "FILE");
  field(c, "--root", r.raw.root, "Plan for the machine under DIR (a fake or copied root).", "DIR");
}

}  // namespace ts::cli

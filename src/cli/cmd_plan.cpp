// torchsmith plan: from what the user asks to a build that will work, every choice explained.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "plan/build_kb.h"
#include "plan/extension.h"
#include "plan/planner.h"
#include "plan/recipe.h"
#include "plan/render.h"
#include "probe/probe.h"
#include "spec/raw_spec.h"
#include "spec/spec_file.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::cli {

namespace {

struct PlanOptions {
  spec::RawSpec raw;
  std::string requirement, spec_file;
  bool debug = false, relwithdebinfo = false;
  bool explain = false, json = false;
  std::string format = "text";
  std::string out;
  std::string torch;  // --torch PYTHON: the installed torch an extension builds against
};

int bad(const std::string& msg) {
  std::fprintf(stderr, "torchsmith plan: %s\n", msg.c_str());
  return 2;
}

// The exact commit of a local git tree, for the lock file ("" when it is not one).
std::string git_head(const std::string& dir) {
  util::RunOptions o;
  o.timeout = std::chrono::milliseconds(5000);
  auto r = util::run({"git", "-C", dir, "rev-parse", "HEAD"}, o);
  return r.ok() ? util::trim(r.out) : "";
}

std::string canonical(const std::string& p) {
  std::error_code ec;
  auto c = std::filesystem::canonical(p, ec);
  return ec ? p : c.string();
}

// The facts an extension plan needs: --facts, or this machine probed with --torch's Python added.
std::optional<HostFacts> extension_facts(const PlanOptions& o, std::string& err) {
  if (o.raw.facts.set) return plan::read_facts_file(o.raw.facts.value, err);
  std::string root = o.raw.root.set ? o.raw.root.value : "/";
  err = probe::check_root(root);
  if (!err.empty()) return std::nullopt;
  auto host = probe::Host::at(root, &err);
  if (!host) return std::nullopt;
  probe::ProbeOptions po;
  if (!o.torch.empty()) po.pythons.push_back(o.torch);
  po.import_torch = false;  // torch's facts come from its files (version.py, CMake config, libraries)
  return probe::probe(*host, po);
}

// `plan PATH | URL@REF | NAME==VERSION`: an extension package against an installed torch.
int run_extension_plan(const GlobalOptions& g, PlanOptions& o) {
  std::string err;
  auto src = plan::parse_extension_source(o.requirement, &err);
  if (!src) return bad(err);
  if (o.format != "text" && o.format != "sh" && o.format != "json")
    return bad("--format " + o.format + ": an extension plan is text, json or sh");
  plan::ExtensionRequest req;
  req.source = *src;
  if (src->kind == plan::ExtensionSource::Kind::dir) {
    req.scan = plan::scan_source_dir(src->dir, &err);
    if (!req.scan.scanned) return bad(err);
    req.source_dir = canonical(src->dir);
  }
  if (o.raw.arch.set) req.arch = o.raw.arch.value, req.arch_origin = o.raw.arch.where;
  if (o.raw.cuda.set) req.cuda = o.raw.cuda.value;
  if (o.raw.without.set) {
    std::string w = "," + o.raw.without.value + ",";
    if (w.find(",cuda,") == std::string::npos) return bad("--without: an extension plan knows only 'cuda'");
    req.cpu = true;
  }
  if (o.raw.jobs.set && o.raw.jobs.value != "auto") {
    try {
      req.jobs = std::stoi(o.raw.jobs.value);
    } catch (...) {
      req.jobs = 0;
    }
    if (req.jobs < 1) return bad("--jobs " + o.raw.jobs.value + ": write a number >= 1 or auto");
  }
  if (o.raw.mem_budget.set) {
    auto m = spec::parse_size(o.raw.mem_budget.value);
    if (!m) return bad("--mem-budget " + o.raw.mem_budget.value + ": write a size such as 16G");
    req.mem_budget_bytes = *m;
  }
  if (!o.torch.empty() && !o.raw.facts.set && !std::filesystem::exists(o.torch))
    return bad("--torch " + o.torch + ": no such interpreter (give the Python whose torch the extension is for)");

  std::vector<std::string> dirs = kb::default_overlay_dirs();
  dirs.insert(dirs.end(), g.kb_dirs.begin(), g.kb_dirs.end());
  plan::Knowledge k = plan::load_knowledge(dirs);
  std::vector<std::string> rerrors;
  plan::RecipeSet recipes = plan::load_recipes(dirs, rerrors);
  k.errors.insert(k.errors.end(), rerrors.begin(), rerrors.end());
  for (const auto& e : k.errors) std::fprintf(stderr, "torchsmith: kb: %s\n", e.c_str());
  if (!k.errors.empty()) return bad("the knowledge base has errors (torchsmith kb check lists them)");

  auto facts = extension_facts(o, err);
  if (!facts) return bad(err);
  // The probe may name the interpreter another way (a symlink): match --torch by its real path.
  if (!o.torch.empty()) {
    req.torch_python = o.torch;
    for (const auto& py : facts->pythons)
      if (canonical(py.path) == canonical(o.torch)) req.torch_python = py.path;
  }
  const plan::Recipe* found = plan::find_recipe(recipes, req);
  plan::Recipe generic = plan::recipe_generic(!req.scan.name.empty() ? req.scan.name : src->name);
  plan::PlanResult r = plan::make_extension_plan(req, *facts, k.kb, found ? *found : generic, &k.fixes);
  if (!r.bad_spec.empty()) return bad(r.bad_spec);
  if (!r.plan.source_dir.empty()) r.plan.source_revision = git_head(r.plan.source_dir);

  if (o.json || o.format == "json")
    std::cout << nlohmann::json(r).dump(2) << "\n";
  else if (o.format == "sh" && r.ok())
    std::cout << plan::render_extension_sh(r.plan);
  else
    std::cout << (o.explain ? plan::render_extension_explain(r) : plan::render_extension_summary(r));
  if (!r.ok()) return 3;
  if (!o.out.empty()) {
    std::string werr = util::write_file_atomic(o.out, plan::lock_json(r.plan).dump(2) + "\n");
    if (!werr.empty()) {
      std::fprintf(stderr, "torchsmith plan: -o %s: %s\n", o.out.c_str(), werr.c_str());
      return 1;
    }
    std::fprintf(stderr, "torchsmith plan: wrote %s\n", o.out.c_str());
  }
  return 0;
}

int run_plan(const GlobalOptions& g, PlanOptions& o) {
  if (plan::is_extension_requirement(o.requirement)) return run_extension_plan(g, o);
  if (!o.torch.empty()) return bad("--torch names the torch an extension builds against: give the extension (a "
                                   "directory, URL@REF or NAME==VERSION)");
  // The file first, then the command line over it.
  spec::RawSpec file;
  std::string err;
  std::string path = o.spec_file;
  if (path.empty() && std::filesystem::exists("torchsmith.toml") && o.requirement.empty()) path = "torchsmith.toml";
  if (!path.empty() && !spec::read_spec_file(path, file, err)) return bad(err);
  spec::RawSpec cli = o.raw;
  if (!o.requirement.empty()) cli.requirement = {o.requirement, "the requirement", true};
  if (o.debug && o.relwithdebinfo) return bad("--debug and --relwithdebinfo: give one");
  if (o.debug) cli.build_type = {"debug", "--debug", true};
  if (o.relwithdebinfo) cli.build_type = {"relwithdebinfo", "--relwithdebinfo", true};
  auto spec = spec::check(spec::merge(file, cli), err);
  if (!spec) return bad(err);
  if (o.format != "text" && o.format != "sh" && o.format != "dockerfile" && o.format != "json")
    return bad("--format " + o.format + ": write text, json, sh or dockerfile");

  std::vector<std::string> dirs = kb::default_overlay_dirs();
  dirs.insert(dirs.end(), g.kb_dirs.begin(), g.kb_dirs.end());
  plan::Knowledge k = plan::load_knowledge(dirs);
  for (const auto& e : k.errors) std::fprintf(stderr, "torchsmith: kb: %s\n", e.c_str());
  if (!k.errors.empty()) return bad("the knowledge base has errors (torchsmith kb check lists them)");

  HostFacts facts;
  if (!spec->facts_file.empty()) {
    auto f = plan::read_facts_file(spec->facts_file, err);
    if (!f) return bad(err);
    facts = *f;
  } else {
    std::string root_error = probe::check_root(spec->root);
    if (!root_error.empty()) return bad(root_error);
    auto host = probe::Host::at(spec->root, &err);
    if (!host) return bad(err);
    probe::ProbeOptions po;
    if (spec->python.find('/') != std::string::npos) po.pythons.push_back(spec->python);
    po.import_torch = false;  // the plan needs the build packages, not an installed torch
    facts = probe::probe(*host, po);
  }
  plan::PlanResult r = plan::make_plan(*spec, facts, k);
  if (!r.bad_spec.empty()) return bad(r.bad_spec);
  if (!r.plan.source_dir.empty()) r.plan.source_revision = git_head(r.plan.source_dir);

  if (o.json || o.format == "json") {
    std::cout << nlohmann::json(r).dump(2) << "\n";
  } else if (!r.ok()) {
    std::cout << (o.explain ? plan::render_explain(r) : plan::render_summary(r));
  } else if (o.format == "sh") {
    std::cout << plan::render_sh(r.plan);
  } else if (o.format == "dockerfile") {
    std::string derr;
    std::string d = plan::render_dockerfile(r.plan, k.build, facts, &derr);
    if (d.empty()) return bad(derr);
    std::cout << d;
  } else {
    std::cout << (o.explain ? plan::render_explain(r) : plan::render_summary(r));
  }
  if (!r.ok()) return 3;
  if (!o.out.empty()) {
    std::string werr = util::write_file_atomic(o.out, plan::lock_json(r.plan).dump(2) + "\n");
    if (!werr.empty()) {
      std::fprintf(stderr, "torchsmith plan: -o %s: %s\n", o.out.c_str(), werr.c_str());
      return 1;
    }
    std::fprintf(stderr, "torchsmith plan: wrote %s\n", o.out.c_str());
  }
  return 0;
}

// A RawField filled by CLI11 remembers which option set it.
void field(CLI::App* c, const std::string& flag, spec::RawField& f, const std::string& help, const std::string& type) {
  c->add_option_function<std::string>(flag, [&f, flag](const std::string& v) { f = {v, flag, true}; }, help)
      ->type_name(type);
}

}  // namespace

void register_plan(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* c = app.add_subcommand(
      "plan",
      "Decide the whole build before it starts: CUDA toolkit and host compiler, CMake, Python and\n"
      "NumPy, arch list, features, environment, fixes, jobs from memory, steps and artifact names;\n"
      "every choice with its reason. Exit 0: a plan; 3: conflicts (printed with their fixes);\n"
      "2: a bad request. Reads torchsmith.toml when no requirement is given.");
  c->add_option("requirement", o->requirement,
                "What to build: torch==2.4.1, or an extension against an installed torch: a directory, a git "
                "URL@REF or NAME==VERSION (torch-scatter==2.1.0).")
      ->type_name("SPEC");
  c->add_option("--torch", o->torch,
                "For an extension: the Python whose torch it builds against (default: the first Python here "
                "with torch).")
      ->type_name("PYTHON");
  c->add_option("--spec", o->spec_file, "Read the request from this torchsmith.toml (the command line wins).")
      ->type_name("FILE");
  field(c, "--cuda", o->raw.cuda, "CUDA toolkit to build with (default: the best installed one).", "X.Y");
  field(c, "--arch", o->raw.arch,
        "GPU arches: native (default, the GPUs here), portable (the official list for the CUDA), a family "
        "(ada, ampere...), or numbers \"8.9;12.0+PTX\".", "LIST");
  field(c, "--python", o->raw.python, "Interpreter path, or a version among those found (3.8).", "PATH|X.Y");
  field(c, "--with", o->raw.with, "Features to turn on (cudnn, nccl, test, split-cuda, ...).", "F,...");
  field(c, "--without", o->raw.without, "Features to turn off.", "F,...");
  c->add_flag("--debug", o->debug, "A Debug build (DEBUG=1: -O0 -g).");
  c->add_flag("--relwithdebinfo", o->relwithdebinfo, "A RelWithDebInfo build.");
  field(c, "--jobs", o->raw.jobs, "Parallel compile jobs (default auto: from memory).", "N|auto");
  field(c, "--mem-budget", o->raw.mem_budget, "Memory the build may use (16G); jobs are sized to it.", "SIZE");
  field(c, "--package", o->raw.packages, "What to produce: wheel (default), conda, libtorch.", "KIND,...");
  field(c, "--source", o->raw.source, "A source tree, or a git URL@REF (default: the release tag upstream).", "DIR|URL@REF");
  field(c, "--facts", o->raw.facts, "Plan for the machine a `doctor --json` report describes.", "FILE");
  field(c, "--root", o->raw.root, "Plan for the machine under DIR (a fake or copied root).", "DIR");
  c->add_flag("--explain", o->explain, "Every decision with its reason and source.");
  c->add_flag("--json", o->json, "The plan (or conflicts) as JSON.");
  c->add_option("--format", o->format, "text (default), json, sh (source-able env + steps), dockerfile.")
      ->type_name("FORMAT");
  c->add_option("-o,--output", o->out, "Write the lock file (the plan as JSON, fix hashes, source revision).")
      ->type_name("FILE");
  c->callback([&g, &exit_code, o] { exit_code = run_plan(g, *o); });
}

}  // namespace ts::cli

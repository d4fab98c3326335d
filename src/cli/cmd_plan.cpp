// torchsmith plan: from what the user asks to a build that will work, every choice explained.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/plan_request.h"
#include "plan/extension.h"
#include "plan/lock.h"
#include "plan/render.h"
#include "util/fs.h"
#include "util/url.h"

namespace ts::cli {

namespace {

struct PlanOptions {
  Request req;
  bool explain = false, json = false;
  std::string format = "text";
  std::string out;
};

int bad(const std::string& msg) {
  std::fprintf(stderr, "torchsmith plan: %s\n", msg.c_str());
  return 2;
}

int run_plan(const GlobalOptions& g, PlanOptions& o) {
  bool extension = plan::is_extension_requirement(o.req.requirement);
  if (extension && o.format != "text" && o.format != "sh" && o.format != "json")
    return bad("--format " + o.format + ": an extension plan is text, json or sh");
  if (o.format != "text" && o.format != "sh" && o.format != "dockerfile" && o.format != "json")
    return bad("--format " + o.format + ": write text, json, sh or dockerfile");
  if (std::string err = apply_request_options(o.req, request_kind(o.req)); !err.empty()) return bad(err);
  PlannedRequest pr = plan_request(g, o.req);
  if (!pr.error.empty()) return bad(pr.error);
  const plan::PlanResult& r = pr.result;

  // Printed URLs lose their credentials (user:TOKEN@, ?token=): the output is often pasted.
  std::ostringstream out;
  if (o.json || o.format == "json") {
    out << nlohmann::json(r).dump(2) << "\n";
  } else if (pr.extension) {
    if (o.format == "sh" && r.ok()) out << plan::render_extension_sh(r.plan);
    else out << (o.explain ? plan::render_extension_explain(r) : plan::render_extension_summary(r));
  } else if (!r.ok()) {
    out << (o.explain ? plan::render_explain(r) : plan::render_summary(r));
  } else if (o.format == "sh") {
    out << plan::render_sh(r.plan);
  } else if (o.format == "dockerfile") {
    std::string derr;
    std::string d = plan::render_dockerfile(r.plan, pr.build_kb, pr.facts, &derr);
    if (d.empty()) return bad(derr);
    out << d;
  } else {
    out << (o.explain ? plan::render_explain(r) : plan::render_summary(r));
  }
  // sh and dockerfile output is meant for a file or a pipe: conflicts are prose, so they go to stderr.
  bool script = o.format == "sh" || o.format == "dockerfile";
  if (!r.ok() && script && !o.json) {
    std::cerr << util::redact_text(out.str());
    std::fprintf(stderr, "torchsmith plan: conflicts; no %s written (exit 3)\n", o.format.c_str());
    return 3;
  }
  std::cout << util::redact_text(out.str());
  if (!r.ok()) return 3;
  if (!o.out.empty()) {
    nlohmann::json lock = plan::lock_json(r.plan);
    plan::seal_lock(lock);  // a later edit is named as such by `build --lock`
    std::string werr = util::write_file_atomic(o.out, lock.dump(2) + "\n");
    if (!werr.empty()) {
      std::fprintf(stderr, "torchsmith plan: -o %s: %s\n", o.out.c_str(), werr.c_str());
      return 1;
    }
    std::fprintf(stderr, "torchsmith plan: wrote %s\n", o.out.c_str());
  }
  return 0;
}

}  // namespace

void register_plan(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [c, o] = add_command<PlanOptions>(
      app, exit_code, [&g](PlanOptions& x) { return run_plan(g, x); },
      "plan",
      "Decide the whole build before it starts: CUDA toolkit and host compiler, CMake, Python and\n"
      "NumPy, arch list, features, environment, fixes, jobs from memory, steps and artifact names;\n"
      "every choice with its reason. Reads torchsmith.toml when no requirement is given.");
  exit_codes(c, "0 a plan, 1 the lock file could not be written, 2 a bad request, 3 conflicts (printed with their "
                "fixes; on stderr with --format sh or dockerfile)");
  c->add_option("requirement", o->req.requirement,
                "What to build: torch==2.4.1, or an extension against an installed torch: a directory, a git "
                "URL@REF or NAME==VERSION (torch-scatter==2.1.0).")
      ->type_name("SPEC");
  add_request_options(c, o->req, plan_command);
  c->add_flag("--explain", o->explain, "Every decision with its reason and source.");
  c->add_flag("--json", o->json, "The plan (or conflicts) as JSON.");
  c->add_option("--format", o->format, "text (default), json, sh (source-able env + steps), dockerfile.")
      ->type_name("FORMAT");
  c->add_option("-o,--out", o->out, "Write the lock file (the plan as JSON, fix hashes, source revision).")
      ->type_name("FILE");
  c->add_option("--output", o->out, "Old spelling of --out.")->type_name("FILE")->group("");
}

}  // namespace ts::cli

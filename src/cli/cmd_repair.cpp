// torchsmith repair WHEEL [-o DIR] [--plan LOCK.json] [--local-version TEXT|auto|none]
// [--vendor|--no-vendor] [--lib-dir DIR]... [--json]: make a built wheel installable and honest
// (RPATHs, NEEDED, vendoring, local version, manylinux tag, RECORD). The input is never modified.
// Exit 0: repaired; 1: a check failed (nothing written); 2: bad input.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/verdict_word.h"
#include "cli/knowledge.h"
#include "package/repair.h"
#include "plan/lock.h"
#include "plan/plan.h"

namespace ts::cli {
namespace {

struct RepairCliOptions {
  std::string wheel, out_dir, plan, local_version, patchelf, pin_torch, torch_dir;
  std::vector<std::string> lib_dirs;
  bool vendor = true, no_vendor = false, json = false;
};

int run_repair(const RepairCliOptions& c, const GlobalOptions& g) {
  package::RepairOptions o;
  o.wheel = c.wheel;
  o.out_dir = c.out_dir;
  o.local_version = c.local_version;
  o.pin_torch = c.pin_torch;
  o.vendor = !c.no_vendor;
  o.lib_dirs = c.lib_dirs;
  Knowledge& k = g.knowledge();
  for (const auto* errors : {&k.wheel_policies().errors, &k.build().errors})
    if (!errors->empty()) {
      std::fprintf(stderr, "torchsmith repair: knowledge base: %s\n", errors->front().c_str());
      return 2;
    }
  o.policies = &k.wheel_policies().value;
  o.build_kb = &k.build().value;
  o.patchelf = c.patchelf;
  o.torch_dir = c.torch_dir;
  std::optional<plan::Plan> plan;
  if (!c.plan.empty()) {
    std::string err;
    plan = plan::read_lock(c.plan, &err);
    if (!plan) {
      std::fprintf(stderr, "torchsmith repair: %s\n", err.c_str());
      return 2;
    }
    o.plan = &*plan;
  }
  package::RepairResult r = package::repair_wheel(o);
  if (c.json) {
    nlohmann::json j = {{"input", c.wheel},      {"output", r.output},     {"version", r.version},
                        {"platform", r.platform}, {"vendored", r.vendored}, {"exit_code", r.exit_code},
                        {"error", r.error},       {"verdicts", r.verdicts}};
    std::cout << j.dump(2) << "\n";
    return r.exit_code;
  }
  for (const auto& v : r.verdicts)
    std::printf("%-5s %-9s %s%s%s\n", std::string(verdict_word(verify::outcome_name(v.outcome))).c_str(), v.check.c_str(), v.file.c_str(),
                v.file.empty() ? "" : ": ", v.detail.c_str());
  if (r.exit_code == 2) std::fprintf(stderr, "torchsmith repair: %s\n", r.error.c_str());
  else if (r.exit_code == 0) std::printf("%s: %s\n", r.unchanged ? "no compiled extension, copied unchanged" : "repaired", r.output.c_str());
  else std::printf("repair failed: no wheel written\n");
  return r.exit_code;
}

}  // namespace

void register_repair(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto [sub, c] = add_command<RepairCliOptions>(
      app, exit_code, [&g](RepairCliOptions& x) { return run_repair(x, g); },
      "repair", "Repair a built wheel: RPATHs, dependencies (vendored if needed), local version, "
                "manylinux tag, RECORD");
  sub->add_option("wheel", c->wheel, "the .whl to repair (never modified)")->required();
  exit_codes(sub, "0 repaired, 1 the repair failed (no wheel written), 2 bad input");
  sub->add_option("-o,--out", c->out_dir, "where to write the repaired wheel (default: beside the input)")
      ->type_name("DIR");
  sub->add_option("--output-dir", c->out_dir, "Old spelling of --out.")->type_name("DIR")->group("");
  sub->add_option("--plan", c->plan, "lock file: CUDA version and arch list for --local-version auto");
  sub->add_option("--pin-torch", c->pin_torch,
                  "Requires-Dist on the torch built against: minor (torch==X.Y.*, the default with an "
                  "extension's --plan), exact (torch==X.Y.Z) or none")
      ->check(CLI::IsMember({"minor", "exact", "none"}));
  sub->add_option("--local-version", c->local_version,
                  "PEP 440 local version: TEXT (cu128.sm120), auto (from --plan), or none; default "
                  "auto with --plan, else none");
  sub->add_flag("--vendor", c->vendor, "copy libraries outside torch and manylinux into <dist>.libs/ (default)");
  sub->add_flag("--no-vendor", c->no_vendor, "fail on such libraries instead of copying them");
  sub->add_option("--lib-dir", c->lib_dirs, "search DIR first for libraries to vendor (repeatable)");
  sub->add_option("--patchelf", c->patchelf, "patchelf to use (default: from PATH)");
  sub->add_option("--torch-dir", c->torch_dir,
                  "the target torch's package directory: a library import torch already loads under the "
                  "name the extension needs (torch/lib/libgomp.so.1) is torch's, not vendored")
      ->type_name("DIR");
  sub->add_flag("--json", c->json, "print the result as JSON");
}

}  // namespace ts::cli

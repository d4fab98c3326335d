// The fixes whose conditions hold for this plan; each joins the plan with a decision.
#include "plan/extension_internal.h"
#include "plan/resolve_ctx.h"
#include "plan/speed_arches.h"
#include "plan/speed_fixes.h"
#include "plan/steps.h"

namespace ts::plan::detail {

// A torch build's fixes come from the fix KB's chooser; each sets its env and CMake options too.
std::vector<PlannedFix> select_fixes(Ctx& c, const source::FixContext& when) {
  c.selected_fixes = c.in->fixes(FixQuery{FactVersion(c.version()), when.cuda, c.cmake_version, when.gcc, when.arches});
  std::vector<PlannedFix> refs;
  for (const auto& f : c.selected_fixes) refs.push_back(f.ref);
  return refs;
}

void apply_fix(Ctx& c, std::size_t i) {
  const SelectedFix& f = c.selected_fixes[i];
  for (const auto& [k, v] : f.env) {
    auto it = c.p.env.find(k);
    if (it != c.p.env.end() && it->second == v) continue;  // the plan's own rule already set it
    c.set_env(k, v, "set by fix " + f.ref.id, f.ref.source);
  }
  for (const auto& o : f.cmake_options) {
    auto eq = o.find('=');
    std::size_t start = o.rfind("-D", 0) == 0 ? 2 : 0;
    std::string name = o.substr(start, eq == std::string::npos ? std::string::npos : eq - start);
    c.p.cmake_options[name] = eq == std::string::npos ? "ON" : o.substr(eq + 1);
  }
}

}  // namespace ts::plan::detail

namespace ts::plan::ext {

// An extension's own fixes (setup.py edits) for the version asked: NAME==VERSION says it, a
// directory's setup.py may; otherwise no fix is applied on a guess.
std::vector<PlannedFix> select_fixes(Ctx& c, source::FixContext& when) {
  when.package = c.recipe->name;
  when.version = c.req->source.kind == ExtensionSource::Kind::name ? c.req->source.version
               : c.req->source.kind == ExtensionSource::Kind::dir  ? c.req->scan.version
                                                                  : FactVersion();
  c.package_fixes = c.fix_set ? select_package_fixes(*c.fix_set, when) : std::vector<const source::Fix*>{};
  std::vector<PlannedFix> refs;
  for (const auto* f : c.package_fixes) refs.push_back({f->id, f->reason, f->source, source::fix_hash(*f)});
  return refs;
}

// A fix that turns the package's serial build's ninja on (-> ninja_fixed, read by plan.jobs).
void apply_fix(Ctx& c, std::size_t i) { c.ninja_fixed = c.ninja_fixed || fix_enables_ninja(*c.package_fixes[i]); }

// A package whose arch list is steered by a fix (or by nothing) says so once its fixes are known.
void steer_arches(Ctx& c, const source::FixContext& when) {
  if (c.cuda_on)
    if (auto s = arch_steering(*c.recipe, c.recipe_source(), when.version, c.arches, c.package_fixes, c.fix_set))
      c.record("arch", s->value, s->reason, s->source, s->warning);
}

}  // namespace ts::plan::ext

namespace ts::plan::steps {

// plan.fixes, the rule once for every kind: the fixes whose conditions hold for what this plan builds
// (the package's version, the CUDA, the GCC, the arches), each a decision and a fix in the plan; none
// for a CUDA that is a conflict. Kinds differ in where the fixes come from and what one brings besides
// its edits: a torch build's KB fixes set env and CMake options (and a torch build without a fix KB
// says so); an extension's own fixes are applied to its tree, may turn its ninja on and steer its arches.
void choose_fixes(Ctx& c) {
  bool torch = c.kind == core::kTorchBuild;
  if (torch && !c.in->fixes) {
    c.warn("fix", "none loaded", "no fix knowledge base was given: version-specific source fixes are not planned",
           "fixes/");
    return;
  }
  // Fixes whose condition names a CUDA are not chosen (the query's CUDA is empty); said once.
  c.skipped_for_cuda("fix", "a fix for a CUDA version");
  source::FixContext when;
  when.cuda = c.cuda_mm_version();
  if (c.compiler) when.gcc = c.compiler->version;
  when.arches = c.arches.arches();
  std::vector<PlannedFix> chosen = torch ? detail::select_fixes(c, when) : ext::select_fixes(c, when);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const PlannedFix& f = chosen[i];
    c.p.fixes.push_back(f);
    c.decide("fix", f.id, torch ? f.reason : f.reason + " (applied to " + c.recipe->name + " " + when.version +
                                                 "'s source tree before the build)", f.source);
    if (torch)
      detail::apply_fix(c, i);
    else
      ext::apply_fix(c, i);
  }
  if (!torch) ext::steer_arches(c, when);
}

}  // namespace ts::plan::steps

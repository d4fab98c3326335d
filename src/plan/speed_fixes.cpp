#include "plan/speed_fixes.h"

#include "plan/speed_arches.h"

namespace ts::plan {

std::vector<const source::Fix*> select_package_fixes(const source::FixSet& set, const source::FixContext& ctx) {
  std::vector<const source::Fix*> out;
  if (ctx.package.empty() || ctx.package == "torch" || ctx.version.empty()) return out;
  for (const auto* f : source::select_fixes(set, ctx))
    // A fix that writes the plan's arches has nothing to write without them.
    if (f->when.package == ctx.package && (!ctx.arches.empty() || !fix_sets_arches(*f))) out.push_back(f);
  return out;
}

bool fix_enables_ninja(const source::Fix& fix) {
  for (const auto& e : fix.edits)
    if (e.op == source::EditOp::replace && e.anchor.find("use_ninja=False") != std::string::npos &&
        e.text.find("use_ninja=True") != std::string::npos)
      return true;
  return false;
}

}  // namespace ts::plan

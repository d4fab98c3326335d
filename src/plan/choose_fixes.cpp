// The KB fixes whose conditions hold for this plan; their env and CMake options join the plan.
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

void choose_fixes(Ctx& c) {
  if (!c.in->fixes) {
    c.warn("fix", "none loaded", "no fix knowledge base was given: version-specific source fixes are not planned",
           "fixes/");
    return;
  }
  // Fixes whose condition names a CUDA are not chosen (the query's CUDA is empty); said once.
  c.skipped_for_cuda("fix", "a fix for a CUDA version");
  FixQuery q{c.version(), c.cuda_mm(), c.cmake_version, c.compiler ? c.compiler->version : "", c.arches.arches()};
  c.selected_fixes = c.in->fixes(q);
  for (const auto& f : c.selected_fixes) {
    c.p.fixes.push_back(f.ref);
    c.decide("fix", f.ref.id, f.ref.reason, f.ref.source);
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
}

}  // namespace ts::plan::detail

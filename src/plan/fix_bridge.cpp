#include "plan/fix_bridge.h"

namespace ts::plan {

FixChooser chooser_for(const source::FixSet& set) {
  return [&set](const FixQuery& q) {
    source::FixContext ctx;
    ctx.version = q.version;
    ctx.cuda = q.cuda;
    ctx.cmake = q.cmake;
    ctx.gcc = q.gcc;
    ctx.arches = q.arches;
    std::vector<SelectedFix> out;
    for (const source::Fix* f : source::select_fixes(set, ctx)) {
      SelectedFix s;
      s.ref = {f->id, f->reason, f->source, source::fix_hash(*f)};
      s.env = source::fix_env(*f, ctx);
      s.cmake_options = f->cmake_options;
      s.arches_any = f->when.arches_any;
      out.push_back(std::move(s));
    }
    return out;
  };
}

}  // namespace ts::plan

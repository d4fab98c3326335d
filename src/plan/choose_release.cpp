// The torch release line: every later choice reads its row of torch.toml.
#include "plan/resolve_ctx.h"

namespace ts::plan::detail {

void choose_release(Ctx& c) {
  const auto& kb = c.in->kb;
  c.release = kb.find_torch(c.version());
  if (!c.release) {
    std::string known = kb.torch.empty() ? "" : kb.torch.front().version.original() + " to " + kb.torch.back().version.original();
    c.conflict("torch " + c.version(), "torch " + c.version() + " is not in the knowledge base, so its "
               "Python, CUDA, CMake and arch limits are unknown",
               {"plan a release the knowledge base knows (" + known + ")",
                "add a [[release]] for it to torch.toml in a --kb overlay"},
               "torch.toml");
    return;
  }
  const auto& r = *c.release;
  std::string cudas;
  for (const auto& v : r.cuda) cudas += (cudas.empty() ? "" : ", ") + v.original();
  c.decide("torch", c.version(),
           "release line " + r.version.original() + ": Python " + r.python.str() + ", official CUDA " + cudas +
               ", CMake >= " + r.cmake_min.original() + ", C++" + std::to_string(r.cxx_standard),
           cite(r.source, r.origin));
}

}  // namespace ts::plan::detail

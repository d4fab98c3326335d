// The installed toolkits vs a named torch release (doctor --for): is any of them one of the CUDA
// versions the release was built and tested with?
#include <algorithm>

#include "compat/assess.h"
#include "compat/facts_util.h"

namespace ts::compat {

void check_target_toolkits(const HostFacts& f, const kb::Kb& kb, const Target& t, std::vector<Verdict>& out) {
  if (t.torch.empty() || f.cuda_toolkits.empty()) return;
  const kb::TorchRelease* rel = kb.find_torch(t.torch);
  if (!rel) return;
  std::string own, installed;
  for (const auto& c : rel->cuda) own += (own.empty() ? "" : ", ") + c.original();
  bool any = false;
  for (const auto& tk : f.cuda_toolkits) {
    installed += (installed.empty() ? "" : ", ") + tk.version.major_minor();
    const auto& v = tk.version.parsed();
    any |= v && std::find(rel->cuda.begin(), rel->cuda.end(), v->truncated(2)) != rel->cuda.end();
  }
  if (any) return;  // said only when it matters: the plan's own decision names the toolkit anyway
  Verdict v{"cuda", "CUDA " + installed + " for torch " + t.torch, Level::warn, "", "", rel->source, where(rel->origin),
            "cuda.target"};
  {
    v.reason = std::string(f.cuda_toolkits.size() == 1 ? "the only toolkit here, CUDA " : "no toolkit here (CUDA ") +
               installed + (f.cuda_toolkits.size() == 1 ? "," : ")") + " is not among torch " + rel->version.original() +
               "'s CUDA versions (" + own + "): its build scripts and cpp_extension may not know it";
    v.fix = "install one of CUDA " + own + " beside it and plan with --cuda X.Y, or pick a torch release built for CUDA " +
            installed;
  }
  out.push_back(v);
}

}  // namespace ts::compat

#include "verify/arch_check.h"
#include "verify/check.h"
#include "util/split.h"

#include <algorithm>

namespace ts::verify {
namespace {

bool has(const std::vector<CudaArch>& v, const CudaArch& a) {
  return std::any_of(v.begin(), v.end(), [&](const CudaArch& x) {
    return x.major == a.major && x.minor == a.minor && x.suffix == a.suffix;
  });
}

bool capability_asked(const ArchList& asked, const CudaArch& a) {
  return std::any_of(asked.arches().begin(), asked.arches().end(),
                     [&](const CudaArch& x) { return x.same_capability(a); });
}

}  // namespace

std::vector<Verdict> check_arches(const CudaCode& code, const ArchList& asked, const std::string& file,
                                  bool only_asked) {
  std::vector<Verdict> out;
  const auto add = [&](Outcome o, std::string d) { out.push_back(verdict(file, Check::cuda_arches, o, std::move(d))); };
  std::vector<std::string> missing, ptx_only, extra, beyond, extra_ptx;
  for (const auto& a : asked.arches()) {
    if (!has(code.sass, a)) {
      // PTX of an equal or older capability can be JIT-compiled for it at first load.
      auto jit = std::find_if(code.ptx.begin(), code.ptx.end(), [&](const CudaArch& p) { return p.runs_on(a); });
      if (jit != code.ptx.end())
        ptx_only.push_back(a.sm() + " only as PTX " + jit->compute() + " (JIT-compiled at first load)");
      else
        missing.push_back(a.sm());
    }
    if (a.ptx && !has(code.ptx, a)) missing.push_back(a.compute());
  }
  for (const auto& s : code.sass)
    if (!std::any_of(asked.arches().begin(), asked.arches().end(), [&](const CudaArch& a) {
          return a.major == s.major && a.minor == s.minor && a.suffix == s.suffix;
        }))
      (only_asked && !capability_asked(asked, s) ? beyond : extra).push_back(s.sm());
  for (const auto& p : code.ptx)
    if (!std::any_of(asked.arches().begin(), asked.arches().end(), [&](const CudaArch& a) {
          return a.ptx && a.major == p.major && a.minor == p.minor && a.suffix == p.suffix;
        }))
      (!only_asked ? extra : capability_asked(asked, p) ? extra_ptx : beyond).push_back(p.compute());

  for (const auto& m : missing) add(Outcome::fail, "missing " + m);
  for (const auto& w : ptx_only) add(Outcome::warn, w);
  if (missing.empty() && ptx_only.empty()) add(Outcome::pass, "has " + asked.torch_cuda_arch_list());
  // None of the plan's arches as SASS: the build's own compiles (which take the plan's flags) put no
  // GPU code here, so what is here came ready-made: RLS-RTMDNet's setup.py links extra_objects
  // ['src/cuda/roi_align.cu.o'], an object committed to the repository, built by its Makefile's
  // `nvcc ... -arch=sm_52`.
  if (!beyond.empty()) {
    // None of the plan's arches as SASS: the build's own compiles never made this GPU code; it came
    // ready-made (RLS-RTMDNet's extra_objects, a committed .cu.o its Makefile built for sm_52).
    const bool none_planned = std::none_of(asked.arches().begin(), asked.arches().end(),
                                           [&](const CudaArch& a) { return has(code.sass, a); });
    add(Outcome::fail, "arches the plan did not ask for: " + util::join(beyond, ", ") + " (plan: " +
                           asked.torch_cuda_arch_list() +
                           (none_planned ? "), and none of the plan's: this GPU code was not compiled by the build for "
                                           "the plan but linked in ready-made (an object or library the package ships "
                                           "or builds by itself, e.g. setup.py's extra_objects made by its Makefile's "
                                           "nvcc -arch=...); rebuild that object for the plan's arches"
                                         : "): the build compiled more than planned (see the plan's arch decisions)"));
  }
  if (!extra_ptx.empty())
    add(Outcome::warn, "PTX the plan did not ask for: " + util::join(extra_ptx, ", ") + " (plan: " +
                           asked.torch_cuda_arch_list() + ")");
  if (!extra.empty()) add(Outcome::note, "not asked for: " + util::join(extra, ", "));
  return out;
}

}  // namespace ts::verify

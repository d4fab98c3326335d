#include "compat/arch_rule.h"

#include <algorithm>

#include "compat/facts_util.h"

namespace ts::compat {

bool arch_listed(const std::vector<CudaArch>& list, const CudaArch& a) {
  return std::any_of(list.begin(), list.end(), [&](const CudaArch& p) { return p.sass_only() == a.sass_only(); });
}

bool toolkit_compiles(const kb::CudaRelease& r, const CudaArch& gpu) {
  for (const auto& a : r.arches)
    if (a.same_capability(gpu)) return true;
  return false;
}

bool nvcc_compiles(const std::vector<CudaArch>& nvcc_arches, const kb::CudaRelease* rel, const CudaArch& a) {
  if (!nvcc_arches.empty()) return arch_listed(nvcc_arches, a);
  return rel ? arch_listed(rel->arches, a) : true;
}

std::string ArchSpan::describe() const {
  if (!first || !hi) return "";
  if (still_supported) return "since CUDA " + first->original();
  return "CUDA " + first->original() + " to " + hi->version.original();
}

ArchSpan arch_span(const kb::Kb& kb, const CudaArch& capability) {
  ArchSpan s;
  const kb::CudaRelease* newest = nullptr;
  for (const auto& r : kb.cuda) {
    const Version& v = r.version;
    if (!newest || v > newest->version) newest = &r;
    if (!toolkit_compiles(r, capability)) continue;
    if (!s.lo || v < s.lo->version) s.lo = &r;
    if (!s.hi || v > s.hi->version) s.hi = &r;
  }
  if (!s.lo) return s;
  s.first = s.lo->version;
  if (const kb::ArchSupport* a = kb.first_support(capability)) {
    if (a->first_cuda < s.lo->version) {
      s.first = a->first_cuda;
      s.first_source = a->source;
    }
  }
  s.still_supported = s.hi == newest;
  return s;
}

std::optional<CudaArch> nearest_runnable(const kb::Kb& kb, const kb::CudaRelease& r, const CudaArch& gpu) {
  auto soc_arch = [&](const CudaArch& a) {
    for (const auto& t : kb.tegra)
      if (t.arch.same_capability(a)) return true;
    return false;
  };
  bool gpu_is_soc = soc_arch(gpu);
  std::optional<CudaArch> sass, ptx;
  for (const auto& k : r.arches) {
    std::optional<CudaArch> a = k;
    if (a->suffix) continue;  // 'a'/'f' code runs only on its own capability or family
    if (!gpu_is_soc && soc_arch(*a)) continue;  // an integrated GPU's arch is no target for a card
    if (a->runs_on(gpu) && (!sass || *a > *sass)) sass = a;
    if (*a < gpu && (!ptx || *a > *ptx)) ptx = a;
  }
  if (sass) return sass;
  if (ptx) {
    ptx->ptx = true;
    return ptx;
  }
  return std::nullopt;
}

Coverage coverage(const std::vector<CudaArch>& code, const CudaArch& gpu) {
  Coverage c = Coverage::none;
  for (const auto& t : code) {
    if (!t.runs_on(gpu)) continue;
    if (!t.ptx) return Coverage::sass;
    c = Coverage::ptx;
  }
  return c;
}

}  // namespace ts::compat

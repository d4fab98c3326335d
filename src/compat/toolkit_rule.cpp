#include "compat/toolkit_rule.h"

#include "compat/facts_util.h"

namespace ts::compat {

std::optional<bool> driver_runs(const DriverFacts& d, const kb::CudaRelease* rel, const FactVersion& cuda) {
  const auto& cv = cuda.parsed();
  auto drv_cuda = d.cuda_version.parsed();
  // NVML's own answer beats the table when we have it.
  if (drv_cuda && cv) return cv->truncated(2) <= *drv_cuda;
  auto drv = d.version.parsed();
  if (!drv || !rel) return std::nullopt;
  return *drv >= rel->driver_min_linux;
}

NvccForTorch nvcc_for_torch(const FactVersion& torch_cuda, const FactVersion& nvcc) {
  const auto& tc = torch_cuda.parsed();
  const auto& nv = nvcc.parsed();
  if (!tc || !nv) return NvccForTorch::unknown;
  if (nv->major() != tc->major()) return NvccForTorch::other_major;
  return nv->major_minor() != tc->major_minor() ? NvccForTorch::other_minor : NvccForTorch::same;
}

}  // namespace ts::compat

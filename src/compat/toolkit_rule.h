#pragma once
// The toolkit rules: whether a driver runs what a CUDA version builds (rule id "driver.toolkit"),
// and whether nvcc may build extensions for a torch built with another CUDA ("torch.nvcc":
// cpp_extension refuses another major and warns on another minor). Doctor's verdicts, the torch
// planner's driver check and the extension planner's toolkit check ask them.
#include <optional>
#include <string>

#include "core/host_facts.h"
#include "kb/kb.h"

namespace ts::compat {

inline constexpr const char* kDriverRule = "driver.toolkit";
inline constexpr const char* kTorchNvccRule = "torch.nvcc";

// Whether this driver runs programs built with CUDA `cuda`: NVML's answer (the newest CUDA the
// driver runs) when the probe has it, else the release's minimum driver (rel, from the KB);
// nullopt when neither can be told.
std::optional<bool> driver_runs(const DriverFacts& d, const kb::CudaRelease* rel, const FactVersion& cuda);

// nvcc of version `nvcc` for extensions of a torch built with CUDA `torch_cuda`.
enum class NvccForTorch { unknown, other_major, other_minor, same };
NvccForTorch nvcc_for_torch(const FactVersion& torch_cuda, const FactVersion& nvcc);

}  // namespace ts::compat

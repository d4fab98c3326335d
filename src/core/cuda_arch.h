#pragma once
// CudaArch: one GPU target as nvcc and PyTorch spell it. A compute capability (major.minor), nvcc's
// feature suffix ('a' arch-specific, 'f' family-specific) and whether PTX is embedded for the JIT.
#include <compare>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace ts {

struct CudaArch {
  int major = 0, minor = 0;
  char suffix = 0;   // 0, 'a' (arch-specific, 9.0a) or 'f' (family, 10.0f)
  bool ptx = false;  // "+PTX": also embed PTX for JIT on newer GPUs

  // Accepts "8.6", "86", "sm_86", "compute_86" (ptx), "8.6+PTX", "9.0a", "90a", "sm_90a", "10.0f",
  // "100f", "120"; case-insensitive. Rejects "8", "8.6.1", "sm_", "abc", "0.0" with an error naming the text.
  // Syntax only: whether an arch exists is the knowledge base's call.
  static std::optional<CudaArch> parse(std::string_view s, std::string* error = nullptr);
  static CudaArch of(int major, int minor, char suffix = 0, bool ptx = false) { return {major, minor, suffix, ptx}; }

  std::string str() const;         // TORCH_CUDA_ARCH_LIST spelling: "8.6", "9.0a", "8.6+PTX"
  std::string number() const;      // "86", "90a", "100f"
  std::string sm() const;          // "sm_86"
  std::string compute() const;     // "compute_86"
  std::string capability() const;  // "8.6" (no suffix, no PTX): what a GPU reports
  CudaArch sass_only() const { return {major, minor, suffix, false}; }
  bool same_capability(const CudaArch& o) const { return major == o.major && minor == o.minor; }

  // Whether code built for this target runs on a GPU of capability `gpu` (its suffix and ptx ignored).
  // SASS runs on the same major at an equal or higher minor ('a' only on the exact capability);
  // PTX JIT-compiles for any newer GPU ('a' PTX: exact capability, 'f' PTX: same major).
  bool runs_on(const CudaArch& gpu) const;

  auto operator<=>(const CudaArch&) const = default;  // by capability, then suffix (none < a < f), then ptx
};

// Text that lists what parse accepts, for error messages here and in ArchList.
inline constexpr std::string_view kCudaArchSpellings = "8.6, 86, sm_86, compute_86, 8.6+PTX, 9.0a, 10.0f";

void to_json(nlohmann::json& j, const CudaArch& a);
void from_json(const nlohmann::json& j, CudaArch& a);

}  // namespace ts

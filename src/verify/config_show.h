#pragma once
// torch.__config__.show() read into fields: what the build compiled in (CUDA runtime, NVCC arch
// flags, cuDNN, Build settings). Its format is show_config() in aten/src/ATen/Version.cpp plus
// CUDAHooks::showConfig; docs/verify.md lists the lines and their quirks.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda_arch.h"

namespace ts::verify {

struct TorchConfig {
  std::string compiler;         // "GCC 12.2"
  std::string cxx_version;      // "201402"
  std::string cpu_capability;   // "AVX2"
  std::string cuda_runtime;     // "12.8" ("" = no CUDA section: a CPU build)
  std::string cuda_built_with;  // "Built with CUDA Runtime" when it differs from the runtime
  std::string nvcc_arch_flags;  // as printed: "-gencode;arch=compute_90,code=sm_90;..."
  std::vector<CudaArch> sass;   // from the arch flags: sm_90 (sorted, unique)
  std::vector<CudaArch> ptx;    // compute_90 (ptx set)
  std::string cudnn;            // decoded ("9.10.2"), not as printed ("91.0.2")
  std::string cudnn_built_with;
  std::string cudnn_cuda;  // "(built against CUDA 12.9)" -> "12.9"
  std::string magma;
  std::map<std::string, std::string> settings;  // Build settings: USE_CUDA -> ON
  std::vector<std::string> other;               // items not read into a field, as printed
};

// nullopt and *error when the text is not show()'s output.
std::optional<TorchConfig> parse_torch_config(std::string_view text, std::string* error);

// cudnnGetVersion()/torch.backends.cudnn.version() as a version: 8500 -> "8.5.0", 91002 -> "9.10.2"
// (cuDNN 9 changed the encoding to major*10000 + minor*100 + patch).
std::string cudnn_version_text(long v);
// show() prints cuDNN with the cuDNN 8 formula (v/1000 . v/100%10 [. v%100]), so 9.10.2 reads
// "91.0.2"; this rebuilds the number and decodes it. nullopt when `printed` is not such a number.
std::optional<std::string> decode_printed_cudnn(std::string_view printed);

// sm_NN / compute_NN tokens in `text` ("sm_50 sm_90 compute_90", or gencode flags, where only the
// code= values count) into SASS and PTX lists (sorted, unique).
void arch_tokens(std::string_view text, std::vector<CudaArch>& sass, std::vector<CudaArch>& ptx);

// "ON", "1", "True", "yes" -> true; "OFF", "0", "False", "no", "" -> false; else nullopt.
std::optional<bool> setting_truth(std::string_view v);

}  // namespace ts::verify

#pragma once
// ArchList: the set of GPU targets a build compiles for, read from any spelling people use for
// TORCH_CUDA_ARCH_LIST and printed for each consumer (PyTorch, nvcc, CMake).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/cuda_arch.h"

namespace ts {

// Resolves a symbolic name ("Ampere", "ada", "native", "portable") to arches. Callers that hold the
// KB or host facts provide it; core knows no names. On failure return nullopt and set *error.
// An empty vector accepts the name and adds nothing: a syntax check can pass every name through.
using ArchNameResolver =
    std::function<std::optional<std::vector<CudaArch>>(std::string_view name, std::string* error)>;

class ArchList {
 public:
  ArchList() = default;
  explicit ArchList(std::vector<CudaArch> arches);  // merged and sorted like parse

  // Tokens are separated by any mix of ';', ',' and whitespace. "+PTX" attaches to the arch it is
  // written on ("8.6+PTX"); a "+PTX" standing alone after whitespace ("8.6 +PTX") binds to the token
  // before it. Numbers parse as CudaArch; anything else goes to `resolve` ("Ampere", "native",
  // "Ampere+PTX" = the name's arches with PTX on the highest). Duplicates merge (ptx ORed); sorted
  // ascending. Empty input, an unknown name, or any name without a resolver is an error.
  static std::optional<ArchList> parse(std::string_view text, const ArchNameResolver& resolve = nullptr,
                                       std::string* error = nullptr);

  const std::vector<CudaArch>& arches() const { return arches_; }
  bool empty() const { return arches_.empty(); }
  std::size_t size() const { return arches_.size(); }
  bool contains_capability(const CudaArch& a) const;  // same major.minor, any suffix
  bool runs_on(const CudaArch& gpu) const;            // some target runs there (SASS or PTX JIT)
  std::optional<CudaArch> highest() const;

  std::string torch_cuda_arch_list() const;        // "7.5;8.6;9.0+PTX"
  std::vector<std::string> gencode_flags() const;  // "-gencode=arch=compute_86,code=sm_86", plus code=compute_NN for +PTX
  std::string cmake_cuda_architectures() const;    // "75-real;86-real;90" (NN = SASS+PTX, NN-real = SASS only)

  friend bool operator==(const ArchList&, const ArchList&) = default;

 private:
  std::vector<CudaArch> arches_;
};

struct HostFacts;
// The GPUs here with a known compute capability, in the order found: what "native" means in --arch
// and what the run's arch-shrink remedy narrows to (ArchList of it: sorted and merged).
std::vector<CudaArch> native_gpu_arches(const HostFacts& facts);

void to_json(nlohmann::json& j, const ArchList& l);  // the TORCH_CUDA_ARCH_LIST string
void from_json(const nlohmann::json& j, ArchList& l);  // numbers only (no resolver); throws on bad text

}  // namespace ts

#pragma once
// GpuCodeList: the code targets a binary holds or a compiler emits, as nvcc and torch name them
// ("sm_90": SASS, "compute_90": PTX only), in the order listed. Read once where the probe or a facts
// file reads them; after that no stage parses the names again.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/cuda_arch.h"

namespace ts {

// Not an ArchList: there "9.0+PTX" is SASS and PTX of one arch and duplicates merge, while a code
// list keeps "sm_90" and "compute_90" apart (a CudaArch with ptx set is PTX only here).
class GpuCodeList {
 public:
  GpuCodeList() = default;
  // The names as listed; one no grammar accepts ("sm_", "8") is left out and counted in *skipped.
  static GpuCodeList read(const std::vector<std::string>& names, std::size_t* skipped = nullptr);

  const std::vector<CudaArch>& code() const { return code_; }
  bool empty() const { return code_.empty(); }
  std::size_t size() const { return code_.size(); }
  std::vector<std::string> names() const;  // "sm_90", "compute_90": nvcc's spelling, in order
  std::string joined(std::string_view sep) const;

  friend bool operator==(const GpuCodeList&, const GpuCodeList&) = default;

 private:
  std::vector<CudaArch> code_;
};

// nvcc's name of one code target: "compute_90" when ptx (PTX only), else "sm_90".
std::string code_name(const CudaArch& a);

void to_json(nlohmann::json& j, const GpuCodeList& l);    // the names, a JSON array
void from_json(const nlohmann::json& j, GpuCodeList& l);  // strings read as read() does; others ignored

}  // namespace ts

#pragma once
// The arch rules: which arches a toolkit's nvcc compiles (rule id "gpu.toolkit"), and whether a
// build's code runs on a GPU, as SASS or as PTX the driver JIT-compiles (rule id "gpu.torch").
// Doctor's GPU verdicts, both planners' arch decisions and conflicts, and verify ask them.
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_arch.h"
#include "kb/kb.h"

namespace ts::compat {

inline constexpr const char* kArchToolkitRule = "gpu.toolkit";
inline constexpr const char* kArchCoverageRule = "gpu.torch";

// Whether a list (the KB's, parsed when it loaded; a probed nvcc's, parsed when read) names a's
// capability and suffix, SASS or PTX alike.
bool arch_listed(const std::vector<CudaArch>& list, const CudaArch& a);

// Whether a toolkit compiles real code for a capability ("8.9" against sm_89 in its arches).
bool toolkit_compiles(const kb::CudaRelease& r, const CudaArch& gpu);

// Whether nvcc compiles for a: its own --list-gpu-code when probed (nvcc_arches), else the KB's
// list for its release; true when neither is known (the build will tell).
bool nvcc_compiles(const std::vector<CudaArch>& nvcc_arches, const kb::CudaRelease* rel, const CudaArch& a);

// Which toolkits compile for a capability: the oldest and newest [[release]] in the KB that do,
// and the first toolkit ever to do so (cuda.toml [[arch]] first_cuda, for arches older than the
// KB's list; else the oldest release).
struct ArchSpan {
  const kb::CudaRelease* lo = nullptr;  // oldest release in the KB with it
  const kb::CudaRelease* hi = nullptr;  // newest release in the KB with it
  std::optional<Version> first;         // 10.0: where support starts (none when no toolkit compiles it)
  std::string first_source;             // the [[arch]] entry's source when it says so
  bool still_supported = false;         // the newest toolkit in the KB still has it
  // "since CUDA 10.0" while the newest toolkit has it, else "CUDA 8.0 to 12.9"; "" when none.
  std::string describe() const;
};
ArchSpan arch_span(const kb::Kb& kb, const CudaArch& gpu);

// The nearest target this toolkit can build that still runs on a GPU of capability `gpu`: the
// newest SASS of the same major at a lower minor (8.6 on an 8.9 GPU), else the newest lower arch
// as PTX that the driver JIT-compiles ("7.5+PTX"). nullopt when the toolkit has nothing older.
// Tegra SoC arches (8.7, 7.2, ...; tegra.toml) are skipped for a discrete GPU.
std::optional<CudaArch> nearest_runnable(const kb::Kb& kb, const kb::CudaRelease& r, const CudaArch& gpu);

// How a build's code runs on a GPU: SASS that runs there, only PTX the driver JIT-compiles at
// first use (slow start, and only with a new enough driver), or not at all ("no kernel image is
// available for execution on the device"). An entry with ptx set counts as PTX only ("compute_90"),
// others as SASS. CudaArch::runs_on holds the binary compatibility rules.
enum class Coverage { none, ptx, sass };
Coverage coverage(const std::vector<CudaArch>& code, const CudaArch& gpu);

}  // namespace ts::compat

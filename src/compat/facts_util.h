#pragma once
// Small helpers shared by the checks: parsing fact strings and citing KB entries.
#include <optional>
#include <string>
#include <string_view>

#include "core/cuda_arch.h"
#include "core/host_facts.h"
#include "core/version.h"
#include "kb/kb.h"

namespace ts::compat {

// Facts are raw strings; an unparsable one is treated as unknown.
std::optional<Version> ver(std::string_view s);
// "11.8" for "11.8.89" (how toolkits are named in verdicts); the text itself when unparsable.
std::string major_minor(const std::string& version);
// "source (file:line)": an upstream source with the KB entry it was read from.
std::string cite(const std::string& source, const kb::Origin& o);
// "cuda.toml:124": where a KB entry was read, for a verdict's `where`.
std::string where(const kb::Origin& o);
// "12.0" from "sm_120", "compute_90a" or "9.0"; "" if not an arch.
std::string capability_of(std::string_view arch);
// The compiler nvcc uses by default: `g++`/`gcc` first on PATH (the bare names), else any gcc.
const CompilerFacts* default_host_compiler(const HostFacts& f);
// " (recalled, not verified against a source)" when the KB marks that field so; else "".
template <typename Entry>
std::string unverified(const Entry& e, std::string_view field) {
  return e.is_recalled(field) ? " (this fact is recalled, not verified against a source)" : "";
}
// The cores a build may use: logical (affinity and cgroup cpu.max applied), else the online ones;
// 0 when the probe learned neither.
int usable_cores(const CpuFacts& cpu);
// "12.5 GiB"
std::string gib(std::uint64_t bytes);
// "2.5": one decimal, for the memory model's reasons
std::string num(double x);
// The newest CUDA release in the KB whose minimum driver this driver meets; nullptr if none.
const kb::CudaRelease* newest_cuda_for_driver(const kb::Kb& kb, const Version& driver);

// Which toolkits compile for a capability: the oldest and newest [[release]] in the KB that do,
// and the first toolkit ever to do so (cuda.toml [[arch]] first_cuda, for arches older than the
// KB's list; else the oldest release).
struct ArchSpan {
  const kb::CudaRelease* lo = nullptr;  // oldest release in the KB with it
  const kb::CudaRelease* hi = nullptr;  // newest release in the KB with it
  std::string first;                    // "10.0": where support starts
  std::string first_source;             // the [[arch]] entry's source when it says so
  bool still_supported = false;         // the newest toolkit in the KB still has it
  // "since CUDA 10.0" while the newest toolkit has it, else "CUDA 8.0 to 12.9"; "" when none.
  std::string describe() const;
};
ArchSpan arch_span(const kb::Kb& kb, const std::string& capability);
// Whether a toolkit compiles real code for a capability ("8.9" against sm_89 in its arches).
bool toolkit_compiles(const kb::CudaRelease& r, const std::string& capability);
// The nearest target this toolkit can build that still runs on a GPU of capability `gpu`: the
// newest SASS of the same major at a lower minor (8.6 on an 8.9 GPU), else the newest lower arch
// as PTX that the driver JIT-compiles ("7.5+PTX"). nullopt when the toolkit has nothing older.
// Tegra SoC arches (8.7, 7.2, ...; tegra.toml) are skipped for a discrete GPU.
std::optional<CudaArch> nearest_runnable(const kb::Kb& kb, const kb::CudaRelease& r, const CudaArch& gpu);

}  // namespace ts::compat

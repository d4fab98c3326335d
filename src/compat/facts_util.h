#pragma once
// Small helpers shared by the checks: citing KB entries, the default compiler, usable cores (facts arrive parsed).
#include <optional>
#include <string>
#include <string_view>

#include "core/cuda_arch.h"
#include "core/host_facts.h"
#include "core/version.h"
#include "kb/kb.h"

namespace ts::compat {

// "source (file:line)": an upstream source with the KB entry it was read from.
std::string cite(const std::string& source, const kb::Origin& o);
// "cuda.toml:124": where a KB entry was read, for a verdict's `where`.
std::string where(const kb::Origin& o);
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

}  // namespace ts::compat

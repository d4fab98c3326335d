#pragma once
// The one host-compiler rule (rule id "compiler.nvcc_host"): nvcc refuses a GCC newer than its
// toolkit's gcc_max (crt/host_config.h: "unsupported GNU version!"), so the host compiler is the
// newest installed GCC with a C++ driver whose major is within the limits. Doctor's verdict, both
// planners and triage's specialised fix ask it.
#include <string>

#include "core/host_facts.h"
#include "kb/kb.h"

namespace ts::compat {

inline constexpr const char* kHostCompilerRule = "compiler.nvcc_host";
// The user's $CC/$CXX is the build's compiler when it fits the same limits (compiler.user-cc):
// plain `pip wheel` and cpp_extension (nvcc -ccbin $CC) compile with it.
inline constexpr const char* kUserCompilerRule = "compiler.user-cc";

// The major of the newest GCC that nvcc of this CUDA version accepts (the KB's gcc_max); 0 unknown.
int gcc_max_major(const kb::Kb& kb, const std::string& cuda_version);

// The oldest CUDA release in the KB whose nvcc accepts a GCC of this major; nullptr when none.
const kb::CudaRelease* oldest_cuda_for_gcc(const kb::Kb& kb, int gcc_major);

// Does a GCC of this version fit [lo, hi] (majors; 0 = unbounded)?
bool gcc_fits(const FactVersion& version, int lo, int hi);

// The newest installed GCC with a C++ driver whose major is in [lo, hi]; nullptr when none.
const CompilerFacts* newest_gcc(const HostFacts& f, int lo, int hi);

// The compiler a build starts from: the default GCC (g++ on PATH) when it has a C++ driver and a
// readable version, else the newest installed GCC with a C++ driver; nullptr when there is none.
const CompilerFacts* default_gcc(const HostFacts& f);

// The compiler the user's CC/CXX name (the probe marks it from_env); nullptr when neither is set.
const CompilerFacts* user_compiler(const HostFacts& f);

// Why the user's compiler cannot be the build's GCC within [lo, hi] ("" when it can): not a GCC,
// no C++ driver, no readable version, or a major outside the limits (`lo_why`/`hi_why` name them).
std::string user_gcc_misfit(const CompilerFacts& cc, int lo, int hi, const std::string& lo_why,
                            const std::string& hi_why);

// The host GCC within [lo, hi]: the default compiler `def` when it fits, else the newest installed
// one that does (moved = true; pick is nullptr when none does). Both planners choose by it.
struct HostGcc {
  const CompilerFacts* pick = nullptr;
  bool moved = false;
  bool user = false;  // pick is the user's CC/CXX (compiler.user-cc)
};
HostGcc host_gcc(const CompilerFacts& def, const HostFacts& f, int lo, int hi);

// What to tell someone who has no fitting GCC: Debian/Ubuntu name versioned compilers gcc-N/g++-N
// and install them as /usr/bin/g++-N, which nvcc then gets as CUDAHOSTCXX.
std::string install_gcc_advice(int major);

}  // namespace ts::compat

#pragma once
// The contract between an installed torch and an extension built against it, checked before
// anything compiles: CUDA major, a CUDA torch for CUDA code, host compiler and C++ ABI, arches
// (nvcc's and this torch's cpp_extension's), the package's torch pin, and no build isolation.
// Each check adds Decisions (warnings included) or Conflicts with their fixes and sources.
#include <string>
#include <vector>

#include "core/arch_list.h"
#include "core/host_facts.h"
#include "kb/kb.h"
#include "plan/build_kb.h"
#include "plan/build_frontend.h"
#include "plan/decision_log.h"
#include "plan/plan.h"
#include "plan/recipe.h"
#include "source/fix.h"

namespace ts::plan {

// The checks' decisions and conflicts (each with its rule id), and the torch fixes they need.
struct ContractOut : DecisionLog {
  std::vector<PlannedFix> fixes;  // torch cpp_extension fixes the build needs (applied to the installed torch)
};

// "torch 1.13.0a0 at /usr/lib/python3/dist-packages/torch"
std::string torch_label(const PythonFacts& py);

// nvcc's major must equal torch's CUDA major; a minor difference is a warning (cpp_extension's rule).
void check_cuda_major(const PythonFacts& py, const CudaToolkitFacts& nvcc, ContractOut& out);

// Whether the build compiles CUDA code. CUDA code needs a CUDA torch: a CPU torch is a conflict when
// the package is CUDA-only or CUDA was asked for (asked_cuda), else a CPU build with a decision.
// `cuda_only` comes from the recipe or the tree (CUDAExtension without CppExtension).
bool decide_cuda(const PythonFacts& py, bool cuda_only, bool has_cuda_code, bool asked_cuda, bool asked_cpu,
                 const Recipe& recipe, ContractOut& out);

// nvcc accepts this host compiler (compat's rule over the KB's gcc_max).
void check_host_compiler(const HostFacts& facts, const kb::Kb& kb, const CompilerFacts& cc,
                         const CudaToolkitFacts* nvcc, ContractOut& out);

// The C++ ABI: the compiler can produce torch's (_GLIBCXX_USE_CXX11_ABI), and no knob of the
// recipe's env forces the other one. `env` is the build's environment as planned so far.
void check_abi(const PythonFacts& py, const CompilerFacts& cc, const Recipe& recipe,
               const std::map<std::string, std::string>& env, ContractOut& out);

// Every arch: nvcc compiles it, and (when the list goes through torch's TORCH_CUDA_ARCH_LIST)
// this torch's cpp_extension accepts it, or a KB fix for torch/utils/cpp_extension.py teaches it.
// Also selects the other cpp_extension fixes that hold (CUDA/compiler tables of an old torch).
void check_arches(const PythonFacts& py, const kb::Kb& kb, const CudaToolkitFacts& nvcc, const CompilerFacts* cc,
                  const ArchList& arches, const Recipe& recipe, const source::FixSet* fixes, ContractOut& out);

// The package's torch pin: recipe.torch, the compat entry for `version` ("" = unknown), and the
// tree's pyproject build requirement on torch.
void check_torch_pin(const PythonFacts& py, const Recipe& recipe, const FactVersion& version,
                     const std::vector<std::string>& pyproject_requires, ContractOut& out);

// How the build runs without isolation: torchsmith's PEP 517 frontend when the target Python's
// setuptools has the legacy backend (build.toml's [legacy_backend]; null or no version known: not
// taken), else `python -m pip wheel --no-build-isolation --no-deps` when pip is there, else
// `python setup.py bdist_wheel`; a conflict when none can.
// Returns the argv ({python} and {dist} filled), empty on conflict.
std::vector<std::string> build_command(const PythonFacts& py, bool setup_py, bool pyproject, const LegacyBackend* legacy,
                                       ContractOut& out);

}  // namespace ts::plan

// Wordings added with the failure grammars (issue 36), each from the development part of batch 6
// of the real corpus, with near misses: numba's LLVM fatal error for an unresolved Intel SVML
// function, tcc's wording of a missing Python.h (triton-windows' bundled C compiler), and torch's
// arch warning ranked above the no-kernel-image error it explains.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

class StructureWording : public ::testing::TestWithParam<Wording> {};

TEST_P(StructureWording, NamesTheRootCause) { EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line; }

const Wording kStructureWordings[] = {
    // https://github.com/lmcinnes/umap/issues/702, https://github.com/MouseLand/cellpose/issues/432
    {"LLVM ERROR: Symbol not found: __svml_sqrtf8", "NUMBA_SVML_UNRESOLVED"},
    {"python -m cellpose\nLLVM ERROR: Symbol not found: __svml_sqrt4_ha", "NUMBA_SVML_UNRESOLVED"},
    // https://github.com/woct0rdho/triton-windows/issues/72
    {"C:/Users/ADMINI~1/AppData/Local/Temp/tmpr56dckpw/cuda_utils.c:13: error: include file 'Python.h' not found", "PYTHON_H_MISSING"},
    // https://github.com/NixOS/nixpkgs/pull/432046: Triton 3.4 under torch 2.7's inductor.
    {"LoweringException: AttributeError: type object 'CompiledKernel' has no attribute 'launch_enter_hook'", "TRITON_NOT_AVAILABLE"},
    // torch naming the GPU's arch it was built without is the cause; "no kernel image" is its consequence
    // (https://github.com/Janrupf/stable-diffusion-webui-nix/issues/9, journald's prefix on every line).
    {"Oct 04 13:19:39 llm sd-webui-forge-start[394]: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
     "Oct 04 13:19:39 llm sd-webui-forge-start[394]: The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n"
     "Oct 04 15:02:41 llm sd-webui-forge-start[394]: RuntimeError: CUDA error: no kernel image is available for execution on the device",
     "CUDA_ARCH_SM_NOT_IN_TORCH_LIST"},
};

INSTANTIATE_TEST_SUITE_P(All, StructureWording, ::testing::ValuesIn(kStructureWordings));

TEST(StructureWording, NearMisses) {
  // Another LLVM symbol (compiler-rt's, on 32-bit: https://github.com/numba/numba/issues/6012) and another header.
  expect_not_named({"LLVM ERROR: Symbol not found: __powidf2", "NUMBA_SVML_UNRESOLVED"});
  expect_not_named({"C:/Temp/cuda_utils.c:13: error: include file 'cuda.h' not found", "PYTHON_H_MISSING"});
  expect_not_named({"AttributeError: type object 'Tensor' has no attribute 'launch_enter_hook'", "TRITON_NOT_AVAILABLE"});
}

}  // namespace
}  // namespace ts::triage::testing

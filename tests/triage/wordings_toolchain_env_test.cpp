// Toolchain and build-environment failures (memory, disk, missing compiler/nvcc/cuDNN, install
// permissions, submodules) in the wordings other tools, platforms and versions print them in.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

class EnvWording : public ::testing::TestWithParam<Wording> {};

TEST_P(EnvWording, NamesTheRootCause) {
  EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line;
}

const Wording kEnvWordings[] = {
    // MinGW's driver names the front end with .exe.
    {"cc1plus.exe: out of memory allocating 3154664 bytes", "OOM_CC1PLUS_KILLED"},
    {"cc1.exe: out of memory allocating 65536 bytes", "OOM_CC1PLUS_KILLED"},
    // docker's legacy builder reporting a RUN step killed with SIGKILL.
    {"ERROR: Service 'web' failed to build : The command '/bin/sh -c pip3 install -r requirements.txt' returned a non-zero code: 137", "OOM_GENERIC_KILLED"},
    // Windows: an nvcc sub-tool access violation, bare and through MSBuild's CUDACOMPILE prefix.
    {"CUDACOMPILE : nvcc error : 'cudafe++' died with status 0xC0000005 (ACCESS_VIOLATION)", "NVCC_TOOL_SEGFAULT"},
    {"'cicc' died with status 0xC0000005 (ACCESS_VIOLATION)", "NVCC_TOOL_SEGFAULT"},
    // Go tools print errno text in lower case.
    {"docker: failed to register layer: Error processing tar file(exit status 1): write /usr/local/cuda-11.4/bin/nvdisasm: no space left on device.", "DISK_FULL"},
    {"ApplyLayer exit status 1 stdout:  stderr: write /x/torch/lib/libtorch_cuda.so: no space left on device", "DISK_FULL"},
    // CMake install into an unwritable prefix: old CMake (no reason) and new (': Permission denied').
    {"  file INSTALL cannot copy file", "CMAKE_INSTALL_PERMISSION"},
    {"CMake Error at cmake_install.cmake:41 (file):\n  file INSTALL cannot copy file", "CMAKE_INSTALL_PERMISSION"},
    // nvcc not on PATH: dash, bash, make, old distutils, setup.py locate_cuda().
    {"build.sh: 11: build.sh: nvcc: not found", "NVCC_NOT_FOUND"},
    {"bash: nvcc: command not found", "NVCC_NOT_FOUND"},
    {"make: nvcc: Command not found", "NVCC_NOT_FOUND"},
    {"unable to execute nvcc: No such file or directory", "NVCC_NOT_FOUND"},
    {"unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory", "NVCC_NOT_FOUND"},
    {"OSError: The nvcc binary could not be located in your $PATH. Either add it to your path, or set $CUDAHOME", "NVCC_NOT_FOUND"},
    // No C/C++ compiler: target-triplet driver names, new and old distutils wordings.
    {"error: command 'x86_64-linux-gnu-gcc' failed: No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    {"error: command '/usr/bin/g++' failed: No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    {"unable to execute 'x86_64-linux-gnu-gcc': No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    {"unable to execute 'x86_64-conda_cos6-linux-gnu-gcc': No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    {"unable to execute gcc: No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    // CMake: CXX/CC names a compiler that does not exist (two CMake wordings, and a one-line form).
    {"  The CMAKE_CXX_COMPILER:\n\n    /usr/bin/c++\n\n  is not a full path to an existing compiler tool.", "NO_CXX_COMPILER"},
    {"CMake Error at CMakeLists.txt:7 (project):The CMAKE_CXX_COMPILER:", "NO_CXX_COMPILER"},
    {"  The CMAKE_C_COMPILER:", "NO_CXX_COMPILER"},
    {"The CMAKE_CXX_COMPILER: g++.exe is not a full path and was not found in the PATH.", "NO_CXX_COMPILER"},
    {"CMake Error: your CXX compiler: \"CMAKE_CXX_COMPILER-NOTFOUND\" was not found", "NO_CXX_COMPILER"},
    {"CMake Error: your C compiler: \"CMAKE_C_COMPILER-NOTFOUND\" was not found", "NO_CXX_COMPILER"},
    // A submodule directory that was never checked out.
    {"  add_subdirectory given source \"libsane\" which is not an existing directory.", "SUBMODULES_MISSING"},
    {"add_subdirectory given source \"ThirdParty/zstd/build/cmake\" which is not an", "SUBMODULES_MISSING"},
    // cmake run on a vendored directory that is empty (NVIDIA/nccl#148, curly quotes from a forum copy; a straight-quoted one).
    {"CMake Error: The source directory \u201c/home/simon/Desktop/pytorch-scripts-1.0rc1/pytorch/third_party/nccl\u201d does not appear to contain CMakeLists.txt.", "SUBMODULES_MISSING"},
    {"CMake Error: The source directory \"/src/pytorch/third_party/fbgemm\" does not appear to contain CMakeLists.txt.", "SUBMODULES_MISSING"},
    // cudnn.h missing: gcc, clang, MSVC (ASCII and localised typographic quotes).
    {"include/darknet.h:46:10: fatal error: cudnn.h: No such file or directory", "CUDNN_NOT_FOUND"},
    {"code.cpp:5:14: fatal error: 'cudnn.h' file not found", "CUDNN_NOT_FOUND"},
    {"caffe/util/cudnn.hpp(5): fatal error C1083: Cannot open include file: 'cudnn.h': No such file or directory", "CUDNN_NOT_FOUND"},
    {"fatal error C1083: Cannot open file included: \u201c" "cudnn.h\u201d: No such file or directory", "CUDNN_NOT_FOUND"},
    // A clang older than the AMD GPU it compiles for rejects the bare processor name: a system clang 14 building
    // ROCm 5.3's hsa-rocr (rocm-arch/rocm-arch#875); newer clang words it as an unsupported HIP architecture
    // (llvm/llvm-project#125556).
    {"clang-14: error: invalid target ID 'gfx1102'; format is a processor name followed by an optional colon-delimited list of "
     "features followed by an enable/disable sign (e.g., 'gfx908:sramecc+:xnack-')", "ROCM_COMPILER_TOO_OLD"},
    {"clang: error: unsupported HIP gpu architecture: gfx1250", "ROCM_COMPILER_TOO_OLD"},
    // nvcc given a MinGW gcc as host compiler on Windows (Celebrandil/CudaSift#77's report).
    {"nvcc fatal   : Host compiler targets unsupported OS", "NVCC_HOST_COMPILER_UNSUPPORTED_OS"},
    // nvcc's front end inside GCC's Arm intrinsics header (the NVIDIA forum thread the signature cites).
    {"/usr/lib/gcc/aarch64-linux-gnu/11/include/arm_neon.h(38): error: identifier \"__Int8x8_t\" is undefined",
     "NVCC_ARM_NEON_UNSUPPORTED"},
    // CMake's Config-mode failure for a package no signature has, as the message of its CMake Error block
    // (ROCm/rccl#66's, ROCm/rocFFT#303's wording); a forum copy without the indentation.
    {"CMake Error at CMakeLists.txt:33 (find_package):\n  Could not find a package configuration file provided by \"ROCM\" with any of",
     "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND"},
    {"CMake Error at /usr/share/cmake-3.18/Modules/CMakeFindDependencyMacro.cmake:47 (find_package):\n"
     "By not providing \"Findhip.cmake\" in CMAKE_MODULE_PATH this project has", "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND"},
};

INSTANTIATE_TEST_SUITE_P(All, EnvWording, ::testing::ValuesIn(kEnvWordings));

// The same words in lines that are not that failure.
TEST(EnvWordingNearMiss, DoesNotTrigger) {
  for (const Wording& n : {Wording{"Step 5/9 : RUN exit 0 returned a non-zero code: 1", "OOM_GENERIC_KILLED"},
                           Wording{"nvcc error   : 'cl.exe' died with status 0xC0000005 (ACCESS_VIOLATION)", "NVCC_TOOL_SEGFAULT"},
                           Wording{"  file INSTALL cannot find \"/x/build/libfoo.so\": No such file or directory.", "CMAKE_INSTALL_PERMISSION"},
                           Wording{"-- nvcc: not found in PATH, building the CPU extension only (set CUDA_HOME to enable)", "NVCC_NOT_FOUND"},
                           Wording{"unable to execute 'nvcc': No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
                           Wording{"error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
                           Wording{"-- CMAKE_CXX_COMPILER: /usr/bin/g++", "NO_CXX_COMPILER"},
                           Wording{"  The CMAKE_CUDA_COMPILER:", "NO_CXX_COMPILER"},
                           Wording{"CMAKE_CUDA_COMPILER-NOTFOUND", "NO_CXX_COMPILER"},
                           Wording{"-- Adding subdirectory third_party/fmt", "SUBMODULES_MISSING"},
                           // cmake run in a project's own directory that has no CMakeLists.txt: a wrong directory, no submodule.
                           Wording{"CMake Error: The source directory \"/home/u/myproject/build\" does not appear to contain CMakeLists.txt.", "SUBMODULES_MISSING"},
                           Wording{"fatal error: cudnn.hpp: No such file or directory", "CUDNN_NOT_FOUND"},
                           // A malformed target ID (features without their sign) is a spelling error, not an old clang;
                           // a CUDA compile handed a gfx name (leejet/stable-diffusion.cpp#464) is no HIP compile.
                           Wording{"clang: error: invalid target ID 'gfx908:xnack'; format is a processor name followed by an "
                                   "optional colon-delimited list of features", "ROCM_COMPILER_TOO_OLD"},
                           Wording{"clang++: error: unsupported CUDA gpu architecture: gfx1100", "ROCM_COMPILER_TOO_OLD"},
                           // GCC's own error in the same header (file:line:col) is the host compiler's, not nvcc's front end.
                           Wording{"/usr/lib/gcc/aarch64-linux-gnu/11/include/arm_neon.h:6183:1: error: inlining failed in call to "
                                   "'always_inline' 'vld1q_f32': target specific option mismatch", "NVCC_ARM_NEON_UNSUPPORTED"},
                           // A config found, of another version: not a missing package.
                           Wording{"  Could not find a configuration file for package \"fmt\" that is compatible", "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND"}}) {
    expect_not_named(n);
  }
}

}  // namespace
}  // namespace ts::triage::testing

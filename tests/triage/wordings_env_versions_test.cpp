// Toolchain and environment failures in the wordings older/newer tool versions and other
// front ends print them in (old CUDA host_config.h, CMake before CUDA was a language, XLA's
// libdevice search, GNU ld's SIGBUS on a full disk, Windows shells without nvcc on PATH,
// FindNCCL variants, DeepSpeed's JIT-load refusal, CMake's install mkdir).
#include "test_util.h"

namespace ts::triage::testing {
namespace {

class EnvVersionWording : public ::testing::TestWithParam<Wording> {};

TEST_P(EnvVersionWording, NamesTheRootCause) {
  EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line;
}

const Wording kEnvVersionWordings[] = {
    // CUDA <= 7.0 names the first GCC it rejects; CUDA >= 7.5 says "versions later than".
    {"/usr/local/cuda-5.5/include/host_config.h:82:2: error: #error -- unsupported GNU version! gcc 4.9 and up are not supported!", "NVCC_HOST_GCC_TOO_NEW"},
    {"host_config.h:82:2: error: #error -- unsupported GNU version! gcc 4.10 and up are not supported!", "NVCC_HOST_GCC_TOO_NEW"},
    // A major.minor bound, as some CUDA 8.0 host_config.h print it (torch/distro#219).
    {"unsupported GNU version! gcc versions later than 5.3 are not supported", "NVCC_HOST_GCC_TOO_NEW"},
    // Any #error of host_config.h naming GCC, whatever its words (endernewton/tf-faster-rcnn#352, CUDA 9.0).
    {"ERROR:`/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error --Unsupported GNU version later than 6 are not supported!`",
     "NVCC_HOST_GCC_TOO_NEW"},
    // CMake < 3.8 (CUDA) or < 3.21 (HIP) has no module for the language; it outranks the
    // "No CMAKE_CUDA_COMPILER" lines that follow.
    {"CMake Error: Could not find cmake module file: CMakeDetermineCUDACompiler.cmake\n"
     "CMake Error at CMakeLists.txt:34 (enable_language):\n  No CMAKE_CUDA_COMPILER could be found.\n"
     "CMake Error: CMAKE_CUDA_COMPILER not set, after EnableLanguage", "CMAKE_TOO_OLD"},
    {"CMake Error: Could not find cmake module file: CMakeDetermineHIPCompiler.cmake", "CMAKE_TOO_OLD"},
    // cmake --build's -j/--parallel (CMake 3.12+) on an older CMake.
    {"Unknown argument -j\nUnknown argument 8\nUsage: cmake --build <dir> [options] [-- [native-options]]", "CMAKE_TOO_OLD"},
    {"Unknown argument -j4", "CMAKE_TOO_OLD"},
    {"Unknown argument --parallel", "CMAKE_TOO_OLD"},
    // ... indented as pip indents a child's output (diasurgical/devilutionx#442's lines under setup.py).
    {"      Unknown argument -j\n      Unknown argument 8", "CMAKE_TOO_OLD"},
    // XLA (JAX, TensorFlow) after its own search of the CUDA data directories.
    {"jaxlib.xla_extension.XlaRuntimeError: INTERNAL: libdevice not found at ./libdevice.10.bc", "CUDA_LIBDEVICE_NOT_FOUND"},
    {"XlaRuntimeError: INTERNAL: libdevice not found at /usr/local/lib/python3.8/dist-packages/jaxlib/cuda/nvvm/libdevice/libdevice.10.bc", "CUDA_LIBDEVICE_NOT_FOUND"},
    {"RuntimeError: Internal: libdevice not found at ./libdevice.10.bc", "CUDA_LIBDEVICE_NOT_FOUND"},
    // GNU ld (bfd, gold) killed by SIGBUS writing its mmap'd output on a full disk.
    {"collect2: fatal error: ld terminated with signal 7 [Bus error]", "DISK_FULL"},
    {"  = note: collect2: fatal error: ld terminated with signal 7 [Bus error], core dumped", "DISK_FULL"},
    {"collect2: fatal error: ld.gold terminated with signal 7 [Bus error]", "DISK_FULL"},
    // nvcc not on PATH in the Windows shells (cmd.exe, PowerShell) and in apex-style setup.py checks.
    {"'nvcc' is not recognized as an internal or external command,", "NVCC_NOT_FOUND"},
    {"nvcc : The term 'nvcc' is not recognized as the name of a cmdlet, function, script file, or operable program.", "NVCC_NOT_FOUND"},
    {"RuntimeError: --cuda_ext was requested, but nvcc was not found.  Are you sure your environment has nvcc available?", "NVCC_NOT_FOUND"},
    // NCCL missing: FindNCCL modules name their variables differently; MXNet checks it itself.
    {"  Could NOT find NCCL (missing: NCCL_INCLUDE_DIRS NCCL_LIBRARIES)", "NCCL_NOT_FOUND"},
    {"  Could NOT find NCCL (missing: NCCL_LIBRARY NCCL_INCLUDE_DIR)", "NCCL_NOT_FOUND"},
    {"CMake Warning at CMakeLists.txt:299 (message):\n  Could not find NCCL libraries", "NCCL_NOT_FOUND"},
    // CMake 3.x creating an install directory under a root-owned prefix.
    {"CMake Error at cmake_install.cmake:41 (file):\n  file INSTALL cannot make directory\n  \"/usr/local/include/x\": Permission denied", "CMAKE_INSTALL_PERMISSION"},
    // DeepSpeed's async_io op without libaio: the pre-build and the JIT-load wordings.
    {"E           RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to hardware/software issue.", "DEEPSPEED_AIO_LIBAIO_MISSING"},
};

INSTANTIATE_TEST_SUITE_P(All, EnvVersionWording, ::testing::ValuesIn(kEnvVersionWordings));

// The same words in lines that are not that failure.
TEST(EnvVersionWordingNearMiss, DoesNotTrigger) {
  for (const Wording& n : {Wording{"-- gcc 4.9 and up are supported by this toolkit", "NVCC_HOST_GCC_TOO_NEW"},
                           // another header's #error (pytorch/pytorch#7897's cudnn-wrapper.h), host_config.h's MSVC check,
                           // host_config.h named where nothing failed
                           Wording{"aten/src/ATen/cudnn/cudnn-wrapper.h:10:2: error: #error \"CuDNN version not supported\"", "NVCC_HOST_GCC_TOO_NEW"},
                           Wording{"host_config.h(160): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!",
                                   "NVCC_HOST_GCC_TOO_NEW"},
                           Wording{"-- host_config.h:119 checks the GNU version of the host compiler", "NVCC_HOST_GCC_TOO_NEW"},
                           Wording{"CMake Error: Could not find cmake module file: CMakeCUDAInformation.cmake", "CMAKE_TOO_OLD"},
                           Wording{"-- Found libdevice at /usr/local/cuda/nvvm/libdevice/libdevice.10.bc", "CUDA_LIBDEVICE_NOT_FOUND"},
                           Wording{"collect2: fatal error: ld terminated with signal 9 [Killed]", "DISK_FULL"},
                           Wording{"clang: error: unable to execute command: Bus error", "DISK_FULL"},
                           Wording{"'cl' is not recognized as an internal or external command,", "NVCC_NOT_FOUND"},
                           Wording{"-- nvcc was not found; building the CPU-only extension", "NVCC_NOT_FOUND"},
                           // gloo's probe that misses only the header while the main build finds NCCL.
                           Wording{"-- Could NOT find NCCL (missing: NCCL_INCLUDE_DIR) ", "NCCL_NOT_FOUND"},
                           Wording{"CMake Error: Unknown argument --foo", "CMAKE_TOO_OLD"},
                           Wording{"      Unknown argument -jobs", "CMAKE_TOO_OLD"},
                           Wording{"RuntimeError: Unable to JIT load the cpu_adam op due to it not being compatible due to hardware/software issue.", "DEEPSPEED_AIO_LIBAIO_MISSING"}}) {
    expect_not_named(n);
  }
}

}  // namespace
}  // namespace ts::triage::testing

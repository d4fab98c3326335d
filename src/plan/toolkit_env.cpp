#include "plan/toolkit_env.h"

namespace ts::plan {

std::vector<EnvSetting> toolkit_env(const std::string& cuda_home) {
  if (cuda_home.empty()) return {};
  return {
      {"CUDA_HOME", cuda_home,
       "the chosen toolkit: cpp_extension reads CUDA_HOME first, torch's setup.py hands it to CMake",
       "pytorch/pytorch@v2.6.0:torch/utils/cpp_extension.py (_find_cuda_home)"},
      {"CUDA_PATH", cuda_home, "the same toolkit: cpp_extension's second place to look, and NVIDIA's own name for it",
       "pytorch/pytorch@v2.6.0:torch/utils/cpp_extension.py (_find_cuda_home)"},
      {"CUDACXX", cuda_home + "/bin/nvcc",
       "the same toolkit's nvcc for CMake's CUDA language (project(... CUDA), enable_language(CUDA)); "
       "FindCUDAToolkit then takes the toolkit beside it, not the first nvcc on the shell's PATH",
       "https://cmake.org/cmake/help/latest/envvar/CUDACXX.html"},
  };
}

}  // namespace ts::plan

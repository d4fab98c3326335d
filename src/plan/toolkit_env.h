#pragma once
// The one rule that points a build at its CUDA toolkit: every variable a build system reads to find
// nvcc set to the same CUDA_HOME, so CMake, FindCUDAToolkit and torch's cpp_extension cannot pick
// different toolkits (the usual "CUDA_HOME is 12.1, nvcc on PATH is 11.x").
#include <string>
#include <vector>

namespace ts::plan {

struct EnvSetting {
  std::string name, value, reason, source;
};

// CUDA_HOME, CUDA_PATH and CUDACXX for the toolkit at `cuda_home` (PATH's cuda_home/bin is the
// planners' own PATH rule); empty when there is no toolkit.
std::vector<EnvSetting> toolkit_env(const std::string& cuda_home);

}  // namespace ts::plan

#pragma once
// The nvcc a compile test runs: $CUDA_HOME's or $CUDA_PATH's, else /usr/local/cuda's; "" when none (the test skips).
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ts::testkit {

inline std::string find_nvcc() {
  namespace fs = std::filesystem;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* h = std::getenv(var); h && fs::exists(std::string(h) + "/bin/nvcc")) return std::string(h) + "/bin/nvcc";
  return fs::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "";
}

}  // namespace ts::testkit

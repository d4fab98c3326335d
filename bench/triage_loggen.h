#pragma once
// A realistic PyTorch build log generator for bench/triage and the big-log tests: ninja progress,
// full compiler command lines, gcc warning blocks with source excerpts, CMake chatter, setup.py
// copying lines, nvcc/ptxas info, with a few real failures planted at chosen offsets.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::bench {

// The failures planted in a generated log (excerpts from real builds), one every `bytes / n`.
inline const std::vector<std::vector<std::string>>& planted_failures() {
  static const std::vector<std::vector<std::string>> p = {
      {"FAILED: caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/native/TensorShape.cpp.o",
       "c++: fatal error: Killed signal terminated program cc1plus", "compilation terminated."},
      {"/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later than 11 are not supported!"},
      {"CMake Error at third_party/protobuf/cmake/CMakeLists.txt:2 (cmake_minimum_required):",
       "  Compatibility with CMake < 3.5 has been removed from CMake."},
      {"/usr/bin/ld: main.cpp:(.text+0x2a): undefined reference to `cblas_sgemm'", "collect2: error: ld returned 1 exit status"},
      {"nvcc error   : 'cicc' died due to signal 9 (Kill signal)"},
      {"ninja: build stopped: subcommand failed."},
  };
  return p;
}

class LogGen {
 public:
  explicit LogGen(std::uint64_t seed) : s_(seed | 1) {}

  // Emits about `bytes` of log through `sink` in blocks of ~1 MiB; `planted` failures spread evenly.
  void generate(std::uint64_t bytes, int planted, const std::function<void(std::string_view)>& sink) {
    std::string block;
    block.reserve(1 << 21);
    std::uint64_t done = 0, next_plant = planted > 0 ? bytes / static_cast<std::uint64_t>(planted + 1) : UINT64_MAX;
    int planted_so_far = 0;
    while (done < bytes) {
      block.clear();
      while (block.size() < (1u << 20)) {
        if (planted_so_far < planted && done + block.size() >= next_plant) {
          for (const auto& l : planted_failures()[static_cast<std::size_t>(planted_so_far) % planted_failures().size()]) block += l + "\n";
          ++planted_so_far;
          next_plant += bytes / static_cast<std::uint64_t>(planted + 1);
        }
        line(block);
      }
      done += block.size();
      sink(block);
    }
  }

 private:
  std::uint64_t next() { s_ ^= s_ << 13; s_ ^= s_ >> 7; s_ ^= s_ << 17; return s_; }
  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(next() % n); }

  void line(std::string& b) {
    static const char* dirs[] = {"aten/src/ATen/native", "aten/src/ATen/native/cpu", "aten/src/ATen/native/cuda",
                                 "torch/csrc/autograd", "torch/csrc/jit/passes", "c10/core", "caffe2/serialize",
                                 "torch/csrc/distributed/c10d", "aten/src/ATen/native/quantized/cpu"};
    static const char* files[] = {"Activation", "BinaryOps", "Convolution", "TensorShape", "ReduceOps", "Loss",
                                  "Sorting", "UnaryOps", "Indexing", "LinearAlgebra", "Normalization", "Pooling",
                                  "python_variable", "graph_executor", "ProcessGroupNCCL", "inline_container"};
    static const char* warns[] = {
        "comparison of integer expressions of different signedness: 'int' and 'size_t' {aka 'long unsigned int'} [-Wsign-compare]",
        "unused variable 'beta' [-Wunused-variable]",
        "'void at::Tensor::print() const' is deprecated: Use the operator<< [-Wdeprecated-declarations]",
        "this 'if' clause does not guard... [-Wmisleading-indentation]",
        "ignoring return value of 'ssize_t write(int, const void*, size_t)' declared with attribute 'warn_unused_result' [-Wunused-result]"};
    const char* d = dirs[pick(std::size(dirs))];
    const char* f = files[pick(std::size(files))];
    std::size_t kind = pick(100);
    n_ = n_ % 9000 + 1;
    if (kind < 40) {
      b += "[" + std::to_string(n_) + "/9123] Building CXX object caffe2/CMakeFiles/torch_cpu.dir/__/" + d + "/" + f + ".cpp.o\n";
    } else if (kind < 50) {
      b += "/usr/bin/c++ -DAT_PER_OPERATOR_HEADERS -DCPUINFO_SUPPORTED_PLATFORM=1 -DFMT_HEADER_ONLY=1 -DFXDIV_USE_INLINE_ASSEMBLY=0 "
           "-DHAVE_MALLOC_USABLE_SIZE=1 -DHAVE_MMAP=1 -DHAVE_SHM_OPEN=1 -DHAVE_SHM_UNLINK=1 -DMINIZ_DISABLE_ZIP_READER_CRC32_CHECKS "
           "-DONNXIFI_ENABLE_EXT=1 -DONNX_ML=1 -DONNX_NAMESPACE=onnx_torch -DUSE_EXTERNAL_MZCRC -D_FILE_OFFSET_BITS=64 -Dtorch_cpu_EXPORTS "
           "-I/home/u/pytorch/build/aten/src -I/home/u/pytorch/aten/src -I/home/u/pytorch/build -I/home/u/pytorch "
           "-I/home/u/pytorch/cmake/../third_party/benchmark/include -I/home/u/pytorch/third_party/onnx -I/home/u/pytorch/build/third_party/onnx "
           "-isystem /home/u/pytorch/build/third_party/gloo -isystem /home/u/pytorch/third_party/protobuf/src -D_GLIBCXX_USE_CXX11_ABI=1 "
           "-fvisibility-inlines-hidden -DUSE_PTHREADPOOL -DNDEBUG -DUSE_KINETO -DLIBKINETO_NOCUPTI -DLIBKINETO_NOROCTRACER -DUSE_FBGEMM "
           "-O2 -fPIC -Wall -Wextra -Werror=return-type -Werror=non-virtual-dtor -Werror=bool-operation -Wnarrowing -Wno-missing-field-initializers "
           "-Wno-type-limits -Wno-array-bounds -Wno-unknown-pragmas -Wno-unused-parameter -O3 -DNDEBUG -std=gnu++17 -fPIC -MD -MT caffe2/CMakeFiles/torch_cpu.dir/__/";
      b += std::string(d) + "/" + f + ".cpp.o -c /home/u/pytorch/" + d + "/" + f + ".cpp\n";
    } else if (kind < 65) {
      std::string loc = "/home/u/pytorch/" + std::string(d) + "/" + f + ".cpp:" + std::to_string(pick(3000) + 1) + ":" + std::to_string(pick(60) + 1);
      b += loc + ": warning: " + warns[pick(std::size(warns))] + "\n";
      b += "  " + std::to_string(pick(3000)) + " |   for (int64_t i = 0; i < self.numel(); i++) {\n";
      b += "      |                       ~~^~~~~~~~~~~~~~\n";
    } else if (kind < 72) {
      b += "In file included from /home/u/pytorch/" + std::string(d) + "/" + f + ".h:" + std::to_string(pick(400)) + ",\n";
    } else if (kind < 80) {
      b += "[" + std::to_string(n_) + "/9123] Building CUDA object caffe2/CMakeFiles/torch_cuda.dir/__/aten/src/ATen/native/cuda/" + f + ".cu.o\n";
    } else if (kind < 85) {
      b += "ptxas info    : Used " + std::to_string(pick(255)) + " registers, " + std::to_string(pick(900)) + " bytes cmem[0]\n";
    } else if (kind < 92) {
      b += "copying torch/include/ATen/native/" + std::string(f) + ".h -> build/lib.linux-x86_64-cpython-310/torch/include/ATen/native\n";
    } else if (kind < 97) {
      b += "-- Performing Test COMPILER_SUPPORTS_" + std::string(f) + " - " + (pick(2) ? "Success" : "Failed") + "\n";
    } else {
      b += "-- Looking for " + std::string(f) + ".h - not found\n";
    }
  }

  std::uint64_t s_;
  std::uint64_t n_ = 0;
};

}  // namespace ts::bench

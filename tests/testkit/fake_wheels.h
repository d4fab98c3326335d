#pragma once
// Wheel files laid out as NVIDIA's and Kitware's wheels are (same member paths, fake contents), for
// provisioning tests: a wheelhouse the provision step can assemble a CUDA_HOME or a CMake from.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "formats/zip_writer.h"
#include "plan/provision_request.h"
#include "testkit/wheel_record.h"

namespace ts::testkit {

// DIR/<dist>-<version>-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl with `members`.
inline void fake_wheel(const std::string& dir, const std::string& dist, const std::string& version,
                       const std::vector<std::pair<std::string, std::string>>& members) {
  std::string file = dir + "/" + dist + "-" + version + "-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl";
  formats::ZipWriter z(file);
  // A library member starts as an ELF file does: wheels are checked for that (formats::check_wheel).
  auto lib = [](const std::string& n) { return std::regex_search(n, std::regex(R"(\.so(\.[0-9]+)*$)")); };
  for (const auto& [n, d] : members) ASSERT_TRUE(z.add(n, lib(n) ? "\x7f" "ELF" + d : d)) << z.error();
  std::string di = dist + "-" + version + ".dist-info/";
  ASSERT_TRUE(z.add(di + "METADATA", "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n"));
  ASSERT_TRUE(z.add(di + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"));
  ASSERT_TRUE(add_record(z, di.substr(0, di.size() - 1)));
  ASSERT_TRUE(z.finish()) << z.error();
}

// The wheels of a CUDA 13.x catalog entry in the nvidia/cu13 layout (member paths as in
// nvidia-cuda-nvcc 13.2.86 & co), each at the version `rel` pins for it.
inline void fake_cu13_wheelhouse(const std::string& dir, const plan::ToolRelease& rel, bool with_nvcc = true) {
  std::vector<std::pair<std::string, std::string>> nvcc{
      {"nvidia/__init__.py", ""},          {"nvidia/cu13/bin/ptxas", "x"}, {"nvidia/cu13/bin/fatbinary", "x"},
      {"nvidia/cu13/bin/nvlink", "x"},     {"nvidia/cu13/bin/cudafe++", "x"},
      {"nvidia/cu13/bin/nvcc.profile", "TOP = $(_HERE_)/..\n"}};
  if (with_nvcc) nvcc.push_back({"nvidia/cu13/bin/nvcc", "#!/bin/sh\n"});
  for (const auto& w : rel.wheels) {
    std::string dist = w.name;
    for (auto& ch : dist) ch = ch == '-' ? '_' : ch;
    if (w.name == "nvidia-cuda-nvcc") fake_wheel(dir, dist, w.version, nvcc);
    if (w.name == "nvidia-cuda-crt") fake_wheel(dir, dist, w.version, {{"nvidia/cu13/include/crt/host_config.h", "//"}});
    if (w.name == "nvidia-nvvm")
      fake_wheel(dir, dist, w.version,
                 {{"nvidia/cu13/nvvm/bin/cicc", "x"}, {"nvidia/cu13/nvvm/libdevice/libdevice.10.bc", "x"},
                  {"nvidia/cu13/lib/libnvvm.so.4", "x"}});
    if (w.name == "nvidia-cuda-runtime")
      fake_wheel(dir, dist, w.version,
                 {{"nvidia/cu13/include/cuda_runtime.h", "//"}, {"nvidia/cu13/lib/libcudart.so.13", "elf"}});
    if (w.name == "nvidia-cuda-cccl") fake_wheel(dir, dist, w.version, {{"nvidia/cu13/include/cccl/cub/cub.cuh", "//"}});
  }
}

// A `cmake` wheel (Kitware's layout: cmake/data/bin/cmake).
inline void fake_cmake_wheel(const std::string& dir, const std::string& version) {
  fake_wheel(dir, "cmake", version,
             {{"cmake/__init__.py", ""}, {"cmake/data/bin/cmake", "#!/bin/sh\n"}, {"cmake/data/share/cmake/x", ""}});
}

}  // namespace ts::testkit

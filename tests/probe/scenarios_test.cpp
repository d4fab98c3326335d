// The five seed scenarios (SCENARIOS.md S1-S5): each fixture probes to the facts the person had.
#include <gtest/gtest.h>

#include "fixture_util.h"

using namespace ts;
using namespace ts::probe::testing;

namespace {
constexpr std::uint64_t GiB = 1ULL << 30;
bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}
}  // namespace

TEST(Scenario, S1_Rtx4090Cuda118) {
  auto f = probe_fixture("s1-rtx4090-cuda118");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_EQ(f.os.id, "ubuntu");
  EXPECT_EQ(f.os.version_id, "18.04");
  EXPECT_EQ(f.os.glibc, "2.27");
  EXPECT_FALSE(f.os.container);
  EXPECT_EQ(f.hostname, "ws4090");
  // Only the display function of the card: not the Intel bridge, not the card's HDMI audio.
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].device_id, "2684");
  EXPECT_EQ(f.gpus[0].pci_address, "0000:01:00.0");
  EXPECT_EQ(f.gpus[0].driver_bound, "nvidia");
  EXPECT_EQ(f.gpus[0].compute_capability, CudaArch::of(8, 9));
  EXPECT_EQ(f.driver.version, "535.98");
  EXPECT_EQ(f.driver.cuda_version, "12.2");
  EXPECT_EQ(f.driver.source, "/proc/driver/nvidia/version");
  // /usr/local/cuda -> cuda-11.8 is one toolkit, reached several ways.
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);
  auto* t = toolkit(f, "/usr/local/cuda-11.8");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->version.starts_with("11.8"));
  EXPECT_EQ(t->version_source, "version.json");
  EXPECT_TRUE(has(t->found_via, "/usr/local/cuda"));
  EXPECT_TRUE(has(t->found_via, "CUDA_HOME"));
  EXPECT_TRUE(has(t->arches.names(), "sm_89"));
  EXPECT_FALSE(t->split_compile);  // this stub's --help has no --split-compile line
  auto* cudnn = library(f, "cudnn");
  ASSERT_TRUE(cudnn);
  EXPECT_EQ(cudnn->version, "8.9.3");
  EXPECT_EQ(cudnn->include_dir, "/usr/local/cuda-11.8/include");
  EXPECT_EQ(cudnn->library_dir, "/usr/local/cuda-11.8/lib64");
  ASSERT_TRUE(library(f, "magma"));
  EXPECT_EQ(library(f, "magma")->version, "2.6.1");
  EXPECT_EQ(library(f, "mkl")->version, "2023.1.0");
  ASSERT_EQ(f.compilers.size(), 1u);  // gcc, gcc-7 and cc are one binary
  EXPECT_EQ(f.compilers[0].cc, "/usr/bin/gcc");
  EXPECT_EQ(f.compilers[0].cxx, "/usr/bin/g++");
  EXPECT_EQ(f.compilers[0].version, "7.5.0");
  // The conda env's cmake comes first on PATH, ahead of the system's 3.10.2.
  ASSERT_TRUE(tool(f, "cmake"));
  EXPECT_EQ(tool(f, "cmake")->version, "3.26.4");
  auto* py = python(f, "/home/user/miniconda3/envs/torch113/bin/python3");
  ASSERT_TRUE(py);
  EXPECT_EQ(py->version, "3.8.18");
  EXPECT_EQ(py->env_kind, "conda");
  EXPECT_EQ(py->packages.at("numpy"), "1.24.3");
  EXPECT_FALSE(py->torch.present);
  EXPECT_EQ(f.pythons.size(), 3u);  // env, system 3.6, conda base
}

TEST(Scenario, S2_Cuda110CondaContainer) {
  auto f = probe_fixture("s2-cuda110-conda");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_TRUE(f.os.container);
  EXPECT_EQ(f.os.version_id, "20.04");
  ASSERT_EQ(f.gpus.size(), 2u);
  EXPECT_EQ(f.gpus[0].device_id, "1db4");
  EXPECT_EQ(f.gpus[1].device_id, "1e07");
  // Driver 450 has no compute_cap field in nvidia-smi: names still come, capability from the KB later.
  EXPECT_EQ(f.gpus[0].name, "Tesla V100-PCIE-16GB");
  EXPECT_FALSE(f.gpus[0].compute_capability.has_value());
  EXPECT_EQ(f.driver.version, "450.102.04");
  EXPECT_EQ(f.driver.cuda_version, "11.0");
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);
  EXPECT_EQ(f.cuda_toolkits[0].version, "11.0.221");
  EXPECT_EQ(f.cuda_toolkits[0].version_source, "version.txt");
  EXPECT_EQ(library(f, "cudnn")->version, "8.0.5");
  EXPECT_EQ(library(f, "cudnn")->library_dir, "/usr/lib/x86_64-linux-gnu");
  EXPECT_EQ(library(f, "magma")->version, "2.5.2");
  EXPECT_EQ(library(f, "magma")->library_dir, "/opt/conda/lib");
  EXPECT_EQ(tool(f, "patchelf")->version, "0.12");
  // cgroup v1 limit inside the container: 64 GiB of which 8 in use, on a 256 GiB machine.
  EXPECT_EQ(f.memory.total_bytes, 256 * GiB);
  EXPECT_EQ(f.memory.cgroup_limit_bytes, 64 * GiB);
  EXPECT_EQ(f.memory.usable_bytes, 56 * GiB);
  auto* py = python(f, "/opt/conda/bin/python3");
  ASSERT_TRUE(py);
  EXPECT_EQ(py->version, "3.8.5");
  EXPECT_EQ(py->abi_tag, "cp38");
}

TEST(Scenario, S3_Rtx5090CMake4) {
  auto f = probe_fixture("s3-rtx5090-cmake4");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_EQ(f.os.version_id, "24.04");
  EXPECT_EQ(f.os.glibc, "2.39");  // from the ldd stub: no libc-X.Y.so since glibc 2.34
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].device_id, "2b85");
  EXPECT_EQ(f.gpus[0].compute_capability, CudaArch::of(12, 0));
  EXPECT_EQ(f.driver.version, "580.95.05");  // open kernel module's NVRM line
  EXPECT_EQ(f.driver.cuda_version, "13.0");
  auto* t = toolkit(f, "/usr/local/cuda-12.8");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->version, "12.8.1");
  EXPECT_TRUE(has(t->arches.names(), "sm_120"));
  EXPECT_TRUE(t->split_compile);  // read from the stub's nvcc --help
  EXPECT_EQ(tool(f, "cmake")->version, "4.2.0");
  ASSERT_EQ(f.compilers.size(), 1u);
  EXPECT_EQ(f.compilers[0].version, "13.3.0");
  auto* py = python(f, "/home/hc-em/miniforge3/envs/isaacgym/bin/python3");
  ASSERT_TRUE(py);
  EXPECT_EQ(py->version, "3.8.20");
  EXPECT_EQ(py->packages.at("numpy"), "1.23.5");
  // cuDNN from pip, inside that Python's site-packages.
  auto* cudnn = library(f, "cudnn");
  ASSERT_TRUE(cudnn);
  EXPECT_EQ(cudnn->version, "9.1.0");
  EXPECT_EQ(cudnn->source, "pip:nvidia-cudnn-cu12");
  EXPECT_EQ(cudnn->include_dir, py->site_packages + "/nvidia/cudnn/include");
  EXPECT_EQ(cudnn->library_dir, py->site_packages + "/nvidia/cudnn/lib");
  EXPECT_GT(f.cpu.logical_cores, 16);
}

TEST(Scenario, S4_Wsl2Cuda117) {
  auto f = probe_fixture("s4-wsl2-cuda117");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_TRUE(f.os.wsl);
  EXPECT_EQ(f.os.id, "debian");
  EXPECT_EQ(f.os.version_id, "11");
  // No PCI function and no /proc/driver/nvidia under WSL2: nvidia-smi from /usr/lib/wsl/lib.
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].device_id, "1f08");
  EXPECT_EQ(f.gpus[0].compute_capability, CudaArch::of(7, 5));
  EXPECT_EQ(f.gpus[0].identified_by, "nvidia-smi");
  EXPECT_EQ(f.driver.source, "nvidia-smi");
  EXPECT_EQ(f.driver.version, "528.49");
  EXPECT_EQ(f.driver.cuda_version, "12.0");
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);  // cuda, cuda-11 and cuda-11.7 are one
  EXPECT_EQ(f.cuda_toolkits[0].version, "11.7.1");
  auto* mkl = library(f, "mkl");
  ASSERT_TRUE(mkl);
  EXPECT_EQ(mkl->version, "2023.0.0");
  EXPECT_EQ(mkl->source, "oneapi");
  EXPECT_EQ(std::count_if(f.libraries.begin(), f.libraries.end(), [](auto& l) { return l.name == "mkl"; }), 1);
  auto* py = python(f, "/opt/miniconda3/bin/python3");
  ASSERT_TRUE(py);
  EXPECT_TRUE(py->torch.present);
  EXPECT_EQ(py->torch.version, "2.0.0a0+gitc263bd4");
  EXPECT_EQ(py->torch.cuda, "11.7");
  EXPECT_TRUE(py->torch.cxx11_abi);
  EXPECT_EQ(py->torch.arch_list.names(), std::vector<std::string>{"sm_75"});
}

TEST(Scenario, S5_Gtx1660TiContainer) {
  auto f = probe_fixture("s5-gtx1660ti-container");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_TRUE(f.os.container);
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].vendor_id, "10de");
  EXPECT_EQ(f.gpus[0].device_id, "2182");
  EXPECT_EQ(f.driver.version, "515.76");
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);
  EXPECT_EQ(f.cuda_toolkits[0].version, "11.7.0");
  // cudnn_version.h is an alternatives link to the triplet dir's cudnn_version_v8.h: one cuDNN.
  EXPECT_EQ(std::count_if(f.libraries.begin(), f.libraries.end(), [](auto& l) { return l.name == "cudnn"; }), 1);
  EXPECT_EQ(library(f, "cudnn")->version, "8.5.0");
  EXPECT_EQ(tool(f, "cmake")->version, "3.10.2");
  EXPECT_EQ(tool(f, "ninja"), nullptr);
  ASSERT_EQ(f.compilers.size(), 1u);
  EXPECT_EQ(f.compilers[0].version, "7.5.0");
  EXPECT_EQ(python(f, "/usr/bin/python3")->version, "3.6.9");
  EXPECT_EQ(python(f, "/root/anaconda3/bin/python3")->version, "3.9.13");
  // v1 "no limit" is not a limit.
  EXPECT_EQ(f.memory.cgroup_limit_bytes, 0u);
  EXPECT_EQ(f.memory.usable_bytes, f.memory.available_bytes);
}

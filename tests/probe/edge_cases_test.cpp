// Edge-case hosts: no GPU, GPU without driver, two toolkits, an unknown GPU id, a Jetson.
#include <gtest/gtest.h>

#include "fixture_util.h"

using namespace ts;
using namespace ts::probe::testing;

namespace {
constexpr std::uint64_t GiB = 1ULL << 30;
}

TEST(EdgeHost, NoGpu) {
  auto f = probe_fixture("no-gpu");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_TRUE(f.gpus.empty());  // the Intel iGPU is a display controller, but not NVIDIA's
  EXPECT_FALSE(f.driver.present);
  EXPECT_TRUE(f.cuda_toolkits.empty());
  EXPECT_EQ(f.os.glibc, "2.36");
  // cgroup v2: the user slice (a parent of our scope) limits memory to 4 GiB with 1 GiB used,
  // and CPU to 2 of the 8 cores.
  EXPECT_EQ(f.memory.cgroup_limit_bytes, 4 * GiB);
  EXPECT_EQ(f.memory.cgroup_current_bytes, 1 * GiB);
  EXPECT_EQ(f.memory.usable_bytes, 3 * GiB);
  EXPECT_EQ(f.cpu.online_cores, 8);
  EXPECT_EQ(f.cpu.logical_cores, 2);
  EXPECT_EQ(f.compilers.at(0).version, "12.2.0");
  EXPECT_EQ(tool(f, "ccache")->version, "4.8");
  EXPECT_EQ(python(f, "/usr/bin/python3")->packages.at("numpy"), "1.24.2");
  ASSERT_EQ(f.disks.size(), 2u);
  EXPECT_EQ(f.disks[0].purpose, "cwd");
  EXPECT_EQ(f.disks[0].free_bytes, 40 * GiB);
}

TEST(EdgeHost, GpuWithoutDriver) {
  auto f = probe_fixture("gpu-no-driver");
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].device_id, "2204");
  EXPECT_EQ(f.gpus[0].driver_bound, "");
  EXPECT_EQ(f.gpus[0].name, "");  // the KB names it later
  EXPECT_FALSE(f.driver.present);
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].find("no NVIDIA driver"), std::string::npos);
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);
  EXPECT_EQ(f.cuda_toolkits[0].version, "12.1.1");
}

TEST(EdgeHost, TwoToolkitsSideBySide) {
  auto f = probe_fixture("two-toolkits");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  ASSERT_EQ(f.cuda_toolkits.size(), 2u);
  auto* t12 = toolkit(f, "/usr/local/cuda-12.4");
  auto* t11 = toolkit(f, "/usr/local/cuda-11.8");
  ASSERT_TRUE(t12 && t11);
  EXPECT_EQ(t12->version, "12.4.1");
  EXPECT_EQ(t11->version, "11.8.20220929");
  // /usr/local/cuda and PATH point at 12.4; CUDA_HOME at 11.8.
  EXPECT_EQ(t12->found_via, (std::vector<std::string>{"/usr/local/cuda", "/usr/local/cuda*", "PATH"}));
  EXPECT_EQ(t11->found_via, (std::vector<std::string>{"/usr/local/cuda*", "CUDA_HOME"}));
  ASSERT_EQ(f.compilers.size(), 2u);
  EXPECT_EQ(compiler(f, "/usr/bin/gcc")->version, "12.3.0");
  EXPECT_EQ(compiler(f, "/usr/bin/gcc-11")->version, "11.4.0");
  EXPECT_EQ(compiler(f, "/usr/bin/gcc-11")->cxx, "/usr/bin/g++-11");
  EXPECT_EQ(library(f, "nccl")->version, "2.21.5");
  EXPECT_EQ(library(f, "cudnn")->version, "8.9.7");
  EXPECT_EQ(f.driver.cuda_version, "12.4");
}

TEST(EdgeHost, UnknownGpuIsKeptById) {
  auto f = probe_fixture("unknown-gpu");
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].vendor_id, "10de");
  EXPECT_EQ(f.gpus[0].device_id, "ffff");
  EXPECT_EQ(f.gpus[0].name, "");
  EXPECT_FALSE(f.gpus[0].compute_capability.has_value());
  EXPECT_TRUE(f.driver.present);
  EXPECT_EQ(f.driver.version, "580.95.05");
  EXPECT_EQ(f.driver.cuda_version, "");  // no nvidia-smi, no NVML under a fake root
}

TEST(EdgeHost, JetsonOrin) {
  auto f = probe_fixture("jetson-orin");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  EXPECT_EQ(f.cpu.arch, "aarch64");
  EXPECT_EQ(f.cpu.online_cores, 12);
  EXPECT_EQ(f.cpu.isa_level, "armv8.2-a");
  EXPECT_TRUE(f.jetson.present);
  EXPECT_EQ(f.jetson.soc, "tegra234");
  EXPECT_EQ(f.jetson.model, "NVIDIA Jetson AGX Orin Developer Kit");
  EXPECT_EQ(f.jetson.l4t_release, "R36 (release), REVISION: 4.3");
  EXPECT_TRUE(f.gpus.empty());  // integrated: no PCI function (compat adds it from the KB)
  EXPECT_FALSE(f.driver.present);
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);
  EXPECT_EQ(f.cuda_toolkits[0].path, "/usr/local/cuda-12.6");
  EXPECT_EQ(f.compilers.at(0).target, "aarch64-linux-gnu");
  EXPECT_EQ(library(f, "cudnn")->library_dir, "/usr/lib/aarch64-linux-gnu");
  EXPECT_EQ(python(f, "/usr/bin/python3")->platform_tag, "linux_aarch64");
}

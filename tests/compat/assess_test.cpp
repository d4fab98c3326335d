// Verdicts from hand-built facts and a small hand-built KB: each rule, its wording and its fix.
#include "compat/assess.h"
#include "compat/arch_rule.h"
#include "compat/facts_util.h"

#include "testkit/version_of.h"
#include <gtest/gtest.h>

#include <algorithm>

namespace ts::compat {
namespace {

kb::Gpu gpu(std::string id, std::string name, std::string arch) {
  kb::Gpu g;
  g.pci_id = id;
  g.name = name;
  g.arch = *CudaArch::parse(arch);
  g.source = "test";
  return g;
}

kb::Kb small_kb() {
  kb::Kb k;
  auto cuda = [&](std::string v, std::vector<std::string> arches, std::string gcc,
                  std::string drv) {
    kb::CudaRelease r;
    r.version = testkit::version_of(v);
    r.arches = testkit::arches_of(arches);
    r.gcc_max = testkit::version_of(gcc);
    r.clang_max = testkit::version_of("14");
    r.driver_min_linux = testkit::version_of(drv);
    r.source = "test:" + v;
    r.origin = {"cuda.toml", 1};
    k.cuda.push_back(r);
  };
  cuda("11.8", {"3.5", "5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"}, "11", "520.61.05");
  cuda("12.6", {"5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "9.0a"}, "13", "560.28.03");
  cuda("12.8", {"5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}, "14",
       "570.26");
  cuda("13.0", {"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}, "15", "580.65.06");
  kb::CudaFamily fam;
  fam.major = "12";
  fam.driver_min_linux = testkit::version_of("525.60.13");
  fam.source = "test:mvc";
  k.cuda_families.push_back(fam);
  auto torch = [&](std::string v, std::string py, std::string cmin, std::string cmax,
                   std::string np) {
    kb::TorchRelease t;
    t.version = testkit::version_of(v);
    t.python = *VersionRange::parse(py);
    t.cmake_min = testkit::version_of(cmin);
    if (!cmax.empty()) t.cmake_max_exclusive = testkit::version_of(cmax);
    t.numpy = *VersionRange::parse(np);
    t.source = "test:torch" + v;
    k.torch.push_back(t);
  };
  torch("1.12", ">=3.7,<3.11", "3.13", "4", ">=1,<2");
  torch("2.4", ">=3.8,<3.13", "3.18", "4", ">=1,<2");
  torch("2.6", ">=3.9,<3.14", "3.18", "4", ">=1,<3");
  torch("2.9", ">=3.10,<3.15", "3.27", "", ">=1,<3");
  k.gpus.push_back(gpu("2182", "GeForce GTX 1660 Ti", "7.5"));
  k.gpus.push_back(gpu("2b85", "GeForce RTX 5090", "12.0"));
  k.resources.cxx_job_gib = 2.5;
  k.resources.nvcc_job_gib = 3.0;
  k.resources.torch_build_disk_gib = 20;
  k.resources.tmp_disk_gib = 5;
  return k;
}

HostFacts host_with(std::string gpu_id, std::string driver, std::string toolkit) {
  HostFacts f;
  f.root = "/";
  if (!gpu_id.empty()) {
    GpuFacts g;
    g.vendor_id = "10de";
    g.device_id = gpu_id;
    f.gpus.push_back(g);
  }
  if (!driver.empty()) {
    f.driver.present = true;
    f.driver.version = FactVersion(driver);
    f.driver.source = "test";
  }
  if (!toolkit.empty()) {
    CudaToolkitFacts t;
    t.path = "/usr/local/cuda-" + toolkit;
    t.version = FactVersion(toolkit);
    f.cuda_toolkits.push_back(t);
  }
  f.compilers.push_back({"gcc", "/usr/bin/gcc", "/usr/bin/g++", "11.4.0", "x86_64-linux-gnu"});
  f.tools.push_back({"cmake", "/usr/bin/cmake", "3.25.1"});
  return f;
}

const Verdict* find(const std::vector<Verdict>& vs, const std::string& topic, Level level) {
  auto it = std::find_if(vs.begin(), vs.end(),
                         [&](const Verdict& v) { return v.topic == topic && v.level == level; });
  return it == vs.end() ? nullptr : &*it;
}

bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

TEST(Identify, NamesGpuByPciIdFromKb) {
  auto k = small_kb();
  auto f = host_with("2182", "", "");
  identify_gpus(f, k);
  EXPECT_EQ(f.gpus[0].name, "GeForce GTX 1660 Ti");
  EXPECT_EQ(f.gpus[0].compute_capability, CudaArch::of(7, 5));
  EXPECT_EQ(f.gpus[0].identified_by, "kb");
}

TEST(Identify, UnknownIdKeptAndReported) {
  auto k = small_kb();
  auto f = host_with("ffff", "", "12.8");
  identify_gpus(f, k);
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].name, "");
  auto vs = assess(f, k, {});
  auto* v = find(vs, "gpu", Level::warn);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(has(v->reason, "10de:ffff"));
  EXPECT_TRUE(has(v->fix, "gpus.toml"));
}

TEST(Driver, OldDriverPredictsErrorAndNamesNeed) {
  auto k = small_kb();
  auto f = host_with("2182", "530.30.02", "13.0");
  std::vector<Verdict> vs;
  check_driver(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::fail);
  EXPECT_TRUE(has(vs[0].reason, ">= 580.65.06"));
  EXPECT_TRUE(has(vs[0].reason, "804"));
  EXPECT_TRUE(has(vs[0].fix, "11.8"));  // the newest CUDA this driver runs
}

TEST(Driver, MinorVersionCompatibilityIsAWarning) {
  auto k = small_kb();
  auto f = host_with("2182", "535.98", "12.8");
  std::vector<Verdict> vs;
  check_driver(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::warn);
  EXPECT_TRUE(has(vs[0].reason, "minor-version"));
}

TEST(Driver, NvmlCudaVersionDecides) {
  auto k = small_kb();
  auto f = host_with("2182", "535.98", "11.8");
  f.driver.cuda_version = "12.2";
  std::vector<Verdict> vs;
  check_driver(f, k, vs);
  EXPECT_EQ(vs.at(0).level, Level::ok);
}

TEST(Driver, GpuWithoutDriverWarns) {
  auto k = small_kb();
  auto f = host_with("2182", "", "12.8");
  std::vector<Verdict> vs;
  check_driver(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::warn);
  EXPECT_TRUE(has(vs[0].reason, "no driver"));
}

TEST(Gpu, Sm120NeedsCuda128) {
  auto k = small_kb();
  auto f = host_with("2b85", "580.95.05", "12.6");
  identify_gpus(f, k);
  std::vector<Verdict> vs;
  check_gpus(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::fail);
  EXPECT_TRUE(has(vs[0].reason, "needs CUDA >= 12.8")) << vs[0].reason;
}

TEST(Gpu, DroppedArchNamesLastToolkit) {
  auto k = small_kb();
  k.gpus.push_back(gpu("1b06", "GeForce GTX 1080 Ti", "6.1"));
  auto f = host_with("1b06", "580.95.05", "13.0");
  identify_gpus(f, k);
  std::vector<Verdict> vs;
  check_gpus(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::fail);
  EXPECT_TRUE(has(vs[0].reason, "last toolkit with it is CUDA 12.8")) << vs[0].reason;
}

TEST(Gpu, TorchWithoutTheArchFailsWithNoKernelImage) {
  auto k = small_kb();
  auto f = host_with("2b85", "580.95.05", "12.8");
  PythonFacts py;
  py.path = "/usr/bin/python3";
  py.version = "3.12.3";
  py.torch.present = true;
  py.torch.version = "2.4.1+cu124";
  py.torch.cuda = "12.4";
  py.torch.arch_list = GpuCodeList::read({"sm_50", "sm_80", "sm_86", "sm_90"});
  f.pythons.push_back(py);
  identify_gpus(f, k);
  std::vector<Verdict> vs;
  check_gpus(f, k, vs);
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[1].level, Level::fail);
  EXPECT_TRUE(has(vs[1].reason, "no kernel image")) << vs[1].reason;
  // SASS of the same major with a lower minor runs (8.0 code on 8.6), PTX of an older arch JITs.
  f.pythons[0].torch.arch_list = GpuCodeList::read({"sm_80", "compute_90"});
  f.gpus[0].compute_capability = CudaArch::of(8, 6);
  vs.clear();
  check_gpus(f, k, vs);
  EXPECT_EQ(vs.back().level, Level::ok);
  f.gpus[0].compute_capability = CudaArch::of(12, 0);
  vs.clear();
  check_gpus(f, k, vs);
  EXPECT_EQ(vs.back().level, Level::warn);
  // compute_90 alone is PTX only on a 9.0 GPU (the list spelled as read); with sm_90 beside it, SASS.
  f.gpus[0].compute_capability = CudaArch::of(9, 0);
  vs.clear();
  check_gpus(f, k, vs);
  EXPECT_EQ(vs.back().level, Level::warn);
  EXPECT_TRUE(has(vs.back().reason, "(sm_80 compute_90)")) << vs.back().reason;
  f.pythons[0].torch.arch_list = GpuCodeList::read({"sm_90", "compute_90"});
  vs.clear();
  check_gpus(f, k, vs);
  EXPECT_EQ(vs.back().level, Level::ok);
}

TEST(Gpu, UnreadArchListIsUnknownNotEmpty) {
  auto k = small_kb();
  auto f = host_with("2b85", "580.95.05", "12.8");
  PythonFacts py;
  py.path = "/usr/bin/python3";
  py.version = "3.12.3";
  py.torch.present = true;
  py.torch.version = "2.7.1+cu128";
  py.torch.cuda = "12.8";
  f.pythons.push_back(py);  // arch_list empty, arch_list_known false: the probe could not read it
  identify_gpus(f, k);
  std::vector<Verdict> vs;
  check_gpus(f, k, vs);
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[1].rule, "gpu.torch");
  EXPECT_EQ(vs[1].level, Level::warn);
  EXPECT_TRUE(has(vs[1].reason, "unknown")) << vs[1].reason;
  EXPECT_FALSE(has(vs[1].reason, "no kernel image"));
  EXPECT_TRUE(has(vs[1].fix, "--import-torch")) << vs[1].fix;
  // Read and empty is a different fact: built for no arch.
  f.pythons[0].torch.arch_list_known = true;
  vs.clear();
  check_gpus(f, k, vs);
  EXPECT_EQ(vs[1].level, Level::fail);
  EXPECT_TRUE(has(vs[1].reason, "no kernel image"));
}

TEST(Gpu, MissingArchOffersNearestRunnable) {
  auto k = small_kb();
  k.cuda.push_back(k.cuda[0]);
  k.cuda.back().version = testkit::version_of("11.7");
  k.cuda.back().arches = testkit::arches_of({"3.5", "5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.7"});
  kb::TegraSoc orin;  // 8.7 is Orin's integrated GPU: no target for a card, though it is nearer
  orin.compatible = "tegra234";
  orin.arch = CudaArch::of(8, 7);
  k.tegra.push_back(orin);
  k.gpus.push_back(gpu("2786", "GeForce RTX 4070", "8.9"));
  auto f = host_with("2786", "535.183.01", "11.7");
  identify_gpus(f, k);
  std::vector<Verdict> vs;
  check_gpus(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::fail);
  EXPECT_TRUE(has(vs[0].fix, "--arch 8.6")) << vs[0].fix;
  // nearest_runnable: SASS of a lower minor of the same major, else the newest older arch as PTX.
  EXPECT_EQ(nearest_runnable(k, k.cuda.back(), *CudaArch::parse("8.9"))->str(), "8.6");
  EXPECT_EQ(nearest_runnable(k, k.cuda.back(), *CudaArch::parse("9.0"))->str(), "8.6+PTX");
  EXPECT_EQ(nearest_runnable(k, k.cuda.back(), *CudaArch::parse("8.7"))->str(), "8.7");  // on Orin itself
  EXPECT_FALSE(nearest_runnable(k, k.cuda[3], *CudaArch::parse("6.1")));  // 13.0 has nothing older than 7.5
}

TEST(Gpu, SpanStartsWhereTheArchStarts) {
  auto k = small_kb();
  kb::ArchSupport a;
  a.arch = CudaArch::of(7, 5);
  a.first_cuda = testkit::version_of("10.0");
  a.source = "test:rn100";
  k.arch_support.push_back(a);
  auto s = arch_span(k, CudaArch::of(7, 5));
  EXPECT_EQ(s.describe(), "since CUDA 10.0");
  EXPECT_EQ(s.first_source, "test:rn100");
  ASSERT_TRUE(s.first);
  EXPECT_EQ(*s.first, testkit::version_of("10.0"));  // typed: the span's start compares as a version
  EXPECT_FALSE(arch_span(k, CudaArch::of(1, 0)).first);  // no toolkit compiles it: no start
  EXPECT_EQ(arch_span(k, CudaArch::of(6, 1)).describe(), "CUDA 11.8 to 12.8");
  EXPECT_EQ(arch_span(k, CudaArch::of(12, 0)).describe(), "since CUDA 12.8");
}

TEST(Compiler, Gcc13WithCuda118NamesInstalledGcc11) {
  auto k = small_kb();
  auto f = host_with("", "", "11.8");
  f.compilers = {{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", "x86_64-linux-gnu"},
                 {"gcc", "/usr/bin/gcc-11", "/usr/bin/g++-11", "11.4.0", "x86_64-linux-gnu"}};
  std::vector<Verdict> vs;
  check_compilers(f, k, {}, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::fail);
  EXPECT_TRUE(has(vs[0].reason, "<= 11"));
  EXPECT_TRUE(has(vs[0].fix, "CUDAHOSTCXX=/usr/bin/g++-11")) << vs[0].fix;
}

TEST(Compiler, Gcc13OnlySaysInstallGcc11) {
  auto k = small_kb();
  auto f = host_with("", "", "11.8");
  f.compilers = {{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", "x86_64-linux-gnu"}};
  std::vector<Verdict> vs;
  check_compilers(f, k, {}, vs);
  EXPECT_TRUE(has(vs.at(0).fix, "g++-11"));
}

TEST(Compiler, NoCxxCompilerFails) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  f.compilers.clear();
  std::vector<Verdict> vs;
  check_compilers(f, k, {}, vs);
  EXPECT_EQ(vs.at(0).level, Level::fail);
}

TEST(Cmake, TooOldForTorch112) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  f.tools = {{"cmake", "/usr/bin/cmake", "3.10.2"}};
  std::vector<Verdict> vs;
  check_cmake(f, k, {"1.12.1"}, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].level, Level::fail);
  EXPECT_TRUE(has(vs[0].reason, "CMake 3.10.2 is older than torch 1.12 needs (>= 3.13)"));
}

TEST(Cmake, Cmake4BreaksTorchBefore27) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  f.tools = {{"cmake", "/usr/bin/cmake", "4.2.0"}};
  std::vector<Verdict> vs;
  check_cmake(f, k, {"2.4.1"}, vs);
  EXPECT_EQ(vs.at(0).level, Level::warn);
  EXPECT_TRUE(has(vs[0].reason, "breaks torch 2.4"));
  EXPECT_TRUE(has(vs[0].fix, "CMAKE_POLICY_VERSION_MINIMUM=3.5"));
  vs.clear();
  check_cmake(f, k, {"2.9.0"}, vs);
  EXPECT_EQ(vs.at(0).level, Level::ok);
}

TEST(Cmake, NoTargetListsWhatItServes) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  std::vector<Verdict> vs;
  check_cmake(f, k, {}, vs);
  // Without --for nothing is wanted yet: what it cannot configure is information, not a warning.
  EXPECT_EQ(vs.at(0).level, Level::info);
  EXPECT_EQ(vs[0].rule, "cmake.releases");
  EXPECT_TRUE(has(vs[0].reason, "configures torch 1.12 to 2.6")) << vs[0].reason;
  EXPECT_TRUE(has(vs[0].reason, "too old for torch 2.9"));
  f.tools = {{"cmake", "/usr/bin/cmake", "4.2.0"}};
  vs.clear();
  check_cmake(f, k, {}, vs);
  EXPECT_EQ(vs.at(0).level, Level::info);
  EXPECT_TRUE(has(vs[0].reason, "configures torch 2.9; breaks torch 1.12 to 2.6")) << vs[0].reason;
}

TEST(Python, Torch26RefusesPython38) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  PythonFacts py;
  py.path = "/opt/conda/bin/python";
  py.version = "3.8.18";
  py.packages = {{"numpy", "1.23.5"},
                 {"setuptools", "69"},
                 {"wheel", "0.4"},
                 {"pyyaml", "6"},
                 {"typing_extensions", "4"}};
  f.pythons.push_back(py);
  std::vector<Verdict> vs;
  check_pythons(f, k, {"2.6.0"}, vs);
  auto* v = find(vs, "python", Level::fail);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(has(v->reason, "not 3.8"));
  // NumPy 1.23.5 fits 2.4 and is kept.
  vs.clear();
  check_pythons(f, k, {"2.4.1"}, vs);
  EXPECT_EQ(find(vs, "python", Level::fail), nullptr);
  auto* n = find(vs, "numpy", Level::ok);
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(has(n->reason, "1.23.5"));
}

TEST(Python, MissingNumpyWarnsAboutNumpySupport) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  PythonFacts py;
  py.path = "/usr/bin/python3";
  py.version = "3.10.12";
  f.pythons.push_back(py);
  std::vector<Verdict> vs;
  check_pythons(f, k, {"2.4.1"}, vs);
  auto* n = find(vs, "numpy", Level::warn);
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(has(n->reason, "compiled without NumPy support"));
}

TEST(Python, ProbeErrorBecomesVerdict) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  PythonFacts py;
  py.path = "/usr/bin/python3.9";
  py.error = "timed out after 15 s";
  f.pythons.push_back(py);
  std::vector<Verdict> vs;
  check_pythons(f, k, {}, vs);
  EXPECT_EQ(vs.at(0).level, Level::warn);
  EXPECT_TRUE(has(vs[0].reason, "timed out"));
}

TEST(Torch, CudaMajorMismatchForExtensions) {
  auto k = small_kb();
  auto f = host_with("", "", "11.8");
  PythonFacts py;
  py.path = "/usr/bin/python3";
  py.version = "3.10.12";
  py.torch.present = true;
  py.torch.version = "2.4.1+cu124";
  py.torch.cuda = "12.4";
  f.pythons.push_back(py);
  std::vector<Verdict> vs;
  check_installed_torch(f, k, vs);
  EXPECT_EQ(vs.at(0).level, Level::fail);
  f.cuda_toolkits[0].version = "12.6";
  vs.clear();
  check_installed_torch(f, k, vs);
  EXPECT_EQ(vs.at(0).level, Level::warn);
}

TEST(Resources, MemoryLimitsJobsBelowCores) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  f.cpu.logical_cores = 32;
  f.memory.available_bytes = 30ull << 30;
  f.memory.usable_bytes = 30ull << 30;
  std::vector<Verdict> vs;
  check_resources(f, k, vs);
  auto* v = find(vs, "memory", Level::warn);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(has(v->reason, "MAX_JOBS=10 of 32")) << v->reason;
}

TEST(Resources, SmallDiskFails) {
  auto k = small_kb();
  auto f = host_with("", "", "");
  f.disks.push_back({"cwd", "/home/u", 8ull << 30, 100ull << 30});
  std::vector<Verdict> vs;
  check_resources(f, k, vs);
  EXPECT_NE(find(vs, "disk", Level::fail), nullptr);
}

}  // namespace
}  // namespace ts::compat

// nvcc --split-compile: the rule (threads per CUDA compile from cores, jobs, .cu files, memory) and
// the plan (only where nvcc has the option, off when asked, never on top of a portable build's cores).
#include "plan/speed_split.h"

#include <gtest/gtest.h>

#include "extension_fakes.h"
#include "plan/extension.h"

namespace ts::plan {
namespace {

using namespace testing;

TEST(SplitCompileRule, FewKernelFilesMayEachUseEveryCore) {
  // causal-conv1d, torch-scatter: 3 .cu files on 16 cores, one arch.
  auto r = choose_split_compile({16, 16, 1, 3, 118, 3.0, 1.0, 0.25});
  EXPECT_EQ(r.split, 16);
  EXPECT_EQ(r.why.rfind("3 CUDA compile(s) at once x 1 nvcc thread(s) on 16 cores: 16 threads each", 0), 0u) << r.why;
  EXPECT_EQ(choose_split_compile({16, 16, 1, 1, 118, 3.0, 1.0, 0.25}).split, 16);
  // Two arches with nvcc --threads 2 and two jobs: 4 of 16 cores busy, each compile 8 threads per arch.
  EXPECT_EQ(choose_split_compile({16, 2, 2, 3, 0, 0, 1.0, 0.25}).split, 8);
}

TEST(SplitCompileRule, ManyCompilesAtOnceGetFewThreads) {
  // pytorch3d's 31 .cu files, 16 jobs: 3 threads each, 48 at most on 16 cores.
  EXPECT_EQ(choose_split_compile({16, 16, 1, 31, 118, 3.0, 1.0, 0.25}).split, 3);
  // 6 arches, nvcc --threads 6, 3 jobs: 2 threads per arch (16 / 6 cores' worth each).
  EXPECT_EQ(choose_split_compile({16, 3, 6, 3, 118, 3.0, 1.0, 0.25}).split, 2);
  EXPECT_EQ(choose_split_compile({2, 2, 1, 3, 20, 3.0, 1.0, 0.25}).split, 2);  // two cores: two threads
  auto r = choose_split_compile({16, 1, 12, 3, 118, 3.0, 1.0, 0.25});          // 12 arches on 16 cores
  EXPECT_EQ(r.split, 1);
  EXPECT_NE(r.why.find("no room for more threads"), std::string::npos) << r.why;
  EXPECT_EQ(choose_split_compile({1, 1, 1, 3, 0, 0, 1.0, 0.25}).split, 1);
}

TEST(SplitCompileRule, FewerJobsThanFilesBoundTheCompilesAtOnce) {
  // Memory unknown, 2 jobs for 10 files: 2 compiles at once, 14 cores idle.
  EXPECT_EQ(choose_split_compile({16, 2, 1, 10, 0, 0, 1.0, 0.25}).split, 16);
}

TEST(SplitCompileRule, MemoryLowersTheThreads) {
  // 3 compiles x 3 GiB x (1 + 0.25 per further thread) within 20 GiB: 5 threads (18.0 GiB).
  auto r = choose_split_compile({16, 16, 1, 3, 20, 3.0, 1.0, 0.25});
  EXPECT_EQ(r.split, 5);
  EXPECT_NE(r.why.find("memory allows 5 (18.0 of 20.0 GiB)"), std::string::npos) << r.why;
  EXPECT_EQ(choose_split_compile({16, 16, 1, 3, 5, 3.0, 1.0, 0.25}).split, 1);
  // A split thread charged like a job (factor 1): 20 / 9 -> 2.
  EXPECT_EQ(choose_split_compile({16, 16, 1, 3, 20, 3.0, 1.0, 1.0}).split, 2);
}

TEST(SplitCompileRule, AnUncountedTreeIsNotSplit) {
  auto r = choose_split_compile({16, 16, 1, 0, 118, 3.0, 1.0, 0.25});
  EXPECT_EQ(r.split, 1);
  EXPECT_NE(r.why.find("no .cu file"), std::string::npos);
}

HostFacts machine(bool nvcc_splits = true) {
  auto f = fake_host(fake_python("2.11.0+cu130", "13.0"), {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 118 * kGiB;
  f.cpu.logical_cores = 16;
  f.cuda_toolkits[0].split_compile = nvcc_splits;
  return f;
}

ExtensionRequest three_kernel_files() {
  auto s = cuda_only_scan();
  s.cu_files = 3;
  return dir_request(s);
}

TEST(SplitCompilePlan, ATargetOnlyBuildOfFewKernelFilesIsSplit) {
  auto r = make_extension_plan(three_kernel_files(), machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.plan.jobs, 16);
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--split-compile 16");
}

TEST(SplitCompilePlan, OnlyWhereNvccHasTheOption) {
  auto r = make_extension_plan(three_kernel_files(), machine(false), test_kb(), recipe_generic("demo-ext"),
                               &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "<unset>");
  auto req = three_kernel_files();
  req.split_compile = 4;  // asked, but this nvcc has no such option: a warning, not a flag it rejects
  r = make_extension_plan(req, machine(false), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "<unset>");
  bool warned = false;
  for (const auto& d : r.plan.decisions) warned |= d.topic == "split-compile" && d.warning;
  EXPECT_TRUE(warned);
}

TEST(SplitCompilePlan, OffAndANumberAreObeyed) {
  auto req = three_kernel_files();
  req.split_compile = 1;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "<unset>");
  req.split_compile = 3;
  r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--split-compile 3");
}

TEST(SplitCompilePlan, APortableBuildSplitsWithinItsArchThreads) {
  // One kernel file for 6 arches (nvcc --threads 6): 2 threads per arch, within memory (one job
  // with 6 threads is charged 6 x 5.5 GiB, x 1.25 for the second split thread).
  auto req = three_kernel_files();
  req.scan.cu_files = 1;
  auto f = machine();
  ask_torch_arches(req, f);
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--threads 6 --split-compile 2");
}

TEST(SplitCompilePlan, ACpuBuildHasNoNvcc) {
  auto req = three_kernel_files();
  req.scan.cpp_extension = true;  // a package with a CPU path
  req.cpu = true;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "<unset>");
}

}  // namespace
}  // namespace ts::plan

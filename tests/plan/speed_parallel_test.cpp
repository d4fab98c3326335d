// Side-by-side extensions in the plan: the build helper on PYTHONPATH and the compile slots it
// shares out, only for a Python build that compiles through ninja, never when the recipe says no.
#include <gtest/gtest.h>

#include "extension_fakes.h"
#include "plan/extension.h"

namespace ts::plan {
namespace {

using namespace testing;

HostFacts machine(int cores = 16) {
  auto py = fake_python("2.11.0+cu130", "13.0");
  auto f = fake_host(py, {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 118 * kGiB;
  f.cpu.logical_cores = cores;
  return f;
}


TEST(SpeedParallel, APythonBuildGetsTheHelperAndTheJobsAsSlots) {
  auto r = make_extension_plan(dir_request(cuda_only_scan()), machine(), test_kb(), recipe_generic("demo-ext"),
                               &test_fixes());
  ASSERT_TRUE(r.ok());
  ASSERT_GT(r.plan.jobs, 1);
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_EXT_JOBS"), std::to_string(r.plan.jobs));
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), std::to_string(r.plan.jobs));  // each ninja may use all; the slots bound the sum
  const Decision* d = decision(r.plan, "extensions");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->value.find("side by side"), std::string::npos);
  EXPECT_FALSE(d->warning);
}

TEST(SpeedParallel, SlotsCountNvccThreadsForAPortableBuild) {
  auto req = dir_request(cuda_only_scan());
  auto f = machine();
  ask_torch_arches(req, f);
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--threads 6");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NVCC_THREADS"), "6");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_EXT_JOBS"), std::to_string(r.plan.jobs * 6));
}

TEST(SpeedParallel, TheRecipeCanSayNo) {
  Recipe rc = recipe_generic("demo-ext");
  rc.parallel_extensions = false;
  auto m = machine();  // setuptools before its legacy backend: no PEP 517 frontend puts the helper on the path
  for (auto& py : m.pythons) py.packages["setuptools"] = "40.7.0";
  auto r = make_extension_plan(dir_request(cuda_only_scan()), m, test_kb(), rc, &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_EXT_JOBS"), "<unset>");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "<unset>");
  const Decision* d = decision(r.plan, "extensions");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "one after another");
}

TEST(SpeedParallel, OneJobNeedsNoHelper) {
  auto r = make_extension_plan(dir_request(cuda_only_scan()), machine(1), test_kb(), recipe_generic("demo-ext"),
                               &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.jobs, 1);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_EXT_JOBS"), "<unset>");
}

TEST(SpeedParallel, ASerialPackageOnlyWithItsNinjaFix) {
  std::vector<std::string> errors;
  auto rs = load_recipes({}, errors);
  const Recipe* scatter = rs.find("torch-scatter");
  ASSERT_NE(scatter, nullptr);
  // 2.1.2: the fix turns ninja on, so its 8 extensions can share the slots.
  auto fixed = make_extension_plan(by_name("torch-scatter", "2.1.2"), machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(env(fixed.plan, "TORCHSMITH_EXT_JOBS"), "16");
  // A directory with no version: no fix, use_ninja=False stays, and threads cannot share that path.
  auto scan = cuda_only_scan();
  scan.name = "torch_scatter";
  scan.ninja_off = true;  // its setup.py's BuildExtension.with_options(..., use_ninja=False)
  auto dir = make_extension_plan(dir_request(scan), machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(dir.ok());
  EXPECT_EQ(env(dir.plan, "TORCHSMITH_EXT_JOBS"), "<unset>");
  EXPECT_EQ(dir.plan.jobs, 1);
}

TEST(SpeedParallel, ACMakeProjectSchedulesItself) {
  SourceScan scan;
  scan.scanned = true;
  scan.cmake_lists = true;
  auto req = dir_request(scan);
  req.scan.setup_py = false;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_EXT_JOBS"), "<unset>");
}

}  // namespace
}  // namespace ts::plan

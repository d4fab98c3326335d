// The toolkit rules: driver.toolkit (does this driver run what a CUDA version builds) and
// torch.nvcc (may this nvcc build extensions for that torch), with doctor's verdicts carrying them.
#include "compat/toolkit_rule.h"

#include "testkit/version_of.h"
#include <gtest/gtest.h>

#include "compat/assess.h"

namespace ts::compat {
namespace {

TEST(ToolkitRule, DriverRunsByNvmlFirstThenTheKbMinimum) {
  kb::CudaRelease r;
  r.version = testkit::version_of("12.8");
  r.driver_min_linux = testkit::version_of("570.26");
  DriverFacts d;
  d.present = true;
  d.version = "560.35.03";
  EXPECT_EQ(driver_runs(d, &r, "12.8.1"), false);
  d.version = "575.51.02";
  EXPECT_EQ(driver_runs(d, &r, "12.8.1"), true);
  d.cuda_version = "12.6";  // NVML says the newest CUDA it runs: that wins over the table
  EXPECT_EQ(driver_runs(d, &r, "12.8.1"), false);
  EXPECT_EQ(driver_runs(d, nullptr, "12.4"), true);
  d.cuda_version = "";
  EXPECT_EQ(driver_runs(d, nullptr, "12.4"), std::nullopt);  // nothing to judge by
}

TEST(ToolkitRule, NvccForTorchByMajorThenMinor) {
  EXPECT_EQ(nvcc_for_torch("12.4", "12.4.131"), NvccForTorch::same);
  EXPECT_EQ(nvcc_for_torch("12.4", "12.8.93"), NvccForTorch::other_minor);
  EXPECT_EQ(nvcc_for_torch("11.8", "12.8.93"), NvccForTorch::other_major);
  EXPECT_EQ(nvcc_for_torch("", "12.8"), NvccForTorch::unknown);
}

TEST(ToolkitRule, DoctorsVerdictsCarryTheRuleIds) {
  kb::Kb k;
  kb::CudaRelease r;
  r.version = testkit::version_of("12.8");
  r.driver_min_linux = testkit::version_of("570.26");
  r.source = "test";
  k.cuda.push_back(r);
  HostFacts f;
  f.driver.present = true;
  f.driver.version = "560.35.03";
  f.cuda_toolkits.push_back({});
  f.cuda_toolkits.back().version = "12.8.93";
  f.cuda_toolkits.back().path = "/usr/local/cuda-12.8";
  PythonFacts py;
  py.path = "/usr/bin/python3";
  py.torch.present = true;
  py.torch.version = "2.4.1";
  py.torch.cuda = "11.8";
  f.pythons.push_back(py);
  std::vector<Verdict> vs;
  check_driver(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].rule, kDriverRule);
  EXPECT_EQ(vs[0].level, Level::fail);
  vs.clear();
  check_installed_torch(f, k, vs);
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].rule, kTorchNvccRule);
  EXPECT_EQ(vs[0].level, Level::fail);  // CUDA 12 nvcc for a CUDA 11.8 torch
}

}  // namespace
}  // namespace ts::compat

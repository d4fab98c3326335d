// The arch rules (gpu.toolkit, gpu.torch): which arches a toolkit compiles and whether a build's
// code runs on a GPU, asked by doctor, both planners and verify.
#include "compat/arch_rule.h"
#include "core/gpu_code.h"
#include "testkit/version_of.h"

#include <gtest/gtest.h>

namespace ts::compat {
namespace {

CudaArch arch(const std::string& s) { return *CudaArch::parse(s); }

kb::CudaRelease release(std::string v, std::vector<std::string> arches) {
  kb::CudaRelease r;
  r.version = testkit::version_of(v);
  r.arches = testkit::arches_of(arches);
  return r;
}

TEST(ArchRule, ListedMatchesCapabilityInEverySpelling) {
  std::vector<CudaArch> l = GpuCodeList::read({"sm_86", "9.0", "compute_120"}).code();
  EXPECT_TRUE(arch_listed(l, arch("8.6")));
  EXPECT_TRUE(arch_listed(l, arch("9.0+PTX")));  // PTX of a listed arch: nvcc compiles it too
  EXPECT_TRUE(arch_listed(l, arch("12.0")));
  EXPECT_FALSE(arch_listed(l, arch("8.9")));
  EXPECT_FALSE(arch_listed(l, arch("9.0a")));  // the arch-specific variant is its own target
}

TEST(ArchRule, NvccCompilesPrefersItsOwnListThenTheKb) {
  auto r = release("12.6", {"8.0", "9.0"});
  EXPECT_TRUE(nvcc_compiles({}, &r, arch("9.0")));
  EXPECT_FALSE(nvcc_compiles({}, &r, arch("12.0")));
  auto nvcc = GpuCodeList::read({"sm_120"}).code();
  EXPECT_TRUE(nvcc_compiles(nvcc, &r, arch("12.0")));  // nvcc --list-gpu-code beats the KB
  EXPECT_FALSE(nvcc_compiles(nvcc, &r, arch("9.0")));
  EXPECT_TRUE(nvcc_compiles({}, nullptr, arch("12.0")));  // nothing known: the build will tell
  EXPECT_TRUE(toolkit_compiles(r, CudaArch::of(8, 0)));
  EXPECT_FALSE(toolkit_compiles(r, CudaArch::of(8, 6)));
}

TEST(ArchRule, SpanAndNearestRunnable) {
  kb::Kb k;
  k.cuda = {release("11.8", {"3.5", "8.6", "8.9"}), release("12.8", {"8.6", "8.9", "12.0"})};
  auto s = arch_span(k, CudaArch::of(3, 5));
  ASSERT_TRUE(s.lo && s.hi);
  EXPECT_EQ(s.hi->version.original(), "11.8");
  EXPECT_FALSE(s.still_supported);
  EXPECT_EQ(s.describe(), "CUDA 11.8 to 11.8");
  EXPECT_EQ(arch_span(k, CudaArch::of(12, 0)).describe(), "since CUDA 12.8");
  // 8.9 on CUDA 11.8 with only 8.6: SASS of the same major, lower minor.
  auto n = nearest_runnable(k, k.cuda[0], arch("8.7"));
  ASSERT_TRUE(n);
  EXPECT_EQ(n->str(), "8.6");
  // 12.0 on CUDA 11.8: nothing of major 12, so the newest older arch as PTX.
  n = nearest_runnable(k, k.cuda[0], arch("12.0"));
  ASSERT_TRUE(n);
  EXPECT_EQ(n->str(), "8.9+PTX");
}

TEST(ArchRule, CoverageIsSassThenPtxThenNone) {
  EXPECT_EQ(coverage({arch("8.0"), arch("9.0")}, arch("8.6")), Coverage::sass);  // 8.0 SASS runs on 8.6
  EXPECT_EQ(coverage({arch("compute_80")}, arch("12.0")), Coverage::ptx);  // JIT-compiled by the driver
  EXPECT_EQ(coverage({arch("compute_80"), arch("sm_120")}, arch("12.0")), Coverage::sass);
  EXPECT_EQ(coverage({arch("9.0")}, arch("8.6")), Coverage::none);  // newer SASS never runs on older
  EXPECT_EQ(coverage({arch("9.0a")}, arch("10.0")), Coverage::none);
  EXPECT_EQ(coverage({}, arch("8.6")), Coverage::none);
  EXPECT_STREQ(kArchToolkitRule, "gpu.toolkit");
  EXPECT_STREQ(kArchCoverageRule, "gpu.torch");
}

}  // namespace
}  // namespace ts::compat

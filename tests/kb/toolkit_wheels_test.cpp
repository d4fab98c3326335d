// Every CUDA toolkit that NVIDIA ships on PyPI (nvidia-cuda-nvcc-cu11 11.7+, -cu12, nvidia-cuda-nvcc
// 13.x) has its arch list and host-compiler limits read from that wheel's nvcc/ptxas and
// host_config.h, not recalled. The test prints which toolkits were checked and from which wheel.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/version.h"
#include "kb/kb.h"

namespace ts::kb {
namespace {

TEST(KbToolkitWheels, ArchesOfEveryPyPIToolkitWereReadFromItsWheel) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  ASSERT_TRUE(errors.empty());
  int checked = 0;
  for (const auto& c : kb.cuda) {
    auto v = Version::parse(c.version);
    ASSERT_TRUE(v);
    if (*v < *Version::parse("11.7")) continue;  // PyPI has no nvcc wheel before 11.7
    SCOPED_TRACE("CUDA " + c.version);
    EXPECT_FALSE(c.is_recalled("arches"));
    EXPECT_FALSE(c.is_recalled("gcc_max"));
    EXPECT_FALSE(c.is_recalled("clang_max"));
    EXPECT_EQ(c.status, "verified");
    std::string project = v->major() == 11 ? "nvidia-cuda-nvcc-cu11/" : v->major() == 12 ? "nvidia-cuda-nvcc-cu12/" : "nvidia-cuda-nvcc/";
    std::string want = "https://pypi.org/project/" + project + c.version + ".";
    EXPECT_EQ(c.source.rfind(want, 0), 0u) << c.source;
    std::printf("  checked CUDA %-5s %s\n", c.version.c_str(), c.source.substr(0, c.source.find(' ')).c_str());
    ++checked;
  }
  EXPECT_GE(checked, 17);  // 11.7, 11.8, 12.0-12.6, 12.8, 12.9, 13.0-13.5
}

}  // namespace
}  // namespace ts::kb

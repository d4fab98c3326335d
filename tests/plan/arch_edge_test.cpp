// The arch list is decided once (Plan::arch_list) and every place the build reads it is written
// from that value: TORCH_CUDA_ARCH_LIST in the env, CMAKE_CUDA_ARCHITECTURES for a libtorch
// build, and the arch decision. On every fixture machine with an installed toolkit (the others
// make no CUDA plan here, and bad-python's probe waits out its hanging Python).
#include <gtest/gtest.h>

#include <filesystem>

#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

namespace fs = std::filesystem;

TEST(ArchEdge, EveryPlaceTheBuildReadsTheArchesIsWrittenFromThePlansList) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts")) {
    if (!e.is_directory() || !fs::exists(e.path() / "usr/local/cuda")) continue;
    for (const char* arch : {"", "portable"}) {
      std::map<std::string, std::string> opts{{"--package", "wheel,libtorch"}};
      if (*arch) opts["--arch"] = arch;
      PlanResult r = make_plan(testing::spec_of("torch==2.6.0", opts), testing::fixture(e.path().filename().string()),
                               testing::knowledge());
      if (!r.ok() || !r.plan.cuda.is_chosen()) continue;
      ++checked;
      const ArchList& l = r.plan.arch_list;
      ASSERT_FALSE(l.empty()) << e.path().filename();
      EXPECT_EQ(r.plan.env.at("TORCH_CUDA_ARCH_LIST"), l.torch_cuda_arch_list()) << e.path().filename();
      EXPECT_EQ(r.plan.cmake_options.at("CMAKE_CUDA_ARCHITECTURES"), l.cmake_cuda_architectures()) << e.path().filename();
      int decided = 0;
      for (const auto& d : r.plan.decisions)
        if (d.topic == "arch" && !d.warning) decided += d.value == l.torch_cuda_arch_list();
      EXPECT_EQ(decided, 1) << e.path().filename();
    }
  }
  EXPECT_GE(checked, 4);
}

}  // namespace
}  // namespace ts::plan

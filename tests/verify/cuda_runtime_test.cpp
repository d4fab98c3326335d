#include "verify/cuda_runtime.h"

#include <gtest/gtest.h>

namespace ts::verify {
namespace {

VerifyReport one(const std::vector<std::string>& needed) {
  VerifyReport r;
  FileFacts f;
  f.path = "ext.so";
  f.needed = needed;
  r.files.push_back(f);
  return r;
}

TEST(CudaRuntime, SameMajorPassesOtherMajorFailsUnknownIsANote) {
  auto vs = check_cuda_runtime(one({"libc10.so", "libcudart.so.13"}), "13.2");
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].outcome, Outcome::pass);
  vs = check_cuda_runtime(one({"libcudart.so.12"}), "13.2");
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].outcome, Outcome::fail);
  EXPECT_NE(vs[0].detail.find("CUDA 13.x toolkit"), std::string::npos) << vs[0].detail;
  vs = check_cuda_runtime(one({"libcudart.so.11.0"}), "11.8");
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].outcome, Outcome::pass);
  vs = check_cuda_runtime(one({"libcudart.so.12"}), "");
  ASSERT_EQ(vs.size(), 1u);
  EXPECT_EQ(vs[0].outcome, Outcome::note);
  EXPECT_TRUE(check_cuda_runtime(one({"libc10.so"}), "13.2").empty());
}

}  // namespace
}  // namespace ts::verify

// The torch tag in an extension wheel's local version (+pt113cpu, +pt26cu124): written, read back,
// compared with the torch of an environment.
#include "core/torch_tag.h"

#include <gtest/gtest.h>

namespace ts {
namespace {

TEST(TorchTag, NamesTorchAndCudaAsPerTorchWheelsDo) {
  EXPECT_EQ(torch_tag("1.13.1", "")->text(), "pt113cpu");
  EXPECT_EQ(torch_tag("1.13.0a0+git7c98e70", "")->text(), "pt113cpu");  // a distribution's build
  EXPECT_EQ(torch_tag("2.6.0+cu124", "12.4")->text(), "pt26cu124");
  EXPECT_EQ(torch_tag("2.10.0", "13.0.48")->text(), "pt210cu130");
  EXPECT_FALSE(torch_tag("", ""));
  EXPECT_FALSE(torch_tag("main", ""));
  EXPECT_FALSE(torch_tag("2.6.0", "twelve"));
}

TEST(TorchTag, ReadsTheTagBackFromAWheelVersion) {
  auto t = parse_torch_tag("0.1.0+pt113cpu");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->torch(), "1.13");
  EXPECT_EQ(t->cuda, "");
  t = parse_torch_tag("2.1.2+pt26cu124.sm80.sm90");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->torch(), "2.6");
  EXPECT_EQ(t->cuda_dotted(), "12.4");
  t = parse_torch_tag("1.0+gitabc123.pt210cu130");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->torch(), "2.10");
  EXPECT_FALSE(parse_torch_tag("1.0+cu128.sm120"));  // what the local version said before: no torch
  EXPECT_FALSE(parse_torch_tag("1.0"));
  EXPECT_FALSE(parse_torch_tag("1.0+ptx"));
  EXPECT_FALSE(parse_torch_tag("1.0+pt26cux"));
}

TEST(TorchTag, AMismatchIsSaidInWordsAndAMatchIsEmpty) {
  auto cpu113 = *parse_torch_tag("0.1.0+pt113cpu");
  EXPECT_EQ(torch_tag_mismatch(cpu113, "1.13.1", ""), "");
  EXPECT_EQ(torch_tag_mismatch(cpu113, "1.13.0a0+gitabc", ""), "");
  EXPECT_EQ(torch_tag_mismatch(cpu113, "1.13.1+cu117", "11.7"), "");  // CPU code runs on either kind
  EXPECT_EQ(torch_tag_mismatch(cpu113, "2.6.0+cu124", "12.4"),
            "built for torch 1.13 (CPU), this environment has torch 2.6.0+cu124 (CUDA 12.4)");
  auto cu124 = *parse_torch_tag("2.1.2+pt26cu124.sm80");
  EXPECT_EQ(torch_tag_mismatch(cu124, "2.6.0+cu124", "12.4"), "");
  EXPECT_EQ(torch_tag_mismatch(cu124, "2.6.0+cpu", ""),
            "built for torch 2.6 (CUDA 12.4), this environment has torch 2.6.0+cpu (CPU)");
  EXPECT_NE(torch_tag_mismatch(cu124, "2.6.0+cu118", "11.8"), "");
  EXPECT_NE(torch_tag_mismatch(cu124, "2.7.0+cu124", "12.4"), "");
}

}  // namespace
}  // namespace ts

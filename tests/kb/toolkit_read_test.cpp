// What a toolkit's own nvcc says replaces what the KB only recalls, and nothing else.
#include <gtest/gtest.h>

#include "kb/toolkit_read.h"

namespace ts::kb {
namespace {

Kb kb_with_recalled_13_1() {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  std::string t = "[[release]]\nversion = \"13.1\"\narches = [\"7.5\", \"8.0\"]\ngcc_max = \"14\"\nclang_max = \"21\"\n"
                  "driver_min_linux = \"590.44.01\"\nstatus = \"verified-secondary\"\nrecalled = [\"arches\", \"gcc_max\"]\n"
                  "source = \"https://docs.nvidia.com/cuda/\"\n";
  load_text(kb, "over/cuda.toml", t, errors);
  EXPECT_TRUE(errors.empty());
  return kb;
}

TEST(ToolkitRead, RecalledArchesAndLimitsAreReplacedAndSaidSo) {
  Kb kb = kb_with_recalled_13_1();
  ReadToolkit r{"13.1", {"7.5", "8.0", "9.0", "9.0a"}, "15", "21", "nvcc --list-gpu-code of /x/bin/nvcc (CUDA 13.1.115, read 2026-11-26)"};
  auto lines = adopt_read_toolkits(kb, {r});
  const CudaRelease* c = kb.find_cuda("13.1");
  EXPECT_EQ(spelled(c->arches), r.arches);
  EXPECT_EQ(c->gcc_max.original(), "15");
  EXPECT_FALSE(c->is_recalled("arches"));
  EXPECT_EQ(c->source.rfind("nvcc --list-gpu-code of /x/bin/nvcc", 0), 0u) << c->source;
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("CUDA 13.1 arches: the KB's list was recalled (over/cuda.toml:1); now what its nvcc lists: 7.5 8.0 9.0 9.0a"),
            std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("CUDA 13.1 gcc_max: the KB's 14 was recalled"), std::string::npos) << lines[1];
}

TEST(ToolkitRead, VerifiedEntriesAreKeptAndADifferenceIsReported) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  auto before = kb.find_cuda("13.0")->arches;
  auto lines = adopt_read_toolkits(kb, {{"13.0", {"7.5", "8.0"}, "15", "20", "nvcc of a wrapper"}});
  EXPECT_EQ(kb.find_cuda("13.0")->arches, before);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("the KB entry is verified and kept"), std::string::npos) << lines[0];
  EXPECT_TRUE(adopt_read_toolkits(kb, {{"13.0", spelled(before), "15", "20", "nvcc"}}).empty());  // agreement: nothing to say
}

TEST(ToolkitRead, AToolkitTheKbLacksIsAddedFromItsNvcc) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  auto lines = adopt_read_toolkits(kb, {{"13.9", {"7.5", "12.0f"}, "16", "22", "nvcc --list-gpu-code of /opt/cuda-13.9/bin/nvcc"}});
  const CudaRelease* c = kb.find_cuda("13.9");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->driver_min_linux, kb.find_cuda("13.5")->driver_min_linux);  // the newest 13.x before it: a lower bound
  EXPECT_TRUE(c->is_recalled("driver_min_linux"));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("CUDA 13.9: not in the KB; added"), std::string::npos);
  // Without host-compiler limits it is not added: a plan could not check the compiler.
  lines = adopt_read_toolkits(kb, {{"13.8", {"7.5"}, "", "", "nvcc"}});
  EXPECT_EQ(kb.find_cuda("13.8"), nullptr);
  EXPECT_NE(lines[0].find("not added"), std::string::npos);
}

// Limits that do not parse as versions keep it out too, and say so (the one other way it is not added).
TEST(ToolkitRead, UnparsableLimitsAreNotAdded) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  auto lines = adopt_read_toolkits(kb, {{"13.9", {"7.5"}, "sixteen", "22", "nvcc"}});
  EXPECT_EQ(kb.find_cuda("13.9"), nullptr);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("(gcc sixteen, clang 22) do not parse as versions"), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace ts::kb

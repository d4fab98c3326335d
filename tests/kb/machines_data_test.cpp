// The facts issue 20 added as data: first toolkits of old arches, L4T -> JetPack, what holds on
// Tegra, experimental Pythons; each loaded with its source, and bad entries named by file:line.
#include <gtest/gtest.h>

#include "kb/kb.h"

namespace ts::kb {
namespace {

const Kb& embedded() {
  static const Kb kb = [] {
    std::vector<KbError> errors;
    Kb k = load_embedded(errors);
    for (const auto& e : errors) ADD_FAILURE() << e.str();
    return k;
  }();
  return kb;
}

TEST(MachinesData, FirstToolkitOfOldArches) {
  const ArchSupport* a = embedded().first_support(CudaArch::of(7, 5));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->first_cuda.original(), "10.0");
  EXPECT_NE(a->source.find("docs.nvidia.com/cuda/archive/10.0"), std::string::npos);
  EXPECT_EQ(embedded().first_support(CudaArch::of(6, 1, 0, true))->first_cuda.original(), "8.0");  // any suffix
  EXPECT_EQ(embedded().first_support(CudaArch::of(8, 9)), nullptr);  // cuda.toml's own releases say where 8.9 starts
}

TEST(MachinesData, L4tToJetpack) {
  const JetpackRelease* j = embedded().find_jetpack("36.4.3");
  ASSERT_NE(j, nullptr);
  EXPECT_EQ(j->jetpack, "6.2");
  ASSERT_TRUE(j->cuda);
  EXPECT_EQ(j->cuda->original(), "12.6");
  EXPECT_NE(j->source.find("developer.nvidia.com/embedded/jetpack-archive"), std::string::npos);
  ASSERT_NE(embedded().find_jetpack("36.3"), nullptr);  // "36.3" is 36.3.0
  EXPECT_EQ(embedded().find_jetpack("36.3")->jetpack, "6.0");
  EXPECT_EQ(embedded().find_jetpack("99.1.0"), nullptr);
  EXPECT_EQ(embedded().find_jetpack("R36"), nullptr);
}

TEST(MachinesData, TegraFacts) {
  const Kb& kb = embedded();
  ASSERT_EQ(kb.tegra_features_off.size(), 1u);
  EXPECT_EQ(kb.tegra_features_off[0].feature, "nccl");
  EXPECT_FALSE(kb.tegra_features_off[0].source.empty());
  ASSERT_EQ(kb.tegra_gpu_access.size(), 1u);
  EXPECT_FALSE(kb.tegra_gpu_access[0].nvml);
  EXPECT_EQ(kb.tegra_gpu_access[0].test_through, "torch.cuda");
}

TEST(MachinesData, ExperimentalPythons) {
  const TorchRelease* r = embedded().find_torch("2.5.1");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->experimental_python("3.13.1", "cp313"), "3.13");
  EXPECT_EQ(r->experimental_python("3.12.7", "cp312"), "");
  const TorchRelease* s = embedded().find_torch("2.6.0");
  EXPECT_EQ(s->experimental_python("3.13.1", "cp313"), "");
  EXPECT_EQ(s->experimental_python("3.13.1", "cp313t"), "3.13t");
  EXPECT_EQ(embedded().find_torch("2.4")->experimental_python("3.12.3", "cp312"), "");
}

TEST(MachinesData, BadEntriesAreNamedByFileAndLine) {
  Kb kb = embedded();
  std::vector<KbError> errors;
  load_text(kb, "tegra.toml",
            "[[jetpack]]\nl4t = \"36.x\"\njetpack = \"6.2\"\nsource = \"s\"\n"
            "[[gpu_access]]\nnvml = false\nreason = \"r\"\nsource = \"s\"\n",
            errors);
  ASSERT_GE(errors.size(), 2u);
  std::string all;  // every problem named, each at its line
  for (const auto& e : errors) all += e.str() + "\n";
  EXPECT_NE(all.find("tegra.toml:2"), std::string::npos) << all;
  EXPECT_NE(all.find("test_through"), std::string::npos) << all;
  errors.clear();
  load_text(kb, "torch.toml",
            "[[release]]\nversion = \"2.99\"\npython = \">=3.10\"\ncuda = [\"12.6\"]\ncmake_min = \"3.27\"\n"
            "cxx_standard = \"17\"\nnumpy = \">=1\"\ntorchvision = \"0.99\"\ntorchaudio = \"2.99\"\n"
            "arch_names = [\"8.0\"]\npython_experimental = [\"3.x\"]\nsource = \"s\"\n",
            errors);
  all.clear();
  for (const auto& e : errors) all += e.str() + "\n";
  EXPECT_NE(all.find("python_experimental: '3.x'"), std::string::npos) << all;
}

}  // namespace
}  // namespace ts::kb

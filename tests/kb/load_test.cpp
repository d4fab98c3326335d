// The embedded KB loads cleanly and answers the lookups doctor and plan rely on.
#include <algorithm>

#include <gtest/gtest.h>

#include "kb/kb.h"
#include "testkit/version_of.h"

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

TEST(KbLoad, EmbeddedLoadsWithoutErrors) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  EXPECT_TRUE(errors.empty());
  EXPECT_GT(kb.gpus.size(), 400u);
  EXPECT_EQ(kb.tegra.size(), 5u);
  EXPECT_GE(kb.families.size(), 8u);
  EXPECT_GE(kb.cuda.size(), 20u);
  EXPECT_EQ(kb.cuda_families.size(), 3u);
  EXPECT_GE(kb.torch.size(), 21u);
  EXPECT_GT(kb.resources.cxx_job_gib, 0);
  // A thread of nvcc --threads is charged like a whole job (resources.toml, with its source).
  EXPECT_EQ(kb.resources.nvcc_thread_factor, 1.0);
  EXPECT_NE(kb.resources.source.find("nvcc_thread_factor"), std::string::npos);
  // A --split-compile thread is charged a share of a job, from torchsmith's own measurement.
  EXPECT_EQ(kb.resources.nvcc_split_thread_factor, 0.25);
  EXPECT_NE(kb.resources.source.find("nvcc_split_thread_factor"), std::string::npos);
}

TEST(KbLookup, GpuByPciIdAnyCase) {
  const Gpu* g = embedded().find_gpu("2182");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->name, "GeForce GTX 1660 Ti");
  EXPECT_EQ(g->arch, CudaArch::of(7, 5));  // typed when gpus.toml loaded
  EXPECT_EQ(g->chip, "TU116");
  EXPECT_EQ(g->family, "Turing");
  EXPECT_EQ(embedded().find_gpu("2B85"), embedded().find_gpu("2b85"));
  EXPECT_EQ(embedded().find_gpu("0x2182"), g);
  EXPECT_EQ(embedded().find_gpu("ffff"), nullptr);
}

TEST(KbLookup, KnownCards) {
  struct Want { const char* id; const char* name_part; const char* arch; };
  for (const Want& w : {Want{"2684", "RTX 4090", "8.9"}, Want{"2b85", "RTX 5090", "12.0"},
                        Want{"2330", "H100 SXM5", "9.0"}, Want{"2335", "H200", "9.0"},
                        Want{"1b06", "GTX 1080 Ti", "6.1"}, Want{"20b0", "A100", "8.0"},
                        Want{"2204", "RTX 3090", "8.6"}, Want{"1eb8", "T4", "7.5"}}) {
    const Gpu* g = embedded().find_gpu(w.id);
    ASSERT_NE(g, nullptr) << w.id;
    EXPECT_NE(g->name.find(w.name_part), std::string::npos) << w.id << " " << g->name;
    EXPECT_EQ(g->arch.str(), w.arch) << w.id;
    EXPECT_FALSE(g->source.empty());
  }
}

TEST(KbLookup, DerivedEntriesSayHowSureTheyAre) {
  const Gpu* g = embedded().find_gpu("1f95");  // GTX 1650 Ti Mobile: from pci.ids + chip table
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->arch, CudaArch::of(7, 5));
  EXPECT_EQ(g->status, "derived");
  EXPECT_NE(g->source.find("pci.ids"), std::string::npos);
  const Gpu* laptop = embedded().find_gpu("2c18");  // from the newer upstream pci.ids ("GB203M / GN22")
  ASSERT_NE(laptop, nullptr);
  EXPECT_EQ(laptop->arch, CudaArch::of(12, 0));
  EXPECT_EQ(laptop->chip, "GB203M");
  EXPECT_EQ(laptop->status, "derived");
  const Gpu* a5500 = embedded().find_gpu("2233");
  ASSERT_NE(a5500, nullptr);
  EXPECT_EQ(a5500->status, "recalled");
  EXPECT_TRUE(a5500->is_recalled("arch"));
}

TEST(KbLookup, FamilyByNameOrAlias) {
  const ArchFamily* f = embedded().find_family("ampere");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "Ampere");
  EXPECT_EQ(spelled(f->arches), (std::vector<std::string>{"8.0", "8.6", "8.7"}));
  EXPECT_EQ(embedded().find_family("Lovelace"), embedded().find_family("ADA"));
  ASSERT_NE(embedded().find_family("blackwell"), nullptr);
  EXPECT_EQ(spelled(embedded().find_family("Hopper")->arches), (std::vector<std::string>{"9.0"}));
  EXPECT_EQ(embedded().find_family("kepler"), nullptr);  // older than Maxwell: not in the KB
}

TEST(KbLookup, ChipToFamilyLongestPrefix) {
  EXPECT_EQ(embedded().family_of_chip("TU116")->name, "Turing");
  ASSERT_NE(embedded().chip_arch("GA100"), nullptr);
  EXPECT_EQ(embedded().chip_arch("GA100")->arch.str(), "8.0");
  EXPECT_EQ(embedded().chip_arch("GA102GL")->arch.str(), "8.6");
  EXPECT_EQ(embedded().chip_arch("GP100GL")->arch.str(), "6.0");
  EXPECT_EQ(embedded().chip_arch("GB202")->arch.str(), "12.0");
  EXPECT_EQ(embedded().chip_arch("GK104"), nullptr);
}

TEST(KbLookup, CudaByAnyVersionSpelling) {
  const CudaRelease* r = embedded().find_cuda("11.8.89");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->version.original(), "11.8");
  EXPECT_EQ(r->gcc_max.original(), "11");
  EXPECT_EQ(r->driver_min_linux.original(), "520.61.05");
  EXPECT_EQ(embedded().find_cuda("12.1")->gcc_max.original(), "12");
  EXPECT_EQ(embedded().find_cuda("13.0")->gcc_max.original(), "15");
  EXPECT_EQ(embedded().find_cuda("12.7"), nullptr);  // never released
  EXPECT_TRUE(embedded().find_cuda("10.2")->is_recalled("msvc"));
}

TEST(KbLookup, CudaFamilyFloor) {
  const CudaFamily* f = embedded().find_cuda_family("12.4");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->major, "12");
  EXPECT_EQ(f->driver_min_linux.original(), "525.60.13");
  EXPECT_EQ(embedded().find_cuda_family("11.8.0")->driver_min_linux.original(), "450.80.02");
  EXPECT_EQ(embedded().find_cuda_family("10.2"), nullptr);  // no minor-version compatibility before 11
}

TEST(KbLookup, TorchByPatchVersion) {
  const TorchRelease* t = embedded().find_torch("2.4.1");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version.original(), "2.4");
  EXPECT_EQ(t->python.str(), ">=3.8,<3.13");  // a range once loaded
  ASSERT_TRUE(t->cmake_max_exclusive);
  EXPECT_EQ(t->cmake_max_exclusive->original(), "4");
  EXPECT_EQ(std::count(t->arch_names.begin(), t->arch_names.end(), CudaArch::of(12, 0)), 0);
  EXPECT_EQ(embedded().find_torch("2.10.0+cu130")->version.original(), "2.10");
  EXPECT_EQ(embedded().find_torch("2.1")->version.original(), "2.1");
  const TorchRelease* old = embedded().find_torch("1.13.1");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(std::count(old->arch_names.begin(), old->arch_names.end(), CudaArch::of(8, 9)), 0);
  EXPECT_EQ(std::count(old->arch_names.begin(), old->arch_names.end(), CudaArch::of(9, 0)), 0);
  EXPECT_EQ(old->numpy.str(), ">=1,<2");
  EXPECT_TRUE(old->numpy.contains(*Version::parse("1.26.4")));
  EXPECT_FALSE(old->numpy.contains(*Version::parse("2.0.0")));
  EXPECT_FALSE(embedded().find_torch("2.7")->cmake_max_exclusive);
}

TEST(KbLookup, TegraByCompatibleAndCudaRenumbering) {
  const TegraSoc* orin = embedded().find_tegra("nvidia,tegra234");
  ASSERT_NE(orin, nullptr);
  EXPECT_EQ(orin->arch, CudaArch::of(8, 7));  // typed when tegra.toml loaded
  EXPECT_EQ(orin->arch_for_cuda(testkit::version_of("12.6")), CudaArch::of(8, 7));
  const TegraSoc* thor = embedded().find_tegra("tegra264");
  ASSERT_NE(thor, nullptr);
  EXPECT_EQ(thor->arch, CudaArch::of(11, 0));
  EXPECT_EQ(thor->arch_for_cuda(testkit::version_of("12.8")), CudaArch::of(10, 1));
  EXPECT_EQ(thor->arch_for_cuda(testkit::version_of("12.9.1")), CudaArch::of(10, 1));
  EXPECT_EQ(thor->arch_for_cuda(testkit::version_of("13.0")), CudaArch::of(11, 0));
  EXPECT_EQ(thor->arch_for_cuda(testkit::version_of("12.7")), CudaArch::of(11, 0));  // no range: its arch
  EXPECT_TRUE(thor->is_recalled("compatible"));
  EXPECT_FALSE(thor->is_recalled("arch"));
}

}  // namespace
}  // namespace ts::kb

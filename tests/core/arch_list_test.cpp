#include "core/arch_list.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/host_facts.h"

#include <map>
#include <string>
#include <vector>

namespace ts {
namespace {

CudaArch A(const char* s) { return CudaArch::parse(s).value(); }

// A stand-in for the KB: the names and what they stand for are test data, not facts core knows.
std::optional<std::vector<CudaArch>> fake_kb(std::string_view name, std::string* error) {
  static const std::map<std::string, std::vector<CudaArch>> names = {
      {"ampere", {A("8.0"), A("8.6")}},
      {"ada", {A("8.9")}},
      {"hopper", {A("9.0")}},
      {"maxwell+tegra", {A("5.3")}},
      {"native", {A("8.6")}},
      {"empty", {}},
  };
  std::string key(name);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (auto it = names.find(key); it != names.end()) return it->second;
  if (key == "portable") {
    if (error) *error = "'portable' needs a CUDA toolkit, and none was found";
    return std::nullopt;
  }
  return std::nullopt;  // unknown, and no reason given
}

ArchList L(const char* s, const ArchNameResolver& r = nullptr) {
  std::string err;
  auto l = ArchList::parse(s, r, &err);
  EXPECT_TRUE(l.has_value()) << s << ": " << err;
  return l.value_or(ArchList{});
}

TEST(ArchList, SeparatorsAnyMix) {
  for (const char* s : {"7.5;8.6;9.0", "7.5 8.6 9.0", "7.5,8.6,9.0", " 7.5 ;8.6,\t9.0\n", "7.5;;8.6;9.0;",
                        "75 sm_86 90", "9.0;7.5;8.6"}) {
    auto l = L(s);
    EXPECT_EQ(l.torch_cuda_arch_list(), "7.5;8.6;9.0") << s;
    EXPECT_EQ(l.size(), 3u) << s;
  }
}

TEST(ArchList, PtxAttachesToItsArch) {
  EXPECT_EQ(L("7.5;8.6+PTX").torch_cuda_arch_list(), "7.5;8.6+PTX");
  EXPECT_EQ(L("7.5 8.6 +PTX").torch_cuda_arch_list(), "7.5;8.6+PTX");  // detached after a space: previous token
  EXPECT_EQ(L("compute_90 sm_80").torch_cuda_arch_list(), "8.0;9.0+PTX");
  std::string err;
  EXPECT_FALSE(ArchList::parse("8.6;+PTX", nullptr, &err));
  EXPECT_NE(err.find("+PTX"), std::string::npos) << err;
  EXPECT_FALSE(ArchList::parse("+PTX 8.6", nullptr, &err));
  EXPECT_FALSE(ArchList::parse("8.6,+PTX", nullptr, &err));
}

TEST(ArchList, DuplicatesMergeWithPtxOred) {
  auto l = L("8.6;86;sm_86;8.6+PTX;7.5");
  EXPECT_EQ(l.torch_cuda_arch_list(), "7.5;8.6+PTX");
  EXPECT_EQ(l.size(), 2u);
  // 9.0 and 9.0a are different targets and both stay.
  EXPECT_EQ(L("9.0a 9.0 sm_90a").torch_cuda_arch_list(), "9.0;9.0a");
}

TEST(ArchList, SortedAscendingNumerically) {
  EXPECT_EQ(L("12.0 10.0 9.0 8.6").torch_cuda_arch_list(), "8.6;9.0;10.0;12.0");
  EXPECT_EQ(L("12.0 10.0").highest(), A("12.0"));
  EXPECT_FALSE(ArchList{}.highest());
}

TEST(ArchList, PrintsForEachConsumer) {
  auto l = L("7.5;8.6;9.0+PTX");
  EXPECT_EQ(l.torch_cuda_arch_list(), "7.5;8.6;9.0+PTX");
  EXPECT_EQ(l.cmake_cuda_architectures(), "75-real;86-real;90");
  EXPECT_EQ(l.gencode_flags(), (std::vector<std::string>{
                                   "-gencode=arch=compute_75,code=sm_75",
                                   "-gencode=arch=compute_86,code=sm_86",
                                   "-gencode=arch=compute_90,code=sm_90",
                                   "-gencode=arch=compute_90,code=compute_90",
                               }));

  auto s = L("9.0a;10.0f+PTX");
  EXPECT_EQ(s.torch_cuda_arch_list(), "9.0a;10.0f+PTX");
  EXPECT_EQ(s.cmake_cuda_architectures(), "90a-real;100f");
  EXPECT_EQ(s.gencode_flags(), (std::vector<std::string>{
                                   "-gencode=arch=compute_90a,code=sm_90a",
                                   "-gencode=arch=compute_100f,code=sm_100f",
                                   "-gencode=arch=compute_100f,code=compute_100f",
                               }));
}

TEST(ArchList, NamesGoThroughTheResolver) {
  auto l = L("Ampere;9.0", fake_kb);
  EXPECT_EQ(l.torch_cuda_arch_list(), "8.0;8.6;9.0");
  EXPECT_EQ(L("ada hopper", fake_kb).torch_cuda_arch_list(), "8.9;9.0");
  EXPECT_EQ(L("native", fake_kb).torch_cuda_arch_list(), "8.6");
  // "+PTX" on a name: PTX for the highest arch it stands for.
  EXPECT_EQ(L("Ampere+PTX", fake_kb).torch_cuda_arch_list(), "8.0;8.6+PTX");
  EXPECT_EQ(L("Ampere +PTX", fake_kb).torch_cuda_arch_list(), "8.0;8.6+PTX");
  // A name that itself contains '+' is looked up whole first.
  EXPECT_EQ(L("Maxwell+Tegra", fake_kb).torch_cuda_arch_list(), "5.3");
  EXPECT_EQ(L("native;8.6+PTX", fake_kb).torch_cuda_arch_list(), "8.6+PTX");
}

TEST(ArchList, NameErrors) {
  std::string err;
  EXPECT_FALSE(ArchList::parse("8.6;Ampere", nullptr, &err));  // no resolver: every name is an error
  EXPECT_NE(err.find("'Ampere'"), std::string::npos) << err;
  EXPECT_NE(err.find("sm_86"), std::string::npos) << err;

  EXPECT_FALSE(ArchList::parse("Volta", fake_kb, &err));  // unknown to the resolver, no reason given
  EXPECT_NE(err.find("'Volta'"), std::string::npos) << err;
  EXPECT_NE(err.find("8.6+PTX"), std::string::npos) << err;

  EXPECT_FALSE(ArchList::parse("portable", fake_kb, &err));  // the resolver's reason is kept
  EXPECT_NE(err.find("needs a CUDA toolkit"), std::string::npos) << err;

  // An empty answer accepts the name and adds nothing (how a syntax-only check passes names through).
  auto accepted = ArchList::parse("empty;8.6 empty+PTX", fake_kb, &err);
  ASSERT_TRUE(accepted) << err;
  EXPECT_EQ(accepted->torch_cuda_arch_list(), "8.6");
  auto any_name = [](std::string_view, std::string*) -> std::optional<std::vector<CudaArch>> {
    return std::vector<CudaArch>{};
  };
  auto names_only = ArchList::parse("native", any_name, &err);
  ASSERT_TRUE(names_only) << err;
  EXPECT_TRUE(names_only->empty());
  EXPECT_FALSE(ArchList::parse("8.6.1 native", any_name, &err));  // numbers are still checked

  // Broken numbers never reach the resolver.
  bool called = false;
  ArchNameResolver spy = [&](std::string_view, std::string*) -> std::optional<std::vector<CudaArch>> {
    called = true;
    return std::nullopt;
  };
  EXPECT_FALSE(ArchList::parse("8.6.1", spy, &err));
  EXPECT_NE(err.find("'8.6.1' is not a CUDA architecture"), std::string::npos) << err;
  EXPECT_FALSE(ArchList::parse("sm_8x", spy, &err));
  EXPECT_NE(err.find("'sm_8x'"), std::string::npos) << err;
  EXPECT_FALSE(called);
}

TEST(ArchList, EmptyAndMalformedInput) {
  for (const char* s : {"", "   ", ";", " ; , \t"}) {
    std::string err;
    EXPECT_FALSE(ArchList::parse(s, nullptr, &err)) << "'" << s << "'";
    EXPECT_NE(err.find("empty"), std::string::npos) << err;
  }
  for (const char* s : {"8", "8.6;0.0", "8.6 abc", "sm_", "8.6;9.0;8"}) {
    std::string err;
    EXPECT_FALSE(ArchList::parse(s, nullptr, &err)) << s;
    EXPECT_FALSE(err.empty()) << s;
  }
  std::string err;
  ArchList::parse("8.6;9.0;8", nullptr, &err);
  EXPECT_NE(err.find("'8'"), std::string::npos) << err;
}

TEST(ArchList, Capabilities) {
  auto l = L("8.0;9.0a;10.0f");
  EXPECT_TRUE(l.contains_capability(A("8.0")));
  EXPECT_TRUE(l.contains_capability(A("9.0")));     // 9.0a counts for 9.0
  EXPECT_TRUE(l.contains_capability(A("sm_100")));
  EXPECT_FALSE(l.contains_capability(A("8.6")));
  EXPECT_TRUE(l.runs_on(A("8.6")));   // 8.0 SASS runs on 8.6
  EXPECT_FALSE(l.runs_on(A("7.5")));
  EXPECT_FALSE(l.runs_on(A("12.0")));
  EXPECT_TRUE(L("8.0;9.0+PTX").runs_on(A("12.0")));  // PTX JIT
}

TEST(ArchList, ConstructedFromArchesNormalises) {
  ArchList l({A("9.0"), A("8.6+PTX"), A("8.6")});
  EXPECT_EQ(l.torch_cuda_arch_list(), "8.6+PTX;9.0");
  EXPECT_EQ(l, L("8.6+PTX 9.0"));
  EXPECT_TRUE(ArchList{}.empty());
}

TEST(ArchList, RoundTrips) {
  for (const char* s : {"7.5;8.6;9.0+PTX", "9.0a;10.0f+PTX;12.0", "3.5"}) {
    auto l = L(s);
    EXPECT_EQ(l.torch_cuda_arch_list(), s);
    EXPECT_EQ(L(l.torch_cuda_arch_list().c_str()), l);
    nlohmann::json j = l;
    EXPECT_EQ(j, s);
    EXPECT_EQ(j.get<ArchList>(), l);
  }
  EXPECT_THROW(nlohmann::json("Ampere").get<ArchList>(), std::invalid_argument);
}

// The GPUs here as the plan spells them: two cards listed out of order, a repeat and an unknown one
// give the same TORCH_CUDA_ARCH_LIST the plan writes (the arch-shrink remedy compares the two).
TEST(NativeGpuArches, SpelledAsThePlanSpellsTheArchList) {
  HostFacts f;
  for (const char* cc : {"9.0", "8.6", "", "9.0"}) {
    GpuFacts g;
    g.compute_capability = CudaArch::parse(cc);  // as the probe reads it: "" is unknown
    f.gpus.push_back(g);
  }
  EXPECT_EQ(native_gpu_arches(f).size(), 3u);  // the unknown one is left out
  EXPECT_EQ(ArchList(native_gpu_arches(f)).torch_cuda_arch_list(), "8.6;9.0");
  EXPECT_TRUE(native_gpu_arches(HostFacts{}).empty());
}

}  // namespace
}  // namespace ts

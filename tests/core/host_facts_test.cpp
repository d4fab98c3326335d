// HostFacts' typed fields at the JSON edge: a GPU's compute capability is a CudaArch once read, and a
// facts file spells it as text ("" = unknown), as files written before it was typed do.
#include "core/host_facts.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ts {
namespace {

TEST(HostFactsJson, ComputeCapabilityTravelsAsTextAndReadsTyped) {
  HostFacts f;
  GpuFacts known;
  known.compute_capability = CudaArch::of(12, 0);
  GpuFacts unknown;
  f.gpus = {known, unknown};
  f.jetson.compute_capability = CudaArch::of(8, 7);
  nlohmann::json j = f;
  EXPECT_EQ(j["gpus"][0]["compute_capability"], "12.0");
  EXPECT_EQ(j["gpus"][1]["compute_capability"], "");
  EXPECT_EQ(j["jetson"]["compute_capability"], "8.7");
  HostFacts back = j.get<HostFacts>();
  ASSERT_EQ(back.gpus.size(), 2u);
  EXPECT_EQ(back.gpus[0].compute_capability, CudaArch::of(12, 0));
  EXPECT_FALSE(back.gpus[1].compute_capability.has_value());
  EXPECT_EQ(back.jetson.compute_capability, CudaArch::of(8, 7));
  EXPECT_EQ(nlohmann::json(back), j);  // round trip, byte for byte
}

// Near misses: text no GPU reports ("[N/A]", an arch list, a missing key) is unknown, never 0.0.
TEST(HostFactsJson, ComputeCapabilityThatIsNoArchIsUnknown) {
  for (const char* text : {"[N/A]", "8.6;9.0", "banana", ""}) {
    nlohmann::json j = {{"gpus", {{{"name", "x"}, {"compute_capability", text}}}}};
    EXPECT_FALSE(j.get<HostFacts>().gpus.at(0).compute_capability.has_value()) << text;
  }
  nlohmann::json absent = {{"gpus", {{{"name", "x"}}}}};
  EXPECT_FALSE(absent.get<HostFacts>().gpus.at(0).compute_capability.has_value());
  nlohmann::json number = {{"gpus", {{{"compute_capability", 8.6}}}}};
  EXPECT_FALSE(number.get<HostFacts>().gpus.at(0).compute_capability.has_value());
}

// torch's arch list and nvcc's --list-gpu-code are code lists read once: order kept, a compute_
// entry PTX only and apart from its sm_ twin (an ArchList would merge them into 9.0+PTX).
TEST(HostFactsJson, CodeListsTravelAsNvccNamesAndReadTyped) {
  HostFacts f;
  PythonFacts py;
  py.torch.arch_list = GpuCodeList::read({"sm_90", "sm_80", "compute_90", "sm_100a", "compute_120f"});
  f.pythons = {py};
  CudaToolkitFacts t;
  t.arches = GpuCodeList::read({"sm_75", "sm_120"});
  f.cuda_toolkits = {t};
  const auto& code = f.pythons[0].torch.arch_list.code();
  ASSERT_EQ(code.size(), 5u);
  EXPECT_EQ(code[0], CudaArch::of(9, 0));
  EXPECT_EQ(code[2], CudaArch::of(9, 0, 0, true));  // PTX only
  EXPECT_EQ(code[3], CudaArch::of(10, 0, 'a'));
  nlohmann::json j = f;
  EXPECT_EQ(j["pythons"][0]["torch"]["arch_list"],
            nlohmann::json({"sm_90", "sm_80", "compute_90", "sm_100a", "compute_120f"}));
  EXPECT_EQ(j["cuda_toolkits"][0]["arches"], nlohmann::json({"sm_75", "sm_120"}));
  HostFacts back = j.get<HostFacts>();
  EXPECT_EQ(back.pythons.at(0).torch.arch_list, f.pythons[0].torch.arch_list);
  EXPECT_EQ(nlohmann::json(back), j);  // round trip, byte for byte
}

// Near misses: a name no grammar accepts is left out (and counted), not read as 0.0; a number is no name.
TEST(HostFactsJson, CodeListNamesThatAreNoArchAreLeftOut) {
  std::size_t skipped = 0;
  auto l = GpuCodeList::read({"sm_", "sm_86", "8", "banana", "compute_9.0"}, &skipped);
  EXPECT_EQ(l.names(), std::vector<std::string>{"sm_86"});
  EXPECT_EQ(skipped, 4u);
  nlohmann::json j = {{"pythons", {{{"torch", {{"arch_list", {"sm_75", 86, "x"}}}}}}}};
  EXPECT_EQ(j.get<HostFacts>().pythons.at(0).torch.arch_list.names(), std::vector<std::string>{"sm_75"});
  EXPECT_EQ(GpuCodeList::read({"sm_90", "compute_90"}).joined(" "), "sm_90 compute_90");
}

// A pip cuDNN's CUDA major is read from its wheel's name once, where facts are made or loaded; the
// facts file keeps only the name, so a file written before (or by hand) reads the same.
TEST(HostFactsJson, PipLibraryCudaMajorReadsFromItsSourceNotWritten) {
  EXPECT_EQ(pip_cuda_major("pip:nvidia-cudnn-cu12"), 12);
  EXPECT_EQ(pip_cuda_major("pip:nvidia-cudnn-cu13"), 13);
  EXPECT_EQ(pip_cuda_major("pip:nvidia-nccl-cu11"), 11);
  for (const char* none : {"pip:nvidia-cudnn", "header", "conda", "", "pip:nvidia-cudnn-cu", "nvidia-cudnn-cu12"})
    EXPECT_EQ(pip_cuda_major(none), 0) << none;
  HostFacts f;
  LibraryFacts pip;
  pip.name = "cudnn";
  pip.source = "pip:nvidia-cudnn-cu12";
  pip.cuda_major = 12;
  LibraryFacts header;
  header.name = "cudnn";
  header.source = "header";
  f.libraries = {pip, header};
  nlohmann::json j = f;
  EXPECT_FALSE(j["libraries"][0].contains("cuda_major"));
  auto back = j.get<HostFacts>();
  EXPECT_EQ(back.libraries[0].cuda_major, 12);
  EXPECT_EQ(back.libraries[1].cuda_major, 0);
  EXPECT_EQ(nlohmann::json(back), j);
}

}  // namespace
}  // namespace ts

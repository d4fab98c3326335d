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

}  // namespace
}  // namespace ts

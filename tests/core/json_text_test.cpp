// Value types in JSON as their text: written with str(), read back through parse, a bad text thrown
// with parse's reason.
#include "core/json_text.h"

#include <gtest/gtest.h>

#include "core/cuda_arch.h"
#include "core/version.h"
#include "core/version_range.h"

namespace ts {
namespace {

template <class T>
void round_trip(const std::string& text) {
  nlohmann::json j = nlohmann::json(text).get<T>();
  EXPECT_EQ(j, text);
}

TEST(JsonText, RoundTripsEachType) {
  round_trip<Version>("2.4.1");
  round_trip<CudaArch>("12.0+PTX");
  round_trip<VersionRange>(">=2.4,<2.6");
}

TEST(JsonText, ABadTextThrowsParsesReason) {
  EXPECT_THROW(nlohmann::json("not a version").get<Version>(), std::invalid_argument);
  EXPECT_THROW(nlohmann::json("sm_86x").get<CudaArch>(), std::invalid_argument);
  EXPECT_THROW(nlohmann::json(">=").get<VersionRange>(), std::invalid_argument);
}

}  // namespace
}  // namespace ts

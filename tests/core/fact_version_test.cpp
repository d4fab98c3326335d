#include "core/fact_version.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace ts {
namespace {

TEST(FactVersion, ParsedOnceWhenSet) {
  FactVersion v = "11.8.89";
  ASSERT_TRUE(v.parsed());
  EXPECT_EQ(*v.parsed(), *Version::parse("11.8.89"));
  EXPECT_EQ(v.parsed()->truncated(2), *Version::parse("11.8"));
  EXPECT_EQ(v.parsed()->micro(), 89);
  EXPECT_EQ(v.major_minor(), "11.8");
  EXPECT_EQ(v.text(), "11.8.89");
}

TEST(FactVersion, EmptyAndUnparsableAreUnknownButKeepTheirText) {
  FactVersion none;
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.parsed());
  FactVersion odd = "not-a-version";
  EXPECT_FALSE(odd.empty());
  EXPECT_FALSE(odd.parsed());
  EXPECT_EQ(odd.major_minor(), "not-a-version");
}

TEST(FactVersion, JsonRoundTripKeepsTheTextExactly) {
  for (const char* text : {"580.95.05", "2.11.0+cu130", "", "garbage 1"}) {
    nlohmann::json j = FactVersion(text);
    EXPECT_EQ(j, nlohmann::json(text));
    auto back = j.get<FactVersion>();
    EXPECT_EQ(back.text(), text);
    EXPECT_EQ(back.parsed().has_value(), FactVersion(text).parsed().has_value());
  }
  EXPECT_EQ(nlohmann::json("580.95.05").get<FactVersion>().parsed()->str(), "580.95.5");
}

}  // namespace
}  // namespace ts

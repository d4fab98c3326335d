#include "core/version.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ts {
namespace {

Version V(const char* s) {
  auto v = Version::parse(s);
  EXPECT_TRUE(v.has_value()) << s;
  return v.value_or(Version{});
}

TEST(Version, ParsesDottedNumbers) {
  auto cuda = V("12.8");
  EXPECT_EQ(cuda.release(), (std::vector<int>{12, 8}));
  EXPECT_EQ(cuda.major(), 12);
  EXPECT_EQ(cuda.minor(), 8);
  EXPECT_EQ(cuda.micro(), 0);
  EXPECT_FALSE(cuda.is_prerelease());
  EXPECT_EQ(cuda.str(), "12.8");

  auto gcc = V("13.2.0");
  EXPECT_EQ(gcc.release(), (std::vector<int>{13, 2, 0}));
  EXPECT_EQ(gcc.str(), "13.2.0");

  auto driver = V("580.95.05");
  EXPECT_EQ(driver.release(), (std::vector<int>{580, 95, 5}));
  EXPECT_EQ(driver.micro(), 5);
  EXPECT_EQ(driver.original(), "580.95.05");  // the driver's own spelling survives
  EXPECT_EQ(driver.str(), "580.95.5");        // PEP 440 normal form drops the zero

  auto cmake = V("3.10.2");
  EXPECT_EQ(cmake.major_minor(), "3.10");
  EXPECT_EQ(V("11").major_minor(), "11.0");
  EXPECT_EQ(V("11").minor(), 0);
}

TEST(Version, ParsesPep440Forms) {
  auto nightly = V("2.4.0a0+git1234abc");
  EXPECT_EQ(nightly.release(), (std::vector<int>{2, 4, 0}));
  EXPECT_EQ(nightly.pre_kind(), Version::Pre::a);
  EXPECT_EQ(nightly.pre_number(), 0);
  EXPECT_TRUE(nightly.is_prerelease());
  EXPECT_EQ(nightly.local(), "git1234abc");
  EXPECT_EQ(nightly.str(), "2.4.0a0+git1234abc");

  auto wheel = V("2.11.0+cu130");
  EXPECT_EQ(wheel.local(), "cu130");
  EXPECT_FALSE(wheel.is_prerelease());
  EXPECT_EQ(wheel.public_str(), "2.11.0");

  auto post = V("1.0.post1");
  EXPECT_TRUE(post.is_postrelease());
  EXPECT_EQ(post.post(), 1);
  EXPECT_FALSE(post.is_prerelease());

  auto rc = V("2.0.0rc1");
  EXPECT_EQ(rc.pre_kind(), Version::Pre::rc);
  EXPECT_EQ(rc.pre_number(), 1);
  EXPECT_TRUE(rc.is_prerelease());

  auto epoch = V("1!2.0");
  EXPECT_EQ(epoch.epoch(), 1);
  EXPECT_EQ(epoch.release(), (std::vector<int>{2, 0}));
  EXPECT_EQ(epoch.str(), "1!2.0");

  auto dev = V("2.5.0.dev20240801");
  EXPECT_EQ(dev.dev(), 20240801);
  EXPECT_TRUE(dev.is_prerelease());
  EXPECT_EQ(V("1.23.5").str(), "1.23.5");
}

TEST(Version, NormalisesAlternateSpellings) {
  struct Case { const char* in; const char* out; };
  for (auto c : std::vector<Case>{{"v1.0", "1.0"},
                                  {"1.0-alpha.1", "1.0a1"},
                                  {"1.0beta2", "1.0b2"},
                                  {"1.0c1", "1.0rc1"},
                                  {"1.0pre3", "1.0rc3"},
                                  {"1.0preview4", "1.0rc4"},
                                  {"1.0RC1", "1.0rc1"},
                                  {"1.0a", "1.0a0"},
                                  {"1.0-1", "1.0.post1"},
                                  {"1.0_post2", "1.0.post2"},
                                  {"1.0.post", "1.0.post0"},
                                  {"1.0r5", "1.0.post5"},
                                  {"1.0rev5", "1.0.post5"},
                                  {"1.0-dev3", "1.0.dev3"},
                                  {"1.0dev", "1.0.dev0"},
                                  {"1.0+Ubuntu-1_2", "1.0+ubuntu.1.2"},
                                  {"  12.8  ", "12.8"},
                                  {"01.02", "1.2"},
                                  {"1.0a1.post2.dev3+x", "1.0a1.post2.dev3+x"}}) {
    std::string err;
    auto v = Version::parse(c.in, &err);
    ASSERT_TRUE(v) << c.in << ": " << err;
    EXPECT_EQ(v->str(), c.out) << c.in;
  }
}

TEST(Version, RejectsMalformedWithReason) {
  for (const char* bad : {"", "  ", "1x.2", "abc", "1.", ".1", "1..2", "1.0+", "1.0+a..b", "1.0++a", "v", "1!",
                          "1.0 beta", "1.0-", "1.0.post1.post2", "99999999999999", "1.0+a b", "-1.0", "1,0"}) {
    std::string err;
    EXPECT_FALSE(Version::parse(bad, &err)) << "'" << bad << "'";
    EXPECT_NE(err.find("'" + std::string(bad) + "' is not a version"), std::string::npos) << err;
  }
  std::string err;
  Version::parse("1x.2", &err);
  EXPECT_EQ(err.rfind("'1x.2' is not a version", 0), 0u) << err;
  EXPECT_FALSE(Version::parse("1x.2"));  // no error pointer: still no crash
}

TEST(Version, Pep440OrderFromThePep) {
  // The PEP's own example sequence, every neighbour strictly increasing.
  std::vector<const char*> order = {"1.0.dev456", "1.0a1",        "1.0a2.dev456", "1.0a12.dev456", "1.0a12",
                                    "1.0b1.dev456", "1.0b2",      "1.0b2.post345.dev456", "1.0b2.post345",
                                    "1.0rc1.dev456", "1.0rc1",    "1.0",          "1.0+abc.5",    "1.0+abc.7",
                                    "1.0+5",      "1.0.post456.dev34", "1.0.post456", "1.0.15",  "1.1.dev1"};
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    EXPECT_LT(V(order[i]), V(order[i + 1])) << order[i] << " < " << order[i + 1];
    EXPECT_GT(V(order[i + 1]), V(order[i]));
    EXPECT_NE(V(order[i]), V(order[i + 1]));
  }
  EXPECT_LT(V("1.0.dev0"), V("1.0a1"));
  EXPECT_LT(V("1.0a1"), V("1.0b1"));
  EXPECT_LT(V("1.0b1"), V("1.0rc1"));
  EXPECT_LT(V("1.0rc1"), V("1.0"));
  EXPECT_LT(V("1.0"), V("1.0.post1"));
}

TEST(Version, TrailingZerosAreInsignificant) {
  EXPECT_EQ(V("12.8"), V("12.8.0"));
  EXPECT_EQ(V("12"), V("12.0.0"));
  EXPECT_EQ(V("12.8.0") <=> V("12.8"), std::strong_ordering::equal);
  EXPECT_LT(V("12.8"), V("12.8.1"));
  EXPECT_EQ(V("12.8").str(), "12.8");  // but the text keeps what was given
  EXPECT_EQ(V("12.8.0").str(), "12.8.0");
}

TEST(Version, NumericNotLexicalOrder) {
  EXPECT_LT(V("3.9"), V("3.10"));
  EXPECT_LT(V("3.10.2"), V("3.18"));
  EXPECT_LT(V("9.2"), V("11.8"));
  EXPECT_LT(V("535.104.05"), V("580.95.05"));
  EXPECT_EQ(V("580.95.05"), V("580.95.5"));
}

TEST(Version, LocalLabels) {
  EXPECT_LT(V("2.4.0"), V("2.4.0+cu121"));      // a local build sorts after the public version
  EXPECT_LT(V("2.4.0+cu121"), V("2.4.1"));
  EXPECT_LT(V("2.4.0+cu118"), V("2.4.0+cu121"));  // words compare alphabetically
  EXPECT_LT(V("1.0+abc"), V("1.0+1"));            // numbers above words
  EXPECT_LT(V("1.0+9"), V("1.0+10"));             // numbers by value
  EXPECT_LT(V("1.0+abc"), V("1.0+abc.1"));        // a longer label with the same start is greater
  EXPECT_EQ(V("1.0+CU121"), V("1.0+cu121"));
  EXPECT_EQ(V("1.0+1.a"), V("1.0+1-a"));
  EXPECT_EQ(V("1.0+007"), V("1.0+7"));
  EXPECT_NE(V("2.4.0"), V("2.4.0+cu121"));
  EXPECT_EQ(V("2.4.0+cu121").public_version(), V("2.4.0"));
}

TEST(Version, Epochs) {
  EXPECT_GT(V("1!1.0"), V("2024.1"));
  EXPECT_EQ(V("0!1.0"), V("1.0"));
  EXPECT_EQ(V("0!1.0").str(), "1.0");
  EXPECT_LT(V("1!1.0"), V("1!1.1"));
}

TEST(Version, DerivedVersions) {
  auto v = V("2.4.0a0.post1.dev2+git1");
  EXPECT_EQ(v.base_version().str(), "2.4.0");
  EXPECT_EQ(v.public_version().str(), "2.4.0a0.post1.dev2");
  EXPECT_EQ(V("12.8.1").truncated(2).str(), "12.8");
  EXPECT_EQ(V("12").truncated(2).str(), "12");
  EXPECT_EQ(V("1!12.8.1rc1").truncated(1).str(), "1!12");
}

TEST(Version, RoundTripsThroughStrAndJson) {
  for (const char* s : {"12.8", "2.4.0a0+git1234abc", "1!2.0.post3.dev4", "1.0b2", "2.11.0+cu130", "0"}) {
    auto v = V(s);
    EXPECT_EQ(V(v.str().c_str()), v) << s;
    EXPECT_EQ(V(v.str().c_str()).str(), v.str()) << s;
    nlohmann::json j = v;
    EXPECT_EQ(j, v.str());
    EXPECT_EQ(j.get<Version>(), v);
  }
  EXPECT_THROW(nlohmann::json("1x.2").get<Version>(), std::invalid_argument);
}

TEST(Version, DefaultIsZero) {
  Version v;
  EXPECT_EQ(v, V("0"));
  EXPECT_EQ(v.str(), "0");
  EXPECT_EQ(v.major(), 0);
}

}  // namespace
}  // namespace ts

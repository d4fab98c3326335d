#include "core/cuda_arch.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace ts {
namespace {

CudaArch A(const char* s) {
  std::string err;
  auto a = CudaArch::parse(s, &err);
  EXPECT_TRUE(a.has_value()) << s << ": " << err;
  return a.value_or(CudaArch{});
}

struct Spelling {
  const char* text;
  int major, minor;
  char suffix;
  bool ptx;
};

TEST(CudaArch, ParsesEverySpelling) {
  for (Spelling s : {Spelling{"8.6", 8, 6, 0, false},      {"86", 8, 6, 0, false},
                     {"sm_86", 8, 6, 0, false},            {"compute_86", 8, 6, 0, true},
                     {"8.6+PTX", 8, 6, 0, true},           {"8.6+ptx", 8, 6, 0, true},
                     {"9.0a", 9, 0, 'a', false},           {"90a", 9, 0, 'a', false},
                     {"sm_90a", 9, 0, 'a', false},         {"compute_90a", 9, 0, 'a', true},
                     {"10.0f", 10, 0, 'f', false},         {"100f", 10, 0, 'f', false},
                     {"sm_100f", 10, 0, 'f', false},       {"12.0", 12, 0, 0, false},
                     {"120", 12, 0, 0, false},             {"sm_120", 12, 0, 0, false},
                     {"11.0", 11, 0, 0, false},            {"SM_75", 7, 5, 0, false},
                     {"Compute_52", 5, 2, 0, true},        {"9.0A", 9, 0, 'a', false},
                     {" 7.5 ", 7, 5, 0, false},            {"9.0a+PTX", 9, 0, 'a', true},
                     {"sm_86+PTX", 8, 6, 0, true},         {"3.5", 3, 5, 0, false},
                     {"10.3", 10, 3, 0, false},            {"103a", 10, 3, 'a', false}}) {
    auto a = A(s.text);
    EXPECT_EQ(a.major, s.major) << s.text;
    EXPECT_EQ(a.minor, s.minor) << s.text;
    EXPECT_EQ(a.suffix, s.suffix) << s.text;
    EXPECT_EQ(a.ptx, s.ptx) << s.text;
  }
}

TEST(CudaArch, RejectsMalformedNamingTheText) {
  for (const char* bad : {"8", "8.6.1", "sm_", "abc", "0.0", "", "compute_", "86b", "8.60", "sm_8.6", "8.",
                          ".6", "+PTX", "8.6+", "8.6 +PTX", "sm86", "-86", "0.6", "08.6", "1000", "8,6", "Ampere",
                          "9.0af", "86+PTX+PTX"}) {
    std::string err;
    EXPECT_FALSE(CudaArch::parse(bad, &err)) << "'" << bad << "'";
    EXPECT_NE(err.find("'" + std::string(bad) + "' is not a CUDA architecture"), std::string::npos) << err;
    EXPECT_NE(err.find("sm_86"), std::string::npos) << "error lists what is accepted: " << err;
  }
  EXPECT_FALSE(CudaArch::parse("abc"));  // no error pointer: fine
}

TEST(CudaArch, Prints) {
  auto a = A("8.6");
  EXPECT_EQ(a.str(), "8.6");
  EXPECT_EQ(a.number(), "86");
  EXPECT_EQ(a.sm(), "sm_86");
  EXPECT_EQ(a.compute(), "compute_86");
  EXPECT_EQ(a.capability(), "8.6");

  auto h = A("sm_90a");
  EXPECT_EQ(h.str(), "9.0a");
  EXPECT_EQ(h.number(), "90a");
  EXPECT_EQ(h.sm(), "sm_90a");
  EXPECT_EQ(h.compute(), "compute_90a");
  EXPECT_EQ(h.capability(), "9.0");

  auto b = A("100f");
  EXPECT_EQ(b.str(), "10.0f");
  EXPECT_EQ(b.number(), "100f");
  EXPECT_EQ(b.sm(), "sm_100f");
  EXPECT_EQ(b.capability(), "10.0");

  EXPECT_EQ(A("compute_86").str(), "8.6+PTX");
  EXPECT_EQ(A("8.6+ptx").str(), "8.6+PTX");
  EXPECT_EQ(A("8.6+PTX").sm(), "sm_86");  // PTX is not part of the target's name
  EXPECT_EQ(A("120").str(), "12.0");
}

TEST(CudaArch, RoundTrips) {
  for (const char* s : {"8.6", "9.0a", "10.0f", "8.6+PTX", "9.0a+PTX", "12.0", "3.7"}) {
    EXPECT_EQ(A(s).str(), s);
    EXPECT_EQ(A(A(s).str().c_str()), A(s));
    EXPECT_EQ(A(A(s).number().c_str()), A(s).sass_only());
    EXPECT_EQ(A(A(s).sm().c_str()), A(s).sass_only());
    nlohmann::json j = A(s);
    EXPECT_EQ(j, s);
    EXPECT_EQ(j.get<CudaArch>(), A(s));
  }
  EXPECT_THROW(nlohmann::json("8").get<CudaArch>(), std::invalid_argument);
}

TEST(CudaArch, OrdersByCapabilityThenSuffix) {
  EXPECT_LT(A("7.5"), A("8.0"));
  EXPECT_LT(A("8.9"), A("9.0"));
  EXPECT_LT(A("9.0"), A("10.0"));  // numeric, not text order
  EXPECT_LT(A("9.0"), A("9.0a"));
  EXPECT_LT(A("10.0a"), A("10.0f"));
  EXPECT_LT(A("8.6"), A("8.6+PTX"));
  EXPECT_EQ(A("86"), A("sm_86"));
  EXPECT_NE(A("86"), A("compute_86"));
  EXPECT_TRUE(A("8.6+PTX").same_capability(A("sm_86")));
  EXPECT_FALSE(A("8.6").same_capability(A("8.9")));
  EXPECT_EQ(CudaArch::of(9, 0, 'a', true).str(), "9.0a+PTX");
}

TEST(CudaArch, RunsOn) {
  // SASS: same major, equal or newer minor.
  EXPECT_TRUE(A("8.0").runs_on(A("8.6")));
  EXPECT_TRUE(A("8.6").runs_on(A("8.6")));
  EXPECT_FALSE(A("8.6").runs_on(A("8.0")));
  EXPECT_FALSE(A("8.6").runs_on(A("9.0")));  // no PTX: "no kernel image is available"
  // PTX: JIT for anything at least as new.
  EXPECT_TRUE(A("8.6+PTX").runs_on(A("9.0")));
  EXPECT_TRUE(A("8.6+PTX").runs_on(A("12.0")));
  EXPECT_FALSE(A("8.6+PTX").runs_on(A("7.5")));
  // 'a' targets run on exactly their capability; 'f' on their family.
  EXPECT_TRUE(A("9.0a").runs_on(A("9.0")));
  EXPECT_FALSE(A("10.0a").runs_on(A("10.3")));
  EXPECT_FALSE(A("9.0a+PTX").runs_on(A("10.0")));
  EXPECT_TRUE(A("10.0f").runs_on(A("10.3")));
  EXPECT_FALSE(A("10.0f").runs_on(A("12.0")));
  EXPECT_FALSE(A("10.0f+PTX").runs_on(A("12.0")));
  // A 7.5 GTX 1660 Ti and a torch built for 8.0+ only.
  EXPECT_FALSE(A("8.0").runs_on(A("7.5")));
}

}  // namespace
}  // namespace ts

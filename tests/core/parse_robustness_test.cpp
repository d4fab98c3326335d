// Random text through every parser: never a crash or a throw, and whatever parses prints back to
// text that parses to the same value.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/arch_list.h"
#include "core/version_range.h"

namespace ts {
namespace {

std::string random_text(std::mt19937& rng) {
  static const std::string alphabet = "0123456789012345....+-_!*=<>~,; \tabcdefilmnoprstvxyPTX";
  std::uniform_int_distribution<std::size_t> len(0, 14), pick(0, alphabet.size() - 1);
  std::string s;
  for (std::size_t n = len(rng); n > 0; --n) s += alphabet[pick(rng)];
  return s;
}

TEST(ParseRobustness, RandomTextNeverCrashesAndRoundTrips) {
  std::mt19937 rng(20261126);
  int parsed = 0, ranges = 0, arches = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string s = random_text(rng), err;
    if (auto v = Version::parse(s, &err)) {
      ++parsed;
      auto again = Version::parse(v->str());
      ASSERT_TRUE(again) << s;
      EXPECT_EQ(*again, *v) << s;
      EXPECT_EQ(again->str(), v->str()) << s;
    } else {
      EXPECT_FALSE(err.empty()) << s;
    }
    if (auto r = VersionRange::parse(s, &err)) {
      ++ranges;
      auto again = VersionRange::parse(r->str());
      ASSERT_TRUE(again) << s << " -> " << r->str();
      EXPECT_EQ(again->str(), r->str()) << s;
      (void)r->describe();
    }
    if (auto c = Constraint::parse(s, &err)) {
      auto again = Constraint::parse(c->str());
      ASSERT_TRUE(again) << s << " -> " << c->str();
      EXPECT_EQ(again->str(), c->str()) << s;
    }
    if (auto a = CudaArch::parse(s, &err)) {
      EXPECT_EQ(CudaArch::parse(a->str()), a) << s;
    }
    if (auto l = ArchList::parse(s, nullptr, &err)) {
      ++arches;
      EXPECT_EQ(ArchList::parse(l->torch_cuda_arch_list()), l) << s;
    } else {
      EXPECT_FALSE(err.empty()) << s;
    }
  }
  // The generator does reach valid input, so the round trips above were exercised.
  EXPECT_GT(parsed, 100);
  EXPECT_GT(ranges, 100);
  EXPECT_GT(arches, 100);
}

}  // namespace
}  // namespace ts

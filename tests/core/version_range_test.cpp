#include "core/version_range.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace ts {
namespace {

Version V(const char* s) { return Version::parse(s).value(); }

VersionRange R(const char* s) {
  std::string err;
  auto r = VersionRange::parse(s, &err);
  EXPECT_TRUE(r.has_value()) << s << ": " << err;
  return r.value_or(VersionRange{});
}

TEST(VersionRange, SpecifierSet) {
  auto r = R(">=3.8,<3.13");
  EXPECT_EQ(r.str(), ">=3.8,<3.13");
  EXPECT_FALSE(r.contains(V("3.7.17")));
  EXPECT_TRUE(r.contains(V("3.8")));
  EXPECT_TRUE(r.contains(V("3.8.0")));
  EXPECT_TRUE(r.contains(V("3.12.9")));
  EXPECT_FALSE(r.contains(V("3.13")));
  EXPECT_FALSE(r.contains(V("3.13.0rc1")));  // a pre-release of the excluded bound is not "below" it
  EXPECT_TRUE(r.contains(V("3.12.0rc1")));
  EXPECT_FALSE(r.contains(V("3.8.0rc1")));   // below 3.8
  EXPECT_EQ(r.min_inclusive(), V("3.8"));
  EXPECT_EQ(r.max_exclusive(), V("3.13"));
  EXPECT_FALSE(r.max_inclusive());
}

TEST(VersionRange, WhitespaceTolerated) {
  EXPECT_EQ(R("  >= 3.8 ,  < 3.13 ").str(), ">=3.8,<3.13");
  EXPECT_EQ(R("\t==12.8\n").str(), "==12.8");
}

// original() quotes the text as written (trimmed) for a file's messages; a range made otherwise spells str().
TEST(VersionRange, OriginalIsTheTextAsWritten) {
  EXPECT_EQ(R(" 2.1-2.3 ").original(), "2.1-2.3");
  EXPECT_EQ(R(" 2.1-2.3 ").str(), ">=2.1,<2.4");
  EXPECT_EQ(VersionRange::at_least(V("2.0")).original(), ">=2.0");
  EXPECT_EQ(R(">=2.0").intersect(R("<2.4")).original(), ">=2.0,<2.4");  // not the first range's text
  EXPECT_EQ(R(">=2.0"), R(">= 2.0"));  // equality is by meaning, whatever the spelling
}

TEST(VersionRange, Equality) {
  auto r = R("==12.8");
  EXPECT_TRUE(r.contains(V("12.8")));
  EXPECT_TRUE(r.contains(V("12.8.0")));  // zero padding
  EXPECT_FALSE(r.contains(V("12.8.1")));
  auto torch = R("==2.4.0");
  EXPECT_TRUE(torch.contains(V("2.4.0+cu121")));  // a local build is that version
  auto local = R("==2.4.0+cu121");
  EXPECT_TRUE(local.contains(V("2.4.0+cu121")));
  EXPECT_FALSE(local.contains(V("2.4.0+cu118")));
  EXPECT_FALSE(local.contains(V("2.4.0")));
  EXPECT_EQ(torch.min_inclusive(), V("2.4.0"));
  EXPECT_EQ(torch.max_inclusive(), V("2.4.0"));
}

TEST(VersionRange, Wildcards) {
  auto r = R("==2.4.*");
  EXPECT_TRUE(r.contains(V("2.4")));
  EXPECT_TRUE(r.contains(V("2.4.1")));
  EXPECT_TRUE(r.contains(V("2.4.0a0+git1234abc")));
  EXPECT_TRUE(r.contains(V("2.4.1.post1")));
  EXPECT_FALSE(r.contains(V("2.5.0")));
  EXPECT_FALSE(r.contains(V("2.40")));
  EXPECT_FALSE(r.contains(V("1!2.4")));  // other epoch
  EXPECT_EQ(r.min_inclusive(), V("2.4"));
  EXPECT_EQ(r.max_exclusive(), V("2.5"));
  auto not_r = R("!=2.4.*");
  EXPECT_FALSE(not_r.contains(V("2.4.3")));
  EXPECT_TRUE(not_r.contains(V("2.5")));
}

TEST(VersionRange, CompatibleRelease) {
  auto r = R("~=1.23");  // >=1.23, ==1.*
  EXPECT_TRUE(r.contains(V("1.23")));
  EXPECT_TRUE(r.contains(V("1.26.4")));
  EXPECT_FALSE(r.contains(V("1.22.9")));
  EXPECT_FALSE(r.contains(V("2.0")));
  EXPECT_EQ(r.max_exclusive(), V("2"));
  auto r3 = R("~=1.23.5");  // >=1.23.5, ==1.23.*
  EXPECT_TRUE(r3.contains(V("1.23.9")));
  EXPECT_FALSE(r3.contains(V("1.24.0")));
  EXPECT_FALSE(r3.contains(V("1.23.4")));
  EXPECT_EQ(r3.min_inclusive(), V("1.23.5"));
  EXPECT_EQ(r3.max_exclusive(), V("1.24"));
}

TEST(VersionRange, OrderedComparisons) {
  EXPECT_TRUE(R("!=1.0").contains(V("1.1")));
  EXPECT_FALSE(R("!=1.0").contains(V("1.0.0")));
  EXPECT_TRUE(R("<=11").contains(V("11.0")));
  EXPECT_FALSE(R("<=11").contains(V("11.0.1")));
  EXPECT_TRUE(R("<=11").contains(V("11.0+local")));  // locals are ignored in ordered comparisons
  EXPECT_EQ(R("<=11").max_inclusive(), V("11"));
  EXPECT_TRUE(R(">11.8").contains(V("12.0")));
  EXPECT_TRUE(R(">11.8").contains(V("11.8.1")));
  EXPECT_FALSE(R(">11.8").contains(V("11.8")));
  EXPECT_FALSE(R(">11.8").contains(V("11.8.post1")));  // same release, not newer
  EXPECT_FALSE(R(">11.8").contains(V("11.8+x")));
  EXPECT_TRUE(R(">11.8.post1").contains(V("11.8.post2")));
  EXPECT_TRUE(R(">=11.8").contains(V("11.8+x")));
  EXPECT_FALSE(R("<2.0").contains(V("2.0.dev1")));
  EXPECT_TRUE(R("<2.0rc1").contains(V("2.0b1")));  // the bound names a pre-release: others below it count
}

TEST(VersionRange, ArbitraryEquality) {
  auto r = R("===foobar");
  EXPECT_EQ(r.str(), "===foobar");
  EXPECT_TRUE(R("===1.0").contains(V("1.0")));
  EXPECT_FALSE(R("===1.0").contains(V("1.0.0")));  // text, not value
  EXPECT_EQ(r.describe(), "exactly 'foobar'");
}

TEST(VersionRange, TableShorthand) {
  auto r = R("3.8-3.12");
  EXPECT_EQ(r.str(), ">=3.8,<3.13");
  EXPECT_TRUE(r.contains(V("3.12.7")));
  EXPECT_FALSE(r.contains(V("3.13.0")));
  EXPECT_EQ(r.describe(), "3.8 to 3.12");
  EXPECT_EQ(R("3.8 - 3.12").str(), ">=3.8,<3.13");
  EXPECT_EQ(R("11-12").str(), ">=11,<13");
  EXPECT_EQ(R("9-9").str(), ">=9,<10");

  auto plus = R("3.10+");
  EXPECT_EQ(plus.str(), ">=3.10");
  EXPECT_TRUE(plus.contains(V("3.10")));
  EXPECT_FALSE(plus.contains(V("3.9.18")));
  EXPECT_EQ(plus.describe(), "at least 3.10");

  for (const char* any : {"*", "", "   "}) {
    auto a = R(any);
    EXPECT_TRUE(a.is_any()) << "'" << any << "'";
    EXPECT_TRUE(a.contains(V("0.0.1")));
    EXPECT_TRUE(a.contains(V("99!1.0")));
    EXPECT_EQ(a.str(), "");
    EXPECT_EQ(a.describe(), "any version");
    EXPECT_FALSE(a.min_inclusive());
    EXPECT_FALSE(a.max_exclusive());
  }

  auto bare = R("12.8");  // one table cell: the 12.8 line
  EXPECT_EQ(bare.str(), "==12.8.*");
  EXPECT_TRUE(bare.contains(V("12.8.93")));
  EXPECT_FALSE(bare.contains(V("12.9")));
  EXPECT_EQ(R("2.0.0rc1").str(), "==2.0.0rc1");

  EXPECT_EQ(R("3.8-3.12, !=3.10.0").str(), ">=3.8,<3.13,!=3.10.0");  // shorthand mixes with specifiers
}

TEST(VersionRange, PrereleasePolicy) {
  auto r = R(">=2.0");
  EXPECT_TRUE(r.contains(V("2.5.0.dev20240801")));
  EXPECT_FALSE(r.contains(V("2.5.0.dev20240801"), false));
  EXPECT_FALSE(r.contains(V("2.4.0a0+git1234abc"), false));
  EXPECT_TRUE(r.contains(V("2.4.0"), false));
  EXPECT_TRUE(R(">=2.4.0a0").contains(V("2.4.0a0+git1234abc"), false));  // asked for explicitly
}

TEST(VersionRange, Describe) {
  EXPECT_EQ(R(">=3.8,<3.13").describe(), "3.8 to 3.12");
  EXPECT_EQ(R(">=3.13").describe(), "at least 3.13");
  EXPECT_EQ(R("<=11").describe(), "at most 11");
  EXPECT_EQ(R("<3.13").describe(), "older than 3.13");
  EXPECT_EQ(R(">11.8").describe(), "newer than 11.8");
  EXPECT_EQ(R("==12.8").describe(), "exactly 12.8");
  EXPECT_EQ(R("==2.4.*").describe(), "2.4.x");
  EXPECT_EQ(R("!=1.0").describe(), "not 1.0");
  EXPECT_EQ(R("~=1.23").describe(), "1.23 or a newer 1.x");
  EXPECT_EQ(R(">=1.8,<2").describe(), "1.8 to 1.x");
  EXPECT_EQ(R(">=1.8,<2.0").describe(), "1.8 to 1.x");  // trailing zeros don't change the bound
  EXPECT_EQ(R(">=12.8,<13").describe(), "12.8 to 12.x");
  EXPECT_EQ(R(">=1,<2").describe(), "1.x");
  EXPECT_EQ(R(">=3.12,<3.13").describe(), "3.12.x");
  EXPECT_EQ(R(">=1.8,<2.0rc1").describe(), "1.8 to before 2.0rc1");
  EXPECT_EQ(R(">=0.1,<0").describe(), "0.1 to before 0");
  EXPECT_EQ(R(">=2.0,<2.7,!=2.3.0").describe(), "2.0 to 2.6, not 2.3.0");
}

TEST(VersionRange, RejectsMalformedWithReason) {
  for (const char* bad : {">=3.x", ">=", "=>3.8", ">=3.8,", ",>=3.8", ">=3.8,,<4", "~=1", "<2.*", "==2.4.*.1",
                          "==1.0a1.*", "3.12-3.8", "abc", "3.8-", "+", "== 1 2", "===a b", "~=1.0+local",
                          ">=3.8;<3.13"}) {
    std::string err;
    EXPECT_FALSE(VersionRange::parse(bad, &err)) << bad;
    EXPECT_NE(err.find("is not a version"), std::string::npos) << bad << " -> " << err;
  }
  std::string err;
  VersionRange::parse(">=3.x", &err);
  EXPECT_NE(err.find("'>=3.x'"), std::string::npos) << err;
  EXPECT_NE(err.find("'3.x' is not a version"), std::string::npos) << err;
  VersionRange::parse("3.12-3.8", &err);
  EXPECT_NE(err.find("below"), std::string::npos) << err;
}

TEST(VersionRange, RoundTrips) {
  for (const char* s : {">=3.8,<3.13", "==2.4.*", "~=1.23", "!=1.0", "<=11", ">11.8", "==12.8", "===x",
                        ">=2.0,<2.7,!=2.3.0", "==2.4.0+cu121"}) {
    auto r = R(s);
    EXPECT_EQ(r.str(), s);
    EXPECT_EQ(R(r.str().c_str()), r);
    nlohmann::json j = r;
    EXPECT_EQ(j.get<VersionRange>(), r);
  }
  EXPECT_THROW(nlohmann::json(">=x").get<VersionRange>(), std::invalid_argument);
}

TEST(VersionRange, BoundsPickTheTightest) {
  auto r = R(">=3.8,>=3.9,<3.13,<3.12,~=3.10");
  EXPECT_EQ(r.min_inclusive(), V("3.10"));
  EXPECT_EQ(r.max_exclusive(), V("3.12"));
  EXPECT_TRUE(r.contains(V("3.11.2")));
  EXPECT_FALSE(r.contains(V("3.9")));
}

TEST(VersionRange, Intersect) {
  auto r = R(">=3.8").intersect(R("<3.13"));
  EXPECT_EQ(r.str(), ">=3.8,<3.13");
  EXPECT_EQ(r.intersect(R(">=3.8")).str(), ">=3.8,<3.13");  // no duplicates
  EXPECT_EQ(VersionRange::at_least(V("3.10")).str(), ">=3.10");
  EXPECT_EQ(VersionRange::exactly(V("1.23.5")).str(), "==1.23.5");
  EXPECT_TRUE(VersionRange::any().is_any());
}

TEST(NextRelease, BumpsTheLastGivenComponent) {
  EXPECT_EQ(next_release(V("3.12")).str(), "3.13");
  EXPECT_EQ(next_release(V("11")).str(), "12");
  EXPECT_EQ(next_release(V("12.8.1rc1+x")).str(), "12.8.2");
  EXPECT_EQ(next_release(V("1!2.0")).str(), "1!2.1");
}

TEST(Constraint, Parses) {
  std::string err;
  auto c = Constraint::parse("torch>=2.0,<2.7", &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->name, "torch");
  EXPECT_EQ(c->range.str(), ">=2.0,<2.7");
  EXPECT_EQ(c->str(), "torch>=2.0,<2.7");
  EXPECT_TRUE(c->contains(V("2.6.0+cu124")));
  EXPECT_FALSE(c->contains(V("2.7.0")));

  auto n = Constraint::parse("numpy==1.23.5");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->name, "numpy");
  EXPECT_TRUE(n->contains(V("1.23.5")));
  EXPECT_FALSE(n->contains(V("1.23.4")));

  auto any = Constraint::parse("cmake");
  ASSERT_TRUE(any);
  EXPECT_EQ(any->name, "cmake");
  EXPECT_TRUE(any->range.is_any());
  EXPECT_EQ(any->str(), "cmake");

  auto spaced = Constraint::parse("  typing_extensions >= 4.8 ");
  ASSERT_TRUE(spaced);
  EXPECT_EQ(spaced->name, "typing_extensions");
  EXPECT_EQ(spaced->str(), "typing_extensions>=4.8");
  EXPECT_EQ(spaced->normalized_name(), "typing-extensions");

  auto table = Constraint::parse("cmake 3.18+");
  ASSERT_TRUE(table);
  EXPECT_EQ(table->str(), "cmake>=3.18");
  auto python = Constraint::parse("python 3.8-3.12");
  ASSERT_TRUE(python);
  EXPECT_EQ(python->str(), "python>=3.8,<3.13");

  EXPECT_EQ(Constraint::parse("Zope.Interface__x")->normalized_name(), "zope-interface-x");
  EXPECT_EQ(Constraint::parse("nvidia-cudnn-cu12==9.1.0.70")->name, "nvidia-cudnn-cu12");
}

TEST(Constraint, RejectsMalformedWithReason) {
  for (const char* bad : {"", ">=2.0", "torch>=x", "-torch", "torch-", "torch(>=2)", "torch@1.0", "torch >=2.0,",
                          "to rch"}) {
    std::string err;
    EXPECT_FALSE(Constraint::parse(bad, &err)) << bad;
    EXPECT_NE(err.find("is not a constraint"), std::string::npos) << bad << " -> " << err;
  }
  std::string err;
  Constraint::parse("torch>=x", &err);
  EXPECT_NE(err.find("'x' is not a version"), std::string::npos) << err;
}

TEST(Constraint, JsonRoundTrip) {
  auto c = Constraint::parse("torch>=2.0,<2.7").value();
  nlohmann::json j = c;
  EXPECT_EQ(j, "torch>=2.0,<2.7");
  auto back = j.get<Constraint>();
  EXPECT_EQ(back.name, "torch");
  EXPECT_EQ(back.range, c.range);
}

}  // namespace
}  // namespace ts

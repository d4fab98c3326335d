#include "build/ninja_status.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "util/process.h"

using namespace ts::build;
namespace fs = std::filesystem;

TEST(NinjaStatus, ParsesTheFormatWeSet) {
  auto p = parse_ninja_status("[ts 12/40 3.5/s 3.429s] Building CXX object x.o");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->done, 12);
  EXPECT_EQ(p->total, 40);
  EXPECT_DOUBLE_EQ(p->rate, 3.5);
  EXPECT_DOUBLE_EQ(p->elapsed, 3.429);
  EXPECT_DOUBLE_EQ(p->fraction(), 0.3);
  ASSERT_TRUE(p->eta());
  EXPECT_DOUBLE_EQ(*p->eta(), 28 / 3.5);
}

TEST(NinjaStatus, UnknownRateAndTerminalCodes) {
  auto p = parse_ninja_status("\x1b[K\r[ts 0/5 ?/s 0.010s] Linking");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->done, 0);
  EXPECT_FALSE(p->eta());  // nothing finished: no basis for an ETA
  auto q = parse_ninja_status("[ts 3/5 ?/s 2.000s] x");
  ASSERT_TRUE(q && q->eta());
  EXPECT_DOUBLE_EQ(*q->eta(), 2 / 1.5);  // rate from done/elapsed
}

TEST(NinjaStatus, RejectsOtherLines) {
  EXPECT_FALSE(parse_ninja_status("[3/5] Building CXX object x.o"));  // ninja's default format
  EXPECT_FALSE(parse_ninja_status("[ts 6/5 1/s 1s] more done than total"));
  EXPECT_FALSE(parse_ninja_status("error: [ts 1/2 1/s 1.0s] "));
  EXPECT_FALSE(parse_ninja_status(""));
}

// Real ninja output: a generated build.ninja of a few edges, run with NINJA_STATUS set.
TEST(NinjaStatus, ParsesRealNinjaOutput) {
  fs::path dir = fs::temp_directory_path() / ("ts_ninja_status_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "build.ninja") << "rule touch\n  command = sleep 0.05 && touch $out\n"
                                        "build a: touch\nbuild b: touch\nbuild c: touch\nbuild d: touch a b c\n";
  ts::util::RunOptions o;
  o.cwd = dir.string();
  o.extra_env["NINJA_STATUS"] = std::string(kNinjaStatus);
  o.timeout = std::chrono::seconds(30);
  auto r = ts::util::run({"ninja", "-j1"}, o);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  std::vector<NinjaProgress> seen;
  std::size_t b = 0;
  for (auto e = r.out.find('\n'); e != std::string::npos; b = e + 1, e = r.out.find('\n', b))
    if (auto p = parse_ninja_status(std::string_view(r.out).substr(b, e - b))) seen.push_back(*p);
  ASSERT_EQ(seen.size(), 4u) << r.out;
  EXPECT_EQ(seen.back().done, 4);
  EXPECT_EQ(seen.back().total, 4);
  EXPECT_GT(seen.back().elapsed, 0.1);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i].done, seen[i - 1].done);
  fs::remove_all(dir);
}

TEST(NinjaStatus, IndentedByPipVerbose) {
  // pip wheel -v passes the build's output through, two spaces in.
  auto p = parse_ninja_status("  [ts 4/17 0.50/s 8.000s] sources of finished extensions");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->done, 4);
  EXPECT_EQ(p->total, 17);
  EXPECT_FALSE(parse_ninja_status("  [ext 1/2] c++ -c x.cpp"));
}

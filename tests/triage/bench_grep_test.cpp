// The bench's grep baseline (bench/triage_grep.h) must read every signature pattern: a pattern it
// cannot translate stops bench_triage, so the throughput check would silently stop being run.
#include <fstream>

#include "../../bench/triage_grep.h"
#include "test_util.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::triage::testing {
namespace {

TEST(BenchGrep, BracketEscapesBecomePosixMembers) {
  EXPECT_EQ(bench::re2_to_ere(R"([^\s:/-][\w.]+\d)"), "[^[:space:]:/-][[:alnum:]_.]+[0-9]");
  EXPECT_EQ(bench::re2_to_ere(R"([\]\\x\-])"), "[]\\x-]");
  EXPECT_EQ(bench::re2_to_ere(R"((?:a|b)\s[]x])"), "(a|b)\\s[]x]");
  EXPECT_THROW(bench::re2_to_ere(R"([\S])"), std::runtime_error);
  EXPECT_THROW(bench::re2_to_ere("[abc"), std::runtime_error);
}

TEST(BenchGrep, EverySignaturePatternIsOneGrepAccepts) {
  testkit::TempDir dir;
  std::filesystem::path file = std::filesystem::path(dir.path()) / "patterns.txt";
  std::size_t n = 0;
  {
    std::ofstream out(file);
    for (const auto& s : engine().set().signatures)
      for (const auto& re : s.patterns) {
        std::string ere;
        ASSERT_NO_THROW(ere = bench::re2_to_ere(re)) << s.id << ": " << re;
        out << ere << "\n";
        ++n;
      }
  }
  ASSERT_GT(n, 100u);
  // grep exits 1 when nothing matched (an empty input) and 2 when a pattern does not compile.
  auto r = util::run(std::vector<std::string>{"grep", "-E", "-f", file.string(), "--", "/dev/null"});
  if (r.not_found) GTEST_SKIP() << "no grep on PATH";
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

}  // namespace
}  // namespace ts::triage::testing

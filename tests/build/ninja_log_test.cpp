#include "build/ninja_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "util/fs.h"

using namespace ts::build;

namespace {

std::string fixture(const std::string& name) {
  return std::string(TS_SOURCE_DIR) + "/tests/fixtures/ninja_logs/" + name;
}

const NinjaLogEntry* find(const NinjaLog& log, const std::string& output) {
  for (const auto& e : log.entries)
    if (e.output == output) return &e;
  return nullptr;
}

}  // namespace

// A real log (ninja 1.11.1): a -j3 build, then an incremental rerun of mid1.o and lib.so.
TEST(NinjaLog, RealTwoRunLogKeepsLatestRecordPerOutput) {
  NinjaLog log = read_ninja_log(fixture("two_runs.v5.ninja_log"));
  ASSERT_TRUE(log.ok()) << log.error;
  EXPECT_EQ(log.version, 5);
  EXPECT_EQ(log.runs, 2);
  EXPECT_EQ(log.lines, 11u);
  EXPECT_EQ(log.skipped, 0u);
  ASSERT_EQ(log.entries.size(), 9u);  // 9 outputs, two of them rebuilt
  const NinjaLogEntry* mid1 = find(log, "mid1.o");
  ASSERT_NE(mid1, nullptr);
  EXPECT_EQ(mid1->run, 1);
  EXPECT_EQ(mid1->start_ms, 0);
  EXPECT_EQ(mid1->end_ms, 204);
  const NinjaLogEntry* slow = find(log, "slow1.o");
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ(slow->run, 0);
  EXPECT_EQ(slow->duration_ms(), 603);
  EXPECT_EQ(slow->hash, "8a1da1f9e65377d5");
  auto d = log.durations();
  EXPECT_DOUBLE_EQ(d.at("lib.so"), 0.403);  // the rerun's record, not the first build's
}

TEST(NinjaLog, JobsGroupTheOutputsOfOneEdge) {
  NinjaLog log = read_ninja_log(fixture("two_runs.v5.ninja_log"));
  auto all = log.jobs(false);
  EXPECT_EQ(all.size(), 8u);  // gen.h and gen.cpp are one command
  bool pair = false;
  for (const auto& j : all)
    if (j.name() == "gen.h") {
      pair = true;
      EXPECT_EQ(j.outputs, (std::vector<std::string>{"gen.h", "gen.cpp"}));
      EXPECT_EQ(j.duration_ms(), 104);
    }
  EXPECT_TRUE(pair);
  auto last = log.jobs(true);
  ASSERT_EQ(last.size(), 2u);
  EXPECT_EQ(last[0].name(), "mid1.o");
  EXPECT_EQ(last[1].name(), "lib.so");
}

TEST(NinjaLog, V6AndV7ShareTheLineLayout) {
  std::string text = *ts::util::read_file(fixture("two_runs.v5.ninja_log"));
  for (std::string v : {"6", "7"}) {
    std::string t = "# ninja log v" + v + text.substr(text.find('\n'));
    NinjaLog log = parse_ninja_log(t);
    ASSERT_TRUE(log.ok()) << log.error;
    EXPECT_EQ(log.version, std::stoi(v));
    EXPECT_EQ(log.entries.size(), 9u);
  }
}

// Every prefix of a real log parses without a crash; a cut line is skipped and counted.
TEST(NinjaLog, TruncatedAtEveryByteNeverCrashes) {
  std::string text = *ts::util::read_file(fixture("two_runs.v5.ninja_log"));
  for (std::size_t n = 0; n <= text.size(); ++n) {
    NinjaLog log = parse_ninja_log(std::string_view(text).substr(0, n));
    bool cut = n > 0 && text[n - 1] != '\n';
    if (cut) {
      EXPECT_EQ(log.skipped, 1u) << "prefix " << n;
    }
    for (const auto& e : log.entries) EXPECT_GE(e.end_ms, e.start_ms);
  }
  std::size_t cut_at = text.find("slow1.o") + 3;
  NinjaLog log = parse_ninja_log(std::string_view(text).substr(0, cut_at));
  EXPECT_EQ(find(log, "slo"), nullptr);
  EXPECT_NE(find(log, "gen.cpp"), nullptr);
}

TEST(NinjaLog, GarbageLinesAreSkippedAndCounted) {
  std::string text =
      "# ninja log v5\n"
      "0\t100\t1\ta.o\tabc123\n"
      "this is not a record\n"
      "5\t3\t1\tbackwards.o\tabc\n"         // ends before it starts
      "x\t10\t1\tnan.o\tabc\n"              // not a number
      "0\t10\t1\t\tabc\n"                   // no output
      "0\t10\t1\tnohash.o\t\n"              // no hash
      "0\t10\t1\tsix.o\tabc\textra\n"       // a sixth field
      "0\t10\t1\tbadhash.o\txyz\n"          // not hex
      "99999999999999999999\t1\t1\tbig.o\tab\n"  // overflows
      "\x01\x02\xff\n"
      "100\t250\t1\tb.o\tdef456\n";
  NinjaLog log = parse_ninja_log(text);
  ASSERT_TRUE(log.ok()) << log.error;
  EXPECT_EQ(log.skipped, 9u);
  ASSERT_EQ(log.entries.size(), 2u);
  EXPECT_EQ(log.entries[1].output, "b.o");
  EXPECT_EQ(log.runs, 1);
}

TEST(NinjaLog, NotANinjaLogIsAnErrorNotACrash) {
  NinjaLog a = parse_ninja_log("hello\nworld\n");
  EXPECT_FALSE(a.ok());
  EXPECT_NE(a.error.find("not a .ninja_log"), std::string::npos);
  NinjaLog b = parse_ninja_log("");
  EXPECT_FALSE(b.ok());
  NinjaLog c = parse_ninja_log("# ninja log v3\n0 10 1 a.o abc\n");
  EXPECT_FALSE(c.ok());
  EXPECT_NE(c.error.find("too old"), std::string::npos);
  NinjaLog d = read_ninja_log("/nonexistent/.ninja_log");
  EXPECT_FALSE(d.ok());
  EXPECT_NE(d.error.find("/nonexistent/.ninja_log"), std::string::npos);
  EXPECT_TRUE(d.entries.empty());
}

TEST(NinjaLog, CrLfAndEmptyLinesAreTolerated) {
  NinjaLog log = parse_ninja_log("# ninja log v5\r\n\r\n0\t10\t1\ta.o\tab\r\n");
  ASSERT_TRUE(log.ok()) << log.error;
  EXPECT_EQ(log.version, 5);
  ASSERT_EQ(log.entries.size(), 1u);
  EXPECT_EQ(log.entries[0].output, "a.o");
  EXPECT_EQ(log.skipped, 0u);
}

TEST(NinjaLogTail, ReadsOnlyCompleteNewLines) {
  auto dir = std::filesystem::temp_directory_path() / ("ts_tail_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / ".ninja_log").string();
  { std::ofstream(path) << "# ninja log v5\n0\t10\t1\told.o\tab\n"; }
  NinjaLogTail tail = NinjaLogTail::at_end(path);
  EXPECT_TRUE(tail.poll().empty());
  { std::ofstream(path, std::ios::app) << "0\t20\t1\tnew.o\tcd\n5\t30\t1\thal"; }
  auto got = tail.poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].output, "new.o");
  { std::ofstream(path, std::ios::app) << "f.o\tef\n"; }
  got = tail.poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].output, "half.o");
  // Recompaction rewrites a shorter file: the tail starts over.
  { std::ofstream(path) << "# ninja log v5\n0\t20\t1\tnew.o\tcd\n"; }
  got = tail.poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].output, "new.o");
  std::filesystem::remove_all(dir);
}

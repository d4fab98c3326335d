// Two extensions' ninja logs (each in its own build_temp, as the side-by-side helper leaves them)
// become one log: each run placed by its outputs' mtimes, names prefixed with their directory, and
// the text parses back.
#include "build/ninja_log_merge.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"

namespace ts::build {
namespace {

namespace fs = std::filesystem;

struct Tree {
  ::ts::testkit::TempDir tmp{"ts-ninjamerge"};
  fs::path root = tmp.path();
  // A ninja log in DIR and its outputs, each output's mtime set to epoch_ms.
  void log(const std::string& dir, const std::string& text, std::map<std::string, std::int64_t> outputs) {
    fs::create_directories(root / dir);
    std::ofstream(root / dir / ".ninja_log") << text;
    for (const auto& [name, ms] : outputs) {
      std::ofstream(root / dir / name) << "o";
      struct timespec t[2] = {{ms / 1000, (ms % 1000) * 1000000}, {ms / 1000, (ms % 1000) * 1000000}};
      ASSERT_EQ(::utimensat(AT_FDCWD, (root / dir / name).c_str(), t, 0), 0);
    }
  }
};

const std::int64_t kT0 = 1'700'000'000'000;  // ms since the epoch

TEST(NinjaLogMerge, EachRunIsPlacedWhenItsOutputsWereWritten) {
  Tree t;
  // Extension a's ninja started at kT0, b's 5 s later; b's log also holds an older run.
  t.log("temp/ts-a", "# ninja log v5\n0\t1000\t0\tx.o\tab\n0\t9000\t0\ty.o\tcd\n",
        {{"x.o", kT0 + 1000}, {"y.o", kT0 + 9000}});
  // b names its output by absolute path, as cpp_extension's build.ninja does.
  std::string z = (t.root / "temp/ts-b/z.o").string();
  t.log("temp/ts-b", "# ninja log v5\n0\t50000\t0\t" + z + "\t11\n0\t2000\t0\t" + z + "\tef\n",
        {{"z.o", kT0 + 5000 + 2000}});
  auto logs = find_ninja_logs(t.root.string());
  ASSERT_EQ(logs.size(), 2u);
  auto m = merge_ninja_logs(t.root.string(), logs);
  EXPECT_TRUE(m.notes.empty());
  ASSERT_EQ(m.log.entries.size(), 3u);  // b's older run is left out
  using Span = std::pair<std::int64_t, std::int64_t>;
  std::map<std::string, Span> got;
  for (const auto& e : m.log.entries) got[e.output] = {e.start_ms, e.end_ms};
  EXPECT_EQ(got["temp/ts-a/x.o"], Span(0, 1000));
  EXPECT_EQ(got["temp/ts-a/y.o"], Span(0, 9000));
  EXPECT_EQ(got["temp/ts-b/z.o"], Span(5000, 7000));
  // The text is a ninja log again: one run, the same jobs.
  auto back = parse_ninja_log(ninja_log_text(m.log));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.runs, 1);
  EXPECT_EQ(back.skipped, 0u);
  EXPECT_EQ(back.jobs(true).size(), 3u);
  EXPECT_DOUBLE_EQ(back.durations()["temp/ts-b/z.o"], 2.0);
}

TEST(NinjaLogMerge, ALogWithoutItsOutputsOrUnreadableIsNamedNotFatal) {
  Tree t;
  t.log("a", "# ninja log v5\n0\t1000\t0\tgone.o\tab\n", {});
  t.log("b", "# ninja log v5\n100\t400\t0\tk.o\tab\n", {{"k.o", kT0 + 400}});
  auto m = merge_ninja_logs(t.root.string(), {(t.root / "a/.ninja_log").string(), (t.root / "b/.ninja_log").string(),
                                              (t.root / "c/.ninja_log").string()});
  ASSERT_EQ(m.notes.size(), 2u);
  EXPECT_NE(m.notes[0].find("none of its outputs is on disk"), std::string::npos) << m.notes[0];
  EXPECT_NE(m.notes[1].find("c/.ninja_log"), std::string::npos) << m.notes[1];
  ASSERT_EQ(m.log.entries.size(), 2u);
  EXPECT_EQ(m.log.entries[0].output, "b/k.o");
  EXPECT_EQ(m.log.entries[0].start_ms, 100);
  EXPECT_EQ(m.log.entries[1].output, "a/gone.o");
}

TEST(NinjaLogMerge, FindStopsAtItsDepthAndAtAMissingRoot) {
  Tree t;
  t.log("1/2/3/4/5", "# ninja log v5\n", {});
  t.log("1", "# ninja log v5\n", {});
  EXPECT_EQ(find_ninja_logs(t.root.string(), 4), std::vector<std::string>{(t.root / "1/.ninja_log").string()});
  EXPECT_TRUE(find_ninja_logs((t.root / "nope").string()).empty());
}

}  // namespace
}  // namespace ts::build

// Partial files carry the pid of their writer; a later run removes those whose writer is gone
// (issue 32: a SIGKILL during toolkit add, repair or conda left gigabytes behind).
#include "util/partial_files.h"

#include <gtest/gtest.h>

#include "testkit/dead_pid.h"
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"

namespace ts::util {
namespace {

namespace fs = std::filesystem;

using testkit::dead_pid;

TEST(PartialFiles, ThePidAfterTheMarker) {
  EXPECT_EQ(pid_after("x.whl.tmp-1234", ".tmp-"), 1234);
  EXPECT_EQ(pid_after(".ts-repair-99-AbC123", ".ts-repair-"), 99);
  EXPECT_EQ(pid_after(".cuda-12.8.partial-7", ".partial-"), 7);
  EXPECT_FALSE(pid_after("x.whl.tmp-", ".tmp-"));
  EXPECT_FALSE(pid_after("x.whl.tmp-12ab", ".tmp-"));
  EXPECT_FALSE(pid_after("x.whl.tmp-0", ".tmp-"));
  EXPECT_FALSE(pid_after("x.whl", ".tmp-"));
  EXPECT_FALSE(pid_after("x.whl.tmp-99999999999", ".tmp-"));
}

TEST(PartialFiles, OnlyThoseOfAGoneProcessAreRemoved) {
  testkit::TempDir t;
  const pid_t gone = dead_pid();
  const std::string dead = "out.whl.tmp-" + std::to_string(gone);
  const std::string live = "out.whl.tmp-" + std::to_string(::getppid());
  const std::string mine = "out.whl.tmp-" + std::to_string(::getpid());
  for (const auto& n : {dead, live, mine, std::string("out.whl"), std::string("notes.tmp-x")})
    std::ofstream(t / n) << "partial";
  fs::create_directories(t / (".ts-repair-" + std::to_string(gone) + "-Ab12/tree/deep"));
  std::ofstream(t / (".ts-repair-" + std::to_string(gone) + "-Ab12/tree/deep/f")) << "x";
  EXPECT_EQ(remove_stale(t.path(), ".tmp-"), 1);
  EXPECT_EQ(remove_stale(t.path(), ".ts-repair-"), 1);
  EXPECT_FALSE(fs::exists(t / dead));
  EXPECT_FALSE(fs::exists(t / (".ts-repair-" + std::to_string(gone) + "-Ab12")));
  for (const auto& n : {live, mine, std::string("out.whl"), std::string("notes.tmp-x")}) EXPECT_TRUE(fs::exists(t / n)) << n;
  EXPECT_EQ(remove_stale(t / "missing", ".tmp-"), 0);
}

}  // namespace
}  // namespace ts::util

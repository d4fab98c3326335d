#include "run/run_paths.h"
#include "testkit/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace ts::run {
namespace {

namespace fs = std::filesystem;

TEST(RunPaths, PlaceholdersAreFilledAndMissingWheelsNamed) {
  ::ts::testkit::TempDir tmp("ts-paths");
  const std::string& t = tmp.path();
  ASSERT_FALSE(t.empty());
  RunPaths p = RunPaths::make(t, "", "r1");
  EXPECT_EQ(p.src, t + "/src");
  EXPECT_EQ(p.run_dir, t + "/runs/r1");
  std::string missing;
  auto argv = expand_placeholders({"repair", "{built_wheel}", "-o", "{dist}", "--plan", "{lock}"}, p, &missing);
  EXPECT_EQ(missing, "{built_wheel}");
  EXPECT_EQ(argv[1], "{built_wheel}");
  EXPECT_EQ(argv[3], t + "/dist");
  EXPECT_EQ(argv[5], t + "/plan.lock.json");
  fs::create_directories(p.src + "/dist");
  std::ofstream(p.src + "/dist/a-1.0-py3-none-any.whl") << "old";
  fs::last_write_time(p.src + "/dist/a-1.0-py3-none-any.whl", fs::file_time_type::clock::now() - std::chrono::hours(1));
  std::ofstream(p.src + "/dist/a-1.1-py3-none-any.whl") << "new";
  std::ofstream(p.src + "/dist/notes.txt") << "x";
  missing.clear();
  EXPECT_EQ(expand_placeholders("{built_wheel}", p, &missing), p.src + "/dist/a-1.1-py3-none-any.whl");
  EXPECT_EQ(missing, "");
  EXPECT_EQ(expand_placeholders("cd {src}/build", p, &missing), "cd " + p.src + "/build");
}

}  // namespace
}  // namespace ts::run

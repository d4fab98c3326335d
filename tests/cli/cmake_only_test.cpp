// A CMake project with no setup.py or pyproject.toml (tests/fixtures/projects/long_tail/cmake_only),
// built end to end against Debian's torch 1.13: its CMAKE_CXX_STANDARD 11 does not compile its
// C++14 source; the plan decides build.cmake-std and the run passes the helper's CMake include to the
// plan's own cmake configure step, so it builds and verifies. Host compiler only; ~2 s.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using testing::run_torchsmith;

TEST(CmakeOnly, ThePlansConfigureStepGetsTheInclude) {
  if (!testing::debian_torch())
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  if (!util::run({"cmake", "--version"}).ok()) GTEST_SKIP() << "no cmake";
  testkit::TempDir t;
  const std::string src = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/cmake_only";
  // Without torchsmith: the project's own standard does not compile its source.
  auto plain = util::run({"cmake", "-S", src, "-B", t / "plain", "-G", "Ninja"});
  ASSERT_TRUE(plain.ok()) << plain.out << plain.err;
  auto plain_build = util::run({"cmake", "--build", t / "plain"});
  EXPECT_FALSE(plain_build.ok());
  EXPECT_NE((plain_build.out + plain_build.err).find("make_unique"), std::string::npos) << plain_build.out;
  auto r = run_torchsmith({"build", src, "--torch", "/usr/bin/python3", "--out", t / "out", "--cache-dir", t / "cache",
                           "--compile-cache", "none"},
                          std::chrono::seconds(300));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(t / "out/src/build-torchsmith/liblt_cmake_only.so"));
  auto run = nlohmann::json::parse(util::read_file(t / "out/last/run.json").value_or("{}"), nullptr, false);
  ASSERT_FALSE(run.is_discarded());
  EXPECT_NE(run["plan"]["decisions"].dump().find("build.cmake-std c++14"), std::string::npos);
  std::string log;
  for (const auto& e : fs::directory_iterator(t / "out/last/logs"))
    if (e.path().filename().string().find("configure") != std::string::npos) log = util::read_file(e.path()).value_or("");
  EXPECT_NE(log.find("torchsmith: [build.cmake-std] lt_cmake_only: CXX_STANDARD 11 -> 14"), std::string::npos) << log;
  // The lock names no include (lock_check refuses one): the run adds it.
  auto lock = nlohmann::json::parse(util::read_file(t / "out/plan.lock.json").value_or("{}"), nullptr, false);
  ASSERT_FALSE(lock.is_discarded());
  EXPECT_EQ(lock["steps"].dump().find("CMAKE_PROJECT_INCLUDE"), std::string::npos) << lock["steps"].dump();
  EXPECT_NE(lock["steps"].dump().find("build-torchsmith"), std::string::npos) << lock["steps"].dump();
}

}  // namespace
}  // namespace ts

// A scikit-build-core package end to end (tests/fixtures/projects/long_tail/cmake_skbuild) against
// Debian's torch 1.13, which has no scikit-build-core (and offline, from a --wheelhouse): plain `pip wheel --no-build-isolation` stops
// (BackendUnavailable); torchsmith's build installs the backend with what it imports into the build
// overlay (build.overlay, from PyPI) and raises the CMakeLists' C++11 to torch's C++14
// (build.cmake-std), so the module builds, imports and its smoke sees C++14. Needs PyPI (label
// network); ~15 s.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using testing::run_torchsmith;

TEST(CmakeSkbuild, TheBackendAndTheStandardAreRepaired) {
  if (!testing::debian_torch())
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  if (util::run({"/usr/bin/python3", "-c", "import scikit_build_core"}, {}).ok())
    GTEST_SKIP() << "scikit-build-core is installed for /usr/bin/python3: nothing for the overlay to do";
  testkit::TempDir t;
  fs::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/cmake_skbuild", t / "pkg",
           fs::copy_options::recursive);
  auto plain = util::run({"/usr/bin/python3", "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", t / "d", "."},
                         {std::chrono::seconds(120), std::nullopt, {}, t / "pkg"});
  EXPECT_FALSE(plain.ok());
  EXPECT_NE((plain.out + plain.err).find("BackendUnavailable"), std::string::npos) << plain.out << plain.err;
  auto r = run_torchsmith({"build", t / "pkg", "--torch", "/usr/bin/python3", "--out", t / "out", "--cache-dir",
                           t / "cache", "--compile-cache", "none"},
                          std::chrono::seconds(600));
  if (r.exit_code != 0 && (r.out + r.err).find("build-requires") != std::string::npos &&
      (r.out + r.err).find("Could not fetch URL") != std::string::npos)
    GTEST_SKIP() << "PyPI is not reachable from here";
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("smoke"), std::string::npos) << r.out;
  auto run = nlohmann::json::parse(util::read_file(t / "out/last/run.json").value_or("{}"), nullptr, false);
  ASSERT_FALSE(run.is_discarded());
  std::string decisions = run["plan"]["decisions"].dump();
  EXPECT_NE(decisions.find("build.cmake-std c++14"), std::string::npos);
  EXPECT_NE(decisions.find("build.overlay scikit-build-core"), std::string::npos);
}

// The same package offline (build.wheelhouse): its backend and what it imports from a directory of
// wheels, pip's index pointed at an address that answers nothing; a torch wheel in the directory
// is refused, never installed; the lock's build-requires step and verify name the wheelhouse.
// Needs PyPI once, to fill the wheelhouse.
TEST(CmakeSkbuild, TheOverlayComesFromAWheelhouseWithNoIndex) {
  if (!testing::debian_torch())
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  if (util::run({"/usr/bin/python3", "-c", "import scikit_build_core"}, {}).ok())
    GTEST_SKIP() << "scikit-build-core is installed for /usr/bin/python3: nothing for the overlay to do";
  testkit::TempDir t;
  fs::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/cmake_skbuild", t / "pkg",
           fs::copy_options::recursive);
  auto dl = util::run({"/usr/bin/python3", "-m", "pip", "download", "--only-binary", ":all:", "--no-deps", "-d",
                       t / "wh", "--", "scikit-build-core>=0.10", "packaging>=23.2", "pathspec>=0.10.1"},
                      {std::chrono::seconds(180)});
  if (!dl.ok()) GTEST_SKIP() << "PyPI is not reachable from here: " << dl.err;
  const std::string other_torch = "torch-9.9.9-cp311-cp311-linux_x86_64.whl";
  ASSERT_EQ(util::write_file_atomic(t / ("wh/" + other_torch), "not a wheel: it must never be opened"), "");
  util::RunOptions o;
  o.timeout = std::chrono::seconds(600);
  o.extra_env = {{"PIP_INDEX_URL", "http://127.0.0.1:9/simple"}, {"PIP_RETRIES", "0"}, {"PIP_TIMEOUT", "2"}};
  auto r = util::run({TS_BINARY, "build", t / "pkg", "--torch", "/usr/bin/python3", "--out", t / "out", "--cache-dir",
                      t / "cache", "--compile-cache", "none", "--wheelhouse", t / "wh"},
                     o);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto run = nlohmann::json::parse(util::read_file(t / "out/last/run.json").value_or("{}"), nullptr, false);
  ASSERT_FALSE(run.is_discarded());
  std::string decisions = run["plan"]["decisions"].dump();
  EXPECT_NE(decisions.find("build.overlay scikit-build-core"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find("refused: " + other_torch), std::string::npos) << decisions;
  std::string steps = run["plan"]["steps"].dump();
  EXPECT_NE(steps.find("\"--no-index\",\"--find-links\",\"" + (t / "wh") + "\""), std::string::npos) << steps;
  EXPECT_NE(steps.find("\"--wheelhouse\",\"" + (t / "wh") + "\""), std::string::npos) << steps;
}

}  // namespace
}  // namespace ts

// A reconfigure retry removes the CMakeCache.txt of the build tree the plan's configure step made
// (cmake -B build-torchsmith), not {src}/build's, which belongs to nothing the plan configured.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fake_step_runner.h"
#include "run/mirror.h"
#include "run/pipeline.h"
#include "run/run_paths.h"
#include "testkit/temp_dir.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;
using testing::FakeStepRunner;

// A diagnosis whose one root asks for a fresh configure.
struct ReconfigureDiag : testing::OneRootDiagnosis {
  ReconfigureDiag() : OneRootDiagnosis("CMAKE_STALE_CACHE", triage::RemedyKind::reconfigure) {}
};

plan::Plan cmake_only_plan() {
  plan::Plan p;
  p.steps = {{"configure", {"cmake", "-S", ".", "-B", "build-torchsmith", "-G", "Ninja"}, "{src}", ""},
             {"build", {"cmake", "--build", "build-torchsmith", "-j", "2"}, "{src}", ""}};
  p.env = {{"PATH", "/usr/bin"}};
  return p;
}

void touch(const std::string& path, const std::string& text = "x") {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(PipelineReconfigure, RemovesTheCacheOfTheTreeTheConfigureStepMade) {
  testkit::TempDir dir{"ts-pipeline-reconfigure"};
  const std::string src = dir / "out/src";
  touch(src + "/build-torchsmith/CMakeCache.txt");
  touch(src + "/build-torchsmith/CMakeFiles/3.28.3/CMakeCXXCompiler.cmake");
  touch(src + "/build/CMakeCache.txt");  // some other tree: not the plan's
  touch(dir / ("out/" + std::string(kOutMarker)), kOutMarkerText);  // an output torchsmith wrote before
  ReconfigureDiag diag;
  FakeStepRunner fake;
  fake.script["build"].push_back({.exit_code = 1, .diagnosis = diag.d});
  std::vector<std::string> said;
  BuildOptions o = scripted_build_options(dir / "out", &fake, &said);
  o.early_verify = false;
  BuildOutcome r = run_build(cmake_only_plan(), o);
  ASSERT_EQ(r.record.retries.size(), 1u) << r.error;
  EXPECT_FALSE(fs::exists(src + "/build-torchsmith/CMakeCache.txt"));
  EXPECT_FALSE(fs::exists(src + "/build-torchsmith/CMakeFiles"));
  EXPECT_TRUE(fs::exists(src + "/build/CMakeCache.txt"));
}

// spconv's setup.py runs CMake itself in build/temp.<platform>: a force-include of <cstdint> (GCC 13)
// put in CXXFLAGS reached nothing while that tree's cache kept the first configure's flags.
TEST(PipelineReconfigure, ASetupPyThatRunsCmakeConfiguresAfresh) {
  testkit::TempDir dir{"ts-pipeline-reconfigure-setup"};
  const std::string src = dir / "out/src";
  const std::string temp = src + "/build/temp.linux-x86_64-cpython-312";
  touch(temp + "/CMakeCache.txt");
  touch(temp + "/CMakeFiles/3.28.3/CMakeCXXCompiler.cmake");
  touch(temp + "/src/spconv/obj.o");
  touch(src + "/build/lib.linux-x86_64-cpython-312/spconv/spconv.so");
  touch(src + "/build/bdist.linux-x86_64/CMakeFiles/kept");  // no cache beside it: not a CMake tree
  touch(dir / ("out/" + std::string(kOutMarker)), kOutMarkerText);
  ReconfigureDiag diag;
  FakeStepRunner fake;
  fake.script["build"].push_back({.exit_code = 1, .diagnosis = diag.d});
  std::vector<std::string> said;
  BuildOptions o = scripted_build_options(dir / "out", &fake, &said);
  o.early_verify = false;
  plan::Plan p;
  p.steps = {{"build", {"python3", "setup.py", "bdist_wheel"}, "{src}", ""}};
  p.env = {{"PATH", "/usr/bin"}};
  BuildOutcome r = run_build(p, o);
  ASSERT_EQ(r.record.retries.size(), 1u) << r.error;
  EXPECT_FALSE(fs::exists(temp + "/CMakeCache.txt"));
  EXPECT_FALSE(fs::exists(temp + "/CMakeFiles"));
  EXPECT_TRUE(fs::exists(temp + "/src/spconv/obj.o"));  // objects stay: ninja rebuilds what the flags change
  EXPECT_TRUE(fs::exists(src + "/build/lib.linux-x86_64-cpython-312/spconv/spconv.so"));
  EXPECT_TRUE(fs::exists(src + "/build/bdist.linux-x86_64/CMakeFiles/kept"));
}

TEST(PipelineReconfigure, TheBuildTreeIsTheConfigureStepsOrSetupPys) {
  RunPaths p = RunPaths::make("/o", "/o/src", "r");
  EXPECT_EQ(build_tree(cmake_only_plan().steps, p), "/o/src/build-torchsmith");
  std::vector<plan::Step> glued{{"configure", {"/usr/bin/cmake", "-S.", "-B/tmp/b", "-G", "Ninja"}, "{src}", ""}};
  EXPECT_EQ(build_tree(glued, p), "/tmp/b");
  std::vector<plan::Step> setup_py{{"build", {"python3", "setup.py", "bdist_wheel"}, "{src}", ""}};
  EXPECT_EQ(build_tree(setup_py, p), "/o/src/build");
}

}  // namespace
}  // namespace ts::run

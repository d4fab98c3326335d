// A CMake build driven from Python: what the scan reads from the CMake side of a tree (its driver,
// hard-coded arches and standards, the guarded defaults it must not count) and what the plan decides
// from it (CMAKE_ARGS, build.cmake-arch, build.cmake-std), each with a near miss.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "extension_fakes.h"
#include "plan/build_remedies.h"
#include "plan/extension.h"
#include "testkit/temp_dir.h"

namespace ts::plan {
namespace {

namespace fs = std::filesystem;
using namespace testing;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

class CmakeScan : public ::testing::Test {
 protected:
  SourceScan scan() {
    std::string err;
    SourceScan s = scan_source_dir(dir_.path(), &err);
    EXPECT_TRUE(s.scanned) << err;
    return s;
  }
  fs::path at(const std::string& rel) { return fs::path(dir_.path()) / rel; }
  ::ts::testkit::TempDir dir_{"ts-cmake-scan"};
};

TEST_F(CmakeScan, ScikitBuildCoreWithItsOwnArchesAndStandard) {
  write(at("pyproject.toml"), "[build-system]\nrequires = [\"scikit-build-core\"]\n"
                              "build-backend = \"scikit_build_core.build\"\n[project]\nname = \"demo\"\n");
  write(at("CMakeLists.txt"), "cmake_minimum_required(VERSION 3.18)\n"
                              "set(CMAKE_CUDA_ARCHITECTURES 61 CACHE STRING \"CUDA architectures\" FORCE)\n"
                              "project(demo LANGUAGES CXX CUDA)\n"
                              "set(CMAKE_CXX_STANDARD 14)  # what it was written for\n"
                              "# set(CMAKE_CUDA_STANDARD 11) commented out\n"
                              "add_subdirectory(csrc)\n");
  write(at("csrc/CMakeLists.txt"), "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -gencode arch=compute_75,code=sm_75\")\n"
                                   "set_property(TARGET k PROPERTY CUDA_STANDARD 17)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "scikit-build-core");
  ASSERT_EQ(s.cmake_own_arches.size(), 2u);
  EXPECT_EQ(s.cmake_own_arches[0].rfind("CMakeLists.txt:2: set(CMAKE_CUDA_ARCHITECTURES 61", 0), 0u) << s.cmake_own_arches[0];
  EXPECT_EQ(s.cmake_own_arches[1].rfind("csrc/CMakeLists.txt:1: ", 0), 0u) << s.cmake_own_arches[1];
  ASSERT_EQ(s.cmake_stds.size(), 2u);
  EXPECT_EQ(s.cmake_stds[0].first, 14);
  EXPECT_EQ(s.cmake_stds[0].second, "CMakeLists.txt:4: set(CMAKE_CXX_STANDARD 14)");
  EXPECT_EQ(s.cmake_stds[1].first, 17);
}

// Near miss: a default that yields to -DCMAKE_CUDA_ARCHITECTURES is not the package fixing its arches.
TEST_F(CmakeScan, AGuardedDefaultIsNotItsOwnList) {
  write(at("pyproject.toml"), "[build-system]\nrequires = [\"scikit-build-core\"]\nbuild-backend = \"scikit_build_core.build\"\n");
  write(at("CMakeLists.txt"), "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 70 75)\nendif()\n"
                              "project(demo LANGUAGES CXX CUDA)\ntarget_compile_features(demo PRIVATE cxx_std_14)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "scikit-build-core");
  EXPECT_TRUE(s.cmake_own_arches.empty()) << s.cmake_own_arches[0];
  EXPECT_TRUE(s.cmake_stds.empty());  // a compile feature is a minimum: torch's own raises it
}

TEST_F(CmakeScan, ASetupPyThatRunsCmakeWithItsOwnArches) {
  write(at("setup.py"), "import subprocess\nfrom setuptools import setup, Extension\n"
                        "class CMakeExtension(Extension): pass\n"
                        "cmake_args = ['-DCMAKE_CUDA_ARCHITECTURES=35;50']\n"
                        "subprocess.check_call(['cmake', src] + cmake_args)\n");
  write(at("CMakeLists.txt"), "project(demo)\nadd_compile_options(-std=c++11)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "setup.py");
  ASSERT_EQ(s.cmake_own_arches.size(), 1u);
  EXPECT_EQ(s.cmake_own_arches[0], "setup.py:4: cmake_args = ['-DCMAKE_CUDA_ARCHITECTURES=35;50']");
  ASSERT_EQ(s.cmake_stds.size(), 1u);
  EXPECT_EQ(s.cmake_stds[0].first, 11);
}

// k2-fsa's fast_rnnt: setup.py runs cmake through os.system, cmake/pybind11.cmake downloads pybind11
// with FetchContent; googletest is fetched the same way (only pybind11 is given locally, in the plan).
// build.cmake-toolchain's scan: literal compilers and toolkit paths in the CMake files and in setup.py's
// cmake args, each variable once with its first line; values from variables or the environment, a
// lower-case name (another variable: names are case-sensitive) and comments are near misses.
TEST_F(CmakeScan, TheAuthorsCompilersAndToolkitAreRead) {
  write(at("setup.py"), "from setuptools import setup\n"
                        "cmake_args = ['-DCMAKE_CUDA_COMPILER=/usr/local/cuda-10.1/bin/nvcc',\n"
                        "              f'-DCMAKE_CXX_COMPILER={cxx}']\n"
                        "class CMakeExtension: pass\nsetup(name='demo')\n");
  write(at("CMakeLists.txt"), "cmake_minimum_required(VERSION 3.18)\n"
                              "SET(CUDA_TOOLKIT_ROOT_DIR \"/usr/local/cuda-10.2\" CACHE PATH \"\")\n"
                              "set(CMAKE_CUDA_COMPILER /usr/local/cuda-10.2/bin/nvcc)\n"
                              "set(CMAKE_CXX_COMPILER $ENV{CXX})\n"
                              "set(cmake_c_compiler /usr/bin/gcc-7)\n"
                              "# set(CMAKE_C_COMPILER /usr/bin/gcc-5)\n"
                              "set(CUDAToolkit_ROOT ${CUDA_HOME})\n"
                              "project(demo LANGUAGES CXX CUDA)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "setup.py");
  ASSERT_EQ(s.cmake_own_toolchain.size(), 2u);
  EXPECT_EQ(s.cmake_own_toolchain[0].first, "CMAKE_CUDA_COMPILER");
  EXPECT_EQ(s.cmake_own_toolchain[0].second.rfind("setup.py:2: ", 0), 0u) << s.cmake_own_toolchain[0].second;
  EXPECT_EQ(s.cmake_own_toolchain[1].first, "CUDA_TOOLKIT_ROOT_DIR");
  EXPECT_EQ(s.cmake_own_toolchain[1].second.rfind("CMakeLists.txt:2: ", 0), 0u) << s.cmake_own_toolchain[1].second;
}

TEST_F(CmakeScan, AFetchContentDownloadIsRead) {
  write(at("setup.py"), "import os\nfrom setuptools.command.build_ext import build_ext\n"
                        "cmake_args = os.environ.get('FT_CMAKE_ARGS', '')\nos.system(f'cmake {cmake_args} {src}')\n");
  write(at("CMakeLists.txt"), "project(demo)\ninclude(pybind11)\n");
  write(at("cmake/pybind11.cmake"), "include(FetchContent)\n  FetchContent_Declare(pybind11\n    URL https://github.com/pybind/pybind11/archive/v2.6.0.tar.gz)\n"
                                    "# FetchContent_Declare(eigen GIT_REPOSITORY https://gitlab.com/libeigen/eigen)\n");
  write(at("cmake/googletest.cmake"), "FetchContent_Declare(googletest URL https://github.com/google/googletest/archive/v1.10.0.tar.gz)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "setup.py");
  std::sort(s.cmake_fetches.begin(), s.cmake_fetches.end());
  ASSERT_EQ(s.cmake_fetches.size(), 2u);  // the commented-out eigen is not read
  EXPECT_EQ(s.cmake_fetches[0].first, "googletest");
  EXPECT_EQ(s.cmake_fetches[1].first, "pybind11");
  EXPECT_EQ(s.cmake_fetches[1].second, "cmake/pybind11.cmake:2: FetchContent_Declare(pybind11");
}

TEST_F(CmakeScan, ScikitBuildClassic) {
  write(at("setup.py"), "from skbuild import setup\nsetup(name='demo', cmake_args=['-DX=1'])\n");
  write(at("CMakeLists.txt"), "project(demo)\n");
  EXPECT_EQ(scan().cmake_driver, "scikit-build");
}

// Near miss: a plain cpp_extension setup.py with a CMakeLists.txt beside it is not a CMake build.
TEST_F(CmakeScan, ACppExtensionIsNoCmakeBuild) {
  write(at("setup.py"), "from torch.utils.cpp_extension import CUDAExtension\nsetup(name='demo')\n");
  write(at("CMakeLists.txt"), "set(CMAKE_CUDA_ARCHITECTURES 35)\nproject(demo)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "");
  EXPECT_TRUE(s.cmake_own_arches.empty());
}

// A tree with only CMake files: the plan's own cmake steps drive it.
TEST_F(CmakeScan, ACmakeProjectAloneIsDrivenByThePlansCmake) {
  write(at("CMakeLists.txt"), "set(CMAKE_CUDA_ARCHITECTURES 35 50)\nproject(demo LANGUAGES CXX CUDA)\n");
  SourceScan s = scan();
  EXPECT_EQ(s.cmake_driver, "cmake");
  ASSERT_EQ(s.cmake_own_arches.size(), 1u);
}

HostFacts machine(const std::string& torch = "2.11.0+cu130") {
  auto f = fake_host(fake_python(torch, "13.0"), {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 64 * kGiB;
  return f;
}

SourceScan cmake_scan(const std::string& driver) {
  auto s = cuda_only_scan();
  s.cuda_extension = false;
  s.setup_py = driver == "setup.py" || driver == "scikit-build";
  s.pyproject = true;
  s.cmake_lists = true;
  s.cmake_driver = driver;
  return s;
}

PlanResult plan(SourceScan s, const HostFacts& f = machine()) {
  auto req = dir_request(s);
  req.scan.setup_py = s.setup_py;
  return make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
}

const Decision* remedy(const Plan& p, const std::string& rule) {
  for (const auto& d : p.decisions)
    if (d.topic == "remedy" && d.rule == rule) return &d;
  return nullptr;
}

TEST(CmakeRemedies, TheBackendGetsThePlansArchesThroughCmakeArgs) {
  auto r = plan(cmake_scan("scikit-build-core"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"), "-DCMAKE_CUDA_ARCHITECTURES=90-real");
  // Nothing hard-coded: nothing forced.
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_ARCHES"), "<unset>");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_STD"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kCmakeArchRule), nullptr);
}

TEST(CmakeRemedies, ASetupPyCmakeCallNeedsTheHelper) {
  auto r = plan(cmake_scan("setup.py"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"), "-DCMAKE_CUDA_ARCHITECTURES=90-real");
  EXPECT_EQ(env(r.plan, "PYTHONPATH").rfind("{pyshim}", 0), 0u);
}

TEST(CmakeRemedies, FetchContentsPybind11ComesFromTheBuildEnvironment) {
  auto s = cmake_scan("setup.py");
  s.cmake_fetches = {{"pybind11", "cmake/pybind11.cmake:2: FetchContent_Declare(pybind11"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"),
            "-DCMAKE_CUDA_ARCHITECTURES=90-real -DFETCHCONTENT_SOURCE_DIR_PYBIND11={pyshim}/fetch/pybind11");
  EXPECT_EQ(env(r.plan, "PYTHONPATH").rfind("{pyshim}", 0), 0u);
  const Decision* d = remedy(r.plan, ext::kFetchLocalRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.fetch-local pybind11");
  EXPECT_NE(d->reason.find("cmake/pybind11.cmake:2"), std::string::npos) << d->reason;
}

// Near misses: a dependency torchsmith cannot give (googletest) is left to FetchContent, and a CMake
// project alone (the plan's own configure step, which reads no CMAKE_ARGS) gets no CMAKE_ARGS for it.
TEST(CmakeRemedies, OtherFetchesAndAPlainCmakeProjectAreLeftAlone) {
  auto s = cmake_scan("scikit-build-core");
  s.cmake_fetches = {{"googletest", "CMakeLists.txt:9: FetchContent_Declare(googletest"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"), "-DCMAKE_CUDA_ARCHITECTURES=90-real");
  EXPECT_EQ(remedy(r.plan, ext::kFetchLocalRule), nullptr);
  auto alone = cmake_scan("cmake");
  alone.cmake_fetches = {{"pybind11", "CMakeLists.txt:3: FetchContent_Declare(pybind11"}};
  auto a = plan(alone);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(remedy(a.plan, ext::kFetchLocalRule), nullptr);
}

TEST(CmakeRemedies, HardCodedArchesAreForced) {
  auto s = cmake_scan("scikit-build-core");
  s.cmake_own_arches = {"CMakeLists.txt:2: set(CMAKE_CUDA_ARCHITECTURES 61 CACHE STRING \"\" FORCE)"};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_ARCHES"), "90-real");
  EXPECT_EQ(env(r.plan, "PYTHONPATH").rfind("{pyshim}", 0), 0u);
  const Decision* d = remedy(r.plan, ext::kCmakeArchRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.cmake-arch 90-real");
  EXPECT_NE(d->reason.find("CMakeLists.txt:2: set(CMAKE_CUDA_ARCHITECTURES 61"), std::string::npos) << d->reason;
  EXPECT_NE(d->source.find("CMAKE_PROJECT_INCLUDE_BEFORE"), std::string::npos) << d->source;
}

TEST(CmakeRemedies, TheAuthorsToolchainIsReplacedByTheBuilds) {
  auto s = cmake_scan("setup.py");
  s.cmake_own_toolchain = {{"CMAKE_CUDA_COMPILER", "CMakeLists.txt:3: set(CMAKE_CUDA_COMPILER /usr/local/cuda-10.2/bin/nvcc)"},
                           {"CUDA_TOOLKIT_ROOT_DIR", "CMakeLists.txt:2: set(CUDA_TOOLKIT_ROOT_DIR /usr/local/cuda-10.2)"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_TOOLCHAIN"), "1");
  EXPECT_EQ(env(r.plan, "PYTHONPATH").rfind("{pyshim}", 0), 0u);
  const Decision* d = remedy(r.plan, ext::kCmakeToolchainRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.cmake-toolchain CMAKE_CUDA_COMPILER, CUDA_TOOLKIT_ROOT_DIR");
  EXPECT_NE(d->reason.find("CMakeLists.txt:3: set(CMAKE_CUDA_COMPILER /usr/local/cuda-10.2/bin/nvcc)"), std::string::npos)
      << d->reason;
  EXPECT_NE(d->source.find("CUDACXX"), std::string::npos) << d->source;
}

// Near miss: a CMake build that names no tools of its own gets no toolchain remedy.
TEST(CmakeRemedies, NoOwnToolchainNoToolchainRemedy) {
  auto r = plan(cmake_scan("scikit-build-core"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_TOOLCHAIN"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kCmakeToolchainRule), nullptr);
}

// Near miss: a CPU build has no arches to force.
TEST(CmakeRemedies, ACpuBuildForcesNoArches) {
  auto s = cmake_scan("scikit-build-core");
  s.cuda_sources = false;
  s.cmake_own_arches = {"CMakeLists.txt:2: set(CMAKE_CUDA_ARCHITECTURES 61)"};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kCmakeArchRule), nullptr);
}

// The long-tail run's end2end-asr: C++ only, but its CMakeLists finds Torch, and a CUDA torch's CMake
// config runs enable_language(CUDA): configure needs nvcc. The plan gives it the toolkit (CUDACXX, PATH)
// and expects no GPU code. Near misses: the same tree against a CPU torch, and one that does not find Torch.
TEST(CmakeRemedies, FindingACudaTorchGivesConfigureTheToolkitAndNoGpuCodeIsExpected) {
  auto s = cmake_scan("setup.py");
  s.cuda_sources = false;
  s.cmake_finds_torch = true;
  auto r = plan(s);
  ASSERT_TRUE(r.ok()) << r.conflicts.size();
  EXPECT_TRUE(r.plan.cuda.is_chosen());
  EXPECT_EQ(env(r.plan, "CUDACXX"), r.plan.cuda_home + "/bin/nvcc");
  EXPECT_NE(env(r.plan, "PATH").find(r.plan.cuda_home + "/bin"), std::string::npos) << env(r.plan, "PATH");
  EXPECT_TRUE(r.plan.no_device_code);
  auto d = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                        [](const Decision& x) { return x.topic == "device-code"; });
  ASSERT_NE(d, r.plan.decisions.end());
  EXPECT_NE(d->reason.find("find_package(Torch)"), std::string::npos) << d->reason;

  auto cpu = fake_host(fake_python("2.11.0+cpu", ""), {"13.0"}, {"9.0"});
  auto rc = plan(s, cpu);
  ASSERT_TRUE(rc.ok()) << rc.conflicts.size();
  EXPECT_FALSE(rc.plan.cuda.is_chosen());
  s.cmake_finds_torch = false;
  auto rn = plan(s);
  ASSERT_TRUE(rn.ok());
  EXPECT_FALSE(rn.plan.cuda.is_chosen());
  EXPECT_EQ(env(rn.plan, "CUDACXX"), "<unset>");
}

TEST_F(CmakeScan, FindPackageTorchIsRead) {
  write(at("setup.py"), "import subprocess\nsubprocess.check_call(['cmake', src])\n");
  write(at("CMakeLists.txt"), "project(demo LANGUAGES CXX)\n# find_package(Torch) was here\n");
  EXPECT_FALSE(scan().cmake_finds_torch);
  write(at("CMakeLists.txt"), "project(demo LANGUAGES CXX)\nfind_package(Torch REQUIRED)\n");
  EXPECT_TRUE(scan().cmake_finds_torch);
  EXPECT_EQ(scan().cmake_finds_torch_at, "CMakeLists.txt:2: find_package(Torch REQUIRED)");
}

// build.torch-prefix: shocc's setup.py runs cmake with no -DCMAKE_PREFIX_PATH and its CMakeLists.txt
// does find_package(Torch): the build's CMAKE_PREFIX_PATH starts with the probed
// torch.utils.cmake_prefix_path, a value already given stays after it.
TEST(CmakeRemedies, FindPackageTorchFromSetupPyGetsTheTargetTorchsPrefix) {
  auto s = cmake_scan("setup.py");
  s.cmake_finds_torch = true;
  s.cmake_finds_torch_at = "CMakeLists.txt:16: find_package(Torch REQUIRED)";
  auto f = machine();
  f.pythons[0].torch.cmake_prefix_path = "/opt/venv/lib/python3.12/site-packages/torch/share/cmake";
  auto r = plan(s, f);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_PREFIX_PATH"), "/opt/venv/lib/python3.12/site-packages/torch/share/cmake");
  const Decision* d = remedy(r.plan, ext::kTorchPrefixRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.torch-prefix /opt/venv/lib/python3.12/site-packages/torch/share/cmake");
  EXPECT_NE(d->reason.find("CMakeLists.txt:16: find_package(Torch REQUIRED)"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("setup.py's own cmake call"), std::string::npos) << d->reason;
  // The user's prefix (--env) is kept, after the torch's.
  auto req = dir_request(s);
  req.scan.setup_py = true;
  req.env = {{"CMAKE_PREFIX_PATH", "/opt/healpix"}};
  auto given = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(env(given.plan, "CMAKE_PREFIX_PATH"), "/opt/venv/lib/python3.12/site-packages/torch/share/cmake:/opt/healpix");
  // A facts file from before the probe read it: the same path from the torch's package directory.
  EXPECT_EQ(ext::torch_cmake_prefix(machine().pythons[0].torch), "/opt/venv/lib/python3.12/site-packages/torch/share/cmake");
}

// Near misses: CMake files that do not look for torch, and a CMake project alone (the plan's own
// configure step passes -DCMAKE_PREFIX_PATH itself), get no build.torch-prefix.
TEST(CmakeRemedies, NoFindPackageTorchOrAPlainCmakeProjectGetsNoPrefixRemedy) {
  auto r = plan(cmake_scan("setup.py"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CMAKE_PREFIX_PATH"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kTorchPrefixRule), nullptr);
  auto alone = cmake_scan("cmake");
  alone.cmake_finds_torch = true;
  auto a = plan(alone);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(remedy(a.plan, ext::kTorchPrefixRule), nullptr);
}

TEST(CmakeRemedies, AnOlderStandardIsRaisedToTheTorchs) {
  auto s = cmake_scan("scikit-build-core");
  s.cmake_stds = {{14, "CMakeLists.txt:4: set(CMAKE_CXX_STANDARD 14)"}, {17, "CMakeLists.txt:5: set(CMAKE_CUDA_STANDARD 17)"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_STD"), "17");  // torch.toml: 2.11 cxx_standard 17
  const Decision* d = remedy(r.plan, ext::kCmakeStdRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.cmake-std c++17");
  EXPECT_NE(d->reason.find("CMAKE_CXX_STANDARD 14"), std::string::npos);
  EXPECT_EQ(d->reason.find("CMAKE_CUDA_STANDARD 17"), std::string::npos);  // enough already: not named
  EXPECT_NE(d->source.find("torch.toml"), std::string::npos);
}

// Near miss: the standard asked is what this torch needs (and 2.14's C++20 raises it again).
TEST(CmakeRemedies, TheStandardFollowsTheTargetTorch) {
  auto s = cmake_scan("scikit-build-core");
  s.cmake_stds = {{17, "CMakeLists.txt:4: set(CMAKE_CXX_STANDARD 17)"}};
  EXPECT_EQ(env(plan(s).plan, "TORCHSMITH_CMAKE_STD"), "<unset>");
  EXPECT_EQ(remedy(plan(s).plan, ext::kCmakeStdRule), nullptr);
  EXPECT_EQ(env(plan(s, machine("2.14.0+cu130")).plan, "TORCHSMITH_CMAKE_STD"), "20");
}

// A CMake project alone: the remedies are the same, the include reaches its configure step through
// the run (not PYTHONPATH), and its arches through that step's own -D (not CMAKE_ARGS).
TEST(CmakeRemedies, ACmakeProjectAloneGetsTheRemediesWithoutPython) {
  auto s = cmake_scan("cmake");
  s.pyproject = false;
  s.cmake_own_arches = {"CMakeLists.txt:1: set(CMAKE_CUDA_ARCHITECTURES 35 50)"};
  s.cmake_stds = {{11, "CMakeLists.txt:3: set(CMAKE_CXX_STANDARD 11)"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok()) << (r.conflicts.empty() ? r.bad_spec : r.conflicts[0].what + ": " + r.conflicts[0].why);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_ARCHES"), "90-real");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CMAKE_STD"), "17");
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"), "<unset>");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "<unset>");
  const Decision* d = remedy(r.plan, ext::kCmakeArchRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("the run passes it to the configure step"), std::string::npos) << d->reason;
  ASSERT_FALSE(r.plan.steps.empty());
  const Step& cfg = r.plan.steps[0];
  EXPECT_EQ(cfg.name, "configure");
  EXPECT_NE(std::find(cfg.argv.begin(), cfg.argv.end(), "-DCMAKE_CUDA_ARCHITECTURES=90-real"), cfg.argv.end());
}

// Near miss: a tree with no CMake driver gets none of this.
TEST(CmakeRemedies, NoDriverNoCmakeArgs) {
  auto s = cuda_only_scan();
  s.setup_py = true;  // a cpp_extension setup.py
  s.cmake_own_arches = {"CMakeLists.txt:1: set(CMAKE_CUDA_ARCHITECTURES 61)"};
  auto r = plan(s);
  ASSERT_TRUE(r.ok()) << (r.conflicts.empty() ? r.bad_spec : r.conflicts[0].what + ": " + r.conflicts[0].why);
  EXPECT_EQ(env(r.plan, "CMAKE_ARGS"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kCmakeArchRule), nullptr);
}

}  // namespace
}  // namespace ts::plan

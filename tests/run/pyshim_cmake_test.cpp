// The build helper's CMake side (src/run/pyshim/torchsmith_project.cmake, and sitecustomize.py's
// cmake call): on the tiny CMake projects of tests/fixtures/projects/long_tail, each remedy fails
// (or configures the wrong arches) without it, works with it, and a near miss is left alone.
// CPU only (one C++ file each, ~2 s) except the nvcc case, skipped without a CUDA 13 nvcc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return s;
}

struct Built {
  util::RunResult configure, build;
  std::string arches;  // the target's CUDA_ARCHITECTURES as CMake generated it
  std::string out;     // its build directory
  std::string file(const std::string& name) const { return slurp(fs::path(out) / name); }
  bool ok() const { return configure.ok() && build.ok(); }
  std::string log() const { return configure.out + configure.err + build.out + build.err; }
};

class CmakeRemedy : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!util::run({"cmake", "--version"}).ok()) GTEST_SKIP() << "no cmake";
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
  }

  // Configures and builds FIXTURE in its own build dir; include: pass the helper's CMake include.
  Built build(const std::string& fixture, const std::string& name, std::map<std::string, std::string> env,
              std::vector<std::string> defines = {}, bool include = true) {
    Built b;
    std::string out = b.out = dir_ + "/" + name;
    std::vector<std::string> argv{"cmake", "-S", kFixtures + fixture, "-B", out, "-G", "Ninja"};
    if (include) argv.push_back("-DCMAKE_PROJECT_INCLUDE_BEFORE=" + dir_ + "/pyshim/torchsmith_project.cmake");
    argv.insert(argv.end(), defines.begin(), defines.end());
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.extra_env = std::move(env);
    b.configure = util::run(argv, o);
    if (!b.configure.ok()) return b;
    b.build = util::run({"cmake", "--build", out}, o);
    b.arches = slurp(fs::path(out) / "cuda_architectures.txt");
    return b;
  }

  ::ts::testkit::TempDir tmp_{"ts-pyshim-cmake"};
  std::string dir_;
};

TEST_F(CmakeRemedy, AnOldCxxStandardFailsWithoutTheRemedy) {
  Built b = build("cmake_project", "plain", {}, {}, false);
  EXPECT_FALSE(b.ok());
  EXPECT_NE(b.log().find("optional"), std::string::npos) << b.log();
}

TEST_F(CmakeRemedy, CmakeStdRaisesTheTargetsStandard) {
  Built b = build("cmake_project", "raised", {{"TORCHSMITH_CMAKE_STD", "17"}});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_NE(b.configure.err.find("torchsmith: [build.cmake-std] lt_cmake: CXX_STANDARD 11 -> 17"), std::string::npos)
      << b.configure.err;
}

// Near miss: a package that asks for a newer standard than torch needs keeps it.
TEST_F(CmakeRemedy, CmakeStdKeepsANewerStandard) {
  Built b = build("cmake_project", "newer", {{"TORCHSMITH_CMAKE_STD", "17"}}, {"-DLT_STD=20"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.log().find("[build.cmake-std]"), std::string::npos) << b.log();
}

TEST_F(CmakeRemedy, ArchesSetBeforeProjectWinOverACommandLineDefine) {
  // What a backend's -DCMAKE_CUDA_ARCHITECTURES alone does: the package's set() wins.
  Built b = build("cmake_project", "define-only", {}, {"-DLT_STD=17", "-DCMAKE_CUDA_ARCHITECTURES=86-real"}, false);
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.arches, "35;50\n");
}

TEST_F(CmakeRemedy, CmakeArchMakesThePlansArchesTheTargets) {
  Built b = build("cmake_project", "planned", {{"TORCHSMITH_CMAKE_ARCHES", "86-real;90"}}, {"-DLT_STD=17"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.arches, "86-real;90\n");
  EXPECT_NE(b.configure.err.find("[build.cmake-arch] CMAKE_CUDA_ARCHITECTURES=35;50 before project(): kept the "
                                 "plan's 86-real;90"), std::string::npos) << b.configure.err;
}

TEST_F(CmakeRemedy, CmakeArchReplacesArchesSetOnTheTarget) {
  Built b = build("cmake_project", "target", {{"TORCHSMITH_CMAKE_ARCHES", "86-real"}},
                  {"-DLT_STD=17", "-DLT_TARGET_ARCHES=61"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.arches, "86-real\n");
  EXPECT_NE(b.configure.err.find("[build.cmake-arch] lt_cmake: CUDA_ARCHITECTURES 61 -> 86-real"), std::string::npos)
      << b.configure.err;
}

// A set() between project() and a later enable_language(CUDA) is what nvcc's compiler check would
// get (written where the fixture would enable CUDA); the include's watch keeps the plan's there.
TEST_F(CmakeRemedy, ArchesSetAfterProjectAreThePlansWhenCudaIsEnabled) {
  Built plain = build("cmake_project", "late-plain", {}, {"-DLT_STD=17", "-DLT_ARCHES_AT=late"}, false);
  ASSERT_TRUE(plain.ok()) << plain.log();
  EXPECT_EQ(plain.file("arches_at_enable_language.txt"), "35;50\n");
  Built b = build("cmake_project", "late", {{"TORCHSMITH_CMAKE_ARCHES", "86-real"}}, {"-DLT_STD=17", "-DLT_ARCHES_AT=late"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.file("arches_at_enable_language.txt"), "86-real\n");
  EXPECT_EQ(b.arches, "86-real\n");
  EXPECT_NE(b.configure.err.find("[build.cmake-arch] CMAKE_CUDA_ARCHITECTURES=35;50 (CMakeLists.txt): kept the plan's "
                                 "86-real"), std::string::npos) << b.configure.err;
}

// The same list as a CACHE FORCE (it drops the include's variable in that scope and fires no
// write): the value read there is the plan's.
TEST_F(CmakeRemedy, ArchesForcedIntoTheCacheAreThePlansWhenRead) {
  Built plain = build("cmake_project", "cache-plain", {}, {"-DLT_STD=17", "-DLT_ARCHES_AT=cache"}, false);
  ASSERT_TRUE(plain.ok()) << plain.log();
  EXPECT_EQ(plain.file("arches_at_enable_language.txt"), "35;50\n");
  Built b = build("cmake_project", "cache", {{"TORCHSMITH_CMAKE_ARCHES", "86-real"}}, {"-DLT_STD=17", "-DLT_ARCHES_AT=cache"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.file("arches_at_enable_language.txt"), "86-real\n");
  EXPECT_EQ(b.arches, "86-real\n");
}

// A subdirectory's own CMAKE_CUDA_FLAGS/CMAKE_CXX_FLAGS: its -gencode is dropped and its -std=c++11
// (which does not compile its C++17 source) raised, as the top directory's are.
TEST_F(CmakeRemedy, ASubdirectorysOwnFlagsAreRewrittenToo) {
  Built plain = build("cmake_project", "sub-plain", {}, {"-DLT_STD=17", "-DLT_SUB=ON"}, false);
  EXPECT_FALSE(plain.ok());
  EXPECT_NE(plain.log().find("optional"), std::string::npos) << plain.log();
  EXPECT_EQ(plain.file("sub_cuda_flags.txt"), " -gencode arch=compute_35,code=sm_35 -lineinfo\n");
  Built b = build("cmake_project", "sub", {{"TORCHSMITH_CMAKE_ARCHES", "86-real"}, {"TORCHSMITH_CMAKE_STD", "17"}},
                  {"-DLT_STD=17", "-DLT_SUB=ON"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.file("sub_cuda_flags.txt"), "-lineinfo\n");
  EXPECT_NE(b.configure.err.find("[build.cmake-arch/std] CMAKE_CUDA_FLAGS (sub/CMakeLists.txt): -gencode "
                                 "arch=compute_35,code=sm_35"), std::string::npos) << b.configure.err;
  EXPECT_NE(b.configure.err.find("[build.cmake-arch/std] CMAKE_CXX_FLAGS (sub/CMakeLists.txt): -std=c++11 -> "
                                 "-std=c++17"), std::string::npos) << b.configure.err;
}

// torch's Caffe2/public/cuda.cmake appends `-gencode;arch=compute_86,code=sm_86` a token at a time:
// the flag is dropped at its write, so its value, alone at the next, must go too (fast_rnnt through
// find_package(Torch): nvcc stopped with "A single input file is required").
TEST_F(CmakeRemedy, ArchFlagsAppendedOneTokenAtATimeGoWhole) {
  Built plain = build("cmake_project", "tokens-plain", {}, {"-DLT_STD=17", "-DLT_SUB=ON", "-DLT_ONE_AT_A_TIME=ON"}, false);
  EXPECT_EQ(plain.file("sub_cuda_flags.txt"),
            " -gencode arch=compute_35,code=sm_35 -lineinfo -gencode arch=compute_50,code=sm_50 -arch sm_52 "
            "--expt-extended-lambda\n");
  Built b = build("cmake_project", "tokens", {{"TORCHSMITH_CMAKE_ARCHES", "86-real"}, {"TORCHSMITH_CMAKE_STD", "17"}},
                  {"-DLT_STD=17", "-DLT_SUB=ON", "-DLT_ONE_AT_A_TIME=ON"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.file("sub_cuda_flags.txt"), "-lineinfo --expt-extended-lambda\n");
  EXPECT_NE(b.configure.err.find("[build.cmake-arch/std] CMAKE_CUDA_FLAGS (sub/CMakeLists.txt): arch=compute_50,code=sm_50"),
            std::string::npos) << b.configure.err;
}

// Near miss: with only a standard planned, a subdirectory's arch flags are its own.
TEST_F(CmakeRemedy, ASubdirectorysArchFlagsStayWithoutPlannedArches) {
  Built b = build("cmake_project", "sub-std", {{"TORCHSMITH_CMAKE_STD", "17"}}, {"-DLT_STD=17", "-DLT_SUB=ON"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.file("sub_cuda_flags.txt"), " -gencode arch=compute_35,code=sm_35 -lineinfo\n");
  EXPECT_EQ(b.arches, "35;50\n");
}

// Near miss: the include with nothing planned changes nothing.
TEST_F(CmakeRemedy, NothingPlannedLeavesTheProjectAlone) {
  Built b = build("cmake_project", "idle", {}, {"-DLT_STD=17"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.arches, "35;50\n");
  EXPECT_EQ(b.log().find("torchsmith:"), std::string::npos) << b.log();
}

// The real failure: CUDA 13's nvcc refuses the package's compute_50 in CMake's compiler check;
// with the plan's arch the kernel compiles (no GPU needed). ~10 s.
TEST_F(CmakeRemedy, NvccRefusesTheOldListAndCompilesThePlans) {
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  auto list = util::run({nvcc, "--list-gpu-arch"});
  if (!list.ok()) GTEST_SKIP() << "no nvcc at " << nvcc;
  if (list.out.find("compute_50") != std::string::npos) GTEST_SKIP() << "this nvcc still compiles sm_50";
  std::map<std::string, std::string> env{{"CUDACXX", nvcc}};
  Built plain = build("cmake_cuda", "cuda-plain", env, {}, false);
  EXPECT_FALSE(plain.ok());
  EXPECT_NE(plain.log().find("compute_50"), std::string::npos) << plain.log();
  env["TORCHSMITH_CMAKE_ARCHES"] = "86-real";
  Built fixed = build("cmake_cuda", "cuda-planned", env);
  EXPECT_TRUE(fixed.ok()) << fixed.log();
}

// The same with nvcc: arches set after project(LANGUAGES CXX) and CUDA enabled later (directly, or
// after check_language(CUDA)), and a subdirectory's -gencode compute_50: CUDA 13 refuses the old
// list in the compiler check; with the plan's arch both kernels compile. Two CUDA configures (one with
// check_language's own): ~1.7x the test above (8 s and 14 s here, at load 10 on 2 cores).
TEST_F(CmakeRemedy, NvccGetsThePlansArchesWhenCudaIsEnabledLate) {
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  auto list = util::run({nvcc, "--list-gpu-arch"});
  if (!list.ok()) GTEST_SKIP() << "no nvcc at " << nvcc;
  if (list.out.find("compute_50") != std::string::npos) GTEST_SKIP() << "this nvcc still compiles sm_50";
  std::map<std::string, std::string> env{{"CUDACXX", nvcc}};
  Built plain = build("cmake_cuda", "late-plain", env, {"-DLT_LATE=enable"}, false);
  EXPECT_FALSE(plain.ok());
  EXPECT_NE(plain.log().find("compute_50"), std::string::npos) << plain.log();
  // check_language(CUDA), then enable_language(CUDA): one configure covers both.
  env["TORCHSMITH_CMAKE_ARCHES"] = "86-real";
  Built fixed = build("cmake_cuda", "late-check", env, {"-DLT_LATE=check", "-DLT_SUB=ON"});
  EXPECT_TRUE(fixed.ok()) << fixed.log();
  EXPECT_NE(fixed.log().find("Looking for a CUDA compiler - " + nvcc), std::string::npos) << fixed.log();
}

// A CUDA dialect this CMake may have no flag for (3.25 stops at CUDA17: raising spconv 1.0's
// CUDA_STANDARD 14 to 20 for torch 2.15 stopped its configure with "Target requires the language
// dialect CUDA20 ... CMake does not know the flags"): CMake is given nvcc's -std for it.
TEST_F(CmakeRemedy, ACudaDialectCmakeLacksGoesToNvccAsAFlag) {
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  auto list = util::run({nvcc, "--list-gpu-arch"});
  if (!list.ok()) GTEST_SKIP() << "no nvcc at " << nvcc;
  std::map<std::string, std::string> env{{"CUDACXX", nvcc}, {"TORCHSMITH_CMAKE_ARCHES", "86-real"}};
  Built old = build("cmake_cuda", "cuda-std14", env, {"-DLT_CUDA_STD=14"});
  EXPECT_FALSE(old.ok());
  EXPECT_NE(old.log().find("C++20 or later"), std::string::npos) << old.log();
  env["TORCHSMITH_CMAKE_STD"] = "20";
  Built raised = build("cmake_cuda", "cuda-std20", env, {"-DLT_CUDA_STD=14"});
  EXPECT_TRUE(raised.ok()) << raised.log();
  EXPECT_NE(raised.log().find("[build.cmake-std] lt_cmake_cuda: CUDA_STANDARD 14 -> 20"), std::string::npos) << raised.log();
}

// build.cmake-toolchain: the author's g++ set ahead of project() stops the configure ("is not a full path
// to an existing compiler tool"); with the include CMake takes the build's own compiler, and the toolkit
// root is the build's CUDA_HOME, also where the project sets it again after project().
TEST_F(CmakeRemedy, AnAuthorsCompilerPathFailsWithoutTheToolchainRemedy) {
  std::map<std::string, std::string> env{{"CUDA_HOME", "/opt/build-cuda"}};
  Built plain = build("cmake_toolchain", "tc-plain", env, {}, false);
  EXPECT_FALSE(plain.configure.ok());
  EXPECT_NE(plain.log().find("/opt/author/gcc-7.5/bin/g++"), std::string::npos) << plain.log();
  env["TORCHSMITH_CMAKE_TOOLCHAIN"] = "1";
  Built fixed = build("cmake_toolchain", "tc-fixed", env, {"-DLT_LATE_ROOT=ON"});
  ASSERT_TRUE(fixed.ok()) << fixed.log();
  EXPECT_EQ(fixed.file("toolkit_root.txt"), "/opt/build-cuda\n");
  EXPECT_EQ(fixed.file("compilers.txt").find("/opt/author"), std::string::npos) << fixed.file("compilers.txt");
  EXPECT_NE(fixed.log().find("[build.cmake-toolchain] CMAKE_CXX_COMPILER=/opt/author/gcc-7.5/bin/g++: unset"),
            std::string::npos) << fixed.log();
  EXPECT_NE(fixed.log().find("[build.cmake-toolchain] CUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda-10.1 (CMakeLists.txt)"),
            std::string::npos) << fixed.log();
}

// Near miss: values the project takes from the build's environment are the build's already.
TEST_F(CmakeRemedy, AToolchainFromTheEnvironmentIsLeftAlone) {
  std::map<std::string, std::string> env{{"CUDA_HOME", "/opt/build-cuda"}, {"TORCHSMITH_CMAKE_TOOLCHAIN", "1"}};
  Built b = build("cmake_toolchain", "tc-env", env, {"-DLT_TOOLCHAIN=env"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.file("toolkit_root.txt"), "/opt/build-cuda\n");
  EXPECT_EQ(b.log().find("torchsmith:"), std::string::npos) << b.log();
}

// The real failure (sphconv): the author's /usr/local/cuda-10.2/bin/nvcc ahead of project(LANGUAGES CXX
// CUDA) beats CUDACXX; with the include the build's nvcc compiles the kernel. ~10 s.
TEST_F(CmakeRemedy, TheBuildsNvccReplacesTheAuthorsToolkit) {
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!util::run({nvcc, "--version"}).ok()) GTEST_SKIP() << "no nvcc at " << nvcc;
  std::map<std::string, std::string> env{{"CUDACXX", nvcc}, {"CUDA_HOME", "/usr/local/cuda"}};
  Built plain = build("cmake_toolchain", "tcc-plain", env, {"-DLT_CUDA=ON"}, false);
  EXPECT_FALSE(plain.configure.ok());
  EXPECT_NE(plain.log().find("/usr/local/cuda-10.2/bin/nvcc"), std::string::npos) << plain.log();
  env["TORCHSMITH_CMAKE_TOOLCHAIN"] = "1";
  Built fixed = build("cmake_toolchain", "tcc-fixed", env, {"-DLT_CUDA=ON"});
  ASSERT_TRUE(fixed.ok()) << fixed.log();
  EXPECT_NE(fixed.file("compilers.txt").find("\n" + nvcc + "\n"), std::string::npos) << fixed.file("compilers.txt");
  EXPECT_NE(fixed.log().find("[build.cmake-toolchain] CMAKE_CUDA_COMPILER=/usr/local/cuda-10.2/bin/nvcc: unset"),
            std::string::npos) << fixed.log();
}

// A setup.py that runs cmake itself, with its own -DCMAKE_CUDA_ARCHITECTURES.
class CmakeSetupPy : public CmakeRemedy {
 protected:
  void SetUp() override {
    CmakeRemedy::SetUp();
    if (IsSkipped()) return;
    if (!util::run({"/usr/bin/python3", "-c", "import setuptools"}, {std::chrono::seconds(60)}).ok())
      GTEST_SKIP() << "/usr/bin/python3 has no setuptools";
  }

  util::RunResult setup_py(const std::string& name, std::map<std::string, std::string> env, bool helper) {
    fs::path tree = fs::path(dir_) / name;
    fs::copy(kFixtures + "cmake_setup", tree, fs::copy_options::recursive);
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    if (helper) o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    return util::run({"/usr/bin/python3", "setup.py", "build_ext"}, o);
  }
};

TEST_F(CmakeSetupPy, ItsOwnArchesWithoutTheHelper) {
  auto r = setup_py("plain", {{"CMAKE_ARGS", "-DCMAKE_CUDA_ARCHITECTURES=86-real"}}, false);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.err.find("lt_cmake_setup: CUDA_ARCHITECTURES 35;50"), std::string::npos) << r.err;
}

TEST_F(CmakeSetupPy, ThePlansArchesReachItsCmakeCall) {
  auto r = setup_py("planned", {{"CMAKE_ARGS", "-DCMAKE_CUDA_ARCHITECTURES=86-real"}}, true);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.err.find("lt_cmake_setup: CUDA_ARCHITECTURES 86-real"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[build.cmake-arch] the package's cmake call passes -DCMAKE_CUDA_ARCHITECTURES=35;50: the "
                       "plan's -DCMAKE_CUDA_ARCHITECTURES=86-real instead"), std::string::npos) << r.err;
}

// Near miss: a package passing the plan's own value is not told it was replaced.
TEST_F(CmakeSetupPy, TheSameArchesAreNotReported) {
  auto r = setup_py("same", {{"CMAKE_ARGS", "-DCMAKE_CUDA_ARCHITECTURES=86-real"}, {"LT_SETUP_ARCHES", "86-real"}}, true);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.err.find("lt_cmake_setup: CUDA_ARCHITECTURES 86-real"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[build.cmake-arch]"), std::string::npos) << r.err;
}

// A forced remedy puts the helper's include into CMAKE_ARGS for the backends that read it.
TEST_F(CmakeSetupPy, AForcedRemedyAddsTheIncludeToCmakeArgs) {
  util::RunOptions o;
  o.extra_env = {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_CMAKE_STD", "17"}, {"CMAKE_ARGS", "-DX=1"}};
  auto r = util::run({"/usr/bin/python3", "-c", "import os; print(os.environ['CMAKE_ARGS'])"}, o);
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, "-DX=1 -DCMAKE_PROJECT_INCLUDE_BEFORE=" + dir_ + "/pyshim/torchsmith_project.cmake\n");
  o.extra_env.erase("TORCHSMITH_CMAKE_STD");
  r = util::run({"/usr/bin/python3", "-c", "import os; print(os.environ['CMAKE_ARGS'])"}, o);
  EXPECT_EQ(r.out, "-DX=1\n");
}

// k2-fsa's fast_rnnt: a setup.py running `cmake` through os.system, a project downloading pybind11
// with FetchContent at configure time. Offline, the download fails; with build.fetch-local the plan's
// -DFETCHCONTENT_SOURCE_DIR_PYBIND11 reaches the shell's cmake call and the stand-in finds the
// system's pybind11 (pybind11-dev), so it builds with no network.
class CmakeFetch : public CmakeRemedy {
 protected:
  void SetUp() override {
    CmakeRemedy::SetUp();
    if (IsSkipped()) return;
    if (!util::run({"/usr/bin/python3", "-c", "import setuptools"}, {std::chrono::seconds(60)}).ok())
      GTEST_SKIP() << "/usr/bin/python3 has no setuptools";
    if (!fs::exists("/usr/lib/cmake/pybind11/pybind11Config.cmake") &&
        !util::run({"/usr/bin/python3", "-c", "import pybind11"}, {std::chrono::seconds(60)}).ok())
      GTEST_SKIP() << "no pybind11 here (pybind11-dev, or the pybind11 package) for the stand-in to find";
  }

  // value: the built module's value() ("" when it does not import).
  util::RunResult setup_py(const std::string& name, std::map<std::string, std::string> env, bool helper,
                           std::string* value) {
    fs::path tree = fs::path(dir_) / name;
    fs::copy(kFixtures + "cmake_fetch", tree, fs::copy_options::recursive);
    util::RunOptions o;
    o.timeout = std::chrono::seconds(300);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    if (helper) o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    auto r = util::run({"/usr/bin/python3", "setup.py", "build_ext", "--inplace"}, o);
    auto v = util::run({"/usr/bin/python3", "-c", "import lt_cmake_fetch as m; print(m.value())"},
                       {std::chrono::seconds(60), std::nullopt, {}, tree.string()});
    *value = v.ok() ? v.out : "";
    return r;
  }
};

TEST_F(CmakeFetch, AnOfflineFetchContentDownloadFailsWithoutTheRemedy) {
  std::string value;
  auto r = setup_py("fetch-plain", {{"CMAKE_ARGS", "-DFETCHCONTENT_SOURCE_DIR_PYBIND11=" + dir_ + "/pyshim/fetch/pybind11"}},
                    false, &value);
  EXPECT_FALSE(r.ok());
  EXPECT_NE((r.out + r.err).find("Build step for pybind11 failed"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(value, "");
}

TEST_F(CmakeFetch, FetchLocalGivesFetchContentTheBuildsPybind11) {
  std::string value;
  const std::string def = "-DFETCHCONTENT_SOURCE_DIR_PYBIND11=" + dir_ + "/pyshim/fetch/pybind11";
  auto r = setup_py("fetch-local", {{"CMAKE_ARGS", def}}, true, &value);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.err.find("the package's shell command runs cmake: the plan's " + def + " passed to it"), std::string::npos)
      << r.err;
  EXPECT_NE((r.out + r.err).find("torchsmith [build.fetch-local]: pybind11 "), std::string::npos) << r.out;
  EXPECT_EQ(value, "11\n");
}

// build.wheelhouse's pybind11: pip --target put it in the build overlay, a PYTHONPATH entry, with its
// CMake config inside the package; the stand-in finds it there whichever Python the project runs
// (here none). A stand-in config (version 9.9.9) tells it from the system's. Near miss: a PYTHONPATH
// entry without that config is never taken. A configure with no language: no compiler runs.
TEST(CmakeFetchStandIn, AnOverlaysPybind11OnPythonpathIsFound) {
  if (util::run({"cmake", "--version"}, {std::chrono::seconds(60)}).exit_code != 0) GTEST_SKIP() << "no cmake here";
  ::ts::testkit::TempDir t{"ts-fetch-standin"};
  const fs::path root = t.path();
  fs::create_directories(root / "proj/pybind11");
  fs::copy_file(std::string(TS_SOURCE_DIR) + "/src/run/pyshim/fetch_pybind11.cmake", root / "proj/pybind11/CMakeLists.txt");
  std::ofstream(root / "proj/CMakeLists.txt") << "cmake_minimum_required(VERSION 3.18)\nproject(p NONE)\nadd_subdirectory(pybind11)\n";
  const fs::path cfg = root / "overlay/pybind11/share/cmake/pybind11";
  fs::create_directories(cfg);
  std::ofstream(cfg / "pybind11Config.cmake") << "set(pybind11_FOUND TRUE)\nset(pybind11_VERSION 9.9.9)\n"
                                                  "add_library(pybind11::headers INTERFACE IMPORTED)\n";
  fs::create_directories(root / "empty");
  auto configure = [&](const std::string& pythonpath, const std::string& build) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.extra_env = {{"PYTHONPATH", pythonpath}};
    return util::run({"cmake", "-S", (root / "proj").string(), "-B", (root / build).string()}, o);
  };
  auto r = configure((root / "empty").string() + ":" + (root / "overlay").string(), "b1");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("torchsmith [build.fetch-local]: pybind11 9.9.9 from " + cfg.string()), std::string::npos) << r.out;
  auto near = configure((root / "empty").string(), "b2");
  EXPECT_EQ((near.out + near.err).find(cfg.string()), std::string::npos) << near.out << near.err;
  EXPECT_EQ((near.out + near.err).find("9.9.9"), std::string::npos) << near.out << near.err;
}

// The shell rule: the plan's -D's go right after a configure call's `cmake` word; `cmake --build`,
// a word that merely ends in cmake, and a call that already has them are left as written.
TEST(PyshimCmakeRules, AShellCommandsConfigureCallGetsThePlansDefines) {
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u, os\n"
      "os.environ['CMAKE_ARGS'] = '-DFOO=1 -DFETCHCONTENT_SOURCE_DIR_PYBIND11=/p/f'\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "print(repr(m._cmake_shell('cd b\\n\\n   cmake -DX=1 /src\\n   make -j _m\\n')))\n"
      "print(repr(m._cmake_shell('cmake --build . && /usr/bin/cmake .. > log 2>&1 | tee x')))\n"
      "print(repr(m._cmake_shell('mycmake ..; echo cmake done')))\n"
      "print(repr(m._cmake_shell('cmake -DFETCHCONTENT_SOURCE_DIR_PYBIND11=/p/f ..')))\n";
  auto r = util::run({"/usr/bin/python3", "-c", code}, {std::chrono::seconds(60)});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out,
            "'cd b\\n\\n   cmake -DFETCHCONTENT_SOURCE_DIR_PYBIND11=/p/f -DX=1 /src\\n   make -j _m\\n'\n"
            "'cmake --build . && /usr/bin/cmake -DFETCHCONTENT_SOURCE_DIR_PYBIND11=/p/f .. > log 2>&1 | tee x'\n"
            "'mycmake ..; echo cmake done'\n"
            "'cmake -DFETCHCONTENT_SOURCE_DIR_PYBIND11=/p/f ..'\n");
}

// The argv rule itself: which calls are configure calls, and the -D spellings it replaces.
TEST(PyshimCmakeRules, ConfigureCallsGetThePlansDefines) {
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u, os\n"
      "os.environ['CMAKE_ARGS'] = '-DFOO=1 -DCMAKE_CUDA_ARCHITECTURES=86-real'\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "print(m._cmake_argv(['/usr/bin/cmake', 'src', '-D', 'CMAKE_CUDA_ARCHITECTURES=35', "
      "'-DCMAKE_CUDA_ARCHITECTURES:STRING=50', '-DOTHER=1']))\n"
      "print(m._cmake_argv(['cmake', '--build', '.']))\n"
      "print(m._cmake_argv(['ninja', '-DCMAKE_CUDA_ARCHITECTURES=35']))\n"
      "print(m._cmake_argv('cmake src'))\n";
  auto r = util::run({"/usr/bin/python3", "-c", code}, {std::chrono::seconds(60)});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out,
            "['/usr/bin/cmake', 'src', '-DOTHER=1', '-DCMAKE_CUDA_ARCHITECTURES=86-real']\n"
            "['cmake', '--build', '.']\n"
            "['ninja', '-DCMAKE_CUDA_ARCHITECTURES=35']\n"
            "cmake src\n");
}

// A plan's own cmake configure step (a CMake project with no Python build) is given the include
// when a CMake remedy is asked; its build step, another program or no remedy are left alone.
TEST(PyshimCmakeRules, APlansOwnConfigureStepGetsTheInclude) {
  const std::map<std::string, std::string> arches{{"TORCHSMITH_CMAKE_ARCHES", "86-real"}};
  const std::vector<std::string> configure{"/usr/bin/cmake", "-S", ".", "-B", "build-torchsmith", "-G", "Ninja"};
  EXPECT_EQ(cmake_include_define(configure, arches, "/o/.torchsmith/pyshim"),
            "-DCMAKE_PROJECT_INCLUDE_BEFORE=/o/.torchsmith/pyshim/torchsmith_project.cmake");
  EXPECT_EQ(cmake_include_define(configure, {{"TORCHSMITH_CMAKE_STD", "17"}}, "/d"),
            "-DCMAKE_PROJECT_INCLUDE_BEFORE=/d/torchsmith_project.cmake");
  EXPECT_EQ(cmake_include_define(configure, {{"TORCHSMITH_CMAKE_STD", ""}}, "/d"), "");
  EXPECT_EQ(cmake_include_define(configure, {}, "/d"), "");
  EXPECT_EQ(cmake_include_define({"cmake", "--build", "build-torchsmith", "-j", "2"}, arches, "/d"), "");
  EXPECT_EQ(cmake_include_define({"cmake", "-E", "env", "-S"}, arches, "/d"), "");
  EXPECT_EQ(cmake_include_define({"/usr/bin/python3", "-m", "pip", "wheel", "-S"}, arches, "/d"), "");
}

}  // namespace
}  // namespace ts::run

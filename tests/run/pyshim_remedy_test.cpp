// The build helper's build-environment remedies (src/run/pyshim/sitecustomize.py), each on a tiny
// package of tests/fixtures/projects/long_tail built by /usr/bin/python3 setup.py build_ext with
// Debian's torch: it fails (or builds the wrong thing) without the remedy, builds with it, and a
// near miss is left alone. Each build compiles one C++ file without torch headers (~2 s).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

struct Built {
  util::RunResult run;
  std::string value;  // the module's value(), "" when it did not import
};

class PyshimRemedy : public ::testing::Test {
 protected:
  void SetUp() override {
    auto probe = util::run({"/usr/bin/python3", "-c", "import torch.utils.cpp_extension"}, {std::chrono::seconds(60)});
    if (!probe.ok()) GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch): " << probe.err;
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
  }

  // fixture: a directory of long_tail/; helper: put the build helper on PYTHONPATH.
  Built build(const std::string& fixture, const std::string& name, std::map<std::string, std::string> env,
              bool helper = true) {
    Built b;
    fs::path tree = fs::path(dir_) / name;
    fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail" / fixture, tree, fs::copy_options::recursive);
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    if (helper) o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    b.run = util::run({"/usr/bin/python3", "setup.py", "build_ext", "--inplace"}, o);
    auto v = util::run({"/usr/bin/python3", "-c", "import lt_" + fixture + " as m; print(m.value())"},
                       {std::chrono::seconds(60), std::nullopt, {}, tree.string()});
    if (v.ok()) b.value = v.out;
    return b;
  }

  // A wheel of FIXTURE through torchsmith's PEP 517 frontend (the plan's build step), as a package's
  // failure shows only there; near: copy FIXTURE/ALT (one_of_two.py) over setup.py first. The wheel's
  // member names, one a line, are in value.
  Built wheel(const std::string& fixture, const std::string& name, std::map<std::string, std::string> env,
              bool near = false, const std::string& alt = "one_of_two.py") {
    Built b;
    fs::path tree = fs::path(dir_) / name;
    fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail" / fixture, tree, fs::copy_options::recursive);
    if (near) fs::copy_file(tree / alt, tree / "setup.py", fs::copy_options::overwrite_existing);
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    b.run = util::run({"/usr/bin/python3", "-m", "torchsmith_pep517", "-w", "dist", "."}, o);
    auto v = util::run({"/usr/bin/python3", "-c",
                        "import glob, zipfile\nfor w in glob.glob('dist/*.whl'):\n"
                        "    print('\\n'.join(sorted(n.split('.')[0] for n in zipfile.ZipFile(w).namelist() if n.endswith('.so'))))"},
                       {std::chrono::seconds(60), std::nullopt, {}, tree.string()});
    if (v.ok()) b.value = v.out;
    return b;
  }

  // A CUDA FIXTURE built with nvcc by the test venv's torch (Debian's CPU torch 1.13 refuses a
  // CUDAExtension: its _check_cuda_version reads torch.version.cuda), imported with the toolkit's
  // libcudart found; "" when no venv or toolkit is here (skip).
  std::string cuda_python() {
    const char* home = std::getenv("HOME");
    std::string py = std::string(home ? home : "/root") + "/.cache/torchsmith/test-venvs/torch-cu13/bin/python";
    if (!fs::exists(py) || !fs::exists("/usr/local/cuda/bin/nvcc")) return "";
    return py;
  }
  Built build_cuda(const std::string& py, const std::string& fixture, const std::string& name,
                   std::map<std::string, std::string> env, bool helper = true) {
    Built b;
    fs::path tree = fs::path(dir_) / name;
    fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail" / fixture, tree, fs::copy_options::recursive);
    util::RunOptions o;
    o.timeout = std::chrono::seconds(300);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    o.extra_env["CUDA_HOME"] = "/usr/local/cuda";
    o.extra_env["TORCH_CUDA_ARCH_LIST"] = "8.6";
    if (helper) o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    b.run = util::run({py, "setup.py", "build_ext", "--inplace"}, o);
    util::RunOptions i{std::chrono::seconds(60), std::nullopt, {}, tree.string()};
    i.extra_env["LD_LIBRARY_PATH"] = "/usr/local/cuda/lib64";
    auto v = util::run({py, "-c", "import lt_" + fixture + " as m; print(m.value())"}, i);
    b.value = v.ok() ? v.out : "import failed: " + v.err;
    return b;
  }

  ::ts::testkit::TempDir tmp_{"ts-pyshim-remedy"};
  std::string dir_;
};

// motion-sparsity's BuildExt: compiler_so.remove('-Wstrict-prototypes') raises on a Python whose CFLAGS
// lack it (CPython's since 3.7, Debian's 3.11 here); with build.compiler-flag-remove it builds and says
// so. Near miss: a flag the command holds (-Wall) is still removed, and nothing is said.
TEST_F(PyshimRemedy, RemovingAFlagTheCompilerLacksStopsTheBuild) {
  Built b = build("flag_remove", "plain", {{"TORCHSMITH_FLAG_REMOVE", "1"}}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE(b.run.err.find("ValueError: list.remove(x): x not in list"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "");
}

TEST_F(PyshimRemedy, FlagRemoveLetsTheBuildGoOn) {
  Built b = build("flag_remove", "tolerated", {{"TORCHSMITH_FLAG_REMOVE", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_EQ(b.value, "7\n");
  EXPECT_NE(b.run.err.find("[build.compiler-flag-remove] setup.py removes -Wstrict-prototypes from the compiler's "
                           "command, which does not hold it"),
            std::string::npos) << b.run.err;
  Built held = build("flag_remove", "held", {{"TORCHSMITH_FLAG_REMOVE", "1"}, {"REMOVED_FLAG", "-Wall"}});
  ASSERT_TRUE(held.run.ok()) << held.run.err;
  EXPECT_NE(held.run.out.find("lt_flag_remove: -Wall in compiler_so: False"), std::string::npos) << held.run.out;
  EXPECT_EQ(held.run.err.find("[build.compiler-flag-remove]"), std::string::npos) << held.run.err;
}

TEST_F(PyshimRemedy, WithoutAGpuASetupPyThatAsksForOneStops) {
  Built b = build("gpu_check", "plain", {});
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE(b.run.err.find("Cuda is not available"), std::string::npos) << b.run.err;
}

TEST_F(PyshimRemedy, GpuTargetAnswersForThePlannedArch) {
  Built b = build("gpu_check", "target", {{"TORCHSMITH_GPU_TARGET", "8.6"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_NE(b.run.err.find("[build.gpu-target] no GPU here: torch.cuda answers for the planned target 8.6"),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "86\n");  // the capability setup.py read is the plan's
}

TEST_F(PyshimRemedy, GpuTargetThatIsNoCapabilityIsNotApplied) {
  Built b = build("gpu_check", "garbage", {{"TORCHSMITH_GPU_TARGET", "sm86"}});
  EXPECT_FALSE(b.run.ok());
  EXPECT_EQ(b.run.err.find("[build.gpu-target]"), std::string::npos) << b.run.err;
}

TEST_F(PyshimRemedy, AnOldStdFlagFailsWithoutTheRemedy) {
  Built b = build("old_std", "plain", {{"TORCHSMITH_CXX_STD", "14"}}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("make_unique"), std::string::npos) << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, CxxStdRaisesAnOlderStandard) {
  Built b = build("old_std", "raised", {{"TORCHSMITH_CXX_STD", "14"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.cxx-std] lt_old_std: -std=c++11 -> -std=c++14"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "14\n");
}

TEST_F(PyshimRemedy, CxxStdKeepsANewerStandard) {
  Built b = build("old_std", "newer", {{"TORCHSMITH_CXX_STD", "14"}, {"OLD_STD_FLAG", "-std=gnu++17"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_EQ(b.run.err.find("[build.cxx-std]"), std::string::npos) << b.run.err;
  EXPECT_NE(b.run.out.find("-std=gnu++17"), std::string::npos);
}

TEST_F(PyshimRemedy, OwnGencodeFlagsFailWithoutTheRemedy) {
  Built b = build("own_arches", "plain", {}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("gencode"), std::string::npos) << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, ArchListOfThePlanWins) {
  Built b = build("own_arches", "planned", {{"TORCHSMITH_ARCH_LIST", "8.6"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.arch-list] setup.py sets TORCH_CUDA_ARCH_LIST=3.5;5.0: kept the plan's 8.6"),
            std::string::npos) << b.run.err;
  EXPECT_NE(b.run.err.find("dropped -gencode arch=compute_35,code=sm_35 -arch=sm_50"), std::string::npos);
  EXPECT_EQ(b.value, "86\n");  // setup.py read back the plan's list
}

// flame-1's rasterizer: setup.py sets CC and CXX to gcc-8, which this machine lacks; with
// build.host-compiler the plan's gcc/g++ compile it and the helper says so. Near miss: a setup.py
// naming the plan's own compiler (g++ for CC: the plan's CXX) is kept as written, and nothing said.
TEST_F(PyshimRemedy, ItsOwnCompilerThatIsNotHereStopsTheBuild) {
  if (!util::run({"/bin/sh", "-c", "command -v gcc-8"}, {std::chrono::seconds(10)}).out.empty())
    GTEST_SKIP() << "gcc-8 is installed here";
  Built b = build("own_compiler", "plain", {{"CC", "gcc"}, {"CXX", "g++"}, {"TORCHSMITH_HOST_COMPILER", "1"}}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("gcc-8"), std::string::npos) << b.run.out << b.run.err;
  EXPECT_EQ(b.value, "");
}

TEST_F(PyshimRemedy, HostCompilerOfThePlanWins) {
  Built b = build("own_compiler", "planned", {{"CC", "gcc"}, {"CXX", "g++"}, {"TORCHSMITH_HOST_COMPILER", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.host-compiler] setup.py sets CC=gcc-8: kept the plan's gcc"), std::string::npos)
      << b.run.err;
  EXPECT_NE(b.run.err.find("[build.host-compiler] setup.py sets CXX=gcc-8: kept the plan's g++"), std::string::npos);
  EXPECT_NE(b.value, "");
  Built same = build("own_compiler", "same", {{"CC", "gcc"}, {"CXX", "g++"}, {"TORCHSMITH_HOST_COMPILER", "1"},
                                              {"OWN_COMPILER", "/usr/bin/g++"}});
  ASSERT_TRUE(same.run.ok()) << same.run.out << same.run.err;
  EXPECT_EQ(same.run.err.find("[build.host-compiler]"), std::string::npos) << same.run.err;
  EXPECT_NE(same.run.out.find("/usr/bin/g++ "), std::string::npos) << same.run.out;  // setup.py's own spelling ran
}

// A setup.py that writes its own link command (LDSHARED = "gcc-8 -pthread -shared", a compiler this
// machine lacks): distutils links a C extension with it. With build.host-compiler the plan's C compiler
// links, the flags as written. Near miss: an LDSHARED naming the plan's own compiler is kept, nothing said.
TEST_F(PyshimRemedy, ItsOwnLinkCommandThatIsNotHereStopsTheBuild) {
  if (!util::run({"/bin/sh", "-c", "command -v gcc-8"}, {std::chrono::seconds(10)}).out.empty())
    GTEST_SKIP() << "gcc-8 is installed here";
  Built b = build("own_c_compiler", "plain", {{"CC", "gcc"}, {"CXX", "g++"}, {"OWN_CC", "gcc"}, {"TORCHSMITH_HOST_COMPILER", "1"}},
                  false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("gcc-8"), std::string::npos) << b.run.out << b.run.err;
  EXPECT_EQ(b.value, "");
}

TEST_F(PyshimRemedy, LinkCommandOfThePlanWins) {
  Built b = build("own_c_compiler", "planned", {{"CC", "gcc"}, {"CXX", "g++"}, {"OWN_CC", "gcc"}, {"TORCHSMITH_HOST_COMPILER", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.host-compiler] setup.py sets LDSHARED=gcc-8 -pthread -shared: kept the plan's gcc "
                           "-pthread -shared"), std::string::npos) << b.run.err;
  EXPECT_NE(b.value, "");
  Built same = build("own_c_compiler", "same", {{"CC", "gcc"}, {"CXX", "g++"}, {"OWN_CC", "gcc"}, {"OWN_LDSHARED", "gcc -shared"},
                                                {"TORCHSMITH_HOST_COMPILER", "1"}});
  ASSERT_TRUE(same.run.ok()) << same.run.out << same.run.err;
  EXPECT_EQ(same.run.err.find("[build.host-compiler]"), std::string::npos) << same.run.err;
  EXPECT_NE(same.run.out.find("gcc -shared "), std::string::npos) << same.run.out;  // setup.py's own line ran
}

// A plan that named only a C++ compiler (its CC is its CXX, g++): setup.py's CC = "gcc-8" got g++, which
// compiles module.c as C++ and stops at its `class`. The C driver beside it (gcc) compiles C instead;
// with none beside it (a C++ driver named mycxx), distutils' default C compiler does. Near miss: a plan
// with a C compiler of its own keeps it, as before.
TEST_F(PyshimRemedy, CcOfAPlanWithOnlyACxxCompilerIsACCompiler) {
  Built b = build("own_c_compiler", "cxx-only", {{"CC", "g++"}, {"CXX", "g++"}, {"TORCHSMITH_HOST_COMPILER", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.host-compiler] setup.py sets CC=gcc-8: kept the plan's gcc "), std::string::npos)
      << b.run.err;
  EXPECT_NE(b.value, "");
  fs::create_symlink("/usr/bin/g++", fs::path(dir_) / "mycxx");
  const std::string mycxx = dir_ + "/mycxx";
  Built lone = build("own_c_compiler", "lone", {{"CC", mycxx}, {"CXX", mycxx}, {"TORCHSMITH_HOST_COMPILER", "1"}});
  ASSERT_TRUE(lone.run.ok()) << lone.run.out << lone.run.err;
  EXPECT_NE(lone.run.err.find("[build.host-compiler] setup.py sets CC=gcc-8: the plan names no C compiler"),
            std::string::npos) << lone.run.err;
  EXPECT_NE(lone.value, "");
  Built own = build("own_c_compiler", "own-cc", {{"CC", "gcc"}, {"CXX", "g++"}, {"TORCHSMITH_HOST_COMPILER", "1"}});
  ASSERT_TRUE(own.run.ok()) << own.run.out << own.run.err;
  EXPECT_NE(own.run.err.find("[build.host-compiler] setup.py sets CC=gcc-8: kept the plan's gcc "), std::string::npos);
}

// pytorch_winoconv's setup.py runs make, whose Makefile passes g++ -std=c++14 (torch 2.x's headers need
// C++17 or 20; the fixture's std.cpp refuses the same way) and nvcc -gencode from sm_30: compiles
// cpp_extension never sees. With build.tool-flags the wrappers first on PATH raise the standard of the
// compile against torch's headers and give nvcc the plan's arches. Near misses: the Makefile's C++11
// library compiled without torch's include directory keeps its standard, a newer -std is kept; no
// TORCHSMITH_TOOL_WRAP, no wrapper.
TEST_F(PyshimRemedy, AMakefilesOwnStdStopsTheBuild) {
  Built b = build("make_flags", "plain", {{"TORCHSMITH_TOOL_WRAP", "g++ gcc c++ cc"}, {"TORCHSMITH_CXX_STD", "17"}}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("C++17 or later compatible compiler is required"), std::string::npos)
      << b.run.out << b.run.err;
  EXPECT_EQ(b.value, "");
  Built off = build("make_flags", "off", {{"TORCHSMITH_CXX_STD", "17"}});
  EXPECT_FALSE(off.run.ok());
  EXPECT_EQ(off.run.err.find("[build.tool-flags]"), std::string::npos) << off.run.err;
}

TEST_F(PyshimRemedy, ToolFlagsRaiseTheMakefilesStd) {
  Built b = build("make_flags", "wrapped", {{"TORCHSMITH_TOOL_WRAP", "g++ gcc c++ cc"}, {"TORCHSMITH_CXX_STD", "17"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.tool-flags] g++: -std=c++11 -> -std=c++17"), std::string::npos) << b.run.err;
  // plain.cpp, compiled without torch's include directory, keeps its C++11 (it refuses a newer one).
  EXPECT_EQ(b.run.err.find("[build.tool-flags] g++:"), b.run.err.rfind("[build.tool-flags] g++:")) << b.run.err;
  EXPECT_EQ(b.value, "2017\n");
  Built newer = build("make_flags", "newer", {{"TORCHSMITH_TOOL_WRAP", "g++ gcc c++ cc"}, {"TORCHSMITH_CXX_STD", "17"},
                                              {"OWN_STD", "-std=c++20"}});
  ASSERT_TRUE(newer.run.ok()) << newer.run.out << newer.run.err;
  EXPECT_EQ(newer.run.err.find("[build.tool-flags] g++:"), std::string::npos) << newer.run.err;
  EXPECT_EQ(newer.value, "2020\n");
}

// The Makefile's $(CXX) from the environment, the plan's absolute path (make runs it with no PATH lookup),
// and make's own -j8: through the wrappers the compile against torch's headers is raised and make runs
// the plan's MAX_JOBS. Near miss: the same environment with no TORCHSMITH_TOOL_WRAP stops on the standard.
TEST_F(PyshimRemedy, ToolFlagsReachTheEnvironmentsCompilerAndMakesJobs) {
  std::map<std::string, std::string> env = {{"CXX", "/usr/bin/g++"}, {"TORCHSMITH_CXX_STD", "17"}, {"MAX_JOBS", "2"}};
  Built plain = build("make_flags", "env-plain", env);
  EXPECT_FALSE(plain.run.ok());
  EXPECT_NE((plain.run.out + plain.run.err).find("C++17 or later compatible compiler is required"), std::string::npos)
      << plain.run.out << plain.run.err;
  env["TORCHSMITH_TOOL_WRAP"] = "g++ gcc c++ cc make";
  Built b = build("make_flags", "env", env);
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.tool-flags] $CXX: /usr/bin/g++ runs through its wrapper"), std::string::npos) << b.run.err;
  EXPECT_NE(b.run.err.find("[build.tool-flags] make: -j8 -> -j2, the plan's jobs (MAX_JOBS)"), std::string::npos) << b.run.err;
  EXPECT_NE(b.run.err.find("[build.tool-flags] /usr/bin/g++: -std=c++11 -> -std=c++17"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "2017\n");
}

TEST_F(PyshimRemedy, ToolFlagsGiveTheMakefilesNvccThePlansArches) {
  if (!fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  const char* path = std::getenv("PATH");
  std::map<std::string, std::string> env = {{"PATH", "/usr/local/cuda/bin:" + std::string(path ? path : "/usr/bin:/bin")},
                                            {"MAKE_CUDA", "1"}, {"OWN_STD", "-std=c++17"},
                                            {"TORCHSMITH_TOOL_WRAP", "nvcc g++ gcc c++ cc"}, {"TORCHSMITH_ARCH_LIST", "8.6"}};
  Built plain = build("make_flags", "cuda-plain", env, false);
  EXPECT_FALSE(plain.run.ok());
  EXPECT_NE((plain.run.out + plain.run.err).find("compute_30"), std::string::npos) << plain.run.out << plain.run.err;
  Built b = build("make_flags", "cuda", env);
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.tool-flags] nvcc: -gencode arch=compute_30,code=sm_30 "
                           "-gencode=arch=compute_35,code=sm_35 -> the plan's arches 8.6"), std::string::npos) << b.run.err;
  std::ifstream in(dir_ + "/cuda/objs/kernel.o", std::ios::binary);
  std::string object((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(object.find("sm_86"), std::string::npos);
  EXPECT_EQ(object.find("sm_35"), std::string::npos);
}

TEST_F(PyshimRemedy, ARelativeIncludeFailsWithoutTheRemedy) {
  Built b = build("rel_include", "plain", {}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("lt_value.h"), std::string::npos) << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, AbsIncludeFindsTheHeader) {
  Built b = build("rel_include", "absolute", {{"TORCHSMITH_ABS_INCLUDE", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.abs-include] lt_rel_include: -Iinclude made absolute against "), std::string::npos)
      << b.run.err;
  EXPECT_EQ(b.value, "7\n");
}

// Near miss: an absolute -I is the package's own choice and is left as it is (nothing to say).
TEST_F(PyshimRemedy, AbsIncludeKeepsAnAbsolutePath) {
  fs::path inc = fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail/rel_include/include";
  Built b = build("rel_include", "already", {{"TORCHSMITH_ABS_INCLUDE", "1"}, {"REL_INCLUDE_FLAG", "-I" + inc.string()}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_EQ(b.run.err.find("[build.abs-include]"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "7\n");
}

// torch-mesh-isect: include_dirs=[..., 'include', '$CUDA_SAMPLES_INC']. cpp_extension makes only the
// compiler's own include_dirs absolute, not an extension's: under ninja "include" finds nothing.
TEST_F(PyshimRemedy, ARelativeIncludeDirFailsWithoutTheRemedyAndBuildsWithIt) {
  Built plain = build("rel_include", "dirs-plain", {{"REL_INCLUDE_DIRS", "include"}}, false);
  EXPECT_FALSE(plain.run.ok());
  EXPECT_NE((plain.run.out + plain.run.err).find("lt_value.h"), std::string::npos) << plain.run.out << plain.run.err;
  // Near miss: "$CUDA_SAMPLES_INC" names no directory beside setup.py and is left as written.
  Built b = build("rel_include", "dirs-absolute",
                  {{"TORCHSMITH_ABS_INCLUDE", "1"}, {"REL_INCLUDE_DIRS", "include $CUDA_SAMPLES_INC"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.abs-include] lt_rel_include: include_dirs include made absolute against "),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.run.err.find("include_dirs include $CUDA_SAMPLES_INC"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "7\n");
}

// CUDA 13 keeps CCCL under include/cccl, which nvcc adds and g++ does not: a .cpp including
// <cuda/std/complex> (safari's fftconv.cpp) stops. Read from the toolkit's layout, not its version.
TEST_F(PyshimRemedy, ACcclHeaderFromTheHostCompilerFailsWithoutTheRemedy) {
  std::string home = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/cccl_host/toolkit";
  Built b = build("cccl_host", "plain", {{"CUDA_HOME", home}}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("cuda/std/complex: No such file or directory"), std::string::npos)
      << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, CcclIncludeGivesTheHostCompilerTheToolkitsCccl) {
  std::string home = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/cccl_host/toolkit";
  Built b = build("cccl_host", "cccl", {{"CUDA_HOME", home}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.cccl-include] lt_cccl_host: -isystem " + home + "/include/cccl for the host compiler"),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "13\n");
}

// Near misses: an extension that does not ask for the toolkit's include/ is left alone, and so is
// every extension when the toolkit has no include/cccl (CUDA 12's layout).
TEST_F(PyshimRemedy, CcclIncludeOnlyWhereTheToolkitsIncludeIsAsked) {
  std::string home = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/cccl_host/toolkit";
  Built b = build("cccl_host", "no-toolkit-include", {{"CUDA_HOME", home}, {"CCCL_TOOLKIT_INCLUDE", "0"}});
  EXPECT_FALSE(b.run.ok());
  EXPECT_EQ(b.run.err.find("[build.cccl-include]"), std::string::npos) << b.run.err;
  Built old = build("cccl_host", "cuda12-layout", {{"CUDA_HOME", home + "/include"}});
  EXPECT_FALSE(old.run.ok());
  EXPECT_EQ(old.run.err.find("[build.cccl-include]"), std::string::npos) << old.run.err;
}

// DSMNet's sync_bn: setup() twice at the top level. The second call's bdist_wheel finds the build
// directory the first removed; with the remedy one wheel holds both extensions.
// fairseq's lightconv_layer: the kernel includes files cuda_function_gen.py writes, which setup.py never runs.
// mlp_maps' hashencoder: setup.py's extension has no name (commented out), the package's Python
// builds the same sources with load(name=...). Without the remedy setup.py stops; with it the
// extension gets load()'s name; near miss: a load() over other sources names nothing.
TEST_F(PyshimRemedy, AnExtensionWithoutANameFailsWithoutTheRemedy) {
  Built b = build("no_name", "no-name-plain", {}, true);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE(b.run.err.find("CppExtension() missing 1 required positional argument: 'name'"), std::string::npos) << b.run.err;
}

TEST_F(PyshimRemedy, ExtensionNameTakesThePackagesLoadName) {
  Built b = build("no_name", "no-name-named", {{"TORCHSMITH_EXT_NAME", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.extension-name] CppExtension() has no name: 'lt_no_name', the name the package's own "
                           "load() gives the same sources (module.cpp"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "7\n");
}

TEST_F(PyshimRemedy, ExtensionNameLeavesALoadOfOtherSources) {
  fs::path tree = fs::path(dir_) / "no-name-other-src";
  fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail/no_name", tree, fs::copy_options::recursive);
  std::ofstream(tree / "backend.py") << "from torch.utils.cpp_extension import load\n"
                                        "_backend = load(name='lt_no_name', sources=['other.cpp'])\n";
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  o.cwd = tree.string();
  o.extra_env = {{"TORCHSMITH_EXT_NAME", "1"}, {"PYTHONPATH", dir_ + "/pyshim"}};
  auto r = util::run({"/usr/bin/python3", "setup.py", "build_ext", "--inplace"}, o);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.err.find("missing 1 required positional argument: 'name'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[build.extension-name]"), std::string::npos) << r.err;
}

TEST_F(PyshimRemedy, AGeneratedSourceFailsWithoutTheRemedy) {
  Built b = build("gen_source", "gen-plain", {}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("lt_generated.h"), std::string::npos) << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, GenerateSourcesRunsThePackagesScriptFirst) {
  Built b = build("gen_source", "gen-run", {{"TORCHSMITH_GENERATE", "gen_header.py:lt_generated.h"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.generate-sources] running gen_header.py, which writes lt_generated.h"), std::string::npos)
      << b.run.err;
  EXPECT_EQ(b.value, "11\n");
}

// Near miss: the file is there already (generated before, or committed): the script is not run again.
TEST_F(PyshimRemedy, GenerateSourcesLeavesAFileThatIsThere) {
  fs::path tree = fs::path(dir_) / "gen-there-src";
  fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail/gen_source", tree, fs::copy_options::recursive);
  std::ofstream(tree / "lt_generated.h") << "#define LT_GENERATED 5\n";
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  o.cwd = tree.string();
  o.extra_env = {{"TORCHSMITH_GENERATE", "gen_header.py:lt_generated.h"}, {"PYTHONPATH", dir_ + "/pyshim"}};
  auto r = util::run({"/usr/bin/python3", "setup.py", "build_ext", "--inplace"}, o);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_EQ(r.err.find("[build.generate-sources]"), std::string::npos) << r.err;
  auto v = util::run({"/usr/bin/python3", "-c", "import lt_gen_source as m; print(m.value())"},
                     {std::chrono::seconds(60), std::nullopt, {}, tree.string()});
  EXPECT_EQ(v.out, "5\n") << v.err;
}

TEST_F(PyshimRemedy, TwoSetupCallsFailAWheelWithoutTheRemedy) {
  Built b = wheel("two_setups", "two-plain", {});
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("could not create 'build/bdist."), std::string::npos) << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, OneSetupBuildsBothExtensionsInOneWheel) {
  Built b = wheel("two_setups", "two-one", {{"TORCHSMITH_ONE_SETUP", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.one-setup] setup.py calls setup() 2 times: call 1 (lt-two-setups-a) held back"),
            std::string::npos) << b.run.err;
  EXPECT_NE(b.run.err.find("[build.one-setup] the 2 setup() calls built as one distribution lt-two-setups-a with the "
                           "extensions lt_two_setups_a, lt_two_setups_b; the first call's name='lt-two-setups-a' kept"),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "lt_two_setups_a\nlt_two_setups_b\n");
}

// crfrnn_layer: both calls under `if __name__ == "__main__":` (setuptools' backend, finding two wheels
// in its folder, said "No distribution was found"); held back and built as one, as at the top level.
TEST_F(PyshimRemedy, OneSetupTakesTheCallsOfTheMainBlock) {
  Built b = wheel("two_setups", "main-block", {{"TORCHSMITH_ONE_SETUP", "1"}}, true, "main_block.py");
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.one-setup] setup.py calls setup() 2 times: call 1 (lt-two-setups-a) held back"),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "lt_two_setups_a\nlt_two_setups_b\n");
}

// torchcv's nms: the two calls' build_ext differ (call 1's routes compiles by a dict of flags, call
// 2's is torch's BuildExtension). One class for both fed call 2's list to call 1's routing; each call's
// extensions are built by its own class, and the near miss (one class) keeps the merged one.
TEST_F(PyshimRemedy, OneSetupBuildsEachCallsExtensionsWithItsOwnBuildExt) {
  Built b = wheel("two_setups", "builders", {{"TORCHSMITH_ONE_SETUP", "1"}}, true, "two_builders.py");
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.one-setup] lt_two_setups_a built with its own call's build_ext (__main__.custom_build_ext)"),
            std::string::npos) << b.run.err;
  EXPECT_NE(b.run.err.find("[build.one-setup] lt_two_setups_b built with its own call's build_ext "
                           "(torch.utils.cpp_extension.BuildExtension)"),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "lt_two_setups_a\nlt_two_setups_b\n");
  Built same = wheel("two_setups", "same-builder", {{"TORCHSMITH_ONE_SETUP", "1"}});
  ASSERT_TRUE(same.run.ok()) << same.run.out << same.run.err;
  EXPECT_EQ(same.run.err.find("built with its own call's build_ext"), std::string::npos) << same.run.err;
}

// Near miss: two setup() calls under if/else, only one of which runs, are never held back.
TEST_F(PyshimRemedy, OneSetupLeavesCallsThatAreNotAllAtTheTopLevel) {
  Built b = wheel("two_setups", "two-near", {{"TORCHSMITH_ONE_SETUP", "1"}, {"LT_WHICH", "b"}}, true);
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_EQ(b.run.err.find("[build.one-setup]"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "lt_two_setups_b\n");
}

// The flag rules themselves, called in the helper: what is dropped, what is raised, what is kept.
// gauenk/dnls' class: setup.py lists its top package only; the wheel lacks the subpackage its
// __init__ imports (an editable install hid it). Pure Python, no compile: a wheel in about a second.
std::string wheel_python_files(const std::string& dir, const std::string& name, std::map<std::string, std::string> env,
                               util::RunResult& run) {
  fs::path tree = fs::path(dir) / name;
  fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail/subpackages", tree, fs::copy_options::recursive);
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  o.cwd = tree.string();
  o.extra_env = std::move(env);
  o.extra_env["PYTHONPATH"] = dir + "/pyshim";
  run = util::run({"/usr/bin/python3", "-m", "torchsmith_pep517", "-w", "dist", "."}, o);
  auto v = util::run({"/usr/bin/python3", "-c",
                      "import glob, zipfile\nfor w in glob.glob('dist/*.whl'):\n"
                      "    print(' '.join(sorted(n for n in zipfile.ZipFile(w).namelist() if n.endswith('.py'))))"},
                     {std::chrono::seconds(60), std::nullopt, {}, tree.string()});
  return v.ok() ? v.out : "";
}

TEST_F(PyshimRemedy, SubpackagesAreMissingFromTheWheelWithoutTheRemedy) {
  util::RunResult run;
  EXPECT_EQ(wheel_python_files(dir_, "sub-plain", {}, run), "lt_subpackages/__init__.py\n") << run.out << run.err;
}

TEST_F(PyshimRemedy, SubpackagesOfAListedPackageAreAdded) {
  util::RunResult run;
  EXPECT_EQ(wheel_python_files(dir_, "sub-added", {{"TORCHSMITH_SUBPACKAGES", "1"}}, run),
            "lt_subpackages/__init__.py lt_subpackages/utils/__init__.py lt_subpackages/utils/deep/__init__.py\n")
      << run.out << run.err;
  EXPECT_NE(run.err.find("[build.subpackages] setup()'s packages lt_subpackages: added their subpackages "
                         "lt_subpackages.utils, lt_subpackages.utils.deep"),
            std::string::npos) << run.err;
}

// Near miss: everything is listed already (nothing added, the helper says so); an unlisted top-level
// package (lt_other) and a folder with no __init__.py (data/) never come in.
TEST_F(PyshimRemedy, SubpackagesLeaveAListThatIsComplete) {
  util::RunResult run;
  EXPECT_EQ(wheel_python_files(dir_, "sub-listed", {{"TORCHSMITH_SUBPACKAGES", "1"}, {"SUBPACKAGES_LISTED", "1"}}, run),
            "lt_subpackages/__init__.py lt_subpackages/utils/__init__.py lt_subpackages/utils/deep/__init__.py\n")
      << run.out << run.err;
  EXPECT_NE(run.err.find("have no unlisted subpackage"), std::string::npos) << run.err;
}

TEST(PyshimRemedyRules, FlagRewrites) {
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "print(m._drop_arch_flags(['-O3', '-gencode=arch=compute_60,code=sm_60', '--generate-code', 'x', "
      "'-arch', 'sm_70', '--use_fast_math', '-DARCH=1'])[0])\n"
      "print(m._raise_std(['-std=c++14', '--std=gnu++1z', '-std', 'c++11', '-std=c++20', '-std=foo', '-O2'], 17)[0])\n"
      "print(m._absolute_includes(['-Iinc', '-I', 'a/b', '-I/abs', '-isystem', 's', '-I../up', '-DI=1', '-O2'], '/p/q')[0])\n";
  auto r = util::run({"/usr/bin/python3", "-c", code}, {std::chrono::seconds(60)});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out,
            "['-O3', '--use_fast_math', '-DARCH=1']\n"
            "['-std=c++17', '--std=gnu++1z', '-std=c++17', '-std=c++20', '-std=foo', '-O2']\n"
            "['-I/p/q/inc', '-I', '/p/q/a/b', '-I/abs', '-isystem', '/p/q/s', '-I/p/up', '-DI=1', '-O2']\n");
}

// build.tool-flags' rewrite of one command: nvcc's own arch flags (each spelling) become the plan's, a .cu
// compile with none gets them, an older -std of a compile against torch's headers is raised; near misses:
// nvcc --version and a command with no arch flags or .cu compile are left alone, a C standard (-std=c99),
// a newer C++ one and one of a compile that names no torch include directory are kept.
TEST(PyshimRemedyRules, ToolFlagRewrites) {
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "print(m._tool_args('nvcc', ['-arch=sm_35', '-O3', '-arch', 'sm_50', '--gpu-architecture=compute_60', '-c', 'k.cu', "
      "'-std=c++14', '-I/v/torch/include'], '8.6;9.0+PTX', 20)[0])\n"
      "print(m._tool_args('nvcc', ['-c', 'k.cu', '-o', 'k.o'], '8.6', 0)[0])\n"
      "print(m._tool_args('nvcc', ['--version'], '8.6', 20)[0])\n"
      "print(m._tool_args('nvcc', ['-dlink', 'a.o', '-o', 'l.o'], '8.6', 0)[0])\n"
      "print(m._tool_args('gcc', ['-std=c99', '-c', 'x.c', '-I/v/torch/include'], '8.6', 20)[0])\n"
      "print(m._tool_args('g++', ['-std=gnu++14', '-gencode', 'x', '-isystem', '/v/torch/include', '-c', 'x.cpp'], '8.6', 17)[0])\n"
      "print(m._tool_args('g++', ['-std=c++20', '-I/v/torch/include', '-c', 'x.cpp'], '', 17)[0])\n"
      "print(m._tool_args('g++', ['-std=c++11', '-Iinclude', '-c', 'x.cpp'], '', 17)[0])\n";
  auto r = util::run({"/usr/bin/python3", "-c", code}, {std::chrono::seconds(60)});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out,
            "['-O3', '-c', 'k.cu', '-std=c++20', '-I/v/torch/include', '-gencode=arch=compute_86,code=sm_86', "
            "'-gencode=arch=compute_90,code=sm_90', '-gencode=arch=compute_90,code=compute_90']\n"
            "['-c', 'k.cu', '-o', 'k.o', '-gencode=arch=compute_86,code=sm_86']\n"
            "['--version']\n"
            "['-dlink', 'a.o', '-o', 'l.o']\n"
            "['-std=c99', '-c', 'x.c', '-I/v/torch/include']\n"
            "['-std=c++17', '-gencode', 'x', '-isystem', '/v/torch/include', '-c', 'x.cpp']\n"
            "['-std=c++20', '-I/v/torch/include', '-c', 'x.cpp']\n"
            "['-std=c++11', '-Iinclude', '-c', 'x.cpp']\n");
}

// build.tool-flags' make: its own -j (each spelling, unlimited too) becomes the plan's MAX_JOBS; near
// misses: a make with no -j, a -j in a file name or a variable, and no MAX_JOBS known are left alone.
TEST(PyshimRemedyRules, MakesOwnJobsBecomeThePlans) {
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "print(m._tool_args('make', ['-j16', 'all'], '8.6', 17, 2))\n"
      "print(m._tool_args('/usr/bin/make', ['-C', 'src', '-j', '8'], '', 0, 2))\n"
      "print(m._tool_args('gmake', ['-j', 'install'], '', 0, 3))\n"
      "print(m._tool_args('make', ['--jobs=32'], '', 0, 2)[0], m._tool_args('make', ['--jobs', '4', 'x'], '', 0, 2)[0])\n"
      "print(m._tool_args('make', ['all'], '8.6', 17, 2))\n"
      "print(m._tool_args('make', ['-f', 'Makefile.-j8', 'J=-j8', '-std=c++14'], '8.6', 17, 2))\n"
      "print(m._tool_args('make', ['-j8'], '', 0, 0))\n";
  auto r = util::run({"/usr/bin/python3", "-c", code}, {std::chrono::seconds(60)});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out,
            "(['-j2', 'all'], [\"-j16 -> -j2, the plan's jobs (MAX_JOBS)\"])\n"
            "(['-j2', '-C', 'src'], [\"-j 8 -> -j2, the plan's jobs (MAX_JOBS)\"])\n"
            "(['-j3', 'install'], [\"-j -> -j3, the plan's jobs (MAX_JOBS)\"])\n"
            "['-j2'] ['-j2', 'x']\n"
            "(['all'], [])\n"
            "(['-f', 'Makefile.-j8', 'J=-j8', '-std=c++14'], [])\n"
            "(['-j8'], [])\n");
}

// A Makefile's $(CXX)/$(CC)/$(NVCC) from the environment is the plan's absolute path, which make runs with
// no PATH lookup: each such variable naming a wrapped tool points at a wrapper (under the tool's own name)
// that runs that very path. Near misses: a variable naming a tool not wrapped, one of two words (a
// launcher), a bare name (found on PATH anyway) and no TORCHSMITH_TOOL_WRAP are left as they are.
TEST(PyshimRemedyRules, TheEnvironmentsCompilersRunThroughTheWrappers) {
  testkit::TempDir dir{"ts-envtools"};
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u, os, subprocess\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "m._tools_dir = lambda: '" + dir.path() + "/tools'\n"
      "m._say = lambda s: None\n"
      "os.environ.update(dict(a.split('=', 1) for a in os.environ.get('TEST_ENV', '').split('|') if a))\n"
      "m._wrap_tools()\n"
      "for v in ('CC', 'CXX', 'NVCC', 'LD'):\n"
      "    print(v, os.environ.get(v, '').replace('" + dir.path() + "', 'D'))\n"
      "print(subprocess.run([os.environ['CXX'], '-std=c++14', '-I/v/torch/include', '-c', 'x.cpp'],"
      " capture_output=True, text=True).stdout.strip().replace('" + dir.path() + "', 'D'))\n";
  // The environment's compiler: a script that prints what it is given (no compiler runs here).
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin/g++") << "#!/bin/sh\necho \"$0 $@\"\n";
  fs::permissions(dir / "bin/g++", fs::perms::owner_all);
  const std::string cxx = dir / "bin/g++";
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  // Set after the module is loaded: loading it with TORCHSMITH_TOOL_WRAP set would wrap in its own folder.
  o.extra_env = {{"TEST_ENV", "TORCHSMITH_TOOL_WRAP=g++ gcc c++ cc|TORCHSMITH_CXX_STD=20|CXX=" + cxx + "|"
                              "CC=ccache /usr/bin/gcc|NVCC=/usr/local/cuda/bin/nvcc|LD=/usr/bin/g++"}};
  auto r = util::run({"/usr/bin/python3", "-c", code}, o);
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, "CC ccache /usr/bin/gcc\nCXX D/tools/CXX/g++\nNVCC /usr/local/cuda/bin/nvcc\nLD /usr/bin/g++\n"
                   "D/bin/g++ -std=c++20 -I/v/torch/include -c x.cpp\n");
  o.extra_env = {{"TEST_ENV", "CXX=" + cxx}};
  auto off = util::run({"/usr/bin/python3", "-c", code}, o);
  ASSERT_TRUE(off.ok()) << off.err;
  EXPECT_NE(off.out.find("\nCXX D/bin/g++\n"), std::string::npos) << off.out;
  EXPECT_NE(off.out.find("D/bin/g++ -std=c++14 -I/v/torch/include -c x.cpp"), std::string::npos) << off.out;
}

// Vox-Fusion's marching_cubes: the helper's absolute -I (or any path) held 'marching', so torch's
// cpp_extension, which adds no arch flags when an nvcc flag holds 'arch', let nvcc compile for its
// default sm_75. With the plan's TORCH_CUDA_ARCH_LIST the check sees real arch flags only; near miss:
// the package's own -gencode still makes cpp_extension add none (build.arch-list's drop handles it).
TEST(PyshimRemedyRules, AFlagThatMerelyHoldsArchKeepsThePlansArches) {
  auto probe = util::run({"/usr/bin/python3", "-c", "import torch.utils.cpp_extension"}, {std::chrono::seconds(60)});
  if (!probe.ok()) GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch): " << probe.err;
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u, torch.utils.cpp_extension as c\n"
      "inc = ['-O2', '-I/tmp/out/torchsmith-voxfusion-marching-cubes/src/include']\n"
      "print(c._get_cuda_arch_flags(inc))\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "m._guard_arch_check(c)\n"
      "print(c._get_cuda_arch_flags(inc))\n"
      "print(c._get_cuda_arch_flags(inc + ['-gencode', 'arch=compute_35,code=sm_35']))\n"
      "print(c._get_cuda_arch_flags(['-arch=sm_50']))\n";
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  o.extra_env = {{"TORCH_CUDA_ARCH_LIST", "8.6"}};
  auto r = util::run({"/usr/bin/python3", "-c", code}, o);
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out,
            "[]\n"
            "['-gencode=arch=compute_86,code=sm_86']\n"
            "[]\n"
            "[]\n");
  EXPECT_NE(r.err.find("[build.arch-list] -I/tmp/out/torchsmith-voxfusion-marching-cubes/src/include holds 'arch' but is "
                       "no arch flag"), std::string::npos) << r.err;
}

// A vendored pybind11 older than the target Python needs (spconv's third_party/pybind11 of 2019): its
// include dir fails the compile without the helper, and is set aside for the build's own pybind11 with
// it, whether given as include_dirs or an -I flag. Near misses: a vendored copy new enough (2.10 for
// Python 3.11) is kept, and without the table nothing is touched.
constexpr const char* kPybind11For = "3.11:2.10 3.12:2.11 3.13:2.13";  // signatures.toml's

TEST_F(PyshimRemedy, AnOldVendoredPybind11FailsWithoutTheRemedy) {
  Built b = build("old_pybind11", "pb-plain", {{"TORCHSMITH_PYBIND11_FOR", kPybind11For}}, false);
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("pybind11 2.4 reads PyFrameObject"), std::string::npos) << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, AnOldVendoredPybind11IsSetAside) {
  for (const char* as : {"include_dirs", "flag"}) {
    SCOPED_TRACE(as);
    Built b = build("old_pybind11", std::string("pb-") + as, {{"TORCHSMITH_PYBIND11_FOR", kPybind11For}, {"VENDORED_AS", as}});
    if (!b.run.ok() && b.run.err.find("the build has no newer one: kept") != std::string::npos)
      GTEST_SKIP() << "no pybind11 >= what this Python needs outside the fixture (torch/include, pip's, /usr/include)";
    ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
    EXPECT_NE(b.run.err.find(std::string("[build.pybind11-torch] lt_old_pybind11: ") + as + " /"), std::string::npos)
        << b.run.err;
    EXPECT_NE(b.run.err.find("/third_party/pybind11/include has pybind11 2.4, older than Python"), std::string::npos) << b.run.err;
    EXPECT_EQ(b.value.rfind("found 2.", 0), 0u) << b.value;
  }
}

TEST_F(PyshimRemedy, ANewEnoughVendoredPybind11IsKept) {
  Built b = build("old_pybind11", "pb-new", {{"TORCHSMITH_PYBIND11_FOR", kPybind11For},
                                             {"VENDORED_PYBIND11", "third_party/pybind11_new/include"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_EQ(b.run.err.find("[build.pybind11-torch]"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value.rfind("vendored 2.", 0), 0u) << b.value;
  Built off = build("old_pybind11", "pb-off", {});
  EXPECT_FALSE(off.run.ok());
  EXPECT_EQ(off.run.err.find("[build.pybind11-torch]"), std::string::npos) << off.run.err;
}

// 3DLUT-interpolation's tetrahedral_cuda.cpp: a .cpp of a CUDA extension launches a kernel template
// its .cu defines (here: and instantiates). g++ stops at the `<<<`; with build.cpp-kernel-launch nvcc
// compiles it through a .cu in build_temp and the import finds the kernel's host stub; near misses:
// module.cpp (a launch in a comment and a string only) stays with the host compiler, and without the
// template-stub flag nvcc 13's static stub in kernel.cu leaves launch.cpp's hidden reference undefined at the link.
TEST_F(PyshimRemedy, AKernelLaunchInACppFailsWithoutTheRemedy) {
  std::string py = cuda_python();
  if (py.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13) or no nvcc";
  Built b = build_cuda(py, "cpp_launch", "launch-plain", {});
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("launch.cpp:5:19: error: expected primary-expression before"), std::string::npos)
      << b.run.out << b.run.err;
}

TEST_F(PyshimRemedy, CppKernelLaunchIsCompiledByNvcc) {
  std::string py = cuda_python();
  if (py.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13) or no nvcc";
  Built b = build_cuda(py, "cpp_launch", "launch-fixed",
                       {{"TORCHSMITH_CPP_LAUNCH", "1"}, {"TORCHSMITH_NVCC_TEMPLATE_STUB", "-static-global-template-stub=false"}});
  ASSERT_TRUE(b.run.ok()) << b.run.out << b.run.err;
  EXPECT_NE(b.run.err.find("[build.cpp-kernel-launch] lt_cpp_launch: launch.cpp launches CUDA kernels (<<<...>>>): "
                           "compiled by nvcc through a .cu in build_temp"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.value, "launch.cpp:nvcc module.cpp:host\n");
  // The package's files are the fixture's, byte for byte; the .cu is a build output.
  for (const char* f : {"launch.cpp", "module.cpp", "setup.py"}) {
    std::ifstream a(fs::path(dir_) / "launch-fixed" / f), e(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/long_tail/cpp_launch" / f);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}), std::string(std::istreambuf_iterator<char>(e), {})) << f;
  }
}

TEST_F(PyshimRemedy, CppKernelLaunchWithoutTheStubFlagLeavesTheLaunchUndefined) {
  std::string py = cuda_python();
  if (py.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13) or no nvcc";
  Built b = build_cuda(py, "cpp_launch", "launch-no-stub", {{"TORCHSMITH_CPP_LAUNCH", "1"}});
  EXPECT_FALSE(b.run.ok());
  EXPECT_NE((b.run.out + b.run.err).find("hidden symbol `_Z7add_oneIfEvPT_i' isn't defined"), std::string::npos)
      << b.run.out << b.run.err;
}

}  // namespace
}  // namespace ts::run

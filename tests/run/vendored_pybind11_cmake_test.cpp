// build.pybind11-torch's CMake half on a tiny CMake project (tests/fixtures/projects/long_tail/
// old_pybind11_cmake, spconv's shape): its vendored pybind11 2.4, added with add_subdirectory and named
// by path on its target, stops the compile; with its CMakeLists.txt replaced by the stand-in
// (source::stand_in_vendored_pybind11 with the embedded text) the module builds against the build's own
// pybind11 and imports: a pybind11 CMake config new enough (Debian's pybind11-dev), or, with none, the
// headers torch ships. Near miss: with none new enough, the configure stops and says what to install.
// One C++ file with pybind11 (10-20 s on 2 cores); the torch-headers case needs the test venv's torch.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "run/pyshim.h"
#include "source/vendored_pybind11.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

const std::string kFixture = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/old_pybind11_cmake";

struct Built {
  util::RunResult configure, build;
  std::string value;  // the module's value() ("2.10", "3.1"), "" when it did not import
  bool ok() const { return configure.ok() && build.ok(); }
  std::string log() const { return configure.out + configure.err + build.out + build.err; }
};

class CmakePybind11 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!util::run({"cmake", "--version"}).ok()) GTEST_SKIP() << "no cmake";
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
  }

  // A copy of the fixture, with the stand-in where `need` says its pybind11 is old ({0, 0}: as it is),
  // configured for `python` (torch's config sets Python_EXECUTABLE so), built, and imported.
  // `interpreter_first`: the project finds Python with the Interpreter alone before adding pybind11, as
  // torch 2.11's CUDA config does (spconv on the GPU machine).
  Built build(const std::string& name, const std::string& python, std::pair<int, int> need,
              std::vector<std::string> defines = {}, bool interpreter_first = false) {
    Built b;
    const fs::path tree = fs::path(dir_) / name;
    fs::copy(kFixture, tree, fs::copy_options::recursive);
    if (interpreter_first) {
      std::string top = slurp(tree / "CMakeLists.txt");
      const std::string add = "\nadd_subdirectory(third_party/pybind11)";  // the command, not the comment
      top.replace(top.find(add), 0, "\nfind_package(Python COMPONENTS Interpreter REQUIRED)");
      std::ofstream(tree / "CMakeLists.txt", std::ios::binary | std::ios::trunc) << top;
    }
    if (need.first) {
      auto r = source::stand_in_vendored_pybind11(tree.string(), need, std::string(pyshim_fetch_pybind11()), false, python);
      EXPECT_TRUE(r.ok && r.changed()) << (r.errors.empty() ? "nothing replaced" : r.errors.front());
    }
    std::vector<std::string> argv{"cmake", "-S", tree.string(), "-B", (tree / "b").string(), "-DPython_EXECUTABLE=" + python};
    argv.insert(argv.end(), defines.begin(), defines.end());
    util::RunOptions o;
    o.timeout = std::chrono::seconds(240);
    b.configure = util::run(argv, o);
    if (!b.configure.ok()) return b;
    b.build = util::run({"cmake", "--build", (tree / "b").string()}, o);
    auto v = util::run({python, "-c", "import lt_old_pybind11_cmake as m; print(m.value())"},
                       {std::chrono::seconds(60), std::nullopt, {}, (tree / "b").string()});
    if (v.ok()) b.value = v.out;
    return b;
  }

  static std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  static std::string venv_python() {
    const char* home = std::getenv("HOME");
    std::string p = std::string(home ? home : "/root") + "/.cache/torchsmith/test-venvs/torch-cu13/bin/python";
    return fs::exists(p) ? p : "";
  }

  ::ts::testkit::TempDir tmp_{"ts-pybind11-cmake"};
  std::string dir_;
};

TEST_F(CmakePybind11, AnOldVendoredPybind11FailsWithoutTheStandIn) {
  Built b = build("plain", "/usr/bin/python3", {0, 0});
  ASSERT_TRUE(b.configure.ok()) << b.log();
  EXPECT_FALSE(b.build.ok());
  EXPECT_NE(b.log().find("pybind11 2.4 reads PyFrameObject"), std::string::npos) << b.log();
}

TEST_F(CmakePybind11, TheStandInBuildsWithTheSystemsPybind11Config) {
  if (!fs::exists("/usr/lib/cmake/pybind11/pybind11Config.cmake")) GTEST_SKIP() << "no pybind11-dev";
  Built b = build("config", "/usr/bin/python3", {2, 10});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_NE(b.configure.out.find("torchsmith [build.pybind11-torch]: pybind11 2."), std::string::npos) << b.configure.out;
  EXPECT_NE(b.configure.err.find("torchsmith: [build.pybind11-torch] lt_old_pybind11_cmake: INCLUDE_DIRECTORIES "),
            std::string::npos) << b.configure.err;
  EXPECT_EQ(b.value.rfind("2.", 0), 0u) << b.value;
  EXPECT_NE(b.value, "2.4\n");
}

TEST_F(CmakePybind11, WithNoConfigTheStandInBuildsWithTorchsHeaders) {
  const std::string py = venv_python();
  if (py.empty()) GTEST_SKIP() << "no test venv with torch";
  Built b = build("torch", py, {2, 10}, {"-DCMAKE_DISABLE_FIND_PACKAGE_pybind11=ON"});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_NE(b.configure.out.find("from torch's headers in "), std::string::npos) << b.configure.out;
  EXPECT_FALSE(b.value.empty()) << b.log();
  EXPECT_NE(b.value, "2.4\n");
}

// pybind11's config adds the Python headers only when it finds Python's development files itself; a
// project that found Python with the Interpreter alone first leaves its targets without them, and
// `#include <Python.h>` fails (spconv with torch 2.11 on the GPU machine). The stand-in adds the plan's
// Python's headers, as pybind11's own tools do. The test venv's Python keeps its headers outside the
// compiler's default path, so a missing one shows.
TEST_F(CmakePybind11, AfterAnInterpreterOnlyPythonTheConfigsTargetsGetThePlansPythonHeaders) {
  if (!fs::exists("/usr/lib/cmake/pybind11/pybind11Config.cmake")) GTEST_SKIP() << "no pybind11-dev";
  const std::string py = venv_python();
  if (py.empty()) GTEST_SKIP() << "no test venv";
  Built b = build("interp", py, {2, 10}, {}, true);
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_NE(b.configure.out.find("pybind11's targets had no Python headers"), std::string::npos) << b.configure.out;
  EXPECT_EQ(b.value.rfind("2.", 0), 0u) << b.log();
  EXPECT_NE(b.value, "2.4\n");
}

// Near miss: where pybind11 found Python's development files itself, its own headers target stands.
TEST_F(CmakePybind11, WhenPybind11FindsPythonItselfItsHeadersTargetIsKept) {
  if (!fs::exists("/usr/lib/cmake/pybind11/pybind11Config.cmake")) GTEST_SKIP() << "no pybind11-dev";
  const std::string py = venv_python();
  if (py.empty()) GTEST_SKIP() << "no test venv";
  Built b = build("own", py, {2, 10});
  ASSERT_TRUE(b.ok()) << b.log();
  EXPECT_EQ(b.configure.out.find("had no Python headers"), std::string::npos) << b.configure.out;
  EXPECT_EQ(b.value.rfind("2.", 0), 0u) << b.log();
}

TEST_F(CmakePybind11, WithNoneNewEnoughTheConfigureSaysSo) {
  // Debian's torch ships no pybind11 headers; find_package is turned off: nothing new enough remains.
  Built b = build("none", "/usr/bin/python3", {2, 10}, {"-DCMAKE_DISABLE_FIND_PACKAGE_pybind11=ON"});
  EXPECT_FALSE(b.configure.ok());
  // CMake wraps the message: its lines one by one.
  const std::string said = b.configure.out + b.configure.err;
  EXPECT_NE(said.find("torchsmith [build.pybind11-torch]: this directory's pybind11 is older than"), std::string::npos)
      << b.log();
  EXPECT_NE(said.find("python -m pip install pybind11"), std::string::npos) << b.log();
}

}  // namespace
}  // namespace ts::run

// build.source-reroot (signatures.toml EXTENSION_WITHOUT_SOURCES, the build helper's
// TORCHSMITH_REROOT) on a tiny package whose setup.py was written for another layout, as Vox-Surf's:
// it globs old_layout/lt_reroot/src/*.cpp and passes -Iold_layout/lt_reroot/include, and its tree has
// lt_reroot/src and lt_reroot/include. The globs alone run in a plain python3 (no compiler: quick);
// the build runs torch's cpp_extension with Debian's torch (g++: the slow tier).
#include <gtest/gtest.h>

#include <filesystem>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSetupPy = R"PY(# Written for the project it came from, where this package lived under old_layout/.
import glob
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
root = "old_layout/lt_reroot"
setup(name="lt_reroot", ext_modules=[CppExtension("lt_reroot_ext", glob.glob(root + "/src/*.cpp"),
      extra_compile_args={"cxx": ["-O1", "-I" + root + "/include"]})], cmdclass={"build_ext": BuildExtension})
)PY";

// The globs a setup.py makes, printed: the stale prefix, the same as an absolute path, a near miss
// whose first directory exists (its missing part is no prefix), one that names nothing anywhere.
constexpr const char* kGlobsPy = R"PY(import glob, os
here = os.path.dirname(os.path.abspath(__file__))
print(sorted(glob.glob("old_layout/lt_reroot/src/*.cpp")))
print(sorted(glob.glob(os.path.join(here, "old_layout/lt_reroot/src/*.cpp"))) == [os.path.join(here, "lt_reroot/src/ops.cpp")])
print(glob.glob("lt_reroot/cuda/*.cu"), glob.glob("zz/yy/*.cpp"), list(glob.iglob("old_layout/lt_reroot/src/*.cpp")))
)PY";

class SourceReroot : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
    fs::create_directories(dir_ + "/pkg/lt_reroot/src");
    fs::create_directories(dir_ + "/pkg/lt_reroot/include");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/lt_reroot/include/twice.h", "inline int twice(int x) { return 2 * x; }\n"), "");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/lt_reroot/src/ops.cpp",
                                      "#include <torch/extension.h>\n#include \"twice.h\"\nint value() { return twice(21); }\n"
                                      "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"value\", &value); }\n"), "");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/setup.py", kSetupPy), "");
  }
  util::RunResult python(const std::string& python, std::vector<std::string> args, bool remedy) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(240);
    o.cwd = dir_ + "/pkg";
    o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    if (remedy) o.extra_env["TORCHSMITH_REROOT"] = "1";
    args.insert(args.begin(), python);
    return util::run(args, o);
  }
  testkit::TempDir tmp_{"ts-reroot"};
  std::string dir_;
};

TEST_F(SourceReroot, GlobsFromSetupPyNamingAnotherLayoutAreRerootedAndOnlyThose) {
  if (!util::run({"python3", "-c", "pass"}).ok()) GTEST_SKIP() << "no python3";
  ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/setup.py", kGlobsPy), "");
  auto plain = python("python3", {"setup.py"}, false);
  ASSERT_TRUE(plain.ok()) << plain.err;
  EXPECT_EQ(plain.out, "[]\nFalse\n[] [] []\n");
  EXPECT_EQ(plain.err.find("[build.source-reroot]"), std::string::npos) << plain.err;
  auto fixed = python("python3", {"setup.py"}, true);
  ASSERT_TRUE(fixed.ok()) << fixed.err;
  EXPECT_EQ(fixed.out, "['lt_reroot/src/ops.cpp']\nTrue\n[] [] ['lt_reroot/src/ops.cpp']\n");
  EXPECT_NE(fixed.err.find("torchsmith: [build.source-reroot] glob old_layout/lt_reroot/src/*.cpp matched nothing; "
                           "lt_reroot/src/*.cpp names 1 file(s) of this tree: used instead (TORCHSMITH_REROOT)"),
            std::string::npos) << fixed.err;
  // setup.py run as setuptools' build_meta runs it: its text exec'd (a "<string>" code), __file__ set.
  auto exec = python("python3", {"-c", "exec(open('setup.py').read(), {'__file__': 'setup.py', '__name__': '__main__'})"}, true);
  ASSERT_TRUE(exec.ok()) << exec.err;
  EXPECT_EQ(exec.out.substr(0, exec.out.find('\n')), "['lt_reroot/src/ops.cpp']") << exec.err;
  // Near miss: the same globs from a script that is not setup.py are the script's own business.
  ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/tool.py", kGlobsPy), "");
  auto other = python("python3", {"tool.py"}, true);
  EXPECT_EQ(other.out, "[]\nFalse\n[] [] []\n");
}

// The build: without the remedy cpp_extension stops on the empty sources list, the failure the
// signature names; with it the extension builds (its -I rerooted too) and answers.
TEST_F(SourceReroot, APackageWrittenForAnotherLayoutBuildsWithTheRemedy) {
  const std::string py = "/usr/bin/python3";
  if (!util::run({py, "-c", "import torch.utils.cpp_extension"}, {std::chrono::seconds(60)}).ok())
    GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch)";
  auto plain = python(py, {"setup.py", "build_ext", "--inplace"}, false);
  EXPECT_FALSE(plain.ok());
  // torch 2.x says "At least one source is required to build a library", torch 1.13 (Debian's) asserts bare.
  const std::string said = plain.out + plain.err;
  EXPECT_TRUE(said.find("AssertionError: At least one source is required to build a library") != std::string::npos ||
              said.find("assert len(sources) > 0") != std::string::npos) << said;
  auto fixed = python(py, {"setup.py", "build_ext", "--inplace"}, true);
  ASSERT_TRUE(fixed.ok()) << fixed.out << fixed.err;
  EXPECT_NE(fixed.err.find("[build.source-reroot] lt_reroot_ext: -Iold_layout/lt_reroot/include in extra_compile_args[cxx] "
                           "names nothing; lt_reroot/include"), std::string::npos) << fixed.err;
  auto value = python(py, {"-c", "import torch, lt_reroot_ext as m; print(m.value())"}, false);
  EXPECT_EQ(value.out, "42\n") << value.err;
}

}  // namespace
}  // namespace ts::run

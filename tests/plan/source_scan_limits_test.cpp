// Issue 32, class 6 for the source scan: a setup.py holding a 100 KB string literal crashed `plan`
// with a stack overflow in std::regex (one recursion per byte of [^#\n]*); RE2 has no recursion.
#include <gtest/gtest.h>

#include <fstream>

#include "plan/extension.h"
#include "testkit/temp_dir.h"

namespace ts::plan {
namespace {

TEST(SourceScanLimits, HugeLiteralsAreReadNotACrash) {
  testkit::TempDir t;
  const std::string big(100 * 1024, 'a');
  std::ofstream(t / "setup.py") << "BLOB = \"" << big << "\"\n"
                                << "from setuptools import setup\n"
                                << "setup(name=\"bigpkg\", version=\"1.2.3\", cmdclass={'build_ext': "
                                   "BuildExtension.with_options(use_ninja=False)})\n";
  std::ofstream(t / "pyproject.toml") << "[build-system]\nrequires = [\"setuptools\", \"" << big << "\"]\n";
  std::string err;
  SourceScan s = scan_source_dir(t.path(), &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(s.name, "bigpkg");
  EXPECT_EQ(s.version, "1.2.3");
  EXPECT_TRUE(s.ninja_off);
  ASSERT_EQ(s.pyproject_requires.size(), 2u);
  EXPECT_EQ(s.pyproject_requires[1].size(), big.size());
}

}  // namespace
}  // namespace ts::plan

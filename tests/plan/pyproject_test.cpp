// pyproject.toml and setup.cfg read by their grammars (issue 37, item 8): what a line-oriented reading
// got wrong (a name under another table, requires split over lines with comments) comes out right.
#include "plan/pyproject.h"

#include <gtest/gtest.h>

namespace ts::plan {
namespace {

TEST(PyProject, ProjectAndBuildSystemByTheirTables) {
  auto m = read_pyproject(R"([tool.other]
name = "not-this"
version = "9.9"

[build-system]
requires = [
  "setuptools>=64",  # a comment with "quotes" and ] inside
  'wheel',
  "torch>=2.1",
]
build-backend = "setuptools.build_meta"

[project]
name = "fused-ops"
version = "0.3.1"
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name, "fused-ops");
  EXPECT_EQ(m->version, "0.3.1");
  EXPECT_EQ(m->build_backend, "setuptools.build_meta");
  EXPECT_EQ(m->build_requires, (std::vector<std::string>{"setuptools>=64", "wheel", "torch>=2.1"}));
}

TEST(PyProject, DynamicVersionIsNoVersionAndBadTomlIsNamed) {
  auto m = read_pyproject("[project]\nname = \"x\"\ndynamic = [\"version\"]\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->version, "");
  std::string err;
  EXPECT_FALSE(read_pyproject("[build-system\nrequires = [\n", &err));
  EXPECT_NE(err.find("pyproject.toml:"), std::string::npos) << err;
}

TEST(SetupCfg, MetadataAndSetupRequiresAsSetuptoolsReadsThem) {
  auto m = read_setup_cfg("[metadata]\nname = old-ops\nversion = 1.2.0\n\n[options]\nsetup_requires =\n"
                          "    numpy\n    ninja\n\n[options.extras_require]\nname = nope\n");
  EXPECT_EQ(m.name, "old-ops");
  EXPECT_EQ(m.version, "1.2.0");
  ASSERT_EQ(m.build_requires.size(), 2u);
  EXPECT_EQ(m.build_requires[0], "numpy");
  // A version from attr: or file: is computed by setuptools: not a literal to take.
  EXPECT_EQ(read_setup_cfg("[metadata]\nversion = attr: pkg.__version__\n").version, "");
}

}  // namespace
}  // namespace ts::plan

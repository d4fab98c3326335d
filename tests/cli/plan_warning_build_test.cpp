// `torchsmith build` says the plan's extension warnings before anything compiles (bottom-up-attention:
// its Python imports detectron2, which the repository's submodule builds with a setup.py of its own;
// the GPU run's console never showed the plan's warning, only verify's smoke failure). A setup.py that
// stops at once keeps the test short (no compiler). Near miss: a tree with no sibling says nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using testing::run_torchsmith;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  ASSERT_EQ(util::write_file_atomic(p.string(), text), "");
}

TEST(PlanWarningAtBuild, ASiblingExtensionIsNamedBeforeTheBuild) {
  if (!testing::debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  write(t / "pkg/setup.py", "import sys\nsys.exit('stop here')\nsetup(name='bua', ext_modules=[CppExtension('bua._C', ['a.cpp'])])\n");
  write(t / "pkg/bua/__init__.py", "from detectron2.config import CfgNode\n");
  write(t / "pkg/detectron2/setup.py", "setup(ext_modules=[CppExtension('detectron2._C', ['b.cpp'])])\n");
  auto r = run_torchsmith({"build", t / "pkg", "--torch", "/usr/bin/python3", "--without", "cuda", "--out", t / "out",
                           "--compile-cache", "none", "--no-auto-fix", "--no-port"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("torchsmith: plan warning: imports detectron2, which this build does not make: "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(torchsmith build SRC/detectron2)"), std::string::npos) << r.err;
  fs::remove_all(t / "pkg/detectron2");
  r = run_torchsmith({"build", t / "pkg", "--torch", "/usr/bin/python3", "--without", "cuda", "--out", t / "out2",
                      "--compile-cache", "none", "--no-auto-fix", "--no-port"});
  EXPECT_EQ(r.err.find("plan warning"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts

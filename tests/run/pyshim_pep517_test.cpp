// torchsmith's PEP 517 frontend (src/run/pyshim/torchsmith_pep517.py), run by Debian's Python on
// tiny pure-Python trees (no compiler): the backend pyproject.toml names, with its backend-path,
// setuptools' legacy backend when it names none, and clear errors for what it cannot build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

struct Frontend {
  ::ts::testkit::TempDir tmp{"ts-pep517"};
  fs::path shim = fs::path(tmp.path()) / "pyshim";
  fs::path tree = fs::path(tmp.path()) / "tree";
  Frontend() { EXPECT_EQ(write_pyshim(shim.string()), ""); }
  util::RunResult build(std::vector<std::string> args = {"-w", "dist", "."}) {
    std::vector<std::string> argv{"/usr/bin/python3", "-m", "torchsmith_pep517"};
    argv.insert(argv.end(), args.begin(), args.end());
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.cwd = tree.string();
    o.extra_env["PYTHONPATH"] = shim.string();
    return util::run(argv, o);
  }
  bool wheel(const std::string& name) { return fs::exists(tree / "dist" / name); }
};

TEST(Pep517Frontend, WrittenBesideTheBuildHelper) {
  Frontend f;
  EXPECT_TRUE(fs::exists(f.shim / "torchsmith_pep517.py"));
  EXPECT_EQ(pyshim_pep517().find("build_wheel") != std::string_view::npos, true);
}

TEST(Pep517Frontend, ASetupPyWithNoPyprojectBuildsThroughTheLegacyBackend) {
  Frontend f;
  put(f.tree / "setup.py", "from setuptools import setup\nsetup(name='purepkg', version='0.1', packages=['pkg'])\n");
  put(f.tree / "pkg/__init__.py", "");
  auto r = f.build();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("setuptools.build_meta:__legacy__"), std::string::npos) << r.out;
  EXPECT_TRUE(f.wheel("purepkg-0.1-py3-none-any.whl"));
}

// A setup.py that eats its own positional arguments takes setuptools' --dist-dir with them
// (`del sys.argv[2:]`): bdist_wheel writes to dist/ and the backend finds nothing where it looked.
TEST(Pep517Frontend, ASetupPyDroppingTheDistDirStillGivesTheWheelItWrote) {
  Frontend f;
  put(f.tree / "setup.py",
      "import sys\nfrom setuptools import setup\nif len(sys.argv) > 2:\n    del sys.argv[2:]\n"
      "setup(name='argvpkg', version='0.1', packages=['pkg'])\n");
  put(f.tree / "pkg/__init__.py", "");
  auto r = f.build();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("took --dist-dir off sys.argv"), std::string::npos) << r.out;
  EXPECT_TRUE(f.wheel("argvpkg-0.1-py3-none-any.whl"));
}

// Near miss: a setup.py that builds nothing still fails in the backend's words, and an old wheel
// left in dist/ by an earlier build is never taken for this one's.
TEST(Pep517Frontend, NoNewWheelKeepsTheBackendsError) {
  Frontend f;
  put(f.tree / "setup.py", "import sys\nfrom setuptools import setup\nif len(sys.argv) > 2:\n    del sys.argv[2:]\n");
  put(f.tree / "dist/oldpkg-0.1-py3-none-any.whl", "an earlier build's wheel");
  auto r = f.build();
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE((r.out + r.err).find("No distribution was found"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("taking it"), std::string::npos) << r.out;
}

TEST(Pep517Frontend, TheBackendPyprojectNamesRunsFromItsBackendPath) {
  Frontend f;
  // An in-tree backend that writes a marker wheel file: only it could have made this name.
  put(f.tree / "pyproject.toml",
      "[build-system]\nrequires = []\nbuild-backend = \"mybackend:hooks\"\nbackend-path = [\"_build\"]\n");
  put(f.tree / "_build/mybackend.py",
      "import os\nclass hooks:\n    @staticmethod\n    def build_wheel(d, config_settings=None, metadata_directory=None):\n"
      "        open(os.path.join(d, 'mine-1.0-py3-none-any.whl'), 'w').write(os.getcwd())\n"
      "        return 'mine-1.0-py3-none-any.whl'\n");
  auto r = f.build();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_TRUE(f.wheel("mine-1.0-py3-none-any.whl"));
  std::ifstream in(f.tree / "dist/mine-1.0-py3-none-any.whl");
  std::string cwd((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(fs::canonical(cwd), fs::canonical(f.tree));  // the hook runs in the tree
}

TEST(Pep517Frontend, AMissingBackendSaysSoInPipsWording) {
  Frontend f;
  put(f.tree / "pyproject.toml", "[build-system]\nrequires = [\"nosuchbackend\"]\nbuild-backend = \"nosuchbackend.api\"\n");
  auto r = f.build();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("BackendUnavailable: Cannot import 'nosuchbackend.api'"), std::string::npos) << r.err;
}

TEST(Pep517Frontend, ATreesOwnFolderNeverStandsInForTheBackend) {
  Frontend f;
  // A folder named like the backend's package in the tree: pip's hook process would not import it.
  put(f.tree / "setuptools/__init__.py", "raise SystemExit('the tree was imported as setuptools')\n");
  put(f.tree / "setup.py", "from setuptools import setup\nsetup(name='purepkg', version='0.1', py_modules=[])\n");
  auto r = f.build();
  EXPECT_EQ(r.err.find("the tree was imported"), std::string::npos) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(Pep517Frontend, BadInputIsAClearError) {
  Frontend f;
  put(f.tree / "pyproject.toml", "[build-system]\nbuild-backend = \"x\"\nbackend-path = [\"../outside\"]\n");
  auto r = f.build();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("leaves the source tree"), std::string::npos) << r.err;
  r = f.build({"-w", "dist"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage:"), std::string::npos) << r.err;
  r = f.build({"-w", "dist", "no-such-dir"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such source directory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::run

// build.setup-flag (the plan's TORCHSMITH_SETUP_FLAGS, the build helper): a setup.py that builds its CUDA
// extension only when its own flag is in sys.argv (neuralnet-pytorch's '--cuda-ext', removed before setup())
// gets the flag on the command line setuptools' PEP 517 backend runs it with. Runs setuptools' backend in
// the system python3 (no compiler, no torch).
#include <gtest/gtest.h>

#include <filesystem>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

TEST(SetupFlag, SetuptoolsBackendRunsSetupPyWithThePackagesOwnSwitch) {
  if (!util::run({"python3", "-c", "import setuptools.build_meta"}, {std::chrono::seconds(60)}).ok())
    GTEST_SKIP() << "python3 has no setuptools";
  testkit::TempDir t("ts-setupflag");
  const std::string dir = t.path();
  ASSERT_EQ(write_pyshim(dir + "/pyshim"), "");
  fs::create_directories(dir + "/pkg");
  ASSERT_EQ(util::write_file_atomic(dir + "/pkg/setup.py",
                                    "import sys\nfrom setuptools import setup\n"
                                    "if '--cuda-ext' in sys.argv:\n    print('CUDA EXTENSION ON')\n"
                                    "    sys.argv.remove('--cuda-ext')\n"
                                    "setup(name='lt_flag', version='0.1', py_modules=[])\n"),
            "");
  auto backend = [&](const std::string& flags) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.cwd = dir + "/pkg";
    o.extra_env["PYTHONPATH"] = dir + "/pyshim";
    if (!flags.empty()) o.extra_env["TORCHSMITH_SETUP_FLAGS"] = flags;
    return util::run({"python3", "-c", "import setuptools.build_meta as b; print(b.get_requires_for_build_wheel())"}, o);
  };
  auto plain = backend("");
  ASSERT_TRUE(plain.ok()) << plain.err;
  EXPECT_EQ(plain.out.find("CUDA EXTENSION ON"), std::string::npos) << plain.out;
  auto with = backend("--cuda-ext");
  ASSERT_TRUE(with.ok()) << with.err;  // setup() never sees the flag: setup.py removed it
  EXPECT_NE(with.out.find("CUDA EXTENSION ON"), std::string::npos) << with.out;
  EXPECT_NE(with.err.find("[build.setup-flag] setup.py runs with --cuda-ext"), std::string::npos) << with.err;
}

}  // namespace
}  // namespace ts::run

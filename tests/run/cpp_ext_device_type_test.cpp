// build.cpp-extension-device-type (signatures.toml CPP_EXTENSION_CUDA_FLAG_REMOVED, the build helper's
// TORCHSMITH_CPP_EXT_DEVICE_TYPE): torch 2.6 turned include_paths(cuda: bool) and library_paths(cuda: bool)
// into include_paths(device_type: str) (pytorch/pytorch@67735d1), so lookforthechange's setup.py, which calls
// cpp_extension.library_paths(cuda=True) at its top level, stopped with a TypeError. The mechanism runs in
// any python3 over a made-up torch.utils.cpp_extension with each signature (the new one, and the old one as
// a near miss); no compiler, no torch: quick.
#include <gtest/gtest.h>

#include <filesystem>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

// torch 2.6+'s signatures (the first parameter's name is what matters), answering with what they were asked.
constexpr const char* kNewCppExtension = R"PY(def include_paths(device_type="cpu", torch_include_dirs=True):
    return ["inc-" + str(device_type)]


def library_paths(device_type="cpu", torch_include_dirs=True, cross_target_platform=None):
    return ["lib-" + str(device_type)]
)PY";

// torch <= 2.5's: cuda is a flag the function still takes.
constexpr const char* kOldCppExtension = R"PY(def include_paths(cuda=False):
    return ["inc-cuda" if cuda else "inc-cpu"]


def library_paths(cuda=False):
    return ["lib-cuda" if cuda else "lib-cpu"]
)PY";

// What lookforthechange's setup.py does before setup(), and a bool passed first.
constexpr const char* kSetupPy = R"PY(from torch.utils import cpp_extension
from torch.utils.cpp_extension import include_paths
print("LIB", cpp_extension.library_paths(cuda=True))
print("INC", include_paths(cuda=False))
print("POS", cpp_extension.include_paths(True))
import inspect
if "device_type" in inspect.signature(include_paths).parameters:
    print("NEW", cpp_extension.include_paths(device_type="cuda"))
)PY";

class CppExtDeviceType : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
    fs::create_directories(dir_ + "/pkg");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/pkg/setup.py", kSetupPy), "");
  }
  void fake_torch(const char* cpp_extension) {
    fs::create_directories(dir_ + "/torch/torch/utils");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/torch/torch/__init__.py", ""), "");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/torch/torch/utils/__init__.py", ""), "");
    ASSERT_EQ(util::write_file_atomic(dir_ + "/torch/torch/utils/cpp_extension.py", cpp_extension), "");
  }
  util::RunResult setup_py(bool remedy) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(60);
    o.cwd = dir_ + "/pkg";
    o.extra_env["PYTHONPATH"] = dir_ + "/pyshim:" + dir_ + "/torch";
    if (remedy) o.extra_env["TORCHSMITH_CPP_EXT_DEVICE_TYPE"] = "1";
    return util::run({"python3", "setup.py"}, o);
  }
  testkit::TempDir tmp_{"ts-devtype"};
  std::string dir_;
};

// The old call fails on torch 2.6+'s signature without the remedy (the GPU run's TypeError) and gets the
// device it meant with it, said once per call; a call already written for the new signature is unchanged.
TEST_F(CppExtDeviceType, TheOldCudaFlagIsTheDeviceTypeItMeant) {
  fake_torch(kNewCppExtension);
  auto before = setup_py(false);
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("TypeError: library_paths() got an unexpected keyword argument 'cuda'"), std::string::npos)
      << before.err;
  auto with = setup_py(true);
  ASSERT_TRUE(with.ok()) << with.err;
  EXPECT_NE(with.out.find("LIB ['lib-cuda']"), std::string::npos) << with.out;
  EXPECT_NE(with.out.find("INC ['inc-cpu']"), std::string::npos) << with.out;
  EXPECT_NE(with.out.find("POS ['inc-cuda']"), std::string::npos) << with.out;  // True first was the CPU's since 2.6
  EXPECT_NE(with.out.find("NEW ['inc-cuda']"), std::string::npos) << with.out;
  EXPECT_NE(with.err.find("[build.cpp-extension-device-type] library_paths(cuda=True) is library_paths(device_type='cuda')"),
            std::string::npos)
      << with.err;
}

// Near miss: a torch whose functions still take cuda (<= 2.5) is left as it is, the helper says nothing.
TEST_F(CppExtDeviceType, ATorchThatStillTakesTheFlagIsLeftAlone) {
  fake_torch(kOldCppExtension);
  auto with = setup_py(true);
  ASSERT_TRUE(with.ok()) << with.err;
  EXPECT_NE(with.out.find("LIB ['lib-cuda']"), std::string::npos) << with.out;
  EXPECT_NE(with.out.find("POS ['inc-cuda']"), std::string::npos) << with.out;
  EXPECT_EQ(with.err.find("[build.cpp-extension-device-type]"), std::string::npos) << with.err;
}

}  // namespace
}  // namespace ts::run

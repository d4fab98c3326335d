// Provisioning from wheel files laid out as NVIDIA's and Kitware's wheels are (fakes built here,
// same member paths), through the wheelhouse provider: layout, completeness, atomicity, reuse.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "plan/provision_request.h"
#include "provision/provision.h"
#include "testkit/fake_wheels.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "testkit/version_of.h"

namespace ts::provision {
namespace {

namespace fs = std::filesystem;
const std::string kPlat = "manylinux2014_x86_64";

using testkit::fake_wheel;

plan::ToolRelease cu13_release();

void cu13_wheelhouse(const std::string& dir, bool with_nvcc = true) {
  testkit::fake_cu13_wheelhouse(dir, cu13_release(), with_nvcc);
}

plan::ToolRelease cu13_release() {
  plan::ToolRelease r;
  r.kind = "cuda";
  r.version = testkit::version_of("13.2.86");
  for (const char* n : {"nvidia-cuda-nvcc", "nvidia-cuda-crt", "nvidia-nvvm", "nvidia-cuda-runtime", "nvidia-cuda-cccl"})
    r.wheels.push_back({n, "13.2.86", ""});
  return r;
}

TEST(Provision, Cu13WheelsBecomeACudaHome) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  cu13_wheelhouse(t / "wh");
  std::string err;
  auto r = ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err);
  ASSERT_TRUE(r) << err;
  EXPECT_FALSE(r->cached);
  EXPECT_EQ(r->dir, plan::provisioned_dir(t / "cache", "cuda", "13.2.86", cu13_release().wheels, kPlat));
  EXPECT_TRUE(missing_files("cuda", r->dir).empty());
  EXPECT_TRUE(fs::exists(r->dir + "/include/cccl/cub/cub.cuh"));
  EXPECT_EQ(fs::read_symlink(r->dir + "/lib64").string(), "lib");
  EXPECT_EQ(fs::read_symlink(r->dir + "/lib/libcudart.so").string(), "libcudart.so.13");
  EXPECT_TRUE(fs::status(r->dir + "/bin/nvcc").permissions() == fs::perms(0755));
  EXPECT_FALSE(fs::exists(r->dir + "/__init__.py"));
  ASSERT_EQ(r->manifest.wheels.size(), 5u);
  EXPECT_EQ(r->manifest.provider, "wheelhouse");
  EXPECT_EQ(r->manifest.wheels[0].sha256.size(), 64u);
  // Nothing but the toolkit is left in the cache: no scratch, no downloads.
  int entries = 0;
  for (auto& e : fs::directory_iterator(t / "cache/toolkits")) entries += 1, (void)e;
  EXPECT_EQ(entries, 1);
  auto again = ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err);
  ASSERT_TRUE(again) << err;
  EXPECT_TRUE(again->cached);
  ASSERT_EQ(list_cached(t / "cache").size(), 1u);
  EXPECT_EQ(list_cached(t / "cache")[0].version, "13.2.86");
}

// Issue 32: a `toolkit add` killed mid-way left its scratch (a GB-sized tree) and pip's downloads,
// named with its pid; the next one removes them (docs/provision.md), and keeps a live process's.
TEST(Provision, TheNextRunRemovesWhatAKilledOneLeft) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  cu13_wheelhouse(t / "wh");
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  const std::string dead = std::to_string(gone), live = std::to_string(::getppid());
  const std::string parent = fs::path(plan::provisioned_dir(t / "cache", "cuda", "13.2.86", cu13_release().wheels, kPlat))
                                 .parent_path()
                                 .string();
  fs::create_directories(parent + "/.cuda-13.2.86-x.partial-" + dead + "/tree/lib");
  std::ofstream(parent + "/.cuda-13.2.86-x.partial-" + dead + "/tree/lib/libbig.so") << "gigabytes";
  fs::create_directories(parent + "/.cuda-13.2.86-x.partial-" + live);
  fs::create_directories(t / ("cache/downloads/.get-" + dead));
  std::ofstream(t / ("cache/downloads/.get-" + dead + "/x.whl")) << "half";
  std::string err;
  ASSERT_TRUE(ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err)) << err;
  EXPECT_FALSE(fs::exists(parent + "/.cuda-13.2.86-x.partial-" + dead));
  EXPECT_FALSE(fs::exists(t / ("cache/downloads/.get-" + dead)));
  EXPECT_TRUE(fs::exists(parent + "/.cuda-13.2.86-x.partial-" + live));
}

// The cu12 layout (nvidia/cuda_nvcc, nvidia/cuda_runtime, ...) as PyPI has it: ptxas only, so
// the assembly refuses, names what is missing, and leaves no directory behind.
TEST(Provision, Cu12LayoutWithoutNvccIsRefusedAndLeavesNothing) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  fake_wheel(t / "wh", "nvidia_cuda_nvcc_cu12", "12.4.131",
        {{"nvidia/cuda_nvcc/bin/ptxas", "x"}, {"nvidia/cuda_nvcc/include/crt/host_config.h", "//"},
         {"nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc", "x"}, {"nvidia/cuda_nvcc/lib/__init__.py", ""}});
  fake_wheel(t / "wh", "nvidia_cuda_runtime_cu12", "12.4.127",
        {{"nvidia/cuda_runtime/include/cuda_runtime.h", "//"}, {"nvidia/cuda_runtime/lib/libcudart.so.12", "elf"}});
  plan::ToolRelease r{"cuda", testkit::version_of("12.4.131"), {{"nvidia-cuda-nvcc-cu12", "12.4.131", ""}, {"nvidia-cuda-runtime-cu12", "12.4.127", ""}}};
  std::string err;
  EXPECT_FALSE(ensure(r, WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err));
  EXPECT_NE(err.find("missing bin/nvcc"), std::string::npos) << err;
  EXPECT_NE(err.find("nvvm/bin/cicc"), std::string::npos) << err;
  EXPECT_EQ(err.find("include/cuda_runtime.h"), std::string::npos) << "the runtime wheel's header was merged: " << err;
  EXPECT_TRUE(fs::is_empty(t / "cache/toolkits"));
  EXPECT_TRUE(list_cached(t / "cache").empty());
}

TEST(Provision, IncompleteCatalogEntryIsRefusedBeforeAnyDownload) {
  testkit::TempDir t;
  plan::ToolRelease r = cu13_release();
  r.complete = false;
  r.source = "pypi";
  std::string err;
  EXPECT_FALSE(ensure(r, WheelhouseProvider(t / "nowhere"), t / "cache", kPlat, &err));
  EXPECT_NE(err.find("whole compiler"), std::string::npos) << err;
}

TEST(Provision, MissingWheelNamesThePinAndTheWayToFillTheWheelhouse) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  cu13_wheelhouse(t / "wh");
  fs::remove(t / "wh/nvidia_nvvm-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl");
  std::string err;
  EXPECT_FALSE(ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err));
  EXPECT_NE(err.find("nvidia-nvvm==13.2.86"), std::string::npos) << err;
  EXPECT_NE(err.find("pip download"), std::string::npos) << err;
}

TEST(Provision, PinnedHashMismatchIsRefused) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  cu13_wheelhouse(t / "wh");
  auto r = cu13_release();
  r.wheels[0].sha256 = std::string(64, '0');
  std::string err;
  EXPECT_FALSE(ensure(r, WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err));
  EXPECT_NE(err.find("sha256"), std::string::npos) << err;
}

// A directory without its manifest (a provision killed before the rename could not leave one, but
// a user's copy could) is not taken for a toolkit.
TEST(Provision, DirectoryWithoutManifestIsNotCached) {
  testkit::TempDir t;
  std::string dir = plan::provisioned_dir(t / "cache", "cuda", "13.2.86", cu13_release().wheels, kPlat);
  fs::create_directories(dir + "/bin");
  EXPECT_TRUE(list_cached(t / "cache").empty());
  fs::create_directories(t / "cache/toolkits/.cuda-13.2.86-x.partial-1/tree");
  EXPECT_TRUE(list_cached(t / "cache").empty());
}

TEST(Provision, CmakeWheelLayout) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  fake_wheel(t / "wh", "cmake", "3.31.6",
        {{"cmake/__init__.py", ""}, {"cmake/data/bin/cmake", "#!/bin/sh\n"}, {"cmake/data/share/cmake-3.31/x", ""}});
  plan::ToolRelease r{"cmake", testkit::version_of("3.31.6"), {{"cmake", "3.31.6", ""}}};
  std::string err;
  auto got = ensure(r, WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err);
  ASSERT_TRUE(got) << err;
  EXPECT_TRUE(fs::exists(got->dir + "/bin/cmake"));
  EXPECT_TRUE(fs::exists(got->dir + "/share/cmake-3.31/x"));
}

TEST(Provision, NinjaWheelScriptsBecomeBin) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  fake_wheel(t / "wh", "ninja", "1.13.0", {{"ninja/__init__.py", ""}, {"ninja-1.13.0.data/scripts/ninja", "elf"}});
  plan::ToolRelease r{"ninja", testkit::version_of("1.13.0"), {{"ninja", "1.13.0", ""}}};
  std::string err;
  auto got = ensure(r, WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err);
  ASSERT_TRUE(got) << err;
  EXPECT_TRUE(fs::exists(got->dir + "/bin/ninja"));
}

TEST(Provision, WheelFileFits) {
  plan::WheelPin p{"nvidia-cuda-nvcc", "13.2.86", ""};
  EXPECT_TRUE(wheel_file_fits("nvidia_cuda_nvcc-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", p, kPlat));
  EXPECT_FALSE(wheel_file_fits("nvidia_cuda_nvcc-13.2.86-py3-none-manylinux2014_aarch64.whl", p, kPlat));
  EXPECT_FALSE(wheel_file_fits("nvidia_cuda_nvcc-13.2.8-py3-none-manylinux2014_x86_64.whl", p, kPlat));
  EXPECT_FALSE(wheel_file_fits("nvidia_cuda_nvcc_cu12-13.2.86-py3-none-manylinux2014_x86_64.whl", p, kPlat));
  EXPECT_TRUE(wheel_file_fits("cmake-3.31.6-py3-none-any.whl", {"cmake", "3.31.6", ""}, kPlat));
}

}  // namespace
}  // namespace ts::provision

namespace ts::provision {
namespace {

// The hashes a lock pins (a run recorded them): the same files pass, fresh or cached; another file
// for one pin is refused naming the wheel, both hashes, and leaves no toolkit behind.
TEST(ProvisionLock, PinnedHashesAreCheckedFreshAndCached) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  cu13_wheelhouse(t / "wh");
  std::string err;
  auto first = ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "a", kPlat, &err);
  ASSERT_TRUE(first) << err;
  std::vector<plan::WheelPin> locked = first->manifest.wheels;
  ASSERT_EQ(locked.size(), 5u);
  for (const auto& w : locked) {
    EXPECT_EQ(w.sha256.size(), 64u) << w.name;
    EXPECT_TRUE(fs::exists(t / ("wh/" + w.file))) << w.file;  // the file name the lock records
  }
  // Another cache, the same files: checked and accepted; then reused with the same check.
  auto again = ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "b", kPlat, &err, locked);
  ASSERT_TRUE(again) << err;
  EXPECT_FALSE(again->cached);
  auto cached = ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "b", kPlat, &err, locked);
  ASSERT_TRUE(cached) << err;
  EXPECT_TRUE(cached->cached);
  // The same directory name (the catalog's pins), whatever the lock's hashes.
  EXPECT_EQ(again->dir, plan::provisioned_dir(t / "b", "cuda", "13.2.86", cu13_release().wheels, kPlat));

  auto wrong = locked;
  wrong[1].sha256 = std::string(64, 'f');
  EXPECT_FALSE(ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "c", kPlat, &err, wrong));
  EXPECT_NE(err.find(locked[1].sha256), std::string::npos) << err;
  EXPECT_NE(err.find(std::string(64, 'f')), std::string::npos) << err;
  EXPECT_TRUE(list_cached(t / "c").empty());
  // A cached toolkit made from other files than the lock pins is not taken either.
  EXPECT_FALSE(ensure(cu13_release(), WheelhouseProvider(t / "wh"), t / "b", kPlat, &err, wrong));
  EXPECT_NE(err.find("other files than the lock pins"), std::string::npos) << err;
  EXPECT_NE(err.find(wrong[1].name + "==" + wrong[1].version), std::string::npos) << err;
}

}  // namespace
}  // namespace ts::provision

// Host: path mapping under a root, symlinks resolved inside it, command lookup, environment.
#include "probe/host.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fixture_util.h"
#include "probe/probe.h"
#include "testkit/temp_dir.h"

using namespace ts::probe;
namespace fs = std::filesystem;

using ts::probe::testing::TempRoot;

TEST(Host, MapsPathsUnderRoot) {
  TempRoot r;
  r.write("/etc/os-release", "ID=debian\n");
  std::string err;
  auto h = Host::at(r.dir.string(), &err);
  ASSERT_TRUE(h) << err;
  EXPECT_FALSE(h->is_real());
  EXPECT_EQ(h->map("/etc/os-release"), r.dir.string() + "/etc/os-release");
  EXPECT_EQ(h->unmap(r.dir.string() + "/etc/os-release"), "/etc/os-release");
  EXPECT_EQ(h->read("/etc/os-release").value_or(""), "ID=debian\n");
  EXPECT_FALSE(h->read("/etc/hostname"));  // the real one is never read
  EXPECT_TRUE(Host::at("/", &err)->is_real());
}

TEST(Host, AbsoluteSymlinksStayInsideRoot) {
  TempRoot r;
  r.write("/usr/local/cuda-12.4/version.json", "{}");
  r.link("/etc/alternatives/cuda", "/usr/local/cuda-12.4");  // absolute, as update-alternatives makes
  r.link("/usr/local/cuda", "/etc/alternatives/cuda");
  r.link("/loop", "/loop");
  std::string err;
  auto h = Host::at(r.dir.string(), &err);
  EXPECT_EQ(h->canonical("/usr/local/cuda"), "/usr/local/cuda-12.4");
  EXPECT_EQ(h->canonical("/usr/local/cuda/version.json"), "/usr/local/cuda-12.4/version.json");
  EXPECT_EQ(h->canonical("/usr/local/cuda/../cuda-12.4"), "/usr/local/cuda-12.4");
  EXPECT_EQ(h->canonical("/nonexistent"), "");
  EXPECT_EQ(h->canonical("/loop"), "");
}

TEST(Host, EnvironmentAndCommandsComeFromTheRoot) {
  TempRoot r;
  r.write("/.host/env", "# comment\nPATH=/opt/tool/bin:/usr/bin\nHOME=/home/u\n");
  r.write("/opt/tool/bin/cmake", "#!/bin/sh\necho cmake version 9.9.9\n", true);
  r.write("/usr/bin/cmake", "#!/bin/sh\necho cmake version 1.0.0\n", true);
  r.write("/usr/bin/notexec", "", false);
  std::string err;
  auto h = Host::at(r.dir.string(), &err);
  EXPECT_EQ(h->getenv("HOME"), "/home/u");
  EXPECT_EQ(h->getenv("CUDA_HOME"), "");  // ours does not leak in
  EXPECT_EQ(h->find_command("cmake"), "/opt/tool/bin/cmake");
  EXPECT_EQ(h->find_command("notexec"), "");
  EXPECT_EQ(h->find_command("sh"), "");  // the real /bin/sh is not the fake host's
  auto res = h->run({"/opt/tool/bin/cmake", "--version"}, std::chrono::seconds(5));
  EXPECT_EQ(res.out, "cmake version 9.9.9\n");
}

TEST(Host, NormalizePath) {
  EXPECT_EQ(normalize_path("/a/b/../c/./d/"), "/a/c/d");
  EXPECT_EQ(normalize_path("/.."), "/");
  EXPECT_EQ(normalize_path(""), "/");
}

TEST(Host, BrokenOrHangingNvidiaSmiIsANoteNotAHang) {
  TempRoot r;
  r.write("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
  r.write("/sys/bus/pci/devices/0000:01:00.0/device", "0x2204\n");
  r.write("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");
  r.write("/usr/bin/nvidia-smi",
          "#!/bin/sh\necho \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"\nexit 9\n", true);
  r.write("/usr/local/cuda-12.4/bin/nvcc", "#!/bin/sh\nexec sleep 30\n", true);
  std::string err;
  auto h = Host::at(r.dir.string(), &err);
  ProbeOptions o;
  o.command_timeout = std::chrono::milliseconds(300);
  auto t0 = std::chrono::steady_clock::now();
  auto f = ts::probe::probe(*h, o);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 2.0);
  EXPECT_FALSE(f.driver.present);
  ASSERT_EQ(f.gpus.size(), 1u);
  auto joined = [&] {
    std::string all;
    for (auto& n : f.notes) all += n + "\n";
    return all;
  }();
  EXPECT_NE(joined.find("nvidia-smi failed: NVIDIA-SMI has failed"), std::string::npos) << joined;
  EXPECT_NE(joined.find("timed out after 0.3 s"), std::string::npos) << joined;  // the hanging nvcc
  ASSERT_EQ(f.cuda_toolkits.size(), 1u);
  EXPECT_EQ(f.cuda_toolkits[0].version, "");
}

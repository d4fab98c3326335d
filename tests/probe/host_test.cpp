// Host: path mapping under a root, symlinks resolved inside it, command lookup, environment.
#include "probe/host.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fixture_util.h"

using namespace ts::probe;
namespace fs = std::filesystem;

namespace {
struct TempRoot {
  fs::path dir;
  TempRoot() {
    char tmpl[] = "/tmp/ts-host-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~TempRoot() { fs::remove_all(dir); }
  void write(const std::string& p, const std::string& text, bool exec = false) {
    fs::path full = dir / p.substr(1);
    fs::create_directories(full.parent_path());
    std::ofstream(full) << text;
    if (exec) fs::permissions(full, fs::perms::owner_all);
  }
  void link(const std::string& p, const std::string& target) {
    fs::path full = dir / p.substr(1);
    fs::create_directories(full.parent_path());
    fs::create_symlink(target, full);
  }
};
}  // namespace

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

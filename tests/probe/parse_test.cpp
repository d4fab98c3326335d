// Parsing helpers and the Python probe's JSON, and the script itself on every Python here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "probe/host.h"
#include "probe/nvml.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "testkit/temp_dir.h"

using namespace ts;
using namespace ts::probe;

TEST(Text, FindVersion) {
  EXPECT_EQ(find_version("Cuda compilation tools, release 12.8, V12.8.93", ", V"), "12.8.93");
  EXPECT_EQ(find_version("cmake version 4.2.0-rc1", "version"), "4.2.0");
  EXPECT_EQ(find_version("ldd (Ubuntu GLIBC 2.35-0ubuntu3) 2.35"), "2.35");
  EXPECT_EQ(find_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release", "Module"),
            "580.95.05");
  EXPECT_EQ(find_version("GNU Make 4.3", "Make", 1), "4.3");
  EXPECT_EQ(find_version("1.11.1\n", {}, 1), "1.11.1");
  EXPECT_EQ(find_version("no digits"), "");
}

TEST(Text, DefineValue) {
  std::string h = "#ifndef X\n#  define CUDNN_MAJOR 9 // major\n#define CUDNN_MINOR\t19\n#define CUDNN_MAJORX 1\n";
  EXPECT_EQ(define_value(h, "CUDNN_MAJOR"), "9");
  EXPECT_EQ(define_value(h, "CUDNN_MINOR"), "19");
  EXPECT_EQ(define_value(h, "CUDNN_PATCHLEVEL"), "");
}

TEST(Text, NvmlBusIdToSysfs) {
  EXPECT_EQ(normalize_bus_id("00000000:0B:00.0"), "0000:0b:00.0");
  EXPECT_EQ(normalize_bus_id("0001:65:00.0"), "0001:65:00.0");
}

TEST(PythonJson, ParsesTheLastJsonLineAndNormalisesCudnn) {
  PythonFacts f;
  std::string err;
  std::string out =
      "some warning on stdout\n"
      R"({"version": "3.12.3", "abi_tag": "cp312", "platform_tag": "linux_x86_64", "site_packages": "/s",)"
      R"( "prefix": "/p", "env_kind": "venv", "packages": {"numpy": "2.1.0"},)"
      R"( "torch": {"present": true, "version": "2.11.0+cu130", "cuda": "13.0", "cudnn": "91900",)"
      R"( "cxx11_abi": true, "arch_list": ["sm_90", "sm_100"], "debug": false, "git_version": "abc", "path": "/t"}})"
      "\n";
  ASSERT_TRUE(parse_python_json(out, f, &err)) << err;
  EXPECT_EQ(f.version, "3.12.3");
  EXPECT_EQ(f.env_kind, "venv");
  EXPECT_EQ(f.packages.at("numpy"), "2.1.0");
  EXPECT_TRUE(f.torch.present);
  EXPECT_EQ(f.torch.cudnn, "9.19.0");
  EXPECT_EQ(f.torch.arch_list.names(), (std::vector<std::string>{"sm_90", "sm_100"}));
  EXPECT_EQ(f.torch.arch_list.code().back(), CudaArch::of(10, 0));  // typed where the probe read it
  PythonFacts g;
  ASSERT_TRUE(parse_python_json(R"({"version": "3.8.0", "torch": {"present": true, "cudnn": "8905"}})", g, &err));
  EXPECT_EQ(g.torch.cudnn, "8.9.5");
  PythonFacts bad;
  EXPECT_FALSE(parse_python_json("hello\n{not json\n", bad, &err));
  EXPECT_EQ(err, "printed no JSON");
}

TEST(PythonScript, RunsOnEveryInterpreterInstalledHere) {
  // pyenv's 3.6 .. 3.13 on the dev machine, the system's python3 anywhere: the script must
  // work on all of them (3.6/3.7 have no importlib.metadata).
  std::vector<std::string> pys = {"/usr/bin/python3"};
  std::string pyenv = std::string(std::getenv("HOME") ? std::getenv("HOME") : "/root") + "/.pyenv/versions";
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator(pyenv, ec)) pys.push_back(e.path().string() + "/bin/python3");
  int ran = 0;
  for (auto& py : pys) {
    if (::access(py.c_str(), X_OK) != 0) continue;
    auto r = util::run({py, "-I", "-c", python_probe_script()}, {});
    PythonFacts f;
    std::string err;
    EXPECT_TRUE(parse_python_json(r.out, f, &err)) << py << ": " << err << " " << r.err;
    EXPECT_TRUE(f.error.empty()) << py << ": " << f.error;
    EXPECT_FALSE(f.abi_tag.empty()) << py;
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "no python3 here";
}

TEST(PythonScript, TorchThatFailsToImportIsReportedNotFatal) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  // A fake torch package in the cwd (found because this run is not isolated with -I).
  ::ts::testkit::TempDir tmp("ts-torch");
  std::string dir = tmp.path();
  std::filesystem::create_directories(dir + "/torch");
  {
    FILE* f = std::fopen((dir + "/torch/__init__.py").c_str(), "w");
    std::fputs("print('noise on stdout while importing')\n"
               "raise OSError('libcudnn.so.9: cannot open shared object file: No such file or directory')\n", f);
    std::fclose(f);
  }
  util::RunOptions o;
  o.cwd = dir;
  auto r = util::run({"/usr/bin/python3", "-c", python_probe_script()}, o);
  PythonFacts f;
  std::string err;
  ASSERT_TRUE(parse_python_json(r.out, f, &err)) << err << r.out << r.err;
  EXPECT_TRUE(f.torch.present);
  EXPECT_EQ(f.torch.error, "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory");
  EXPECT_TRUE(f.error.empty());
}

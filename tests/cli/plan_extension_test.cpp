// `torchsmith plan DIR --torch PY`: an extension planned against an installed torch through the real
// binary, on this machine's Debian torch (skipped when absent) and on a written --facts file.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include <fstream>

#include "cli_util.h"
#include "core/host_facts.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

using testing::run_torchsmith;

const std::string kSrc = TS_SOURCE_DIR;
const char* kDebianPython = "/usr/bin/python3";

bool debian_torch() { return std::filesystem::exists("/usr/lib/python3/dist-packages/torch/version.py"); }

TEST(PlanExtension, HelloExtAgainstDebiansTorchIsACpuPlanWithoutIsolation) {
  if (!debian_torch()) GTEST_SKIP() << "Debian's python3-torch is not installed";
  auto r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--torch", kDebianPython, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& p = j["plan"];
  EXPECT_EQ(p["python"], kDebianPython);
  EXPECT_EQ(p["import_name"], "hello_ext");
  EXPECT_NE(p["smoke"].get<std::string>().find("hello_ext.add_one"), std::string::npos);  // the tree's smoke.py
  EXPECT_EQ(p["cuda"], "");
  EXPECT_EQ(p["source"]["dir"], std::filesystem::canonical(kSrc + "/examples/hello_ext").string());
  // Debian's setuptools has the legacy backend: torchsmith's PEP 517 frontend builds in that Python
  // itself (no isolation), found through the build helper's directory on PYTHONPATH.
  std::vector<std::string> build;
  for (const auto& s : p["steps"])
    if (s["name"] == "build") build = s["argv"].get<std::vector<std::string>>();
  EXPECT_EQ(build, (std::vector<std::string>{kDebianPython, "-m", "torchsmith_pep517", "-w", "dist", "."}));
  EXPECT_EQ(p["env"].value("PYTHONPATH", "").rfind("{pyshim}", 0), 0u);
  EXPECT_TRUE(p["env"].contains("MAX_JOBS"));
  EXPECT_FALSE(p["env"].contains("HOME"));

  auto text = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--torch", kDebianPython});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("hello-ext against torch "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("CPU build"), std::string::npos);
}

// A tree whose setup.py turns ninja off, as torch-spline-conv's does: the plan turns it back on
// through the build helper, and sizes the jobs as for any ninja build.
TEST(PlanExtension, UseNinjaFalseIsTurnedBackOnThroughTheHelper) {
  if (!debian_torch()) GTEST_SKIP() << "Debian's python3-torch is not installed";
  if (!std::filesystem::exists("/usr/bin/ninja")) GTEST_SKIP() << "no /usr/bin/ninja (Debian's ninja-build)";
  ::ts::testkit::TempDir tmp("ts-ninja-off");
  ASSERT_FALSE(tmp.path().empty());
  std::ofstream(tmp.path() + "/setup.py")
      << "from setuptools import setup\n"
         "from torch.utils.cpp_extension import BuildExtension, CppExtension\n"
         "setup(name='ninja_off_ext', version='0.1', ext_modules=[CppExtension('ninja_off_ext._C', ['a.cpp'])],\n"
         "      cmdclass={'build_ext': BuildExtension.with_options(no_python_abi_suffix=True, use_ninja=False)})\n";
  auto r = run_torchsmith({"plan", tmp.path(), "--torch", kDebianPython, "--explain"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ninja: on through the build helper"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TORCHSMITH_NINJA=1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PYTHONPATH={pyshim}"), std::string::npos) << r.out;
  auto one = run_torchsmith({"plan", tmp.path(), "--torch", kDebianPython, "--jobs", "1", "--explain"});
  ASSERT_EQ(one.exit_code, 0) << one.out << one.err;
  EXPECT_EQ(one.out.find("TORCHSMITH_NINJA"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("MAX_JOBS is ignored"), std::string::npos) << one.out;
}

TEST(PlanExtension, CudaExtensionAgainstDebiansCpuTorchIsRefused) {
  if (!debian_torch()) GTEST_SKIP() << "Debian's python3-torch is not installed";
  auto r = run_torchsmith({"plan", kSrc + "/tests/fixtures/projects/ext-cuda", "--torch", kDebianPython});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("at /usr/lib/python3/dist-packages/torch was built without CUDA"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fix: give --torch a Python whose torch was built with CUDA"), std::string::npos);
}

// An 8-core x86-64 machine with GCC 12 and one venv (/opt/venv/bin/python3) holding this torch.
HostFacts venv_host(const std::string& torch_version, const std::string& torch_cuda) {
  HostFacts f;
  f.cpu.arch = "x86_64";
  f.cpu.logical_cores = 8;
  f.memory.usable_bytes = 16ull << 30;
  f.compilers.push_back({"gcc", "/usr/bin/gcc", "/usr/bin/g++", "12.2.0", "x86_64-linux-gnu"});
  PythonFacts py;
  py.path = "/opt/venv/bin/python3";
  py.version = "3.12.3";
  py.packages = {{"pip", "24.0"}};
  py.torch.present = true;
  py.torch.version = FactVersion(torch_version);
  py.torch.cuda = FactVersion(torch_cuda);
  py.torch.cxx11_abi = true;
  py.torch.path = "/opt/venv/lib/python3.12/site-packages/torch";
  f.pythons.push_back(py);
  return f;
}

// A CUDA 12.8 torch on a machine whose only nvcc is 13.0: refused before anything compiles.
TEST(PlanExtension, FactsFileWithNvccOfAnotherMajorExitsThree) {
  HostFacts f = venv_host("2.7.1+cu128", "12.8");
  f.cuda_toolkits.push_back({"/usr/local/cuda-13.0", "13.0", "/usr/local/cuda-13.0/bin/nvcc", "cuda.h", {}, {}});
  GpuFacts g;
  g.compute_capability = CudaArch::of(8, 9);
  f.gpus.push_back(g);
  std::string file = std::string(TS_BINARY_DIR) + "/plan-ext-facts.json";
  ASSERT_EQ(util::write_file_atomic(file, nlohmann::json(f).dump()), "");
  // Installed toolkits only: cpp_extension's refusal, said before the build.
  auto r = run_torchsmith({"plan", kSrc + "/tests/fixtures/projects/ext-cuda", "--facts", file, "--torch",
                           "/opt/venv/bin/python3", "--toolkit", "system"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("mismatches the version that was used to compile PyTorch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fix: install CUDA 12.8"), std::string::npos);
  // By default torch's 12.8 is provisioned from NVIDIA's archives (PyPI's cu12 wheels have no nvcc).
  r = run_torchsmith({"plan", kSrc + "/tests/fixtures/projects/ext-cuda", "--facts", file, "--torch",
                      "/opt/venv/bin/python3", "--explain"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("provisioned from NVIDIA's redistributable archives"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("redistrib_12.8.1.json"), std::string::npos) << r.out;
}

// --toolkit names the provider: a release the catalog has only from another one is refused, not
// provisioned from there (the plan once took PyPI's 13.2 for --toolkit redist). provision.toml lists
// CUDA 13.2 from PyPI only.
TEST(PlanExtension, ToolkitProviderAskedForIsTheOnlyOneUsed) {
  HostFacts f = venv_host("2.15.0+cu132", "13.2");
  std::string file = std::string(TS_BINARY_DIR) + "/plan-ext-provider-facts.json";
  ASSERT_EQ(util::write_file_atomic(file, nlohmann::json(f).dump()), "");
  std::vector<std::string> base{"plan", kSrc + "/tests/fixtures/projects/ext-cuda", "--facts", file, "--torch",
                                "/opt/venv/bin/python3", "--arch", "9.0", "--explain", "--toolkit"};
  auto with = [&](const char* provider) { auto a = base; a.push_back(provider); return run_torchsmith(a); };
  auto r = with("redist");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("no CUDA 13.2 from redist (it has one from pip: --toolkit pip)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--from pip"), std::string::npos) << r.out;
  r = with("pip");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("--from pip"), std::string::npos) << r.out;
}

TEST(PlanExtension, TorchPythonIsLookedUpUnderTheRoot) {
  // /usr/bin/python3.10 exists only in the fixture; /usr/bin/python3 only on this machine.
  std::string root = kSrc + "/tests/fixtures/hosts/torch-installs";
  auto r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--root", root, "--torch", "/usr/bin/python3.10"});
  EXPECT_EQ(r.err.find("no such interpreter"), std::string::npos) << r.err;
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_NE(r.out.find("2.5.1+cu124"), std::string::npos) << r.out;  // the fixture's torch, not this machine's
  r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--root", root, "--torch", "/usr/bin/python3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such interpreter under --root"), std::string::npos) << r.err;
}

// A relative --torch names a file from where torchsmith runs; the build runs in the copy of the
// source, so the plan holds the absolute path (a build once failed "venv/bin/python: No such file").
TEST(PlanExtension, ARelativeTorchPythonIsMadeAbsoluteNotResolved) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch";
  auto r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--torch", "bin/python3", "--format", "json"},
                          std::chrono::seconds(120), "/usr");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"/usr/bin/python3\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"bin/python3\""), std::string::npos) << r.out;
  r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--torch", "no/python3"}, std::chrono::seconds(120), "/usr");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--torch no/python3: no such interpreter"), std::string::npos) << r.err;
}

TEST(PlanExtension, BadRequestsAreUsageErrors) {
  auto r = run_torchsmith({"plan", kSrc + "/no/such/dir"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
  r = run_torchsmith({"plan", "https://github.com/x/y"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("URL@TAG"), std::string::npos) << r.err;
  r = run_torchsmith({"plan", "torch==2.4.1", "--torch", "/usr/bin/python3"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--torch", "/no/such/python"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such interpreter"), std::string::npos) << r.err;
  r = run_torchsmith({"plan", kSrc + "/examples/hello_ext", "--split-compile", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("write auto, off, or a thread count"), std::string::npos) << r.err;
  r = run_torchsmith({"plan", "torch==2.4.1", "--split-compile", "4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("applies to extension builds"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts

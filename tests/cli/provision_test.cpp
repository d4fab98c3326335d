// Provisioning end to end with the real binary: the plans of issue 17 on this machine (CUDA 13.0 and
// CMake 3.25 installed), and a real CUDA extension built against a real CUDA torch from PyPI with a
// toolkit provisioned from PyPI, then from a wheelhouse with the network cut off (unshare -n).
// ProvisionCli.CudaExtension* is over 60 s (label slow;network, tests/tiers.cmake): it downloads a CUDA
// torch and toolkit wheels and compiles three CUDA extensions; nothing smaller shows they link and run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"
#include "cli/redist_mirror.h"
#include "core/arch_list.h"
#include "plan/provision_request.h"
#include "provision/provision.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "verify/verify.h"
#include "testkit/version_of.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::run_torchsmith;
using testing::kRedistCuda;
using testing::make_redist_mirror;

bool pypi_reachable() {
  util::RunOptions o;
  o.timeout = 20s;
  auto r = util::run({"/usr/bin/python3", "-c",
                      "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/cmake/', timeout=15)"},
                     o);
  return r.ok();
}

// This machine's case of issue 17: an installed CUDA 13.0 and CMake 3.25. Elsewhere it says why not.
bool issue17_host() {
  util::RunOptions o;
  auto r = util::run({"/usr/bin/cmake", "--version"}, o);
  return fs::exists("/usr/local/cuda/bin/nvcc") && r.ok() && r.out.find("cmake version 3.25") != std::string::npos;
}

TEST(ProvisionCli, Torch29PlanProvisionsCmakeInRange) {
  if (!issue17_host()) GTEST_SKIP() << "needs the CI machine's CMake 3.25 at /usr/bin/cmake and CUDA at /usr/local/cuda";
  testkit::TempDir t;
  auto r = run_torchsmith({"plan", "torch==2.9.0", "--arch", "9.0", "--python", "/usr/bin/python3", "--cache-dir",
                           t / "cache", "--explain"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("provision"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(t / "cache/toolkits/cmake-"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(">= 3.27"), std::string::npos) << r.out;
  // Planning writes nothing: the cache is filled by the run's provision step.
  EXPECT_FALSE(fs::exists(t / "cache"));
}

TEST(ProvisionCli, Torch24PlanChoosesAnOfficialToolkitNotTheInstalled13) {
  if (!issue17_host()) GTEST_SKIP() << "needs the CI machine's CUDA 13.0 at /usr/local/cuda";
  testkit::TempDir t;
  auto r = run_torchsmith({"plan", "torch==2.4.1", "--arch", "9.0", "--python", "/usr/bin/python3", "--cache-dir",
                           t / "cache", "--explain", "-o", t / "plan.json"});
  // torch 2.4's official toolkits are 11.8, 12.1 and 12.4; none is installed, and PyPI's 12.x nvcc
  // wheels hold ptxas only: 12.4 comes from NVIDIA's redistributable archives, planned without a download.
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("newer major than every official CUDA of torch 2.4 ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("provision: cuda 12.4.131 from NVIDIA's redistributable archives"), std::string::npos) << r.out;
  auto plan = nlohmann::json::parse(util::read_file(t / "plan.json").value_or("{}"), nullptr, false);
  std::string step;
  for (const auto& s : plan.value("steps", nlohmann::json::array()))
    if (s.value("name", "") == "provision-cuda")
      for (const auto& a : s["argv"]) step += a.get<std::string>() + " ";
  EXPECT_NE(step.find("toolkit add cuda==12.4.131 --from redist --for torch"), std::string::npos) << step;
  EXPECT_FALSE(fs::exists(t / "cache"));
  // PyPI alone cannot: the refusal of before, with the no-root way.
  r = run_torchsmith({"plan", "torch==2.4.1", "--arch", "9.0", "--python", "/usr/bin/python3", "--toolkit", "pip",
                      "--cache-dir", t / "cache"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("--toolkitpath=$HOME/cuda-12.4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no whole compiler"), std::string::npos) << r.out;
  // The old behaviour stays one flag away.
  r = run_torchsmith({"plan", "torch==2.4.1", "--arch", "9.0", "--python", "/usr/bin/python3", "--toolkit", "system"});
  EXPECT_NE(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("13.0"), std::string::npos) << r.out;
}

// sm_89 is past torch 1.13's official 11.6 and 11.7: the plan takes 11.8 from NVIDIA's archives.
TEST(ProvisionCli, Torch113ForAdaPlans118FromRedist) {
  if (!issue17_host()) GTEST_SKIP() << "needs the CI machine's CUDA 13.0 at /usr/local/cuda";
  testkit::TempDir t;
  auto r = run_torchsmith({"plan", "torch==1.13.1", "--arch", "8.9", "--cache-dir", t / "cache", "--explain"});
  EXPECT_NE(r.out.find("provision: cuda 11.8.89 from NVIDIA's redistributable archives"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("compiles for every --arch asked for"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("redistrib_11.8.0.json"), std::string::npos) << r.out;
}

// The plan's torch toolkit from NVIDIA's archives names every part a torch build needs, cuDNN from
// its own manifest (this machine's cuDNN lives in CUDA 13's tree: not one for CUDA 12).
TEST(ProvisionCli, Torch24FromRedistTakesTheMathLibrariesAndCudnn) {
  if (!issue17_host()) GTEST_SKIP() << "needs the CI machine's CUDA 13.0 at /usr/local/cuda";
  testkit::TempDir t;
  auto r = run_torchsmith({"plan", "torch==2.4.1", "--arch", "9.0", "--python", "/usr/bin/python3", "--cache-dir",
                           t / "cache", "--explain", "-o", t / "plan.json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("provision: cudnn 9.13.0.50 from NVIDIA's cuDNN archives"), std::string::npos) << r.out;
  auto plan = nlohmann::json::parse(util::read_file(t / "plan.json").value_or("{}"), nullptr, false);
  std::string step, parts;
  for (const auto& s : plan.value("steps", nlohmann::json::array()))
    if (s.value("name", "") == "provision-cuda")
      for (const auto& a : s["argv"]) step += a.get<std::string>() + " ";
  EXPECT_NE(step.find("--from redist --for torch --cudnn 9.13.0.50"), std::string::npos) << step;
  for (const auto& p : plan.value("provisioned", nlohmann::json::array()))
    for (const auto& w : p.value("wheels", nlohmann::json::array())) parts += w.value("name", "") + " ";
  for (const char* part : {"libcublas", "libcufft", "libcurand", "libcusolver", "libcusparse", "cuda_cupti", "cudnn"})
    EXPECT_NE(parts.find(std::string(part) + " "), std::string::npos) << part << " not in " << parts;
  std::string dir = plan["provisioned"][0].value("dir", "");
  EXPECT_EQ(plan["env"].value("CUDNN_LIBRARY", ""), dir + "/lib/libcudnn.so");
  // torch 1.13 for Ada: 11.8 with the last cuDNN 8.
  r = run_torchsmith({"plan", "torch==1.13.1", "--arch", "8.9", "--cache-dir", t / "cache", "--explain"});
  EXPECT_NE(r.out.find("provision: cudnn 8.9.7.29"), std::string::npos) << r.out << r.err;
}

// The mirror's config equivalent: a site's provision.toml [mirror] (here a --kb overlay; by default
// ~/.config/torchsmith/kb) sets where NVIDIA's archives come from; --toolkit-mirror still wins.
TEST(ProvisionCli, SiteMirrorFromTheConfigOverlay) {
  if (!issue17_host()) GTEST_SKIP() << "needs the CI machine's CUDA 13.0 at /usr/local/cuda";
  testkit::TempDir t;
  fs::create_directories(t / "kb");
  fs::create_directories(t / "site-redist");
  fs::create_directories(t / "usb");
  ASSERT_EQ(util::write_file_atomic(t / "kb/provision.toml", "[mirror]\nredist = \"" + t / "site-redist" + "\"\n"), "");
  auto r = run_torchsmith({"--kb", t / "kb", "plan", "torch==2.4.1", "--arch", "9.0", "--python", "/usr/bin/python3",
                           "--cache-dir", t / "cache", "--explain", "-o", t / "plan.json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("from NVIDIA's redistributable archives (the mirror " + t / "site-redist" + ")"), std::string::npos) << r.out;
  auto plan = nlohmann::json::parse(util::read_file(t / "plan.json").value_or("{}"), nullptr, false);
  EXPECT_EQ(plan["provisioned"][0].value("from", ""), t / "site-redist");
  r = run_torchsmith({"--kb", t / "kb", "plan", "torch==2.4.1", "--arch", "9.0", "--python", "/usr/bin/python3",
                      "--cache-dir", t / "cache", "--toolkit-mirror", t / "usb", "--explain"});
  EXPECT_NE(r.out.find("(the mirror " + t / "usb" + ")"), std::string::npos) << r.out << r.err;
  // `toolkit add` reads the same setting, and says where a bad one came from.
  ASSERT_EQ(util::write_file_atomic(t / "kb/provision.toml", "[mirror]\nredist = \"" + t / "gone" + "\"\n"), "");
  r = run_torchsmith({"--kb", t / "kb", "toolkit", "add", "cuda==12.4", "--from", "redist", "--cache-dir", t / "c"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("provision.toml [mirror] redist = " + t / "gone"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "c/toolkits"));
}

// `toolkit path` finds a torch build's toolkit from NVIDIA's archives with cuDNN merged in (its own
// cache directory: the wheel set names cuDNN).
TEST(ProvisionCli, ToolkitPathFindsATorchToolkitWithCudnn) {
  testkit::TempDir t;
  std::vector<std::string> errors;
  auto cat = plan::load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const plan::ToolRelease* rel = cat.find("cuda", testkit::version_of("12.4"), "redist");
  const plan::ToolRelease* cudnn = cat.cudnn_for(12, testkit::version_of("2.4.1"));
  ASSERT_TRUE(rel && cudnn);
  auto parts = rel->wheels;
  parts.insert(parts.end(), rel->torch_parts.begin(), rel->torch_parts.end());
  parts.insert(parts.end(), cudnn->wheels.begin(), cudnn->wheels.end());
  std::string dir = plan::provisioned_dir(t / "c", "cuda", rel->version.original(), parts, provision::host_platform());
  fs::create_directories(dir);
  ASSERT_EQ(util::write_file_atomic(dir + "/" + provision::kManifest,
                                    nlohmann::json{{"kind", "cuda"}, {"version", rel->version.original()}, {"provider", "redist"}}.dump()),
            "");
  auto r = run_torchsmith({"toolkit", "path", "cuda==12.4", "--cache-dir", t / "c"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(util::trim(r.out), dir);
}

TEST(ProvisionCli, ToolkitCommandRefusesBadSpecsAndListsAnEmptyCache) {
  testkit::TempDir t;
  auto r = run_torchsmith({"toolkit", "add", "cuda 12.4", "--cache-dir", t / "c"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("KIND==VERSION"), std::string::npos) << r.err;
  r = run_torchsmith({"toolkit", "add", "cuda==12.4", "--cache-dir", t / "c", "--from", "wheelhouse:" + t / "none"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_torchsmith({"toolkit", "path", "cuda==13.2", "--cache-dir", t / "c"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("toolkit add cuda==13.2"), std::string::npos) << r.err;
  r = run_torchsmith({"toolkit", "list", "--json", "--cache-dir", t / "c"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["toolkits"].empty());
  r = run_torchsmith({"plan", "torch==2.9.0", "--toolkit", "brew"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("wheelhouse:DIR"), std::string::npos) << r.err;
  r = run_torchsmith({"toolkit", "add", "cuda==12.4", "--cache-dir", t / "c", "--from", "redist:" + t / "none"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such directory"), std::string::npos) << r.err;
}

// ---- the real thing: torch from PyPI, the toolkit from PyPI, an extension compiled --------------

// A CUDA torch from PyPI (2.15.0, built for CUDA 13.2, with the nvidia-* wheels it imports) in its
// own venv under ~/.cache/torchsmith, made once and reused.
std::string torch_venv(std::string* why) {
  const char* home = std::getenv("HOME");
  std::string dir = std::string(home ? home : "/root") + "/.cache/torchsmith/test-venvs/torch-cu13";
  std::string py = dir + "/bin/python";
  util::RunOptions o;
  o.timeout = 60s;
  if (util::run({py, "-c", "import torch; assert torch.version.cuda.startswith('13.')"}, o).ok()) return py;
  o.timeout = 40min;
  o.max_output = 64 << 20;
  if (!fs::exists(py) && !util::run({"/usr/bin/python3", "-m", "venv", dir}, o).ok()) {
    *why = "cannot make a venv in " + dir;
    return "";
  }
  auto r = util::run({py, "-m", "pip", "install", "-q", "torch==2.15.0", "setuptools", "wheel"}, o);
  if (!r.ok()) {
    *why = "pip install torch==2.15.0 failed: " + r.err.substr(0, 400);
    return "";
  }
  return py;
}

// The provision step's time in a run.json ("provision-cuda"), in seconds; -1 when absent.
double provision_seconds(const std::string& out) {
  auto text = util::read_file(out + "/last/run.json");
  if (!text) return -1;
  auto j = nlohmann::json::parse(*text, nullptr, false);
  for (const auto& s : j["steps"])
    if (s.value("name", "") == "provision-cuda") return s.value("seconds", -1.0);
  return -1;
}

// The built extension library inside the run's dist wheel, checked with verify's readers: the SASS
// of the planned arch, and libcudart.so.13 (torch's CUDA major) in NEEDED.
void expect_cuda13_sm90(const std::string& out) {
  std::string wheel;
  for (auto& e : fs::recursive_directory_iterator(out))
    if (e.path().extension() == ".whl") wheel = e.path().string();
  ASSERT_FALSE(wheel.empty()) << "no wheel under " << out;
  verify::VerifyOptions vo;
  vo.arches = ArchList::parse("9.0", nullptr, nullptr);
  auto rep = verify::verify_files({wheel}, vo);
  bool sm90 = false, cudart13 = false;
  for (const auto& f : rep.files) {
    for (const auto& n : f.needed) cudart13 |= n == "libcudart.so.13";
    if (f.cuda) sm90 |= f.cuda->sass_text().find("sm_90") != std::string::npos;
  }
  EXPECT_TRUE(sm90) << wheel;
  EXPECT_TRUE(cudart13) << wheel;
}

TEST(ProvisionCli, CudaExtensionAgainstPyPITorchWithAProvisionedToolkitThenFromAWheelhouseOffline) {
  if (!pypi_reachable()) GTEST_SKIP() << "PyPI is not reachable: this test installs torch and the CUDA wheels from it";
  std::string why;
  auto t0 = std::chrono::steady_clock::now();
  std::string py = torch_venv(&why);
  if (py.empty()) GTEST_SKIP() << why;
  testkit::TempDir t;
  std::string ext = std::string(TS_SOURCE_DIR) + "/examples/hello_cuda_ext";
  auto build = [&](const std::string& toolkit, const std::string& cache, const std::string& out, bool offline) {
    std::vector<std::string> args{"build", ext, "--torch", py, "--arch", "9.0", "--toolkit", toolkit,
                                  "--cache-dir", cache, "--out", out, "--compile-cache", "none"};
    if (!offline) return run_torchsmith(args, 1200s);
    std::vector<std::string> a{"/usr/bin/unshare", "-n", "--", TS_BINARY};
    a.insert(a.end(), args.begin(), args.end());
    util::RunOptions o;
    o.timeout = 1200s;
    o.env = std::map<std::string, std::string>{{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR},
                                               {"NO_COLOR", "1"}, {"LC_ALL", "C"}};
    return util::run(a, o);
  };
  // 1. From PyPI, with only CUDA 13.0 on the system: 13.2.86 (torch's CUDA) is provisioned.
  auto r = build("pip", t / "cache", t / "pip", false);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("provision-cuda"), std::string::npos) << r.out << r.err;  // step lines go to stderr
  expect_cuda13_sm90(t / "pip");
  double cold = provision_seconds(t / "pip");
  // 2. The same again: the cached toolkit is reused.
  r = build("pip", t / "cache", t / "pip2", false);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  double warm = provision_seconds(t / "pip2");
  std::printf("[provision] cuda 13.2.86 from PyPI: %.2f s cold, %.2f s reused (torch venv and all: %.0f s)\n", cold, warm,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  EXPECT_GE(warm, 0);
  EXPECT_LT(warm, 1.0);
  // 3. A wheelhouse, filled here, used with the network cut off and an empty cache.
  if (geteuid() != 0 || !fs::exists("/usr/bin/unshare")) GTEST_SKIP() << "unshare -n needs root";
  util::RunOptions o;
  o.timeout = 10min;
  auto dl = util::run({py, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--platform",
                       "manylinux2014_x86_64", "-d", t / "wheels", "nvidia-cuda-nvcc==13.2.86", "nvidia-cuda-crt==13.2.86",
                       "nvidia-nvvm==13.2.86", "nvidia-cuda-runtime==13.2.86", "nvidia-cuda-cccl==13.2.86"},
                      o);
  ASSERT_TRUE(dl.ok()) << dl.err;
  auto off = util::run({"/usr/bin/unshare", "-n", "--", "/usr/bin/python3", "-c",
                        "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/', timeout=5)"},
                       o);
  ASSERT_FALSE(off.ok()) << "the network was reachable inside unshare -n";
  r = build("wheelhouse:" + t / "wheels", t / "cache-offline", t / "offline", true);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  expect_cuda13_sm90(t / "offline");
  auto list = run_torchsmith({"toolkit", "list", "--json", "--cache-dir", t / "cache-offline"});
  auto j = nlohmann::json::parse(list.out);
  ASSERT_EQ(j["toolkits"].size(), 1u) << list.out;
  EXPECT_EQ(j["toolkits"][0]["provider"], "wheelhouse");
  EXPECT_EQ(j["toolkits"][0]["wheels"].size(), 5u);
  // 4. NVIDIA's redistributable archives from a mirror directory (made here from the machine's CUDA
  // 13.0 in NVIDIA's layout), network cut off: nvcc 13.0 for torch's 13.2 (same major), compile only.
  if (!fs::exists(std::string(kRedistCuda) + "/dist-info")) GTEST_SKIP() << "no wheel-made CUDA 13 to repackage";
  fs::create_directories(t / "kb");
  ASSERT_EQ(make_redist_mirror(t.path(), t / "redist", t / "kb"), "");
  std::vector<std::string> a{"/usr/bin/unshare", "-n", "--", TS_BINARY, "--kb", t / "kb", "build", ext, "--torch", py,
                             "--arch", "9.0", "--cuda", "13.0", "--toolkit", "redist", "--toolkit-mirror", t / "redist",
                             "--cache-dir", t / "cache-redist", "--out", t / "redist-out", "--compile-cache", "none"};
  util::RunOptions ro;
  ro.timeout = 1200s;
  ro.env = std::map<std::string, std::string>{{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR},
                                              {"NO_COLOR", "1"}, {"LC_ALL", "C"}};
  r = util::run(a, ro);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  expect_cuda13_sm90(t / "redist-out");
  list = run_torchsmith({"toolkit", "list", "--json", "--cache-dir", t / "cache-redist"});
  j = nlohmann::json::parse(list.out);
  ASSERT_EQ(j["toolkits"].size(), 1u) << list.out;
  EXPECT_EQ(j["toolkits"][0]["provider"], "redist");
}

}  // namespace
}  // namespace ts::cli

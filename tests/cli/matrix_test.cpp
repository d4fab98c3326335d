// `torchsmith matrix`: bad input refused (exit 2); a torch that cannot be had fails its own row and
// not the others (offline, an empty --wheelhouse); and the acceptance case live on PyPI: a real sdist
// built on the CPU against two real torch releases, then pip install --find-links from each row's
// directory into a fresh target and imported with that row's torch.
// MatrixCli.Live* is over 60 s (label slow;network, tests/tiers.cmake): two PyPI torch installs and two
// builds of the sdist are the acceptance case itself.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/temp_dir.h"
#include "util/spawn.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;
using testing::run_torchsmith;

bool have_venv() {
  util::RunOptions o;
  o.timeout = 20s;
  return util::run({"/usr/bin/python3", "-c", "import venv, ensurepip"}, o).ok();
}

bool pypi_reachable() {
  util::RunOptions o;
  o.timeout = 20s;
  return util::run({"/usr/bin/python3", "-c",
                    "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/torch/', timeout=15)"},
                   o)
      .ok();
}

TEST(MatrixCli, BadInputIsExitTwo) {
  testkit::TempDir t;
  auto r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("'2' is not a torch release"), std::string::npos) << r.err;
  r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2.5", "--cuda", "gpu", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("write auto"), std::string::npos) << r.err;
  r = run_torchsmith({"matrix", "torch==2.5.1", "--torch", "2.5", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2.5", "--wheelhouse", t / "none", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // The request options table's rows, checked as for an extension before any venv is made.
  r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2.5", "--jobs", "4x", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--jobs 4x: write a number of jobs"), std::string::npos) << r.err;
  r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2.5", "--source", "/tmp", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("write git (the recipe's tag) or sdist"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "o"));
}

// No torch in the wheelhouse: both rows fail (each says why), the index is still written, exit 1.
TEST(MatrixCli, ATorchThatCannotBeHadFailsItsRowOnly) {
  if (!have_venv()) GTEST_SKIP() << "no python3-venv here (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  fs::create_directories(t / "wheels");
  auto r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2.4,2.5.1", "--cuda", "cpu", "--wheelhouse",
                           t / "wheels", "--python", "/usr/bin/python3", "--cache-dir", t / "cache", "--out", t / "o"},
                          300s);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = json::parse(util::read_file(t / "o/index.json").value_or("{}"), nullptr, false);
  ASSERT_EQ(j["cells"].size(), 2u) << r.out << r.err;
  EXPECT_EQ(j["cells"][0]["torch_asked"], "2.4");
  EXPECT_EQ(j["cells"][1]["torch_asked"], "2.5.1");
  for (const auto& c : j["cells"]) {
    EXPECT_FALSE(c["ok"].get<bool>());
    EXPECT_NE(c["result"].get<std::string>().find("pip install torch=="), std::string::npos) << c.dump();
  }
  EXPECT_NE(util::read_file(t / "o/index.html").value_or("").find("2.5.1 (not installed)"), std::string::npos);
}

// Issue 32: the "Python" names the venv directory through its tag reply; "../../evil" made a venv
// outside the cache and removed a directory there. Only cpNN passes; nothing is made or removed.
TEST(MatrixCli, ATagReplyWithAPathIsRefused) {
  testkit::TempDir t;
  const std::string py = t / "python";
  {
    std::ofstream f(py);
    f << "#!/bin/sh\ncase \"$1\" in\n  -c) echo ../../evil ;;\n  -m) mkdir -p \"$4\" ;;\nesac\n";
  }
  fs::permissions(py, fs::perms::owner_all);
  fs::create_directories(t / "evil");
  std::ofstream(t / "evil/keep") << "mine\n";
  auto r = run_torchsmith({"matrix", "torch-scatter==2.1.2", "--torch", "2.4", "--cuda", "cpu", "--python", py,
                           "--cache-dir", t / "cache/x", "--out", t / "o"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("is not cpNN"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(t / "evil/keep"));
  EXPECT_FALSE(fs::exists(t / "cache/evil"));
  EXPECT_FALSE(fs::exists(t / "cache/x/evil"));
}

// Each venv's pip and each build run in a process group of their own, which a Ctrl-C or a kill of
// matrix does not reach: matrix stops them itself and exits 130 without an index. The "Python" here
// answers the version probe, then sleeps where `python -m venv` would make the venv.
TEST(MatrixCli, InterruptedStopsTheChildItStartedAndWritesNoIndex) {
  testkit::TempDir t;
  std::string py = t / "python", pidfile = t / "venv.pid";
  {
    std::ofstream f(py);
    f << "#!/bin/sh\ncase \"$1\" in\n  -c) echo cp311 ;;\n  -m) echo $$ > '" << pidfile << "'; exec sleep 120 ;;\nesac\n";
  }
  fs::permissions(py, fs::perms::owner_all);
  util::SpawnOptions so;
  so.env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR}, {"LC_ALL", "C"}};
  util::Child c = util::spawn({TS_BINARY, "matrix", "torch-scatter==2.1.2", "--torch", "2.4,2.5", "--cuda", "cpu",
                               "--python", py, "--cache-dir", t / "cache", "--out", t / "o"},
                              so);
  ASSERT_TRUE(c.ok()) << c.error;
  pid_t venv = 0;
  for (int i = 0; i < 600 && venv <= 0; ++i) {  // up to a minute on a loaded machine
    std::this_thread::sleep_for(100ms);
    venv = std::atoi(util::read_file(pidfile).value_or("0").c_str());
  }
  ASSERT_GT(venv, 0) << "matrix never ran `python -m venv`";
  ::kill(c.pid, SIGTERM);  // matrix alone, as a terminal's Ctrl-C reaches only its group
  int status = util::wait_status(c.pid);
  std::string err;
  char buf[4096];
  for (ssize_t n; (n = ::read(c.err_fd, buf, sizeof buf)) > 0;) err.append(buf, n);
  ::close(c.out_fd);
  ::close(c.err_fd);
  ASSERT_TRUE(WIFEXITED(status)) << "matrix died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130) << err;
  EXPECT_NE(err.find("interrupted"), std::string::npos) << err;
  auto running = [](pid_t p) {  // gone, or a zombie waiting for PID 1: no longer running
    std::string stat = util::read_file("/proc/" + std::to_string(p) + "/stat").value_or("");
    auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
  };
  for (int i = 0; i < 100 && running(venv); ++i) std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(running(venv)) << "`python -m venv` (pid " << venv << ") outlived the matrix that started it";
  EXPECT_FALSE(fs::exists(t / "o/index.json"));
}

// Issue 19's CI acceptance: torch-spline-conv 1.2.2 (a real sdist with a C++ extension, 5 small
// units, where torch-scatter 2.1.2 compiles 8 larger ones) against PyPI's torch 1.13.1 and 2.0.1:
// the cheapest pair that imports on the CPU with Python 3.11 (CUDA 11.7 wheels; 2.0.1's nvidia-*
// set contains 1.13.1's four, so pip's cache downloads those once: about 3.2 GB in all, where two
// CUDA 13 torches need about 3 GB each). The builds are CPU-only; torch imports without a GPU.
TEST(MatrixCli, LiveTwoPyPITorchesOneSdistFindLinksPicksEachWheel) {
  if (!have_venv()) GTEST_SKIP() << "no python3-venv here (tools/bootstrap.sh installs it)";
  if (!pypi_reachable()) GTEST_SKIP() << "PyPI is not reachable: this test installs torch from it";
  const char* home = std::getenv("HOME");
  std::string cache = std::string(home ? home : "/root") + "/.cache/torchsmith";  // venvs kept between runs
  testkit::TempDir t;
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_torchsmith({"matrix", "torch-spline-conv==1.2.2", "--torch", "1.13.1,2.0.1", "--cuda", "cpu",
                           "--python", "/usr/bin/python3", "--cache-dir", cache, "--out", t / "idx"},
                          2300s);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("matrix over torch 1.13.1, 2.0.1: %.0f s\n", secs);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = json::parse(util::read_file(t / "idx/index.json").value_or("{}"), nullptr, false);
  ASSERT_EQ(j["cells"].size(), 2u);
  for (const auto& [torch, dir] : {std::pair{"1.13.1", "torch-1.13.1+cpu"}, std::pair{"2.0.1", "torch-2.0.1+cpu"}}) {
    std::string py = cache + "/matrix-venvs/torch-" + std::string(torch) + "-cp311/bin/python";
    ASSERT_TRUE(fs::exists(py)) << py;
    std::string site = t / (std::string("site-") + torch);
    util::RunOptions o;
    o.timeout = 300s;
    auto pip = util::run({py, "-m", "pip", "install", "--disable-pip-version-check", "--no-index", "--no-deps",
                          "--target", site, "--find-links", t / ("idx/" + std::string(dir)), "torch-spline-conv"},
                         o);
    ASSERT_TRUE(pip.ok()) << pip.out << pip.err;
    o.env = std::map<std::string, std::string>{{"PYTHONPATH", site}, {"PATH", "/usr/bin:/bin"}};
    auto imp = util::run(
        {py, "-c",
         "import torch, torch_spline_conv as s; print(torch.__version__.split('+')[0]);"
         "b, w = s.spline_basis(torch.rand(4, 2), torch.tensor([5, 5]), torch.tensor([1, 1], dtype=torch.uint8), 1);"
         "print(tuple(b.shape))"},
        o);
    ASSERT_TRUE(imp.ok()) << imp.out << imp.err;
    EXPECT_EQ(imp.out, std::string(torch) + "\n(4, 4)\n");
  }
}

}  // namespace
}  // namespace ts

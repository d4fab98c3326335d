// Issue 32, class 7 for repair and conda: what a killed run left (named with its pid) is removed by
// the next run; a SIGTERM removes the run's own partial output; and conda's "#!python" script.
#include <gtest/gtest.h>

#include "testkit/dead_pid.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "formats/zip_writer.h"
#include "package/conda_package.h"
#include "package/repair.h"
#include "testkit/hostile_wheels.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;

using testkit::dead_pid;

std::string tiny_wheel(const testkit::TempDir& t, const std::string& script = "#!python\nprint(1)\n") {
  const std::string path = t / "pkg-1.0-py3-none-any.whl";
  std::ofstream(path, std::ios::binary) << testkit::craft_wheel(
      "pkg-1.0.dist-info", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
      {{"pkg/__init__.py", ""}, {"pkg-1.0.data/scripts/tool", script}});
  return path;
}

// A wheel script that is exactly "#!python" (no newline) aborted conda with exit 134.
TEST(PartialCleanup, CondaTakesAScriptThatIsOnlyTheShebang) {
  testkit::TempDir t;
  CondaOptions o;
  o.out_dir = t / "chan";
  o.python = "3.11";
  o.timestamp = 1700000000;
  auto r = make_conda_packages(tiny_wheel(t, "#!python"), o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(r.outputs.size(), 1u);
}

TEST(PartialCleanup, TheNextCondaRemovesWhatAKilledOneLeft) {
  testkit::TempDir t;
  CondaOptions o;
  o.out_dir = t / "chan";
  o.python = "3.11";
  o.timestamp = 1700000000;
  auto first = make_conda_packages(tiny_wheel(t), o);
  ASSERT_EQ(first.exit_code, 0) << first.error;
  ASSERT_EQ(first.outputs.size(), 1u);
  const std::string sub = fs::path(first.outputs[0]).parent_path().string();
  const std::string gone = std::to_string(dead_pid()), live = std::to_string(::getppid());
  fs::create_directories(sub + "/.torchsmith-conda-" + gone + "-Ab12Cd/lib");
  std::ofstream(sub + "/.torchsmith-conda-" + gone + "-Ab12Cd/lib/big.so") << "gigabytes";
  std::ofstream(sub + "/pkg-1.0-py311_0.tar.bz2.tmp-" + gone + "-Xy12Zz") << "half a package";
  std::ofstream(sub + "/pkg-1.0-py311_0.conda.tmp-" + gone) << "half a package";
  fs::create_directories(sub + "/.torchsmith-conda-" + live + "-Ef34Gh");  // a running conda's
  auto r = make_conda_packages(tiny_wheel(t), o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  std::string left;
  for (const auto& e : fs::directory_iterator(sub)) left += e.path().filename().string() + "\n";
  EXPECT_EQ(left.find(gone), std::string::npos) << left;
  EXPECT_TRUE(fs::exists(sub + "/.torchsmith-conda-" + live + "-Ef34Gh")) << left;
}

TEST(PartialCleanup, TheNextRepairRemovesWhatAKilledOneLeft) {
  testkit::TempDir t;
  const std::string gone = std::to_string(dead_pid());
  fs::create_directories(t / "out");
  fs::create_directories(t / (".ts-repair-" + gone + "-Ab12Cd/tree"));
  std::ofstream(t / (".ts-repair-" + gone + "-Ab12Cd/tree/libbig.so")) << "gigabytes";
  std::ofstream(t / ("out/pkg-1.0-py3-none-any.whl.tmp-" + gone)) << "half a wheel";
  RepairOptions o;
  o.wheel = tiny_wheel(t);
  o.patchelf = "none";
  repair_wheel(o);  // whatever it decides on the wheel, the leftovers of a dead repair go first
  EXPECT_FALSE(fs::exists(t / (".ts-repair-" + gone + "-Ab12Cd")));
  o.out_dir = t / "out";
  repair_wheel(o);
  EXPECT_FALSE(fs::exists(t / ("out/pkg-1.0-py3-none-any.whl.tmp-" + gone)));
}

// SIGTERM while a wheel or .conda is being written: its partial file goes with the process.
TEST(PartialCleanup, ASignalRemovesThePartialOutput) {
  testkit::TempDir t;
  const std::string out = t / "x.whl";
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t p = ::fork();
  if (p == 0) {
    formats::ZipWriter w(out);
    w.add("a", std::string(1 << 20, 'a'));
    char c = 1;
    (void)!::write(fds[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(fds[0], &c, 1), 1);
  EXPECT_TRUE(fs::exists(out + ".tmp-" + std::to_string(p)));
  ::kill(p, SIGTERM);
  int st = 0;
  ::waitpid(p, &st, 0);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
  EXPECT_FALSE(fs::exists(out + ".tmp-" + std::to_string(p)));
  EXPECT_FALSE(fs::exists(out));
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace ts::package

// Issue 32, class 7 for repair and conda: what a killed run left (named with its pid) is removed by
// the next run; a SIGTERM removes the run's own partial output; and conda's "#!python" script.
#include <gtest/gtest.h>

#include "testkit/dead_pid.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
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

// A real repair and a real conda, each killed by SIGTERM while it works on a wheel of 48 MB that
// does not compress: nothing of theirs (staging, partial output) is left beside the output.
std::string big_wheel(const testkit::TempDir& t) {
  std::string noise(48 << 20, '\0');
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (std::size_t i = 0; i + 8 <= noise.size(); i += 8) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    std::memcpy(&noise[i], &x, 8);
  }
  const std::string path = t / "pkg-1.0-py3-none-any.whl";
  std::ofstream(path, std::ios::binary) << testkit::craft_wheel(
      "pkg-1.0.dist-info", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
      {{"pkg/__init__.py", ""}, {"pkg/blob.bin", noise}});
  return path;
}

// Forks `work`, waits until a name holding `marker` + the child's pid shows up under `dir`, sends
// SIGTERM; what holds the pid afterwards (anywhere under dir) is returned, one per line.
std::string killed_while_working(const fs::path& dir, const std::string& marker, void (*work)(const fs::path&)) {
  pid_t p = ::fork();
  if (p == 0) {
    work(dir);
    ::_exit(0);
  }
  const std::string mine = marker + std::to_string(p);
  bool seen = false;
  for (int i = 0; i < 20000 && !seen; ++i) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      seen |= it->path().filename().string().find(mine) != std::string::npos;
    if (!seen) ::usleep(1000);
  }
  ::kill(p, SIGTERM);
  int st = 0;
  ::waitpid(p, &st, 0);
  EXPECT_TRUE(seen) << "no " << mine << " appeared under " << dir;
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) << "it finished before the signal: " << st;
  std::string left;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().find(std::to_string(p)) != std::string::npos) left += it->path().string() + "\n";
  return left;
}

TEST(PartialCleanup, ASignalDuringRepairOrCondaRemovesItsStaging) {
  testkit::TempDir t;
  big_wheel(t);
  EXPECT_EQ(killed_while_working(t.path(), ".ts-repair-", [](const fs::path& d) {
              RepairOptions o;
              o.wheel = (d / "pkg-1.0-py3-none-any.whl").string();
              o.out_dir = (d / "out").string();
              o.patchelf = "none";
              repair_wheel(o);
            }),
            "");
  EXPECT_EQ(killed_while_working(t.path(), ".torchsmith-conda-", [](const fs::path& d) {
              CondaOptions o;
              o.out_dir = (d / "chan").string();
              o.python = "3.11";
              o.timestamp = 1700000000;
              make_conda_packages((d / "pkg-1.0-py3-none-any.whl").string(), o);
            }),
            "");
}

}  // namespace
}  // namespace ts::package

#include "util/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

using namespace ts::util;
using namespace std::chrono_literals;

TEST(Process, ExitCodesAndOutput) {
  auto r = run({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.not_found);
  EXPECT_EQ(r.describe(10s), "exit 3");
  EXPECT_TRUE(run({"true"}).ok());
}

TEST(Process, ArgumentsAreNotShellSplit) {
  auto r = run({"/bin/echo", "a b; rm -rf /nonexistent", "$HOME"});
  EXPECT_EQ(r.out, "a b; rm -rf /nonexistent $HOME\n");
}

TEST(Process, TimeoutKillsQuickly) {
  RunOptions o;
  o.timeout = 200ms;
  auto r = run({"sleep", "100"}, o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 1.0);
  EXPECT_EQ(r.describe(o.timeout), "timed out after 0.2 s");
}

// A child has its own process group, so our Ctrl-C or SIGTERM does not reach it: the cancel flag
// (set by our signal handler) stops its whole group, grandchildren included, long before the timeout.
TEST(Process, CancelStopsTheChildsGroupBeforeItsTimeout) {
  std::atomic<bool> cancel{false};
  RunOptions o;
  o.timeout = 60s;
  o.cancel = &cancel;
  std::thread later([&] {
    std::this_thread::sleep_for(300ms);
    cancel.store(true);
  });
  auto r = run({"/bin/sh", "-c", "sleep 100 & echo $!; wait"}, o);
  later.join();
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_LT(r.seconds, 10.0);
  EXPECT_EQ(r.describe(o.timeout), "stopped: we were interrupted");
  pid_t grandchild = std::atoi(r.out.c_str());
  ASSERT_GT(grandchild, 0) << r.out;
  // Gone, or a zombie left to whoever is PID 1 here: either way no longer running.
  auto running = [](pid_t p) {
    std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    auto paren = text.rfind(')');
    return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
  };
  for (int i = 0; i < 100 && running(grandchild); ++i) std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(running(grandchild)) << "the sleep the child started is still running";
  // Not set: the flag changes nothing.
  cancel.store(false);
  EXPECT_TRUE(run({"true"}, o).ok());
}

TEST(Process, TimeoutWhenChildIgnoresTermAndLeavesGrandchildren) {
  RunOptions o;
  o.timeout = 200ms;
  o.kill_grace = 100ms;
  auto r = run({"/bin/sh", "-c", "trap '' TERM; sleep 100 & sleep 100; wait"}, o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 1.0);
}

TEST(Process, GrandchildHoldingPipesAfterExitDoesNotHang) {
  // The child exits at once; a detached grandchild keeps stdout open for 5 s.
  auto r = run({"/bin/sh", "-c", "echo hi; setsid sleep 5 & exit 0"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "hi\n");
  EXPECT_LT(r.seconds, 2.0);
}

TEST(Process, OutputCap) {
  RunOptions o;
  o.max_output = 1000;
  o.timeout = 5s;
  auto r = run({"yes"}, o);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_LT(r.seconds, 2.0);
}

TEST(Process, NotFound) {
  auto r = run({"torchsmith-no-such-program"});
  EXPECT_TRUE(r.not_found);
  EXPECT_EQ(r.exit_code, 127);
  auto r2 = run({"/nonexistent/bin/tool"});
  EXPECT_TRUE(r2.not_found);
  RunOptions o;
  o.cwd = "/nonexistent-dir";
  auto r3 = run({"/bin/true"}, o);
  EXPECT_TRUE(r3.not_found);
  EXPECT_NE(r3.error.find("No such file"), std::string::npos);
}

TEST(Process, SignalDeath) {
  auto r = run({"/bin/sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_NE(r.describe(10s).find("signal 11"), std::string::npos);
}

TEST(Process, EnvironmentReplacementAndCwd) {
  RunOptions o;
  o.env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}, {"A", "1"}};
  o.extra_env = {{"B", "2"}};
  o.cwd = "/tmp";
  auto r = run({"/bin/sh", "-c", "echo $A$B$HOME; pwd"}, o);
  EXPECT_EQ(r.out, "12\n/tmp\n");
}

TEST(Process, StdinIsEmpty) {
  auto r = run({"cat"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
}

TEST(Process, FindProgram) {
  EXPECT_EQ(find_program("sh", {"/nonexistent", "/bin"}), "/bin/sh");
  EXPECT_EQ(find_program("torchsmith-no-such", split_path("/bin:/usr/bin")), "");
  EXPECT_EQ(find_program("/bin/sh", {}), "/bin/sh");
  EXPECT_EQ(split_path("/a::/b:"), (std::vector<std::string>{"/a", "/b"}));
}

TEST(Process, ManyInParallelDoNotBlockEachOther) {
  // Pipes are O_CLOEXEC: a slow sibling spawned concurrently must not hold a fast one's pipes.
  std::vector<std::thread> ts;
  std::vector<double> secs(8);
  for (int i = 0; i < 8; ++i)
    ts.emplace_back([&, i] {
      auto r = run(i == 0 ? std::vector<std::string>{"sleep", "1"} : std::vector<std::string>{"true"});
      secs[i] = r.seconds;
    });
  for (auto& t : ts) t.join();
  for (int i = 1; i < 8; ++i) EXPECT_LT(secs[i], 0.5) << i;
}

// doctor --python FILE said "not found" for a file that is there but cannot be run.
TEST(Process, AFileThatIsThereButNotExecutableIsSaidSo) {
  char tmpl[] = "/tmp/ts-noexec-XXXXXX";
  int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  auto r = run({tmpl});
  EXPECT_TRUE(r.not_found);
  EXPECT_NE(r.error.find("exists but is not executable"), std::string::npos) << r.error;
  EXPECT_NE(run({"/tmp"}).error.find("is a directory"), std::string::npos);
  EXPECT_EQ(run({"/nonexistent/python"}).error, "/nonexistent/python: not found");
  EXPECT_EQ(run({"python-not-on-path"}).error, "python-not-on-path: not found");
  unlink(tmpl);
}

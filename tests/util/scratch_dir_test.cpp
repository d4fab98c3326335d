#include "util/scratch_dir.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"

namespace ts::util {
namespace {

namespace fs = std::filesystem;

TEST(ScratchDir, RemovedWhenItGoesOutOfScope) {
  testkit::TempDir parent;
  std::string path;
  {
    ScratchDir s("torchsmith-verify", parent.path());
    ASSERT_FALSE(s.path().empty()) << s.error();
    path = s.path();
    fs::create_directories(path + "/a/b");
    std::ofstream(path + "/a/b/f") << "x";
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(ScratchDir, ErrorNamesTheParentWhenItCannotBeMade) {
  ScratchDir s("x", "/nonexistent/dir");
  EXPECT_EQ(s.path(), "");
  EXPECT_NE(s.error().find("/nonexistent/dir"), std::string::npos) << s.error();
}

// The signal-safe removal never follows a link out of the tree: what the link points at stays.
TEST(ScratchDir, SignalSafeRemovalDeletesLinksNotTheirTargets) {
  testkit::TempDir d;
  fs::create_directories(d / "canary");
  std::ofstream(d / "canary/keep") << "keep";
  fs::create_directories(d / "tree/deep/er");
  for (int i = 0; i < 300; ++i) std::ofstream(d / ("tree/deep/f" + std::to_string(i))) << i;  // > one getdents page
  fs::create_directory_symlink(d / "canary", d / "tree/deep/er/link");
  EXPECT_TRUE(remove_tree_signal_safe((d / "tree").c_str()));
  EXPECT_FALSE(fs::exists(d / "tree"));
  EXPECT_TRUE(fs::exists(d / "canary/keep"));
}

// A process ended by SIGTERM or SIGINT while it holds a scratch directory leaves nothing behind,
// and still dies of that signal (its parent sees how it ended).
TEST(ScratchDir, ASignalRemovesItAndTheProcessStillDiesOfIt) {
  for (int sig : {SIGTERM, SIGINT}) {
    testkit::TempDir parent;
    int p[2];
    ASSERT_EQ(pipe(p), 0);
    pid_t pid = fork();
    if (pid == 0) {
      close(p[0]);
      for (int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, SIG_DFL);
      ScratchDir s("torchsmith-verify", parent.path());
      fs::create_directories(s.path() + "/install/site");
      std::ofstream(s.path() + "/install/site/big") << std::string(1 << 16, 'x');
      char ok = 1;
      if (write(p[1], &ok, 1) != 1) _exit(3);
      for (;;) pause();
    }
    close(p[1]);
    char ok = 0;
    ASSERT_EQ(read(p[0], &ok, 1), 1);
    close(p[0]);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_TRUE(fs::is_empty(parent.path())) << "left in " << parent.path();
  }
}

// A command with its own handler keeps it: the registry does not replace it.
TEST(ScratchDir, AnExistingHandlerIsKept) {
  pid_t pid = fork();
  if (pid == 0) {
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    sigaction(SIGHUP, &sa, nullptr);
    ScratchDir s("x");
    struct sigaction now {};
    sigaction(SIGHUP, nullptr, &now);
    _exit(now.sa_handler == sa.sa_handler ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace ts::util

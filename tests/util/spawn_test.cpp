// util::spawn and util::stop_group: one way to start and stop a child for every caller (util::run's
// probes and tools, build::run_step's steps): its own group, default signals, the child's PATH,
// exec errors as text, and a stop that reaches stopped members and descendants in other groups.
#include "util/spawn.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

using namespace ts::util;
using namespace std::chrono_literals;

namespace {

std::string drain(int& fd) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  fd = -1;
  return out;
}

// Runs argv to its end in either output mode; (wait status, stdout [+ stderr when merged], stderr).
struct Ran {
  int status = -1;
  std::string out, err;
};
Ran run_to_end(const std::vector<std::string>& argv, SpawnOptions o) {
  Child c = spawn(argv, o);
  EXPECT_TRUE(c.ok()) << c.error;
  Ran r;
  if (!c.ok()) return r;
  r.out = drain(c.out_fd);
  if (c.err_fd >= 0) r.err = drain(c.err_fd);
  r.status = wait_status(c.pid);
  return r;
}

bool gone(int pid) { return ::kill(pid, 0) != 0; }

TEST(Spawn, OwnProcessGroupInBothOutputModes) {
  for (bool merged : {false, true}) {
    SpawnOptions o;
    o.merge_output = merged;
    auto r = run_to_end({"/bin/sh", "-c", "ps -o pgid= -p $$ | tr -d ' '; echo $$; echo err >&2"}, o);
    auto nl = r.out.find('\n');
    ASSERT_NE(nl, std::string::npos) << r.out;
    std::string pgid = r.out.substr(0, nl), rest = r.out.substr(nl + 1);
    EXPECT_EQ(pgid + "\n", rest.substr(0, rest.find('\n') + 1)) << "pgid == pid, merged=" << merged;
    EXPECT_EQ(merged ? r.out.find("err\n") != std::string::npos : r.err == "err\n", true) << merged;
    EXPECT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
  }
}

// An ignored or blocked signal of ours is not the child's: Ctrl-C and SIGPIPE reach every child.
TEST(Spawn, SignalsAreBackToDefaultInTheChild) {
  struct sigaction ign {}, old_int {}, old_pipe {};
  ign.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ign, &old_int);
  ::sigaction(SIGPIPE, &ign, &old_pipe);
  sigset_t block, old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &block, &old_mask);
  for (bool merged : {false, true}) {
    SpawnOptions o;
    o.merge_output = merged;
    for (int sig : {SIGINT, SIGPIPE, SIGTERM}) {
      auto r = run_to_end({"/bin/sh", "-c", "kill -" + std::to_string(sig) + " $$; echo survived"}, o);
      EXPECT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == sig) << "signal " << sig << ": " << r.out;
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
}

TEST(Spawn, ProgramIsLookedUpInTheChildsPath) {
  SpawnOptions o;
  o.env = std::map<std::string, std::string>{{"PATH", "/nonexistent:/bin:/usr/bin"}};
  EXPECT_EQ(run_to_end({"sh", "-c", "echo $PATH"}, o).out, "/nonexistent:/bin:/usr/bin\n");
  o.env = std::map<std::string, std::string>{{"PATH", "/nonexistent"}};
  Child c = spawn({"sh", "-c", "true"}, o);  // on our PATH, not on the child's
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(c.not_found);
  EXPECT_EQ(c.error, "sh: not found");
  o.env = std::map<std::string, std::string>{{"LC_ALL", "C"}};  // no PATH: the standard directories
  EXPECT_EQ(run_to_end({"sh", "-c", "echo found"}, o).out, "found\n");
}

TEST(Spawn, StartErrorsComeBackAsText) {
  EXPECT_EQ(spawn({}).error, "empty command");
  EXPECT_EQ(spawn({"/tmp"}).error, "/tmp: is a directory, not a program");
  EXPECT_EQ(spawn({"no-such-tool-ts"}).error, "no-such-tool-ts: not found");
  SpawnOptions o;
  o.cwd = "/nonexistent-dir";
  Child c = spawn({"/bin/true"}, o);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.error, "cd /nonexistent-dir: No such file or directory");
}

TEST(Spawn, EnvironmentIsOursUnlessGivenAndExtraGoesOnTop) {
  ::setenv("TS_SPAWN_TEST", "ours", 1);
  SpawnOptions o;
  o.extra_env = {{"TS_EXTRA", "x"}};
  EXPECT_EQ(run_to_end({"/bin/sh", "-c", "echo $TS_SPAWN_TEST$TS_EXTRA"}, o).out, "oursx\n");
  o.env = std::map<std::string, std::string>{{"PATH", "/bin:/usr/bin"}};
  EXPECT_EQ(run_to_end({"/bin/sh", "-c", "echo ${TS_SPAWN_TEST-unset}$TS_EXTRA"}, o).out, "unsetx\n");
  ::unsetenv("TS_SPAWN_TEST");
}

// A stopped child still ends: SIGCONT follows SIGTERM.
TEST(Spawn, StopGroupEndsAStoppedChild) {
  Child c = spawn({"/bin/sleep", "30"});
  ASSERT_TRUE(c.ok()) << c.error;
  ::kill(c.pid, SIGSTOP);
  auto t0 = std::chrono::steady_clock::now();
  auto st = stop_group(c.pid, 5s);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFSIGNALED(*st) && WTERMSIG(*st) == SIGTERM);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);  // SIGTERM ended it, not the grace's SIGKILL
  ::close(c.out_fd);
  ::close(c.err_fd);
}

// A member that ignores SIGTERM is killed after the grace; a descendant in a group of its own
// (as ninja's commands are) is reached only when named in `also`.
TEST(Spawn, StopGroupKillsWhatIgnoresTermAndReachesOtherGroups) {
  SpawnOptions o;
  o.merge_output = true;
  Child c = spawn({"/bin/sh", "-c", "trap '' TERM; setsid sleep 30 & echo $!; sleep 30 & wait"}, o);
  ASSERT_TRUE(c.ok()) << c.error;
  std::string line;
  char ch;
  while (::read(c.out_fd, &ch, 1) == 1 && ch != '\n') line += ch;
  int other_group = std::stoi(line);
  auto t0 = std::chrono::steady_clock::now();
  auto st = stop_group(c.pid, 300ms, {other_group});
  auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFSIGNALED(*st) && WTERMSIG(*st) == SIGKILL);  // the shell ignored SIGTERM
  EXPECT_GE(took, 250ms);
  EXPECT_LT(took, 3s);
  for (int i = 0; i < 100 && !gone(other_group); ++i) ::usleep(10000);
  EXPECT_TRUE(gone(other_group) || [&] {  // a zombie waiting for init counts as ended
    std::string s;
    FILE* f = std::fopen(("/proc/" + std::to_string(other_group) + "/stat").c_str(), "r");
    if (!f) return true;
    char buf[256] = {};
    (void)!std::fgets(buf, sizeof buf, f);
    std::fclose(f);
    s = buf;
    return s.find(") Z ") != std::string::npos;
  }());
  ::close(c.out_fd);
}

TEST(Spawn, ExitStatusAndSignalDeathAsWaitStatus) {
  auto r = run_to_end({"/bin/sh", "-c", "exit 7"}, {});
  EXPECT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 7);
  r = run_to_end({"/bin/sh", "-c", "kill -SEGV $$"}, {});
  EXPECT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV);
}

}  // namespace

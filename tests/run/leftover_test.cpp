#include "run/leftover.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace ts::run {
namespace {

// A process in its own group with TORCHSMITH_RUN=<id>, as a build step left behind.
pid_t spawn_marked(const char* marker) {
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    char env0[128];
    snprintf(env0, sizeof env0, "TORCHSMITH_RUN=%s", marker);
    char* envp[] = {env0, nullptr};
    char* argv[] = {const_cast<char*>("sleep"), const_cast<char*>("60"), nullptr};
    execve("/bin/sleep", argv, envp);
    _exit(127);
  }
  setpgid(pid, pid);
  return pid;
}

TEST(Leftover, FindsOnlyTheMarkedGroupAndStopsIt) {
  pid_t pid = spawn_marked("run-42");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // exec done, environ readable
  auto found = find_leftovers(pid, "run-42");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], pid);
  EXPECT_TRUE(find_leftovers(pid, "run-43").empty());  // a reused pgid of someone else: left alone
  EXPECT_TRUE(find_leftovers(getpgrp(), "run-42").empty());
  std::thread reaper([pid] { int st; waitpid(pid, &st, 0); });
  EXPECT_EQ(stop_leftovers(pid, "run-42", 1000), 1);
  reaper.join();
  EXPECT_TRUE(find_leftovers(pid, "run-42").empty());
  EXPECT_EQ(stop_leftovers(0, "run-42", 10), 0);
}

}  // namespace
}  // namespace ts::run

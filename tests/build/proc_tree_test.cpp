#include "build/proc_tree.h"

#include <gtest/gtest.h>
#include <unistd.h>

using namespace ts::build;

TEST(ProcTree, ParsesStatWithSpacesInComm) {
  std::string s = "4711 (cc1 plus) x) R 4700 4600 4600 0 -1 4194560 100 0 0 0 5 1 0 0 20 0 1 0 "
                  "123456 1000000 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  auto p = parse_proc_stat(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pid, 4711);
  EXPECT_EQ(p->comm, "cc1 plus) x");
  EXPECT_EQ(p->state, 'R');
  EXPECT_EQ(p->ppid, 4700);
  EXPECT_EQ(p->pgrp, 4600);
  EXPECT_EQ(p->start, 123456u);
  EXPECT_EQ(p->rss, 2560u * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_FALSE(parse_proc_stat("12 (x) R 1 2"));
}

TEST(ProcTree, JobsAreLeavesButNotTools) {
  std::vector<ProcInfo> g = {
      {100, 1, 100, 'S', "python3", 1, 0},   // leader (setup.py)
      {101, 100, 100, 'S', "ninja", 2, 0},
      {102, 101, 100, 'S', "c++", 3, 0},     // driver waiting for cc1plus
      {103, 102, 100, 'R', "cc1plus", 4, 0},
      {104, 101, 100, 'S', "sh", 5, 0},      // an idle shell leaf
      {105, 101, 100, 'R', "cicc", 6, 0},
  };
  auto j = job_processes(g, 100);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0].pid, 103);
  EXPECT_EQ(j[1].pid, 105);
}

TEST(ProcTree, ListsOurOwnGroup) {
  auto g = list_group(getpgrp());
  bool me = false;
  for (const auto& p : g) me |= p.pid == getpid();
  EXPECT_TRUE(me);
}

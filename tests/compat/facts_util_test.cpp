// The shared readings of facts that the checks and the planner both size builds by.
#include "compat/facts_util.h"

#include <gtest/gtest.h>

namespace ts::compat {
namespace {

TEST(UsableCores, TheProcessesOwnCoresBeforeTheMachines) {
  CpuFacts cpu;
  cpu.logical_cores = 4;  // affinity or cgroup cpu.max
  cpu.online_cores = 64;
  EXPECT_EQ(usable_cores(cpu), 4);
  cpu.logical_cores = 0;  // not learned: the machine's
  EXPECT_EQ(usable_cores(cpu), 64);
  cpu.online_cores = 0;
  EXPECT_EQ(usable_cores(cpu), 0);  // unknown stays unknown; callers pick their floor
  cpu.online_cores = -1;
  EXPECT_EQ(usable_cores(cpu), 0);
}

}  // namespace
}  // namespace ts::compat

// Jobs x nvcc threads against cores and memory (speed_threads.h) on made-up machines.
#include <gtest/gtest.h>

#include "plan/speed_threads.h"

namespace ts::plan {
namespace {

TEST(SpeedThreads, OneArchIsThePlainMemoryModel) {
  auto r = balance_jobs_threads({16, 24.0, 3.0, 1.0, 1});
  EXPECT_EQ(r.threads, 1);
  EXPECT_EQ(r.jobs, 8);  // 24 / 3, under 16 cores
  r = balance_jobs_threads({4, 64.0, 3.0, 1.0, 1});
  EXPECT_EQ(r.jobs, 4);  // cores bound it
}

TEST(SpeedThreads, SixArchesOnABigMachineCompileAllArchesAtOnce) {
  // The GPU machine of issue 9: 16 cores, ~118 GiB usable, 5.5 GiB per 6-arch nvcc job.
  auto r = balance_jobs_threads({16, 118.0, 5.5, 1.0, 6});
  EXPECT_EQ(r.threads, 6);
  EXPECT_EQ(r.jobs, 3);  // 118 / (5.5 x 6) = 3, and 3 x 6 covers the 16 cores
  EXPECT_NE(r.why.find("3 job(s) x 6 nvcc thread(s) for 6 arch(es)"), std::string::npos) << r.why;
}

TEST(SpeedThreads, LittleMemoryGivesFewerThreadsAndSaysWhy) {
  auto r = balance_jobs_threads({16, 12.0, 5.5, 1.0, 6});
  EXPECT_EQ(r.threads, 2);  // 12 / 5.5
  EXPECT_EQ(r.jobs, 1);
  EXPECT_NE(r.why.find("memory allows no more threads"), std::string::npos) << r.why;
  // Less than one job's memory: still one job, one thread (the governor watches the rest).
  r = balance_jobs_threads({16, 2.0, 5.5, 1.0, 6});
  EXPECT_EQ(r.threads, 1);
  EXPECT_EQ(r.jobs, 1);
}

TEST(SpeedThreads, FewCoresBoundThreads) {
  auto r = balance_jobs_threads({2, 256.0, 5.5, 1.0, 6});
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.jobs, 1);
  EXPECT_NE(r.why.find("no more cores for threads"), std::string::npos) << r.why;
}

TEST(SpeedThreads, TheFactorScalesThreadMemory) {
  auto full = balance_jobs_threads({16, 40.0, 4.0, 1.0, 8});
  auto half = balance_jobs_threads({16, 40.0, 4.0, 0.5, 8});
  EXPECT_EQ(full.threads, 8);
  EXPECT_EQ(full.jobs, 1);  // 40 / 32
  EXPECT_EQ(half.threads, 8);
  EXPECT_EQ(half.jobs, 2);  // 40 / 16
}

TEST(SpeedThreads, UnknownMemoryLeavesItToCores) {
  auto r = balance_jobs_threads({16, 0.0, 5.5, 1.0, 4});
  EXPECT_EQ(r.threads, 4);
  EXPECT_EQ(r.jobs, 4);
}

TEST(SpeedThreads, NeverMoreMemoryThanUsableNorMoreThreadsThanArchesOrCores) {
  for (int cores : {1, 2, 4, 8, 16, 64})
    for (double mem : {1.0, 4.0, 12.0, 30.0, 118.0, 500.0})
      for (int n : {1, 2, 3, 6, 9})
        for (double f : {0.5, 1.0}) {
          auto r = balance_jobs_threads({cores, mem, 3.5, f, n});
          SCOPED_TRACE(r.why);
          EXPECT_GE(r.jobs, 1);
          EXPECT_GE(r.threads, 1);
          EXPECT_LE(r.threads, std::min(n, cores));
          EXPECT_LE(r.jobs, cores);
          // jobs x threads about the cores: at most one job's threads more
          EXPECT_LE(r.jobs * r.threads, cores + r.threads - 1);
          // What fits: one job with one thread is always allowed; beyond that memory bounds it.
          if (r.jobs * r.threads > 1) {
            EXPECT_LE(r.jobs * r.threads * 3.5 * f, mem + 1e-9);
          }
        }
}

}  // namespace
}  // namespace ts::plan

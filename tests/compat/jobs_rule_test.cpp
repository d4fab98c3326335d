// The one memory-to-jobs rule: its arithmetic, and doctor, triage and the OOM retry asking it.
#include "compat/jobs_rule.h"

#include <gtest/gtest.h>

#include "compat/assess.h"
#include "kb/kb.h"

namespace ts::compat {
namespace {

kb::ResourceModel model() {
  kb::ResourceModel m;
  m.cxx_job_gib = 2.5, m.nvcc_job_gib = 3.0, m.nvcc_arch_gib = 0.5;
  return m;
}

TEST(JobsRule, CostIsTheDearerJobAndGrowsWithArches) {
  auto m = model();
  EXPECT_DOUBLE_EQ(job_cost(m, false, 4).gib, 2.5);
  EXPECT_EQ(job_cost(m, false, 4).what, "2.5 GiB per C++ job");
  EXPECT_DOUBLE_EQ(job_cost(m, true, 1).gib, 3.0);
  EXPECT_EQ(job_cost(m, true, 1).what, "3.0 GiB per nvcc job with 1 arch");
  EXPECT_DOUBLE_EQ(job_cost(m, true, 4).gib, 4.5);
  EXPECT_EQ(job_cost(m, true, 4).what, "4.5 GiB per nvcc job with 4 arches");
  m.cxx_job_gib = 9;  // a C++ job dearer than nvcc's: the C++ job bounds the build
  EXPECT_DOUBLE_EQ(job_cost(m, true, 1).gib, 9);
}

TEST(JobsRule, MemoryBoundsJobsAndCoresClampThem) {
  auto cost = job_cost(model(), true, 1);
  auto r = jobs_for_memory(14ull << 30, "14.0 GiB usable", 20, cost);
  EXPECT_EQ(r.by_mem, 4);
  EXPECT_EQ(r.jobs, 4);
  EXPECT_EQ(r.why, "14.0 GiB usable / 3.0 GiB per nvcc job with 1 arch = 4 jobs, 20 cores");
  EXPECT_EQ(r.rule, "jobs.memory");
  r = jobs_for_memory(58ull << 30, "58 GiB", 16, cost);
  EXPECT_EQ(r.by_mem, 19);
  EXPECT_EQ(r.jobs, 16);
  r = jobs_for_memory(1ull << 30, "1 GiB", 16, cost);  // not even one fits: still one, by_mem says so
  EXPECT_EQ(r.by_mem, 0);
  EXPECT_EQ(r.jobs, 1);
  r = jobs_for_memory(0, "unknown", 6, cost);  // unknown memory: the cores decide
  EXPECT_EQ(r.jobs, 6);
  r = jobs_for_memory(32ull << 30, "32 GiB", 0, cost);  // unknown cores: memory alone
  EXPECT_EQ(r.jobs, 10);
}

TEST(JobsRule, AnOomRetryHalvesAndNeverExceedsWhatMemoryCarries) {
  EXPECT_EQ(jobs_after_oom(8), 4);
  EXPECT_EQ(jobs_after_oom(1), 1);
  EXPECT_EQ(jobs_after_oom(3), 1);
  EXPECT_EQ(jobs_after_oom(16, 5), 5);
  EXPECT_EQ(jobs_after_oom(16, 12), 8);
}

TEST(JobsRule, UsableMemoryIsTheCgroupAwareFigureOrASmallerBudget) {
  MemoryFacts m;
  m.available_bytes = 40ull << 30;
  m.usable_bytes = 20ull << 30;
  m.cgroup_limit_bytes = 24ull << 30;
  auto u = usable_memory(m);
  EXPECT_EQ(u.bytes, 20ull << 30);
  EXPECT_EQ(u.what, "20.0 GiB usable (cgroup limit 24.0 GiB)");
  u = usable_memory(m, 8ull << 30);  // --mem-budget below what is usable replaces it
  EXPECT_EQ(u.bytes, 8ull << 30);
  EXPECT_EQ(u.what, "8.0 GiB (--mem-budget)");
  u = usable_memory(m, 64ull << 30);  // a budget above it changes nothing
  EXPECT_EQ(u.bytes, 20ull << 30);
  m.usable_bytes = 0, m.cgroup_limit_bytes = 0;  // no usable figure: what is available
  EXPECT_EQ(usable_memory(m).bytes, 40ull << 30);
  EXPECT_EQ(usable_memory(m).what, "40.0 GiB usable");
  m.available_bytes = 0;  // nothing known: the budget is all there is
  EXPECT_EQ(usable_memory(m, 4ull << 30).bytes, 4ull << 30);
}

TEST(JobsRule, DoctorsVerdictCarriesTheRuleIdAndItsNumber) {
  kb::Kb k;
  k.resources = model();
  HostFacts f;
  f.cpu.logical_cores = 32;
  f.memory.available_bytes = f.memory.usable_bytes = 30ull << 30;
  std::vector<Verdict> vs;
  check_resources(f, k, vs);
  ASSERT_FALSE(vs.empty());
  EXPECT_EQ(vs[0].rule, kJobsRule);
  int want = jobs_for_memory(30ull << 30, "", 32, job_cost(k.resources, true, 1)).jobs;
  EXPECT_NE(vs[0].reason.find("MAX_JOBS=" + std::to_string(want) + " of 32"), std::string::npos) << vs[0].reason;
}

}  // namespace
}  // namespace ts::compat

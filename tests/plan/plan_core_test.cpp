// The planner core both kinds of plan run through: a declared step table run in order under each
// step's rule id, steps skipped by `when`, the plan stopped by `stop_after`, provision steps put
// before the compiles, and the jobs the memory model allows (with the warning when asked for more).
#include <gtest/gtest.h>

#include "plan/plan_core.h"

namespace ts::plan::core {
namespace {

constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;

struct Fixture {
  HostFacts facts;
  kb::Kb kb;
  PlanResult out;
  Ctx c{facts, kb, out};
};

TEST(PlanCore, RunsStepsInOrderEachUnderItsRuleId) {
  Fixture f;
  constexpr PlanStep steps[] = {
      {"kind.first", [](Ctx& c) { c.decide("a", "1", "first", "test"); }},
      {"kind.second", [](Ctx& c) {
         c.decide("b", "2", "second", "test");
         c.decide("c", "3", "a compat rule decided", "test", "jobs.memory");
         c.conflict("d", "why", {"fix"}, "test");
       }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.decisions.size(), 3u);
  EXPECT_EQ(f.out.plan.decisions[0].topic, "a");
  EXPECT_EQ(f.out.plan.decisions[0].rule, "kind.first");
  EXPECT_EQ(f.out.plan.decisions[1].rule, "kind.second");
  EXPECT_EQ(f.out.plan.decisions[2].rule, "jobs.memory");  // a named rule wins over the step's
  ASSERT_EQ(f.out.conflicts.size(), 1u);
  EXPECT_EQ(f.out.conflicts[0].rule, "kind.second");
  EXPECT_TRUE(f.c.decisions.empty());  // the log was moved into the plan
}

TEST(PlanCore, WhenSkipsAStepAndStopAfterEndsThePlan) {
  Fixture f;
  constexpr PlanStep steps[] = {
      {"kind.cuda_only", [](Ctx& c) { c.decide("cuda", "on", "", "test"); }, [](const Ctx& c) { return c.cuda_on; }},
      {"kind.release", [](Ctx& c) { c.decide("release", "none", "", "test"); }, nullptr,
       [](const Ctx& c) { return c.python == nullptr; }},
      {"kind.after", [](Ctx& c) { c.decide("after", "ran", "", "test"); }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.decisions.size(), 1u);  // cuda_only skipped, after never reached
  EXPECT_EQ(f.out.plan.decisions[0].rule, "kind.release");
}

TEST(PlanCore, ProvisionStepsGoAfterFetchAndBeforeTheCompiles) {
  Fixture f;
  constexpr PlanStep steps[] = {
      {"kind.steps", [](Ctx& c) {
         c.p.steps = {{"fetch", {}, "", ""}, {"build", {}, "", ""}};
         c.provision_steps = {{"provision", {}, "", ""}};
       }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.steps.size(), 3u);
  EXPECT_EQ(f.out.plan.steps[0].name, "fetch");
  EXPECT_EQ(f.out.plan.steps[1].name, "provision");
  EXPECT_EQ(f.out.plan.steps[2].name, "build");
}

TEST(PlanCore, SetEnvRecordsTheVariableAsADecision) {
  Fixture f;
  f.c.rule = "kind.env";
  f.c.set_env("CC", "/usr/bin/gcc", "the chosen compiler", "facts");
  EXPECT_EQ(f.out.plan.env.at("CC"), "/usr/bin/gcc");
  ASSERT_EQ(f.c.decisions.size(), 1u);
  EXPECT_EQ(f.c.decisions[0].value, "CC=/usr/bin/gcc");
  EXPECT_EQ(f.c.decisions[0].source, "facts");
  EXPECT_EQ(f.c.decisions[0].rule, "kind.env");
}

TEST(PlanCore, JobsFollowMemoryAndAskingForMoreIsWarned) {
  Fixture f;
  f.facts.cpu.logical_cores = 16;
  f.facts.memory.usable_bytes = 8 * kGiB;
  f.facts.memory.available_bytes = 8 * kGiB;
  compat::JobCost cost{2.0, "2.0 GiB per C++ job"};
  JobsFit fit = fit_jobs(f.c, 0, cost);
  EXPECT_EQ(fit.cores, 16);
  EXPECT_EQ(fit.fit.by_mem, 4);
  EXPECT_EQ(fit.fit.jobs, 4);
  // A --mem-budget below the machine's memory is what the jobs are sized for.
  EXPECT_EQ(fit_jobs(f.c, 4 * kGiB, cost).fit.jobs, 2);

  warn_jobs_over_memory(f.c, 4, "--jobs", fit, "the model", "resources.toml");
  EXPECT_TRUE(f.c.decisions.empty());  // what memory allows: nothing to say
  warn_jobs_over_memory(f.c, 12, "--jobs", fit, "the model", "resources.toml");
  ASSERT_EQ(f.c.decisions.size(), 1u);
  EXPECT_TRUE(f.c.decisions[0].warning);
  EXPECT_EQ(f.c.decisions[0].rule, "jobs.memory");
  EXPECT_EQ(f.c.decisions[0].reason, "asked for (--jobs), but the memory model allows 4: the model");
}

TEST(PlanCore, ArchNamesMeanTheSameInEveryKind) {
  HostFacts facts;
  facts.gpus.resize(2);
  facts.gpus[0].compute_capability = "8.6";
  facts.gpus[1].compute_capability = "";  // not known: left out
  auto native = native_arches(facts);
  ASSERT_EQ(native.size(), 1u);
  EXPECT_EQ(native[0].number(), "86");
  EXPECT_TRUE(native_arches(HostFacts{}).empty());

  kb::ArchFamily ampere;
  ampere.arches = {"8.0", "8.6", "8.7"};
  EXPECT_EQ(family_arches(ampere).size(), 3u);
  ampere.torch_arches = {"8.0", "8.6+PTX"};  // what torch's own name means wins
  auto torch = family_arches(ampere);
  ASSERT_EQ(torch.size(), 2u);
  EXPECT_EQ(torch[1].str(), "8.6+PTX");
}

}  // namespace
}  // namespace ts::plan::core

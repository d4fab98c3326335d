// Every decision and conflict carries the id of the rule that made it: compat's where one of its
// rules decided (the same id doctor's verdicts carry), else the planner step's own ("plan.cmake").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "extension_fakes.h"
#include "plan/extension.h"
#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

const Decision* decision(const PlanResult& r, const std::string& topic, const std::string& value_part) {
  for (const auto& d : r.plan.decisions)
    if (d.topic == topic && d.value.find(value_part) != std::string::npos) return &d;
  return nullptr;
}

// Every id is compat's (topic.name) or a planner step's / contract check's.
void expect_every_id(const PlanResult& r) {
  for (const auto& d : r.plan.decisions)
    EXPECT_NE(d.rule.find('.'), std::string::npos) << d.topic << ": " << d.value << " has no rule id";
  for (const auto& c : r.conflicts) EXPECT_NE(c.rule.find('.'), std::string::npos) << c.what << " has no rule id";
}

TEST(RuleIds, EveryTorchPlanDecisionAndConflictHasOne) {
  struct Case {
    std::string host, req;
  };
  for (const auto& c : std::vector<Case>{{"s1-rtx4090-cuda118", "torch==1.13.0"},
                                         {"s2-cuda110-conda", "torch==1.8.0"},
                                         {"s3-rtx5090-cmake4", "torch==2.4.1"},
                                         {"s4-wsl2-cuda117", "torch==2.0.0"},
                                         {"s5-gtx1660ti-container", "torch==1.12.1"}}) {
    SCOPED_TRACE(c.host);
    auto r = make_plan(spec_of(c.req), fixture(c.host), knowledge());
    expect_every_id(r);
  }
}

TEST(RuleIds, TorchPlanNamesCompatsRulesWhereTheyDecided) {
  auto r = make_plan(spec_of("torch==2.4.1"), fixture("s3-rtx5090-cmake4"), knowledge());
  ASSERT_TRUE(r.ok()) << render_conflicts(r.conflicts);
  const Decision* jobs = decision(r, "env", "MAX_JOBS=");
  ASSERT_NE(jobs, nullptr);
  EXPECT_EQ(jobs->rule, "jobs.memory");
  const Decision* cc = decision(r, "compiler", "gcc ");
  ASSERT_NE(cc, nullptr);
  EXPECT_EQ(cc->rule, "compiler.nvcc_host");
  const Decision* py = decision(r, "python", "3.");
  ASSERT_NE(py, nullptr);
  EXPECT_EQ(py->rule, "python.target");
  const Decision* drv = decision(r, "driver", "");
  ASSERT_NE(drv, nullptr);
  EXPECT_EQ(drv->rule, "driver.toolkit");
  const Decision* feature = decision(r, "feature", "USE_CUDA=");
  ASSERT_NE(feature, nullptr);
  EXPECT_EQ(feature->rule, "plan.features");
  // --explain shows each id after its decision.
  EXPECT_NE(render_explain(r).find("MAX_JOBS=" + r.plan.env.at("MAX_JOBS") + " [jobs.memory]\n"), std::string::npos);
}

TEST(RuleIds, ARefusedGpuArchIsTheCoverageRule) {
  // Only 8.6 asked on a machine whose one GPU is 12.0: the wheel could not run here.
  auto r = make_plan(spec_of("torch==2.4.1", {{"--arch", "8.6"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  ASSERT_FALSE(r.conflicts.empty());
  EXPECT_EQ(r.conflicts[0].rule, "gpu.torch") << render_conflicts(r.conflicts);
  EXPECT_NE(render_explain(r).find(" [gpu.torch]\n"), std::string::npos);
}

TEST(RuleIds, RoundTripThroughJson) {
  Decision d{"jobs", "4", "why", "src", true, "jobs.memory"};
  nlohmann::json j = d;
  EXPECT_EQ(j.at("rule"), "jobs.memory");
  EXPECT_EQ(j.get<Decision>().rule, "jobs.memory");
  Conflict c{"what", "why", {"fix"}, "src", "gpu.toolkit"};
  j = c;
  EXPECT_EQ(j.at("rule"), "gpu.toolkit");
  EXPECT_EQ(j.get<Conflict>().rule, "gpu.toolkit");
  // A lock written before rule ids reads back with none.
  EXPECT_EQ(nlohmann::json::parse(R"({"topic":"jobs"})").get<Decision>().rule, "");
}

TEST(RuleIds, ExtensionPlanCarriesTheSameCompatIds) {
  using namespace testing;
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.6"});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  expect_every_id(r);
  const Decision* nvcc = decision(r, "cuda", "nvcc 12.8");
  ASSERT_NE(nvcc, nullptr);
  EXPECT_EQ(nvcc->rule, "torch.nvcc");
  const Decision* cc = decision(r, "compiler", "gcc ");
  ASSERT_NE(cc, nullptr);
  EXPECT_EQ(cc->rule, "compiler.nvcc_host");
  const Decision* jobs = decision(r, "env", "MAX_JOBS=");
  ASSERT_NE(jobs, nullptr);
  EXPECT_EQ(jobs->rule, "jobs.memory");
  const Decision* abi = decision(r, "abi", "");
  ASSERT_NE(abi, nullptr);
  EXPECT_EQ(abi->rule, "contract.abi");

  // nvcc of another major: the same torch.nvcc rule refuses it.
  auto other = fake_host(fake_python("2.7.1+cu128", "12.8"), {"13.0"}, {"8.6"});
  r = make_extension_plan(dir_request(cuda_only_scan()), other, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_FALSE(r.ok());
  expect_every_id(r);
  bool refused = false;
  for (const auto& c : r.conflicts) refused |= c.rule == "torch.nvcc";
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace ts::plan

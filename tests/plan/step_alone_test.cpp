// A planner step run alone: each row of the step table (steps.cpp) is a function of a Ctx, so a test
// hands it a Ctx holding what the earlier steps would have chosen and checks what the step adds,
// without running the planner around it.
#include <gtest/gtest.h>

#include "plan/resolve_ctx.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::knowledge;
using testing::spec_of;

// A torch build's Ctx made by hand: the spec and the KB, no facts, no step run yet.
struct TorchCtx {
  spec::BuildSpec spec;
  HostFacts facts;
  Inputs in;
  PlanResult out;
  core::Ctx c;
  explicit TorchCtx(const std::string& requirement, const std::map<std::string, std::string>& opts = {})
      : spec(spec_of(requirement, opts)),
        in{spec, facts, knowledge().kb, knowledge().build, {}},
        c(facts, knowledge().kb, out) {
    c.in = &in;
    c.kind = core::kTorchBuild;
  }
  bool has_decision(const std::string& topic, const std::string& value) const {
    for (const auto& d : c.decisions)
      if (d.topic == topic && d.value == value) return true;
    return false;
  }
};

TEST(StepAlone, ReleaseFindsTheKbLineByTheTypedKey) {
  TorchCtx t("torch==2.4.1");
  detail::choose_release(t.c);
  ASSERT_NE(t.c.release, nullptr);
  EXPECT_EQ(t.c.release->version, *Version::parse("2.4"));  // the KB key is a Version: 2.4.1 is line 2.4
  EXPECT_TRUE(t.has_decision("torch", "2.4.1"));
  EXPECT_TRUE(t.c.conflicts.empty());

  TorchCtx unknown("torch==0.4.1");
  detail::choose_release(unknown.c);
  EXPECT_EQ(unknown.c.release, nullptr);
  ASSERT_EQ(unknown.c.conflicts.size(), 1u);
  EXPECT_EQ(unknown.c.conflicts[0].what, "torch 0.4.1");
}

TEST(StepAlone, VersionLabelsTheCudaAndArchesTheEarlierStepsChose) {
  TorchCtx t("torch==2.4.1");
  t.c.release = t.c.kb().find_torch("2.4.1");
  t.c.cuda_on = true;
  t.c.p.cuda = CudaChoice::from_text("12.4");
  t.c.arches = *ArchList::parse("8.9");
  detail::choose_version(t.c);
  EXPECT_EQ(t.c.p.build_version, "2.4.1+cu124.sm89");
  EXPECT_EQ(t.c.p.env["PYTORCH_BUILD_VERSION"], "2.4.1+cu124.sm89");
  EXPECT_EQ(t.c.p.env["PYTORCH_BUILD_NUMBER"], "1");

  TorchCtx cpu("torch==2.4.1");
  cpu.c.release = cpu.c.kb().find_torch("2.4.1");
  detail::choose_version(cpu.c);
  EXPECT_EQ(cpu.c.p.build_version, "2.4.1+cpu");
}

TEST(StepAlone, VersionStatesNothingWhenTheCudaChoiceIsAConflict) {
  TorchCtx t("torch==2.4.1");
  t.c.release = t.c.kb().find_torch("2.4.1");
  t.c.cuda_on = true;
  t.c.p.cuda = CudaChoice::conflict("CUDA toolkit");
  detail::choose_version(t.c);
  EXPECT_EQ(t.c.p.build_version, "");
  EXPECT_EQ(t.c.p.env.count("PYTORCH_BUILD_VERSION"), 0u);
  EXPECT_TRUE(t.has_decision("version", "skipped"));
}

// A tool as the probe records it: the version text, parsed once there.
ToolFacts tool(const std::string& name, const std::string& version) {
  return {name, "/usr/bin/" + name + "-" + version, FactVersion(version)};
}

TEST(StepAlone, CmakeTakesTheNewestMachineCmakeInsideTheReleaseRange) {
  TorchCtx t("torch==2.4.1");  // torch 2.4: CMake >= 3.18, < 4
  t.facts.tools = {tool("cmake", "3.16.3"), tool("cmake", "4.0.2"), tool("cmake3", "3.31.6"),
                   tool("cmake", "not a version"), tool("ninja", "1.11.1")};
  t.c.release = t.c.kb().find_torch("2.4.1");
  detail::choose_cmake(t.c);
  EXPECT_EQ(t.c.p.cmake_version, "3.31.6");  // inside the range beats the newer 4.0.2
  EXPECT_EQ(t.c.cmake_path, "/usr/bin/cmake3-3.31.6");
  EXPECT_EQ(t.c.p.cmake_range, ">=3.18,<4");
  EXPECT_EQ(t.c.p.env.count("CMAKE_POLICY_VERSION_MINIMUM"), 0u);
  EXPECT_EQ(t.c.p.env["USE_NINJA"], "1");
  EXPECT_TRUE(t.c.conflicts.empty());
}

TEST(StepAlone, CmakePastTheRangeIsTakenWithThePolicyFloor) {
  TorchCtx t("torch==2.4.1");
  t.facts.tools = {tool("cmake", "4.0.2")};
  t.c.release = t.c.kb().find_torch("2.4.1");
  detail::choose_cmake(t.c);
  EXPECT_EQ(t.c.p.cmake_version, "4.0.2");
  EXPECT_EQ(t.c.p.env["CMAKE_POLICY_VERSION_MINIMUM"], "3.5");
  EXPECT_EQ(t.c.p.env["USE_NINJA"], "0");  // no ninja here and nothing to provision from
}

TEST(StepAlone, CmakeTooOldIsAConflictNamingTheRange) {
  TorchCtx t("torch==2.4.1");
  t.facts.tools = {tool("cmake", "3.10.2")};
  t.c.release = t.c.kb().find_torch("2.4.1");
  detail::choose_cmake(t.c);
  EXPECT_EQ(t.c.p.cmake_version, "");
  ASSERT_EQ(t.c.conflicts.size(), 1u);
  EXPECT_EQ(t.c.conflicts[0].what, "CMake for torch 2.4.1");
  EXPECT_NE(t.c.conflicts[0].why.find("CMake 3.10.2"), std::string::npos);
}

}  // namespace
}  // namespace ts::plan

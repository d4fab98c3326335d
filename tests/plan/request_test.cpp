// plan::request: one way into planning. It picks the kind by the requirement's form, reads the
// planned machine through the probe (here a fixture root) and runs the planner with its scale step.
#include "plan/request.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace ts::plan {
namespace {

const std::string kHosts = std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/";

struct Tables {
  RecipeSet recipes;
  ProvisionCatalog catalog;
  std::vector<std::string> errors;
  Knowledge planner = load_knowledge({});
  Tables() : recipes(load_recipes({}, errors)), catalog(load_provision_catalog({}, errors)) {}
  RequestTables get() {
    RequestTables t;
    t.planner = planner;
    t.recipes = &recipes;
    t.catalog = &catalog;
    return t;
  }
};

Tables& tables() {
  static Tables t;
  return t;
}

RequestInput on(const std::string& requirement, const std::string& host) {
  RequestInput in;
  in.requirement = requirement;
  in.raw.root = {kHosts + host, "--root", true};
  return in;
}

TEST(Request, TorchRequirementPlansTorchOnTheProbedMachineWithItsScaleStep) {
  ASSERT_TRUE(tables().errors.empty()) << tables().errors.front();
  int scale_runs = 0;
  Planned p = request(on("torch==2.4.1", "s3-rtx5090-cmake4"), tables().get(), [&](Plan&) { ++scale_runs; });
  ASSERT_EQ(p.error, "");
  EXPECT_FALSE(p.extension);
  EXPECT_TRUE(p.result.ok()) << (p.result.conflicts.empty() ? "" : p.result.conflicts.front().what);
  EXPECT_EQ(p.result.plan.torch_version, "2.4.1");
  ASSERT_FALSE(p.facts.gpus.empty());  // the fixture's RTX 5090, read by the probe
  EXPECT_EQ(scale_runs, 1);
  // A fixture root's nvcc is never run: the KB's toolkit entries stay as they are.
  EXPECT_TRUE(p.toolkit_facts.empty());
}

TEST(Request, ADirectoryIsAnExtensionPlannedAgainstTheMachinesTorch) {
  Planned p = request(on(std::string(TS_SOURCE_DIR) + "/examples/hello_ext", "no-gpu"), tables().get());
  ASSERT_EQ(p.error, "");
  EXPECT_TRUE(p.extension);
  // No Python with torch on this machine: a conflict of the extension's own torch step, not an error.
  ASSERT_FALSE(p.result.ok());
  EXPECT_EQ(p.result.conflicts.front().rule, "plan.torch") << p.result.conflicts.front().what;
}

TEST(Request, AToolkitPathWithoutNvccIsBadInputNamingIt) {
  RequestInput in = on("torch==2.4.1", "s1-rtx4090-cuda118");
  in.toolkit = "/nonexistent/cuda-12.8";
  Planned p = request(in, tables().get());
  EXPECT_NE(p.error.find("--toolkit /nonexistent/cuda-12.8: no bin/nvcc"), std::string::npos) << p.error;
}

TEST(Request, KnowledgeBaseErrorsAreBadInput) {
  RequestTables t = tables().get();
  t.planner.errors.push_back("cuda.toml:3: broken");
  Planned p = request(on("torch==2.4.1", "s1-rtx4090-cuda118"), std::move(t));
  EXPECT_NE(p.error.find("the knowledge base has errors: cuda.toml:3: broken"), std::string::npos) << p.error;
}

}  // namespace
}  // namespace ts::plan

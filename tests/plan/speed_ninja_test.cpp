// The ninja rule in the plan: a setup.py that turns ninja off (use_ninja=False) gets it back
// through the build helper when ninja is on the build's PATH, with jobs sized as for any ninja
// build; not without ninja, not with --jobs 1, not when a package fix already turns it on.
#include <gtest/gtest.h>

#include "extension_fakes.h"
#include "plan/extension.h"

namespace ts::plan {
namespace {

using namespace testing;

HostFacts machine(bool ninja = true) {
  auto f = fake_host(fake_python("2.11.0+cu130", "13.0"), {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 118 * kGiB;
  if (ninja) f.tools.push_back({"ninja", "/usr/bin/ninja", "1.11.1"});
  return f;
}

SourceScan ninja_off_scan() {
  auto s = cuda_only_scan();
  s.ninja_off = true;
  return s;
}

TEST(SpeedNinja, UseNinjaFalseIsTurnedBackOnThroughTheHelper) {
  auto r = make_extension_plan(dir_request(ninja_off_scan()), machine(), test_kb(), recipe_generic("demo-ext"),
                               &test_fixes());
  ASSERT_TRUE(r.ok());
  const Decision* d = decision(r.plan, "ninja");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "on through the build helper");
  EXPECT_NE(d->reason.find("use_ninja=False"), std::string::npos);
  EXPECT_NE(d->source.find("torch/utils/cpp_extension.py"), std::string::npos);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NINJA"), "1");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");  // once, though the side-by-side part wants it too
  ASSERT_GT(r.plan.jobs, 1);                         // what memory allows, no longer 1
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), std::to_string(r.plan.jobs));
  EXPECT_NE(env(r.plan, "TORCHSMITH_EXT_JOBS"), "<unset>");
}

TEST(SpeedNinja, TheHelperGoesFirstOnPythonpathOnce) {
  EXPECT_EQ(pythonpath_with_pyshim(""), "{pyshim}");
  EXPECT_EQ(pythonpath_with_pyshim("/a:/b"), "{pyshim}:/a:/b");
  EXPECT_EQ(pythonpath_with_pyshim("{pyshim}"), "{pyshim}");
  EXPECT_EQ(pythonpath_with_pyshim("{pyshim}:/a"), "{pyshim}:/a");
  EXPECT_EQ(pythonpath_with_pyshim("{pyshim}x:/a"), "{pyshim}:{pyshim}x:/a");  // another name, not ours
}

TEST(SpeedNinja, APackageThatKeepsNinjaOnIsLeftAlone) {
  auto r = make_extension_plan(dir_request(cuda_only_scan()), machine(), test_kb(), recipe_generic("demo-ext"),
                               &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(decision(r.plan, "ninja"), nullptr);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NINJA"), "<unset>");
}

TEST(SpeedNinja, JobsOneMeansOneCompileAtATime) {
  auto req = dir_request(ninja_off_scan());
  req.jobs = 1;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(decision(r.plan, "ninja"), nullptr);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NINJA"), "<unset>");
  EXPECT_EQ(r.plan.jobs, 1);
}

TEST(SpeedNinja, WithoutNinjaTheSerialBuildStaysSerial) {
  auto r = make_extension_plan(dir_request(ninja_off_scan()), machine(false), test_kb(), recipe_generic("demo-ext"),
                               &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(decision(r.plan, "ninja"), nullptr);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NINJA"), "<unset>");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_EXT_JOBS"), "<unset>");
  EXPECT_EQ(r.plan.jobs, 1);
  const Decision* d = decision(r.plan, "jobs");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("MAX_JOBS is ignored"), std::string::npos);
}

TEST(SpeedNinja, TheBuildPythonsOwnNinjaCounts) {
  auto f = machine(false);
  f.pythons[0].packages["ninja"] = "1.11.1.1";  // pip's ninja, in the Python's bin (first on PATH)
  auto r = make_extension_plan(dir_request(ninja_off_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NINJA"), "1");
}

TEST(SpeedNinja, ARecipesSerialBuildGetsTheRuleWhereNoFixTurnsNinjaOn) {
  std::vector<std::string> errors;
  auto rs = load_recipes({}, errors);
  const Recipe* cluster = rs.find("torch-cluster");
  ASSERT_NE(cluster, nullptr);
  ASSERT_TRUE(cluster->serial_build);
  // 1.6.3: fix torch-cluster-ninja edits setup.py; the rule has nothing to add.
  auto fixed = make_extension_plan(by_name("torch-cluster", "1.6.3"), machine(), test_kb(), *cluster, &test_fixes());
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(decision(fixed.plan, "ninja"), nullptr);
  EXPECT_EQ(env(fixed.plan, "TORCHSMITH_NINJA"), "<unset>");
  EXPECT_GT(fixed.plan.jobs, 1);
  // A version past the fix's range (<1.7): no tree to read yet, so the recipe's serial_build says it.
  auto later = make_extension_plan(by_name("torch-cluster", "1.7.0"), machine(), test_kb(), *cluster, &test_fixes());
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(env(later.plan, "TORCHSMITH_NINJA"), "1");
  EXPECT_GT(later.plan.jobs, 1);
}

TEST(SpeedNinja, ATreeWhoseSetupPyKeepsNinjaOnIsBelievedOverTheRecipe) {
  std::vector<std::string> errors;
  auto rs = load_recipes({}, errors);
  const Recipe* scatter = rs.find("torch-scatter");
  ASSERT_NE(scatter, nullptr);
  ASSERT_TRUE(scatter->serial_build);  // true of 2.0.5-2.1.2; 2.0.2-2.0.4 have no use_ninja
  auto scan = cuda_only_scan();
  scan.name = "torch_scatter";  // no literal version: no fix; its setup.py read, no use_ninja=False
  auto r = make_extension_plan(dir_request(scan), machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(decision(r.plan, "ninja"), nullptr);
  EXPECT_EQ(env(r.plan, "TORCHSMITH_NINJA"), "<unset>");
  EXPECT_GT(r.plan.jobs, 1);
}

}  // namespace
}  // namespace ts::plan

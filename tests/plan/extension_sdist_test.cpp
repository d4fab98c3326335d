// Where NAME==VERSION's source comes from: the index's sdist when the lookup found one (its sha256
// in the plan and the fetch step), the recipe's git tag otherwise, and --source git|sdist obeyed.
#include <gtest/gtest.h>

#include <algorithm>

#include "extension_fakes.h"
#include "plan/extension.h"
#include "plan/recipe.h"

namespace ts::plan {
namespace {

using namespace testing;

const char* kSha = "69b3aa435f2424ac6a1bfb6ff702da6eb73b33ca0db38fb26989c74159258e47";

const Step* step(const Plan& p, const std::string& name) {
  for (const auto& s : p.steps)
    if (s.name == name) return &s;
  return nullptr;
}

const Recipe& scatter() {
  static const RecipeSet rs = [] {
    std::vector<std::string> errors;
    return load_recipes({}, errors);
  }();
  const Recipe* r = rs.find("torch-scatter");
  EXPECT_NE(r, nullptr);
  return *r;
}

SdistLookup found() {
  SdistLookup l;
  l.asked = true;
  l.index = "https://pypi.org";
  l.filename = "torch_scatter-2.1.2.tar.gz";
  l.url = "https://files.example/torch_scatter-2.1.2.tar.gz";
  l.sha256 = kSha;
  return l;
}

SdistLookup missing() {
  SdistLookup l;
  l.asked = true;
  l.index = "https://pypi.org";
  l.error = "torch-scatter 2.1.2 has no sdist on the index (wheels only)";
  return l;
}

PlanResult plan_for(const std::string& kind, const SdistLookup& l, const Recipe& r) {
  auto f = fake_host(fake_python("2.5.1", ""), {}, {});
  auto req = by_name("torch-scatter", "2.1.2");
  req.source_kind = kind;
  req.sdist = l;
  return make_extension_plan(req, f, test_kb(), r, &test_fixes());
}

TEST(ExtensionSdist, AnSdistOnTheIndexIsFetchedByItsSha256) {
  auto r = plan_for("", found(), scatter());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.source_url, "https://files.example/torch_scatter-2.1.2.tar.gz");
  EXPECT_EQ(r.plan.source_ref, std::string("sha256:") + kSha);
  const Step* f = step(r.plan, "fetch");
  ASSERT_NE(f, nullptr);
  std::vector<std::string> want{"torchsmith", "fetch", "--sdist", r.plan.source_url, "--sha256", kSha, "--out", "{src}"};
  EXPECT_EQ(f->argv, want);
  const Decision* d = decision(r.plan, "source");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->value.find("torch_scatter-2.1.2.tar.gz"), std::string::npos);
  EXPECT_NE(d->reason.find("the index has an sdist for torch-scatter==2.1.2"), std::string::npos) << d->reason;
  EXPECT_EQ(d->source, "https://pypi.org");
}

TEST(ExtensionSdist, SourceGitTakesTheRecipesTagEvenWithAnSdist) {
  auto r = plan_for("git", found(), scatter());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.source_url, scatter().git_url);
  EXPECT_EQ(r.plan.source_ref, tag_for(scatter(), "2.1.2"));
  EXPECT_EQ(step(r.plan, "fetch")->argv[0], "git");
  EXPECT_NE(decision(r.plan, "source")->reason.find("--source git"), std::string::npos);
}

TEST(ExtensionSdist, NoSdistFallsBackToTheRecipesTagAndSaysWhy) {
  auto r = plan_for("", missing(), scatter());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.source_url, scatter().git_url);
  EXPECT_EQ(r.plan.source_ref, tag_for(scatter(), "2.1.2"));
  EXPECT_NE(decision(r.plan, "source")->reason.find("no sdist (torch-scatter 2.1.2 has no sdist"), std::string::npos)
      << decision(r.plan, "source")->reason;
}

TEST(ExtensionSdist, SourceSdistWithoutOneIsAConflictNamingTheWayOut) {
  auto r = plan_for("sdist", missing(), scatter());
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_NE(r.conflicts[0].why.find("wheels only"), std::string::npos) << r.conflicts[0].why;
  EXPECT_NE(r.conflicts[0].fixes[0].find("--source git"), std::string::npos);
}

TEST(ExtensionSdist, APackageWithoutARecipeBuildsFromItsSdist) {
  auto r = plan_for("", found(), recipe_generic("torch-scatter"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(step(r.plan, "fetch")->argv[2], "--sdist");
  auto none = plan_for("", missing(), recipe_generic("torch-scatter"));
  ASSERT_EQ(none.conflicts.size(), 1u);
  EXPECT_NE(none.conflicts[0].why.find("and the index has no sdist"), std::string::npos) << none.conflicts[0].why;
}

}  // namespace
}  // namespace ts::plan

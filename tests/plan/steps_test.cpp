// The one step table: each kind sees its rows in the order its decisions, conflicts and locks
// carry, and a rule both kinds take has one row (one function), not one per kind.
#include "plan/steps.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace ts::plan::steps {
namespace {

std::vector<std::string> rules_of(core::Kind kind) {
  std::vector<std::string> out;
  for (const auto& s : table())
    if (s.kinds & kind) out.push_back(s.rule);
  return out;
}

TEST(Steps, EachKindRunsItsRowsInItsOrder) {
  EXPECT_EQ(rules_of(core::kTorchBuild),
            (std::vector<std::string>{"plan.release", "plan.features", "plan.python", "plan.toolkit", "plan.compiler",
                                      "plan.cmake", "plan.arches", "plan.fixes", "plan.arch_fixes", "plan.search_paths", "plan.libraries",
                                      "plan.version", "plan.scale", "plan.jobs", "plan.steps"}));
  EXPECT_EQ(rules_of(core::kExtensionBuild),
            (std::vector<std::string>{"plan.torch", "plan.toolkit", "plan.compiler", "plan.arches", "plan.env",
                                      "plan.fixes", "plan.remedies", "plan.search_paths", "plan.plain_version", "plan.scale", "plan.jobs", "plan.split_compile",
                                      "plan.steps", "plan.ninja", "plan.parallel"}));
}

TEST(Steps, ARuleBothKindsTakeIsOneRowWithOneFunction) {
  std::set<std::string> seen;
  int shared = 0;
  for (const auto& s : table()) {
    EXPECT_TRUE(seen.insert(s.rule).second) << s.rule << " has two rows";
    EXPECT_NE(s.kinds & core::kEveryKind, 0u) << s.rule << " runs in no kind";
    if (s.kinds == core::kEveryKind) ++shared;
  }
  // toolkit, compiler, arches, fixes, search_paths, scale, jobs, steps
  EXPECT_EQ(shared, 8);
}

}  // namespace
}  // namespace ts::plan::steps

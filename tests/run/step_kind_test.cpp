// The step-kind table: every kind has one row, names map to kinds as the planner writes them, and
// "our own command" and "this kind's command" are asked of the table, not spelled at each use.
#include "run/step_kind.h"

#include <gtest/gtest.h>

namespace ts::run {
namespace {

TEST(StepKind, EveryKindHasOneRow) {
  for (int k = 0; k <= static_cast<int>(StepKind::other); ++k) {
    int rows = 0;
    for (const auto& t : kStepKinds) rows += static_cast<int>(t.kind) == k;
    EXPECT_EQ(rows, 1) << k;
    EXPECT_EQ(static_cast<int>(traits(static_cast<StepKind>(k)).kind), k);
  }
}

TEST(StepKind, NamesAsThePlannerWritesThem) {
  EXPECT_EQ(step_kind("fetch"), StepKind::fetch);
  EXPECT_EQ(step_kind("fix"), StepKind::fix);
  EXPECT_EQ(step_kind("fix-source"), StepKind::other);  // the extension's own edits: not the journaled tree
  EXPECT_EQ(step_kind("configure"), StepKind::configure);
  EXPECT_EQ(step_kind("build"), StepKind::build);
  EXPECT_EQ(step_kind("verify"), StepKind::verify);
  EXPECT_EQ(step_kind("provision-cuda"), StepKind::provision);
  EXPECT_EQ(step_kind("provision-ninja"), StepKind::provision);
  EXPECT_EQ(step_kind("provision"), StepKind::other);
  EXPECT_EQ(step_kind("package"), StepKind::other);
  EXPECT_EQ(step_kind(""), StepKind::other);
}

TEST(StepKind, TraitsTheRunAsks) {
  EXPECT_FALSE(traits(StepKind::fetch).hashes_tree);  // the tree does not exist before it
  for (auto k : {StepKind::fix, StepKind::configure, StepKind::build, StepKind::verify, StepKind::other})
    EXPECT_TRUE(traits(k).hashes_tree);
  EXPECT_TRUE(compiles(StepKind::configure));
  EXPECT_TRUE(compiles(StepKind::build));
  for (auto k : {StepKind::fetch, StepKind::fix, StepKind::verify, StepKind::provision, StepKind::other})
    EXPECT_FALSE(compiles(k));
}

TEST(StepKind, OwnCommandsAreAskedOfTheTable) {
  EXPECT_TRUE(own_command({"torchsmith", "fetch"}));
  EXPECT_FALSE(own_command({"/usr/bin/torchsmith", "fetch"}));  // a path is another program
  EXPECT_FALSE(own_command({"python3", "setup.py"}));
  EXPECT_FALSE(own_command({}));
  EXPECT_TRUE(runs_kind_command(StepKind::verify, {"torchsmith", "verify", "{wheel}"}));
  EXPECT_FALSE(runs_kind_command(StepKind::verify, {"torchsmith", "doctor"}));
  EXPECT_FALSE(runs_kind_command(StepKind::verify, {"torchsmith"}));
  EXPECT_FALSE(runs_kind_command(StepKind::verify, {"python3", "verify"}));
  EXPECT_TRUE(runs_kind_command(StepKind::provision, {"torchsmith", "toolkit", "add", "cuda==12.8"}));
  EXPECT_FALSE(runs_kind_command(StepKind::build, {"torchsmith", "build"}));  // a build step runs the build tool
}

}  // namespace
}  // namespace ts::run

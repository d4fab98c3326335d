#include <gtest/gtest.h>

#include "source/edit.h"
#include "source/udiff.h"
#include "test_tree.h"
#include "util/process.h"

using namespace ts::source;

TEST(UnifiedDiff, EqualIsEmpty) { EXPECT_EQ(unified_diff("f", "a\n", "a\n"), ""); }

TEST(UnifiedDiff, InsertionAtStartAndEnd) {
  EXPECT_EQ(unified_diff("f", "a\nb\n", "x\na\nb\n"), "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n+x\n a\n b\n");
  EXPECT_EQ(unified_diff("f", "", "x\n"), "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(unified_diff("f", "x\n", ""), "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n");
}

TEST(UnifiedDiff, MissingNewlineAtEndIsMarked) {
  EXPECT_EQ(unified_diff("f", "a\nb", "a\nb\n"),
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
}

TEST(UnifiedDiff, FarApartChangesAreSeparateHunksNearOnesMerge) {
  std::string a, b;
  for (int i = 1; i <= 30; ++i) {
    a += std::to_string(i) + "\n";
    b += (i == 3 || i == 25 ? "X" : std::to_string(i)) + "\n";
  }
  std::string d = unified_diff("f", a, b);
  EXPECT_NE(d.find("@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -22,7 +22,7 @@\n 22\n 23\n 24\n-25\n+X\n 26\n 27\n 28\n"), std::string::npos) << d;
  std::string near_b = a;
  near_b.replace(near_b.find("\n10\n") + 1, 2, "Y");
  near_b.replace(near_b.find("\n15\n") + 1, 2, "Z");
  d = unified_diff("f", a, near_b);
  EXPECT_EQ(d.find("@@ -", d.find("@@ -") + 1), std::string::npos) << d;  // one hunk
  EXPECT_NE(d.find("@@ -7,12 +7,12 @@"), std::string::npos) << d;
}

// Whatever diff(1) would print for the same pair, when diff is installed.
TEST(UnifiedDiff, AgreesWithDiffUtility) {
  auto diff = ts::util::find_program("diff", ts::util::split_path(getenv("PATH") ? getenv("PATH") : ""));
  if (diff.empty()) GTEST_SKIP() << "diff not installed";
  testkit::ScratchDir dir;
  std::string a, b;
  for (int i = 1; i <= 40; ++i) {
    a += "line " + std::to_string(i) + "\n";
    if (i == 5) b += "inserted\n";
    if (i != 20) b += "line " + std::to_string(i) + (i == 33 ? " changed" : "") + "\n";
  }
  testkit::spit(dir / "a", a);
  testkit::spit(dir / "b", b);
  auto r = ts::util::run({diff, "-u", dir / "a", dir / "b"});
  std::string ours = unified_diff("f", a, b);
  // Compare the hunks only; the headers carry names and times.
  auto body = [](const std::string& s) { return s.substr(s.find("@@")); };
  EXPECT_EQ(body(ours), body(r.out));
}

TEST(ApplyEdit, InsertBeforeAfterReplaceAndAlreadyApplied) {
  FileEdit e;
  e.file = "f";
  e.anchor = "b\n";
  e.op = EditOp::insert_before;
  auto r = apply_edit("a\nb\nc\n", e, "x\n");
  EXPECT_EQ(r.status, EditOutcome::Status::applied);
  EXPECT_EQ(r.content, "a\nx\nb\nc\n");
  EXPECT_EQ(apply_edit(r.content, e, "x\n").status, EditOutcome::Status::already_applied);

  e.op = EditOp::insert_after;
  r = apply_edit("a\nb\nc\n", e, "x\n");
  EXPECT_EQ(r.content, "a\nb\nx\nc\n");
  EXPECT_EQ(apply_edit(r.content, e, "x\n").status, EditOutcome::Status::already_applied);

  e.op = EditOp::replace;
  e.anchor = "'8.6']";
  r = apply_edit("l = ['8.0', '8.6']\n", e, "'8.6', '8.9']");
  EXPECT_EQ(r.content, "l = ['8.0', '8.6', '8.9']\n");
  EXPECT_EQ(apply_edit(r.content, e, "'8.6', '8.9']").status, EditOutcome::Status::already_applied);
  // The replacement contains its anchor: still recognised.
  e.anchor = "8.6";
  r = apply_edit("v = 8.6\n", e, "8.6 8.9");
  EXPECT_EQ(r.content, "v = 8.6 8.9\n");
  EXPECT_EQ(apply_edit(r.content, e, "8.6 8.9").status, EditOutcome::Status::already_applied);
}

TEST(ApplyEdit, RegexAnchorsAreMultiline) {
  FileEdit e;
  e.file = "f.cmake";
  e.regex = true;
  e.anchor = R"(^#+\n# A function)";
  e.op = EditOp::insert_before;
  auto r = apply_edit("x\n#####\n# A function\n", e, "y\n");
  EXPECT_EQ(r.status, EditOutcome::Status::applied);
  EXPECT_EQ(r.content, "x\ny\n#####\n# A function\n");
  r = apply_edit("#####\n# B\n", e, "y\n");
  EXPECT_EQ(r.status, EditOutcome::Status::drifted);
  EXPECT_EQ(r.message, "upstream drifted: f.cmake: anchor '^#+\\n# A function' matched 0 times (it must match exactly once)");
}

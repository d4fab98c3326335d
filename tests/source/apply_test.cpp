#include <gtest/gtest.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "source/apply.h"
#include "source/hash.h"
#include "source/journal.h"
#include "test_tree.h"

using namespace ts::source;
using namespace ts::source::testkit;
using ts::CudaArch;

namespace {

const char* kArchFile = "cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake";

Fix edit_fix(const std::string& id, const std::string& file, const std::string& anchor, EditOp op,
             const std::string& text) {
  Fix f;
  f.id = id;
  FileEdit e;
  e.file = file;
  e.anchor = anchor;
  e.op = op;
  e.text = text;
  f.edits.push_back(e);
  return f;
}

}  // namespace

TEST(ApplyFixes, S3SelectComputeArchOnTorch24ApplyTwiceEqualsOnce) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "2.4.1", "12.8", "4.2.0", "", {CudaArch::of(12, 0)}};
  auto fixes = select_fixes(set, ctx);
  auto before = tree_digest(tree);

  ApplyResult r1 = apply_fixes(tree, fixes, ctx);
  ASSERT_TRUE(r1.ok) << joined(r1.errors);
  EXPECT_EQ(r1.changed_files, std::vector<std::string>{kArchFile});
  ASSERT_EQ(r1.env.size(), 1u);
  EXPECT_EQ(r1.env[0].first, "CMAKE_POLICY_VERSION_MINIMUM");
  std::string patched = slurp(tree + "/" + kArchFile);
  EXPECT_NE(patched.find(R"(if(arch_name MATCHES "^([0-9]+\\.[0-9]a?(\\([0-9]\\.[0-9]\\))?)$"))"), std::string::npos);
  EXPECT_NE(patched.find("STREQUAL \"Blackwell\")\n        set(arch_bin 10.0 12.0)"), std::string::npos);
  EXPECT_NE(patched.find("list(APPEND CUDA_KNOWN_GPU_ARCHITECTURES \"Blackwell\")"), std::string::npos);
  EXPECT_LT(patched.find("list(APPEND CUDA_KNOWN_GPU_ARCHITECTURES \"Blackwell\")"),
            patched.find("# A function for automatic detection"));

  auto after_once = tree_digest(tree);
  ApplyResult r2 = apply_fixes(tree, fixes, ctx);
  ASSERT_TRUE(r2.ok) << joined(r2.errors);
  EXPECT_TRUE(r2.changed_files.empty());
  EXPECT_EQ(tree_digest(tree), after_once);
  for (const auto& rep : r2.fixes) {
    if (rep.id == "torch-select-compute-arch-sm120") {
      EXPECT_EQ(rep.state, FixReport::State::already_applied);
    }
  }

  RevertResult rv = revert_fixes(tree);
  ASSERT_TRUE(rv.ok) << joined(rv.errors);
  EXPECT_EQ(rv.restored, std::vector<std::string>{kArchFile});
  EXPECT_EQ(tree_digest(tree), before);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith/journal.json"));
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
}

TEST(ApplyFixes, S1FixesOnTorch113AndSetupKeepsItsMode) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-1.13", dir);
  ::chmod((tree + "/setup.py").c_str(), 0755);
  FixSet set = builtin();
  FixContext ctx{"torch", "1.13.0", "11.8", "3.26", "9.4", {CudaArch::of(8, 9)}};
  auto before = tree_digest(tree);
  ApplyResult r = apply_fixes(tree, select_fixes(set, ctx), ctx);
  ASSERT_TRUE(r.ok) << joined(r.errors);
  EXPECT_EQ(r.changed_files, (std::vector<std::string>{"torch/utils/cpp_extension.py", "setup.py"}));
  std::string ext = slurp(tree + "/torch/utils/cpp_extension.py");
  EXPECT_NE(ext.find("    '11.7': ((6, 0, 0), (11, 5, 0)),\n    '11.8': ((6, 0, 0), (11, 5, 0)),\n}"), std::string::npos);
  EXPECT_NE(ext.find("    '11.7': ((6, 0, 0), (13, 0, 0)),\n    '11.8': ((6, 0, 0), (13, 0, 0)),\n}"), std::string::npos);
  EXPECT_NE(ext.find("'8.0', '8.6', '8.9', '9.0']"), std::string::npos);
  EXPECT_NE(slurp(tree + "/setup.py").find("'install': setuptools.command.install.install,"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat((tree + "/setup.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);

  // Revert restores the bytes exactly (hash-compared).
  RevertResult rv = revert_fixes(tree);
  ASSERT_TRUE(rv.ok) << joined(rv.errors);
  EXPECT_EQ(tree_digest(tree), before);
}

TEST(ApplyFixes, Sm120OnTorch113TakesTheSamePath) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-1.13", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "1.13.1", "12.8", "3.28", "", {CudaArch::of(12, 0)}};
  ApplyResult r = apply_fixes(tree, {set.find("torch-select-compute-arch-sm120")}, ctx);
  ASSERT_TRUE(r.ok) << joined(r.errors);
  EXPECT_NE(slurp(tree + "/" + kArchFile).find(R"("^([0-9]+\\.[0-9](\\()"), std::string::npos);
}

TEST(ApplyFixes, Gcc15GetsCstdintInGloo) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "2.4.1", "12.8", "3.30", "15.1.0", {}};
  auto chosen = select_fixes(set, ctx);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0]->id, "torch-gloo-types-cstdint-gcc15");
  ApplyResult r = apply_fixes(tree, chosen, ctx);
  ASSERT_TRUE(r.ok) << joined(r.errors);
  EXPECT_NE(slurp(tree + "/third_party/gloo/gloo/types.h").find("#include <iostream>\n#include <cstdint>\n"),
            std::string::npos);
  ctx.gcc = "14.2";
  EXPECT_TRUE(select_fixes(set, ctx).empty());
}

TEST(ApplyFixes, DriftOnNewerTreeWritesNothingAndNamesFileAndAnchor) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.6", dir);
  FixSet set = builtin();
  auto before = tree_digest(tree);
  FixContext ctx{"torch", "2.6.0", "12.8", "", "", {CudaArch::of(12, 0)}};
  ApplyResult r = apply_fixes(tree, {set.find("torch-select-compute-arch-sm120")}, ctx);
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(joined(r.errors).find(std::string("upstream drifted: ") + kArchFile +
                                  ": anchor 'else() ...' matched 0 times"),
            std::string::npos)
      << joined(r.errors);
  EXPECT_EQ(tree_digest(tree), before);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
}

TEST(ApplyFixes, AnchorTwiceIsDriftToo) {
  ScratchDir dir;
  std::string tree = dir / "t";
  fs::create_directories(tree);
  spit(tree + "/f.txt", "x = 1\nx = 1\n");
  Fix f = edit_fix("twice", "f.txt", "x = 1\n", EditOp::insert_after, "y = 2\n");
  ApplyResult r = apply_fixes(tree, {&f}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find("upstream drifted: f.txt: anchor 'x = 1' matched 2 times"), std::string::npos)
      << joined(r.errors);
  EXPECT_EQ(slurp(tree + "/f.txt"), "x = 1\nx = 1\n");
}

TEST(ApplyFixes, DryRunPrintsDiffAndWritesNothing) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-1.13", dir);
  FixSet set = builtin();
  auto before = tree_digest(tree);
  FixContext ctx{"torch", "1.13.0", "", "", "", {}};
  ApplyResult r = apply_fixes(tree, {set.find("torch-setup-stock-install-command")}, ctx, {.dry_run = true});
  ASSERT_TRUE(r.ok) << joined(r.errors);
  EXPECT_EQ(tree_digest(tree), before);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
  EXPECT_EQ(r.diff,
            "--- a/setup.py\n+++ b/setup.py\n@@ -11,7 +11,7 @@\n"
            "         'bdist_wheel': wheel_concatenate,\n"
            "         'build_ext': build_ext,\n"
            "         'clean': clean,\n"
            "-        'install': install,\n"
            "+        'install': setuptools.command.install.install,\n"
            "         'sdist': sdist,\n"
            "     }\n"
            "     return cmdclass\n");
}

TEST(ApplyFixes, RefusesPathsOutsideTheTree) {
  ScratchDir dir;
  std::string tree = dir / "tree";
  fs::create_directories(tree);
  spit(dir / "outside.txt", "anchor\n");
  Fix up = edit_fix("up", "../outside.txt", "anchor\n", EditOp::insert_after, "evil\n");
  ApplyResult r = apply_fixes(tree, {&up}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find("'..' would leave the source tree"), std::string::npos) << joined(r.errors);

  Fix abs = edit_fix("abs", dir / "outside.txt", "anchor\n", EditOp::insert_after, "evil\n");
  r = apply_fixes(tree, {&abs}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find("absolute path"), std::string::npos) << joined(r.errors);

  fs::create_symlink(dir / "outside.txt", tree + "/link.txt");
  Fix link = edit_fix("link", "link.txt", "anchor\n", EditOp::insert_after, "evil\n");
  r = apply_fixes(tree, {&link}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find("outside the source tree"), std::string::npos) << joined(r.errors);

  fs::create_directory_symlink(dir.path(), tree + "/up");
  Fix via_dir = edit_fix("dir", "up/outside.txt", "anchor\n", EditOp::insert_after, "evil\n");
  r = apply_fixes(tree, {&via_dir}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(slurp(dir / "outside.txt"), "anchor\n");

  // A symlink that stays inside the tree is followed, and the link itself is kept.
  spit(tree + "/real.txt", "anchor\n");
  fs::create_symlink("real.txt", tree + "/alias.txt");
  Fix inside = edit_fix("inside", "alias.txt", "anchor\n", EditOp::insert_after, "ok\n");
  r = apply_fixes(tree, {&inside}, {});
  ASSERT_TRUE(r.ok) << joined(r.errors);
  EXPECT_EQ(slurp(tree + "/real.txt"), "anchor\nok\n");
  EXPECT_TRUE(fs::is_symlink(tree + "/alias.txt"));
}

TEST(ApplyFixes, AJournalDirThatLeadsOutOfTheTreeIsRefused) {
  ScratchDir dir;
  std::string tree = dir / "tree";
  fs::create_directories(tree);
  fs::create_directories(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", tree + "/.torchsmith");
  spit(tree + "/f.txt", "a\n");
  Fix f = edit_fix("f", "f.txt", "a\n", EditOp::insert_after, "b\n");
  ApplyResult r = apply_fixes(tree, {&f}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find("outside the source tree"), std::string::npos) << joined(r.errors);
  EXPECT_EQ(slurp(tree + "/f.txt"), "a\n");
  EXPECT_TRUE(fs::is_empty(dir / "elsewhere"));
}

TEST(ApplyFixes, MissingFileIsAClearError) {
  ScratchDir dir;
  std::string tree = dir / "t";
  fs::create_directories(tree);
  Fix f = edit_fix("m", "nope.py", "a", EditOp::replace, "b");
  ApplyResult r = apply_fixes(tree, {&f}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find("nope.py: no such file in the tree"), std::string::npos) << joined(r.errors);
}

TEST(RevertFixes, UserChangedFileIsRefusedUnlessForced) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-1.13", dir);
  std::string original = slurp(tree + "/setup.py");
  FixSet set = builtin();
  FixContext ctx{"torch", "1.13.0", "11.8", "", "", {CudaArch::of(8, 9)}};
  ApplyResult r = apply_fixes(tree, select_fixes(set, ctx), ctx);
  ASSERT_TRUE(r.ok) << joined(r.errors);
  spit(tree + "/setup.py", slurp(tree + "/setup.py") + "# my own change\n");

  // Applying again would have to overwrite the user's change: refused.
  Fix extra = edit_fix("extra", "setup.py", "    return cmdclass\n", EditOp::insert_before, "    pass\n");
  ApplyResult again = apply_fixes(tree, {&extra}, ctx);
  EXPECT_FALSE(again.ok);
  EXPECT_NE(joined(again.errors).find("setup.py: changed since torchsmith last edited it"), std::string::npos);

  RevertResult rv = revert_fixes(tree);
  EXPECT_FALSE(rv.ok);
  EXPECT_EQ(rv.refused, std::vector<std::string>{"setup.py"});
  EXPECT_EQ(rv.restored, std::vector<std::string>{"torch/utils/cpp_extension.py"});
  EXPECT_NE(slurp(tree + "/setup.py").find("# my own change"), std::string::npos);
  EXPECT_TRUE(fs::exists(tree + "/.torchsmith/journal.json"));  // still remembers setup.py

  RevertResult forced = revert_fixes(tree, {.force = true});
  ASSERT_TRUE(forced.ok) << joined(forced.errors);
  EXPECT_EQ(slurp(tree + "/setup.py"), original);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith/journal.json"));
}

TEST(RevertFixes, NoJournalIsNothingToDo) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  RevertResult rv = revert_fixes(tree);
  EXPECT_TRUE(rv.ok);
  EXPECT_FALSE(rv.had_journal);
}

TEST(RevertFixes, CorruptJournalIsReportedNotTrusted) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  fs::create_directories(tree + "/.torchsmith");
  spit(tree + "/.torchsmith/journal.json", "{not json");
  RevertResult rv = revert_fixes(tree);
  EXPECT_FALSE(rv.ok);
  EXPECT_NE(joined(rv.errors).find("journal.json: malformed"), std::string::npos) << joined(rv.errors);
}

TEST(ApplyFixes, SecondRunAddsToTheJournalKeepingTheFirstOriginal) {
  ScratchDir dir;
  std::string tree = dir / "t";
  fs::create_directories(tree);
  spit(tree + "/f.txt", "a\nb\n");
  Fix one = edit_fix("one", "f.txt", "a\n", EditOp::insert_after, "1\n");
  Fix two = edit_fix("two", "f.txt", "b\n", EditOp::insert_after, "2\n");
  ASSERT_TRUE(apply_fixes(tree, {&one}, {}).ok);
  ASSERT_TRUE(apply_fixes(tree, {&two}, {}).ok);
  EXPECT_EQ(slurp(tree + "/f.txt"), "a\n1\nb\n2\n");
  Journal j;
  ASSERT_TRUE(read_journal(tree, j, nullptr));
  ASSERT_EQ(j.files.size(), 1u);
  EXPECT_EQ(j.files[0].original, "a\nb\n");
  EXPECT_EQ(j.files[0].fixes, (std::vector<std::string>{"one", "two"}));
  ASSERT_TRUE(revert_fixes(tree).ok);
  EXPECT_EQ(slurp(tree + "/f.txt"), "a\nb\n");
}

// Issue 32, class 1: the journal is a record; a path it gives back is checked as a fix file's is
// (no '..', no absolute path, no control character), and its mode never brings setuid back.
TEST(RevertFixes, AJournalNamingAPathOutsideTheTreeOrAControlCharacterIsRefused) {
  for (const std::string bad : {"../canary", "/etc/passwd", "a/../../canary", "x\n..", "esc\x1b[2J", "del\x7f"}) {
    ScratchDir dir;
    std::string tree = dir / "t";
    fs::create_directories(tree + "/.torchsmith");
    spit(dir / "canary", "keep");
    nlohmann::json j = {{"format", "torchsmith-fix-journal"}, {"version", 1},
                        {"files", {{{"path", bad}, {"original_sha256", sha256_hex("evil")},
                                    {"original_base64", base64_encode("evil")}, {"applied_sha256", ""}}}}};
    spit(tree + "/.torchsmith/journal.json", j.dump());
    Journal out;
    std::string err;
    EXPECT_FALSE(read_journal(tree, out, &err)) << bad;
    EXPECT_EQ(err.find('\x1b'), std::string::npos);
    RevertResult rv = revert_fixes(tree, {.force = true});
    EXPECT_FALSE(rv.ok);
    EXPECT_EQ(slurp(dir / "canary"), "keep");
  }
}

TEST(RevertFixes, AJournalModeNeverRestoresSetuid) {
  ScratchDir dir;
  std::string tree = dir / "t";
  fs::create_directories(tree + "/.torchsmith");
  spit(tree + "/f.sh", "changed");
  nlohmann::json j = {{"format", "torchsmith-fix-journal"}, {"version", 1},
                      {"files", {{{"path", "f.sh"}, {"original_sha256", sha256_hex("orig")},
                                  {"original_base64", base64_encode("orig")}, {"applied_sha256", sha256_hex("changed")},
                                  {"mode", 04777}}}}};
  spit(tree + "/.torchsmith/journal.json", j.dump());
  ASSERT_TRUE(revert_fixes(tree).ok);
  struct stat st {};
  ASSERT_EQ(::stat((tree + "/f.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07000, 0u);
  EXPECT_EQ(slurp(tree + "/f.sh"), "orig");
}

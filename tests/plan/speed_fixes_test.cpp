// The ninja fixes of torch-scatter and torch-cluster through the fix engine, on excerpts of the
// real setup.py lines (tests/fixtures/trees/torch-{scatter,cluster}-*): selected by version,
// applied once, idempotent, reverted byte for byte; a tree without the anchor is drift.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "plan/speed_fixes.h"
#include "tree_testkit.h"
#include "source/apply.h"

namespace ts::plan {
namespace {

using namespace testing;
namespace fs = std::filesystem;

const source::FixSet& fixes() {
  static const source::FixSet s = [] {
    std::vector<std::string> errors;
    auto set = source::load_fixes({}, errors);
    EXPECT_TRUE(errors.empty());
    return set;
  }();
  return s;
}


source::FixContext ctx(const std::string& pkg, const std::string& version) {
  source::FixContext c;
  c.package = pkg;
  c.version = FactVersion(version);
  c.cuda = "13.0";
  c.gcc = "12.2.0";
  return c;
}

TEST(SpeedFixes, SelectedForTheVersionsTheirAnchorsWereCheckedAt) {
  using V = std::vector<std::string>;
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-scatter", "2.1.2"))), V{"torch-scatter-ninja"});
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-scatter", "2.0.5"))), V{"torch-scatter-ninja"});
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-scatter", "2.0.4"))), V{});  // ninja on upstream
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-scatter", "2.2.0"))), V{});  // not checked
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-scatter", ""))), V{});       // unknown: no guess
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-cluster", "1.6.3"))), V{"torch-cluster-ninja"});
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-cluster", "1.5.4"))), V{});
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch-sparse", "0.6.18"))), V{});
  // torch's own fixes never come through this door.
  EXPECT_EQ(ids(select_package_fixes(fixes(), ctx("torch", "1.13.1"))), V{});
  ASSERT_NE(fixes().find("torch-scatter-ninja"), nullptr);
  EXPECT_TRUE(fix_enables_ninja(*fixes().find("torch-scatter-ninja")));
  EXPECT_TRUE(fix_enables_ninja(*fixes().find("torch-cluster-ninja")));
  EXPECT_FALSE(fix_enables_ninja(*fixes().find("torch-cpp-extension-arches-sm89-sm90")));
}

void applies_once_and_reverts(const std::string& tree_name, const std::string& pkg, const std::string& version) {
  ScratchDir s;
  std::string tree = copy_tree(tree_name, s);
  std::string original = slurp(tree + "/setup.py");
  auto chosen = select_package_fixes(fixes(), ctx(pkg, version));
  ASSERT_EQ(chosen.size(), 1u);
  auto r1 = source::apply_fixes(tree, chosen, ctx(pkg, version));
  ASSERT_TRUE(r1.ok) << (r1.errors.empty() ? "" : r1.errors[0]);
  EXPECT_EQ(r1.changed_files, std::vector<std::string>{"setup.py"});
  std::string patched = slurp(tree + "/setup.py");
  EXPECT_EQ(patched.find("use_ninja=False"), std::string::npos);
  EXPECT_NE(patched.find("        'build_ext':\n        BuildExtension.with_options(no_python_abi_suffix=True, "
                         "use_ninja=True)\n    },"),
            std::string::npos)
      << patched;
  EXPECT_EQ(patched.size(), original.size() - 1);  // False -> True, nothing else
  auto r2 = source::apply_fixes(tree, chosen, ctx(pkg, version));
  ASSERT_TRUE(r2.ok);
  EXPECT_TRUE(r2.changed_files.empty());
  ASSERT_EQ(r2.fixes.size(), 1u);
  EXPECT_EQ(r2.fixes[0].state, source::FixReport::State::already_applied);
  auto rv = source::revert_fixes(tree);
  ASSERT_TRUE(rv.ok);
  EXPECT_EQ(slurp(tree + "/setup.py"), original);
}

TEST(SpeedFixes, ScatterSetupPyGetsNinjaOnce) { applies_once_and_reverts("torch-scatter-2.1.2", "torch-scatter", "2.1.2"); }

TEST(SpeedFixes, ClusterSetupPyGetsNinjaOnce) { applies_once_and_reverts("torch-cluster-1.6.3", "torch-cluster", "1.6.3"); }

TEST(SpeedFixes, ATreeWithoutTheAnchorIsDriftAndStaysUntouched) {
  ScratchDir s;
  std::string tree = copy_tree("torch-scatter-2.0.4", s);
  std::string original = slurp(tree + "/setup.py");
  const source::Fix* f = fixes().find("torch-scatter-ninja");
  ASSERT_NE(f, nullptr);
  auto r = source::apply_fixes(tree, {f}, ctx("torch-scatter", "2.0.4"));
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("setup.py"), std::string::npos) << r.errors[0];
  EXPECT_EQ(slurp(tree + "/setup.py"), original);
}

}  // namespace
}  // namespace ts::plan

// torchsmith fix from the command line: --list without a tree, a clear error without one, and a
// dry run of a package's arch fix on its fake tree that writes nothing.
#include <gtest/gtest.h>

#include "cli_util.h"
#include "util/fs.h"

namespace ts::testing {
namespace {

TEST(FixCli, ListNeedsNoTreeAndSaysWhatEachFixIsFor) {
  auto r = run_torchsmith({"fix", "--list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("flash-attn-arches  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flash-attn 2.0.0 to 2.7.2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fixes/flash-attn-arches.toml:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("torch-scatter-ninja"), std::string::npos) << r.out;
}

TEST(FixCli, NoTreeIsABadUsageThatNamesTheWayOut) {
  auto r = run_torchsmith({"fix"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give the source tree to fix: torchsmith fix DIR (--list names the fixes)"), std::string::npos)
      << r.err;
}

TEST(FixCli, DryRunOfTheFlashAttnArchFixShowsTheEditAndWritesNothing) {
  std::string tree = std::string(TS_SOURCE_DIR) + "/tests/fixtures/trees/flash-attn-2.7.2";
  auto before = util::read_file(tree + "/setup.py");
  auto r = run_torchsmith({"fix", tree, "--fix", "flash-attn-arches", "--arch", "9.0", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("-            + cc_flag\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("+            + [_f for _a in \"9.0\".split(\";\")"), std::string::npos) << r.out;
  EXPECT_EQ(util::read_file(tree + "/setup.py"), before);
}

}  // namespace
}  // namespace ts::testing

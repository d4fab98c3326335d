// Issue 32: `build --out` on a non-empty directory marked it as torchsmith's own, and a later
// `clean` removed it with the user's files. Now refused, with the way out named; `clean` finds the
// home directory from the password database when HOME is unset (root's home was removable).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "fake_step_runner.h"
#include "run/clean_guard.h"
#include "run/mirror.h"
#include "run/pipeline.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;
using testing::FakeStepRunner;
using testing::scripted_build_options;

plan::Plan one_step() {
  plan::Plan p;
  p.steps = {{"build", {"cmake", "--build", "build"}, "", ""}};
  return p;
}

BuildOptions opts(const std::string& out, std::atomic<bool>& cancel, FakeStepRunner& fake) {
  BuildOptions o = scripted_build_options(out, &fake, nullptr);
  o.cancel = &cancel;
  fake.cancel_flag = &cancel;
  return o;
}

TEST(OutMarker, ANonEmptyDirectoryTorchsmithDidNotMakeIsNotMarked) {
  testkit::TempDir d;
  std::atomic<bool> cancel{false};
  FakeStepRunner fake;
  fs::create_directories(d / "mine");
  std::ofstream(d / "mine/thesis.tex") << "years of work\n";
  BuildOutcome r = run_build(one_step(), opts(d / "mine", cancel, fake));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("already holds files torchsmith did not write"), std::string::npos) << r.error;
  EXPECT_TRUE(fake.calls.empty());
  EXPECT_FALSE(has_out_marker(d / "mine"));
  EXPECT_NE(why_not_removable(d / "mine").find("holds no build"), std::string::npos);
  EXPECT_TRUE(fs::exists(d / "mine/thesis.tex"));

  // An empty directory, and torchsmith's own output on the next run, are taken.
  fs::create_directories(d / "empty");
  FakeStepRunner fake2;
  EXPECT_EQ(run_build(one_step(), opts(d / "empty", cancel, fake2)).exit_code, 0);
  EXPECT_TRUE(has_out_marker(d / "empty"));
  FakeStepRunner fake3;
  EXPECT_EQ(run_build(one_step(), opts(d / "empty", cancel, fake3)).exit_code, 0);
}

TEST(OutMarker, CleanFindsHomeInThePasswordDatabaseWhenHomeIsUnset) {
  const std::string home = util::passwd_home();
  if (home.empty() || !fs::is_directory(home)) GTEST_SKIP() << "this user has no home directory";
  const char* old = std::getenv("HOME");
  const std::string saved = old ? old : "";
  ::unsetenv("HOME");
  const std::string why = why_not_removable(home, "", /*require_build=*/false);
  if (old) ::setenv("HOME", saved.c_str(), 1);
  EXPECT_NE(why.find("home directory"), std::string::npos) << why;
}

}  // namespace
}  // namespace ts::run

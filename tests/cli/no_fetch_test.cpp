// --no-fetch: `plan URL@REF` and `plan NAME==VERSION` fetch the source to read it before planning
// (tests/cli/scan_origin_test.cpp); with --no-fetch nothing is fetched and the request is refused
// (exit 2) naming what would have been fetched and how to give the source as a directory.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_util.h"
#include "sdist_index.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using testing::run_torchsmith;

const std::string kOldStd = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/old_std";

// A file:// git repository of the old_std fixture, tagged v0.1.
std::string make_repo(const testkit::TempDir& t) {
  fs::copy(kOldStd, t / "repo", fs::copy_options::recursive);
  for (std::vector<std::string> args : {std::vector<std::string>{"init", "-q"}, {"add", "."}, {"commit", "-qm", "old_std"},
                                        {"tag", "v0.1"}}) {
    args.insert(args.begin(), {"git", "-C", t / "repo", "-c", "user.name=t", "-c", "user.email=t@t"});
    auto r = util::run(args, {});
    EXPECT_TRUE(r.ok()) << r.err;
  }
  return "file://" + (t / "repo") + "@v0.1";
}

TEST(NoFetch, AGitRefIsRefusedAndNotCloned) {
  testkit::TempDir t;
  std::string req = make_repo(t);
  auto r = run_torchsmith({"plan", req, "--torch", "/usr/bin/python3", "--no-fetch", "--cache-dir", t / "cache"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--no-fetch: " + req + " is not here: planning would clone it"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("git clone --branch v0.1 -- file://" + (t / "repo") + " DIR, then torchsmith plan DIR"),
            std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "cache/source-trees"));
  // The same request without the switch clones it to read it (whatever the plan then says).
  run_torchsmith({"plan", req, "--torch", "/usr/bin/python3", "--cache-dir", t / "cache"});
  EXPECT_TRUE(fs::exists(t / "cache/source-trees"));
}

TEST(NoFetch, ANameIsRefusedBeforeTheIndexIsAsked) {
  testkit::TempDir t;
  testing::put_sdist_on_index(t.path(), kOldStd, "lt_old_std-0.1", "lt-old-std", "lt-old-std", "0.1");
  std::string index = "file://" + (t / "index");
  auto r = run_torchsmith({"build", "lt-old-std==0.1", "--torch", "/usr/bin/python3", "--index", index, "--no-fetch",
                           "--cache-dir", t / "cache", "--out", t / "out"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--no-fetch: lt-old-std==0.1 is not here: planning would look lt-old-std==0.1 up on " + index +
                       " and download its sdist"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pip download --no-deps --no-binary :all: lt-old-std==0.1 -d DIR"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "cache/sdists"));
  EXPECT_FALSE(fs::exists(t / "out/src"));
}

// Near miss: a directory is no fetch, and torch's own request does not take the switch.
TEST(NoFetch, ADirectoryPlansAndTorchIsToldWhy) {
  testkit::TempDir t;
  if (testing::debian_torch()) {
    auto r = run_torchsmith({"plan", kOldStd, "--torch", "/usr/bin/python3", "--no-fetch", "--cache-dir", t / "cache"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  auto torch = run_torchsmith({"plan", "torch==2.4.0", "--no-fetch"});
  EXPECT_EQ(torch.exit_code, 2);
  EXPECT_NE(torch.err.find("--no-fetch applies to extension builds only"), std::string::npos) << torch.err;
}

}  // namespace
}  // namespace ts

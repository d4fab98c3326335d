// Item 4 for every origin: `plan NAME==VERSION` (an sdist on a file:// index written here, no
// recipe) and `plan URL@REF` (a file:// git repository made here) read the source before planning,
// as a directory is, so the same remedies are decided and the plan says where it read it; a
// source that cannot be fetched is planned from the recipe alone, with a warning naming why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "sdist_index.h"
#include "source/pypi.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_torchsmith;

using testing::debian_torch;

const std::string kOldStd = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/old_std";

const json* find_decision(const json& plan, const std::string& topic, const std::string& value_prefix = "") {
  for (const auto& d : plan["decisions"])
    if (d.value("topic", "") == topic && d.value("value", "").rfind(value_prefix, 0) == 0) return &d;
  return nullptr;
}

// The long-tail fixture old_std (setup.py passes -std=c++11) as lt_old_std-0.1.tar.gz on an index.
std::string make_index(const testkit::TempDir& t) {
  testing::put_sdist_on_index(t.path(), kOldStd, "lt_old_std-0.1", "lt-old-std", "lt-old-std", "0.1");
  return "file://" + (t / "index");
}

TEST(ScanOrigin, AnSdistByNameIsReadBeforePlanning) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  std::string index = make_index(t);
  auto r = run_torchsmith({"plan", "lt-old-std==0.1", "--torch", "/usr/bin/python3", "--index", index, "--cache-dir",
                           t / "cache", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto p = json::parse(r.out)["plan"];
  const json* scan = find_decision(p, "scan");
  ASSERT_NE(scan, nullptr) << p["decisions"].dump(1);
  EXPECT_NE(scan->value("reason", "").find("the sdist lt_old_std-0.1.tar.gz (sha256 checked), unpacked in " +
                                           (t / "cache/source-trees/sdist-")), std::string::npos) << scan->dump();
  // What the directory's plan decides: the -std=c++11 its setup.py passes is below torch 1.13's C++14.
  EXPECT_NE(find_decision(p, "remedy", "build.cxx-std c++14"), nullptr) << p["decisions"].dump(1);
  EXPECT_EQ(p["env"].value("TORCHSMITH_CXX_STD", ""), "14");
  // The build still fetches its own copy: the cache's tree is only read.
  EXPECT_EQ(p["steps"][0]["argv"][1], "fetch");
}

TEST(ScanOrigin, AGitRefIsReadBeforePlanning) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  fs::copy(kOldStd, t / "repo", fs::copy_options::recursive);
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", t / "repo", "-c", "user.name=t", "-c", "user.email=t@t"});
    auto r = util::run(args, {});
    ASSERT_TRUE(r.ok()) << r.err;
  };
  git({"init", "-q"});
  git({"add", "."});
  git({"commit", "-qm", "old_std"});
  git({"tag", "v0.1"});
  auto r = run_torchsmith({"plan", "file://" + (t / "repo") + "@v0.1", "--torch", "/usr/bin/python3", "--cache-dir",
                           t / "cache", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto p = json::parse(r.out)["plan"];
  const json* scan = find_decision(p, "scan");
  ASSERT_NE(scan, nullptr) << p["decisions"].dump(1);
  EXPECT_NE(scan->value("reason", "").find("a shallow clone of file://" + (t / "repo") + " at v0.1"), std::string::npos)
      << scan->dump();
  EXPECT_NE(find_decision(p, "remedy", "build.cxx-std c++14"), nullptr) << p["decisions"].dump(1);
  EXPECT_EQ(p["env"].value("OLD_STD_FLAG", "<not set>"), "<not set>");  // a switch it reads is named, not set
  EXPECT_NE(find_decision(p, "switches", "OLD_STD_FLAG"), nullptr);
}

// Near miss: a ref that does not exist is planned from the recipe alone, and the plan says why.
TEST(ScanOrigin, ARefThatCannotBeFetchedIsAWarning) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  fs::create_directories(t / "empty");
  ASSERT_TRUE(util::run({"git", "init", "-q", t / "empty"}, {}).ok());
  auto r = run_torchsmith({"plan", "file://" + (t / "empty") + "@v9", "--torch", "/usr/bin/python3", "--cache-dir",
                           t / "cache", "--json"});
  auto p = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(p.is_discarded()) << r.out << r.err;
  const json* scan = find_decision(p["plan"], "scan", "not read");
  ASSERT_NE(scan, nullptr) << r.out;
  EXPECT_NE(scan->value("reason", "").find("the clone failed"), std::string::npos) << scan->dump();
  EXPECT_EQ(find_decision(p["plan"], "remedy"), nullptr);
}

}  // namespace
}  // namespace ts

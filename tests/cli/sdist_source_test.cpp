// `torchsmith plan|build NAME==VERSION`: the sdist found on a package index (a file:// index written
// here, shaped like PyPI's JSON API), its sha256 in the lock, explain saying why, the wheel built from
// the unpacked archive; --source git and bad --source/--index values refused with the way out.
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

// examples/hello_ext as hello_ext-0.1.0.tar.gz, and INDEX/pypi/hello-ext/0.1.0/json naming it.
std::string make_index(const testkit::TempDir& t) {
  return testing::put_sdist_on_index(t.path(), std::string(TS_SOURCE_DIR) + "/examples/hello_ext", "hello_ext-0.1.0",
                                     "hello_ext", "hello-ext", "0.1.0");
}

TEST(SdistSource, PlanByNameTakesTheIndexSdistAndLocksItsSha256) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  std::string sha = make_index(t);
  std::string index = "file://" + (t / "index");
  auto r = run_torchsmith({"plan", "hello-ext==0.1.0", "--torch", "/usr/bin/python3", "--index", index, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto p = json::parse(r.out)["plan"];
  EXPECT_EQ(p["source"]["ref"], "sha256:" + sha);
  EXPECT_EQ(p["source"]["url"], "file://" + (t / "hello_ext-0.1.0.tar.gz"));
  EXPECT_EQ(p["steps"][0]["argv"], json({"torchsmith", "fetch", "--sdist", "file://" + (t / "hello_ext-0.1.0.tar.gz"),
                                         "--sha256", sha, "--out", "{src}"}));
  auto e = run_torchsmith({"plan", "hello-ext==0.1.0", "--torch", "/usr/bin/python3", "--index", index, "--explain"});
  EXPECT_EQ(e.exit_code, 0) << e.out << e.err;
  EXPECT_NE(e.out.find("the index has an sdist for hello-ext==0.1.0"), std::string::npos) << e.out;

  // --source git: hello-ext has no recipe with a git tag, so the plan cannot be made; exit 3, the way out named.
  auto g = run_torchsmith({"plan", "hello-ext==0.1.0", "--torch", "/usr/bin/python3", "--index", index, "--source", "git"});
  EXPECT_EQ(g.exit_code, 3) << g.out << g.err;
  EXPECT_NE(g.out.find("no recipe says where hello-ext's source lives"), std::string::npos) << g.out;
  // No such release on the index and --source sdist: a conflict that names the index's answer.
  auto n = run_torchsmith({"plan", "hello-ext==9.9", "--torch", "/usr/bin/python3", "--index", index, "--source", "sdist"});
  EXPECT_EQ(n.exit_code, 3) << n.out << n.err;
  EXPECT_NE(n.out.find("--source sdist: cannot read hello-ext 9.9"), std::string::npos) << n.out;
}

TEST(SdistSource, BadSourceOrIndexIsExitTwo) {
  auto r = run_torchsmith({"plan", "hello-ext==0.1.0", "--source", "tarball"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("write git (the recipe's tag) or sdist"), std::string::npos) << r.err;
  r = run_torchsmith({"plan", "hello-ext==0.1.0", "--index", "http://example.org"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("write an https:// or file:// URL"), std::string::npos) << r.err;
  r = run_torchsmith({"plan", "./somewhere", "--source", "git"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

TEST(SdistSource, FetchChecksTheSha256BeforeUnpacking) {
  testkit::TempDir t;
  std::string sha = make_index(t);
  std::string url = "file://" + (t / "hello_ext-0.1.0.tar.gz");
  std::string wrong(64, '0');
  auto bad = run_torchsmith({"fetch", "--sdist", url, "--sha256", wrong, "--dir", t / "bad"});
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("is not the index's"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(t / "bad"));
  auto ok = run_torchsmith({"fetch", "--sdist", url, "--sha256", sha, "--dir", t / "src"});
  ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_TRUE(fs::exists(t / "src/setup.py"));
  auto http = run_torchsmith({"fetch", "--sdist", "http://example.org/x.tar.gz", "--sha256", sha, "--dir", t / "h"});
  EXPECT_EQ(http.exit_code, 2) << http.err;
}

// The whole way: the archive fetched by the plan's step, built against Debian's torch, verified.
TEST(SdistSource, BuildByNameFromTheSdist) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  make_index(t);
  auto r = run_torchsmith({"build", "hello-ext==0.1.0", "--torch", "/usr/bin/python3", "--index",
                           "file://" + (t / "index"), "--out", t / "out", "--compile-cache", "none"},
                          std::chrono::seconds(900));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(t / "out/src/setup.py"));
  bool wheel = false;
  for (const auto& e : fs::directory_iterator(t / "out/dist")) wheel |= e.path().extension() == ".whl";
  EXPECT_TRUE(wheel);
  auto run = json::parse(util::read_file(t / "out/last/run.json").value_or("{}"), nullptr, false);
  EXPECT_EQ(run.value("outcome", ""), "ok") << r.out;
}

}  // namespace
}  // namespace ts

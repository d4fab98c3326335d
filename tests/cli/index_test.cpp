// `torchsmith index` through the real binary: a channel with a conda package and its wheel, then
// pip installs from the simple index; a corrupt package is named on stderr with exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../package/conda_testkit.h"
#include "cli_util.h"

namespace {

namespace fs = std::filesystem;
using ts::testing::run_torchsmith;
using ts::testing::TempDir;

TEST(IndexCli, ChannelAndSimpleIndexThatPipInstallsFrom) {
  TempDir t("cli-index");
  std::string chan = t.path + "/chan";
  fs::create_directories(chan);
  std::string wheel = ts::testing::build_tiny_wheel(chan);
  auto c =
      run_torchsmith({"conda", wheel, "-o", chan, "--python", "3.11", "--format", "tar.bz2,conda"});
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;

  auto r = run_torchsmith({"index", chan});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("indexed 2 conda packages and 1 wheel"), std::string::npos) << r.out;
  // The install lines name the package the index serves, not a placeholder (issue 37).
  EXPECT_NE(r.out.find("/chan tiny-pkg\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/chan/simple tiny-pkg\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" NAME"), std::string::npos) << r.out;
  auto repo = nlohmann::json::parse(ts::util::read_file(chan + "/linux-64/repodata.json").value());
  std::string tb = "tiny-pkg-0.1.0-py3.11_cpu_0.tar.bz2", cd = "tiny-pkg-0.1.0-py3.11_cpu_0.conda";
  ASSERT_TRUE(repo["packages"].contains(tb)) << repo.dump(1);
  ASSERT_TRUE(repo["packages.conda"].contains(cd)) << repo.dump(1);
  auto d = ts::testing::hashlib_digest(chan + "/linux-64/" + tb);
  EXPECT_EQ(repo["packages"][tb]["sha256"], d[0]);
  EXPECT_EQ(repo["packages"][tb]["md5"], d[1]);
  EXPECT_EQ(repo["packages"][tb]["size"].get<std::uint64_t>(), std::stoull(d[2]));
  EXPECT_TRUE(fs::exists(chan + "/noarch/repodata.json"));

  std::string target = t.path + "/target";
  auto pip = ts::testing::py(
      {"-m", "pip", "install", "--no-deps", "--no-cache-dir", "--disable-pip-version-check",
       "--index-url", "file://" + chan + "/simple", "--target", target, "tiny_pkg"},
      "", std::chrono::seconds(180));
  ASSERT_TRUE(pip.ok()) << pip.out << pip.err;
  EXPECT_TRUE(fs::exists(target + "/tinypkg/__init__.py"));

  // Idempotent, then a corrupt package named with exit 2.
  auto before = ts::util::read_file(chan + "/linux-64/repodata.json");
  ASSERT_EQ(run_torchsmith({"index", chan}).exit_code, 0);
  EXPECT_EQ(ts::util::read_file(chan + "/linux-64/repodata.json"), before);
  ts::util::write_file_atomic(chan + "/linux-64/evil-1.0-0.tar.bz2", "BZh9 garbage");
  r = run_torchsmith({"index", chan});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("linux-64/evil-1.0-0.tar.bz2: corrupt conda package"), std::string::npos)
      << r.err;
  EXPECT_EQ(ts::util::read_file(chan + "/linux-64/repodata.json"), before);
}

TEST(IndexCli, MissingDirectoryIsExit2) {
  auto r = run_torchsmith({"index", std::string(TS_BINARY_DIR) + "/no-such-channel"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a directory"), std::string::npos) << r.err;
}

}  // namespace

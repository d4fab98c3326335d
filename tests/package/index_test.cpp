// build_index over a channel made here: repodata.json checked against hashlib's digests, a corrupt
// package named, re-running gives the same bytes, and pip installs a wheel from the simple index.
#include "package/index.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "conda_testkit.h"
#include "package/conda_package.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;
using ts::testing::TempDir;

TEST(Index, RepodataListsPackagesWithIndependentDigestsAndNamesTheCorruptOne) {
  TempDir t("index-chan");
  std::string chan = t.path + "/chan";
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path, "2.4.1");
  CondaOptions o;
  o.out_dir = chan;
  o.formats = {"tar.bz2", "conda"};
  o.cudnn = "9.1.0";
  o.timestamp = 1700000000;
  auto made = make_conda_packages(wheel, o);
  ASSERT_EQ(made.exit_code, 0) << made.error;
  // Wheel-derived: CUDA from torch/version.py, no plan.
  EXPECT_EQ(made.index["build"], "py3.8_cuda11.0_cudnn9.1.0_0");

  auto r = build_index(chan);
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.conda_packages, 2);
  auto repo = nlohmann::json::parse(util::read_file(chan + "/linux-64/repodata.json").value());
  EXPECT_EQ(repo["info"]["subdir"], "linux-64");
  EXPECT_EQ(repo["repodata_version"], 1);
  std::string dist = "torch-2.4.1-py3.8_cuda11.0_cudnn9.1.0_0";
  for (const auto& [key, file] :
       {std::pair{"packages", dist + ".tar.bz2"}, std::pair{"packages.conda", dist + ".conda"}}) {
    SCOPED_TRACE(file);
    ASSERT_TRUE(repo[key].contains(file)) << repo.dump(1);
    const auto& rec = repo[key][file];
    auto d = ts::testing::hashlib_digest(chan + "/linux-64/" + file);
    EXPECT_EQ(rec["sha256"], d[0]);
    EXPECT_EQ(rec["md5"], d[1]);
    EXPECT_EQ(rec["size"].get<std::uint64_t>(), std::stoull(d[2]));
    EXPECT_EQ(rec["name"], "torch");
    EXPECT_EQ(rec["version"], "2.4.1");
    EXPECT_EQ(rec["build"], "py3.8_cuda11.0_cudnn9.1.0_0");
    EXPECT_EQ(rec["build_number"], 0);
    EXPECT_EQ(rec["subdir"], "linux-64");
    EXPECT_EQ(rec["timestamp"], 1700000000000LL);
    EXPECT_EQ(rec["depends"], nlohmann::json({"python 3.8.*", "typing-extensions"}));
  }
  auto noarch = nlohmann::json::parse(util::read_file(chan + "/noarch/repodata.json").value());
  EXPECT_TRUE(noarch["packages"].empty());
  EXPECT_TRUE(noarch["packages.conda"].empty());

  // Idempotent: the same bytes again.
  auto before = util::read_file(chan + "/linux-64/repodata.json");
  auto r2 = build_index(chan);
  EXPECT_EQ(r2.exit_code(), 0);
  EXPECT_EQ(util::read_file(chan + "/linux-64/repodata.json"), before);

  // A truncated .tar.bz2 and a garbage .conda: named, left out, the good ones still indexed.
  auto bytes = util::read_file(made.outputs[0]).value();
  util::write_file_atomic(chan + "/linux-64/broken-1.0-0.tar.bz2",
                          bytes.substr(0, bytes.size() - 100));
  util::write_file_atomic(chan + "/linux-64/junk-1.0-0.conda", "PK\x03\x04 not really");
  auto r3 = build_index(chan);
  EXPECT_EQ(r3.exit_code(), 2);
  ASSERT_EQ(r3.problems.size(), 2u);
  EXPECT_EQ(r3.problems[0].file, "linux-64/broken-1.0-0.tar.bz2");
  EXPECT_NE(r3.problems[0].error.find("truncated"), std::string::npos) << r3.problems[0].error;
  EXPECT_EQ(r3.problems[1].file, "linux-64/junk-1.0-0.conda");
  EXPECT_EQ(r3.conda_packages, 2);
  EXPECT_EQ(util::read_file(chan + "/linux-64/repodata.json"), before);
}

TEST(Index, PipInstallsTheWheelFromTheSimpleIndex) {
  TempDir t("index-pip");
  std::string chan = t.path + "/chan";
  fs::create_directories(chan + "/wheels");
  std::string wheel = ts::testing::build_tiny_wheel(chan + "/wheels");
  auto r = build_index(chan);
  ASSERT_EQ(r.exit_code(), 0);
  EXPECT_EQ(r.wheels, 1);
  auto page = util::read_file(chan + "/simple/tiny-pkg/index.html").value_or("");
  auto d = ts::testing::hashlib_digest(wheel);
  EXPECT_NE(page.find("href=\"../../wheels/tiny_pkg-0.1.0-py3-none-any.whl#sha256=" + d[0] + "\""),
            std::string::npos)
      << page;
  EXPECT_NE(util::read_file(chan + "/simple/index.html").value_or("").find("href=\"tiny-pkg/\""),
            std::string::npos);
  std::string target = t.path + "/target";
  auto pip = ts::testing::py(
      {"-m", "pip", "install", "--no-deps", "--no-cache-dir", "--disable-pip-version-check",
       "--index-url", "file://" + chan + "/simple", "--target", target, "tiny-pkg"},
      "", std::chrono::seconds(180));
  ASSERT_TRUE(pip.ok()) << pip.out << pip.err;
  EXPECT_TRUE(fs::exists(target + "/tinypkg/__init__.py"));
  EXPECT_TRUE(fs::exists(target + "/tiny_pkg-0.1.0.dist-info/METADATA"));
}

TEST(Index, CorruptWheelIsNamedAndMissingDirIsFatal) {
  TempDir t("index-badwheel");
  util::write_file_atomic(t.path + "/torch-1.0-cp38-cp38-linux_x86_64.whl", "not a zip");
  auto r = build_index(t.path);
  EXPECT_EQ(r.exit_code(), 2);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].file, "torch-1.0-cp38-cp38-linux_x86_64.whl");
  EXPECT_NE(r.problems[0].error.find("corrupt wheel"), std::string::npos);
  auto f = build_index(t.path + "/nope");
  EXPECT_EQ(f.exit_code(), 2);
  EXPECT_NE(f.fatal.find("is not a directory"), std::string::npos);
  EXPECT_FALSE(fs::exists(t.path + "/nope"));
}

}  // namespace
}  // namespace ts::package

// `torchsmith repair` end to end: the real binary on wheels made here.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "formats/zip_writer.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using ts::testing::run_torchsmith;

using Dir = ::ts::testkit::TempDir;

TEST(RepairCli, RepairsAWheelAndReportsJson) {
  Dir d;
  {
    std::ofstream(d.path() + "/m.cpp") << "extern \"C\" int m() { return 1; }\n";
  }
  util::RunOptions ro;
  ro.timeout = std::chrono::seconds(120);
  auto cc = util::run({"g++", "-shared", "-fPIC", "-o", d.path() + "/m.so", d.path() + "/m.cpp"}, ro);
  ASSERT_TRUE(cc.ok()) << cc.err;
  const std::string wheel = d.path() + "/mini-0.1-cp311-cp311-linux_x86_64.whl";
  formats::ZipWriter w(wheel);
  w.add_file("mini/_m.so", d.path() + "/m.so");
  w.add("mini-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: mini\nVersion: 0.1\n");
  w.add("mini-0.1.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n");
  ::ts::testkit::add_record(w, "mini-0.1.dist-info");
  ASSERT_TRUE(w.finish()) << w.error();

  auto r = run_torchsmith({"repair", wheel, "-o", d.path() + "/out", "--local-version", "cpu", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], "0.1+cpu");
  const std::string platform = j["platform"];
  EXPECT_EQ(platform.rfind("manylinux_2_", 0), 0u) << platform;
  EXPECT_EQ(j["output"], d.path() + "/out/mini-0.1+cpu-cp311-cp311-" + platform + ".whl");
  const std::string out = j["output"];
  EXPECT_TRUE(fs::exists(out));
  EXPECT_FALSE(j["verdicts"].empty());
}

TEST(RepairCli, BadInputExitsTwoWithTheReason) {
  Dir d;
  auto r = run_torchsmith({"repair", d.path() + "/missing-1.0-py3-none-any.whl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;

  const std::string fake = d.path() + "/fake-1.0-cp311-cp311-linux_x86_64.whl";
  formats::ZipWriter w(fake);
  w.add("fake/_x.so", "not an ELF");
  w.add("fake-1.0.dist-info/WHEEL", "Tag: cp311-cp311-linux_x86_64\n");
  w.add("fake-1.0.dist-info/METADATA", "Name: fake\nVersion: 1.0\n");
  ::ts::testkit::add_record(w, "fake-1.0.dist-info");
  ASSERT_TRUE(w.finish());
  r = run_torchsmith({"repair", fake});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fake/_x.so is named like a shared library but is not an ELF file"),
            std::string::npos) << r.err;

  r = run_torchsmith({"repair", fake, "--plan", d.path() + "/no-lock.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::cli

// `torchsmith conda` through the real binary: an S2 lock file gives seed 001's package name in both
// formats, cph extracts them; bad input (not a wheel, truncated, bad lock, bad format) is exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../package/conda_testkit.h"
#include "cli_util.h"
#include "plan/plan.h"

namespace {

namespace fs = std::filesystem;
using ts::testing::run_torchsmith;
using ts::testing::TempDir;

std::string write_s2_lock(const std::string& dir) {
  ts::plan::Plan p;
  p.torch_version = "1.8.0";
  p.build_version = "1.8.0";
  p.python_version = "3.8.5";
  p.cuda = ts::plan::CudaChoice::from_text("11.0.221");
  p.numpy_version = "1.19.2";
  p.artifacts.push_back({"conda", "pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.bz2", "", ""});
  nlohmann::json j = p;
  std::string path = dir + "/lock.json";
  ts::util::write_file_atomic(path, j.dump(2));
  return path;
}

TEST(CondaCli, S2LockGivesTheOfficialPackagesInBothFormats) {
  TempDir t("cli-conda");
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path);
  std::string lock = write_s2_lock(t.path);
  std::string chan = t.path + "/chan";
  auto r = run_torchsmith({"conda", wheel, "-o", chan, "--plan", lock, "--format", "tar.bz2,conda",
                           "--build-number", "1", "--depends", "magma-cuda110"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::string dist = chan + "/linux-64/pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_1";
  EXPECT_NE(r.out.find("wrote " + dist + ".tar.bz2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + dist + ".conda"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RPATH set on 2 libraries"), std::string::npos) << r.out;
  for (const char* ext : {".tar.bz2", ".conda"}) {
    std::string x = t.path + "/x" + ext;
    auto c = ts::testing::cph_extract(dist + ext, x);
    ASSERT_TRUE(c.ok()) << c.err;
    auto index = nlohmann::json::parse(ts::util::read_file(x + "/info/index.json").value());
    EXPECT_EQ(index["build"], "py3.8_cuda11.0.221_cudnn8.0.5_1");
    EXPECT_EQ(index["build_number"], 1);
    EXPECT_EQ(index["depends"], nlohmann::json({"python 3.8.*", "numpy >=1.19.2",
                                                "typing-extensions", "magma-cuda110"}));
    EXPECT_TRUE(fs::exists(x + "/lib/python3.8/site-packages/torch/lib/libc10.so"));
  }
  // --json for scripts.
  auto j = run_torchsmith({"conda", wheel, "-o", chan, "--plan", lock, "--json", "--no-rpath"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  auto out = nlohmann::json::parse(j.out);
  EXPECT_EQ(out["index"]["name"], "pytorch");
  EXPECT_EQ(out["outputs"].size(), 1u);
}

TEST(CondaCli, BadInputIsExit2) {
  TempDir t("cli-conda-bad");
  std::string junk = t.path + "/torch-1.8.0-cp38-cp38-linux_x86_64.whl";
  ts::util::write_file_atomic(junk, "garbage");
  auto r = run_torchsmith({"conda", junk, "-o", t.path + "/chan"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a wheel"), std::string::npos) << r.err;

  fs::create_directories(t.path + "/src");
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path + "/src", "1.8.1");
  auto bytes = ts::util::read_file(wheel).value();
  std::string cut = t.path + "/torch-1.8.1-cp38-cp38-linux_x86_64.whl";
  ts::util::write_file_atomic(cut, bytes.substr(0, bytes.size() - 40));
  r = run_torchsmith({"conda", cut, "-o", t.path + "/chan"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("truncated or corrupt"), std::string::npos) << r.err;

  ts::util::write_file_atomic(t.path + "/bad.json", "{ not json");
  r = run_torchsmith({"conda", cut, "--plan", t.path + "/bad.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a torchsmith lock file"), std::string::npos) << r.err;

  r = run_torchsmith({"conda", cut, "--format", "zip"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_torchsmith({"conda", t.path + "/README.md"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a wheel file name"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t.path + "/chan/linux-64/pytorch-1.8.1-py3.8_cpu_0.tar.bz2"));
}

}  // namespace

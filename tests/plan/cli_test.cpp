// `torchsmith plan` end to end: exit codes 0/2/3, the lock file, --format sh, --facts and the
// torchsmith.toml path. Runs the binary of the same build tree; skipped when it is not built.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "util/fs.h"
#include "util/process.h"

namespace ts::plan {
namespace {

namespace fs = std::filesystem;

std::string binary() { return std::string(TS_BINARY_DIR) + "/torchsmith"; }
std::string host(const std::string& n) { return std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/" + n; }

util::RunResult plan(std::vector<std::string> args, const std::string& cwd = "") {
  args.insert(args.begin(), {binary(), "plan"});
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  o.cwd = cwd;
  return util::run(args, o);
}

class PlanCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(binary())) GTEST_SKIP() << "torchsmith is not built in " << TS_BINARY_DIR;
    dir_ = fs::temp_directory_path() / ("ts-plan-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(PlanCli, PlanMadeWritesTheLock) {
  auto lock = (dir_ / "torchsmith.lock").string();
  auto r = plan({"torch==2.4.1", "--root", host("s3-rtx5090-cmake4"), "-o", lock});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("torch 2.4.1+cu128.sm120"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(*util::read_file(lock));
  EXPECT_EQ(j["torch_version"], "2.4.1");
  EXPECT_TRUE(j["lock"]["fix_hashes"].contains("torch-select-compute-arch-sm120"));
}

TEST_F(PlanCli, ConflictsExitThreeWithTheirFixes) {
  // --toolkit system: installed tools only, so S5's CMake 3.10 is a conflict, not provisioned.
  auto r = plan({"torch==1.12.1", "--root", host("s5-gtx1660ti-container"), "--toolkit", "system"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("fix: install a newer CMake"), std::string::npos) << r.out;
  auto lock = (dir_ / "none.lock").string();
  plan({"torch==1.12.1", "--root", host("s5-gtx1660ti-container"), "--toolkit", "system", "-o", lock});
  EXPECT_FALSE(fs::exists(lock));  // no plan, no lock
  // By default the plan provisions a CMake in torch 1.12's range (< 4) into the cache instead.
  r = plan({"torch==1.12.1", "--root", host("s5-gtx1660ti-container"), "--explain"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("provision: cmake 3."), std::string::npos) << r.out;
}

TEST_F(PlanCli, BadSpecExitsTwoWithOneLine) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"torch>=2.0"}, {"torch==2.4.1", "--cuda", "twelve"}, {"torch==2.4.1", "--jobs", "-3"},
           {"torch==2.4.1", "--root", host("s3-rtx5090-cmake4"), "--without", "nothing"},
           {"torch==2.4.1", "--facts", "/nonexistent.json"}, {"torch==2.4.1", "--format", "yaml"}}) {
    auto r = plan(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("torchsmith plan: ", 0), 0u) << r.err;
  }
}

TEST_F(PlanCli, FactsFileFromDoctorJson) {
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  auto d = util::run({binary(), "doctor", "--json", "--no-torch-import", "--root", host("s1-rtx4090-cuda118")}, o);
  ASSERT_EQ(d.exit_code, 0) << d.err;
  auto facts = (dir_ / "s1.json").string();
  ASSERT_EQ(util::write_file_atomic(facts, d.out), "");
  auto r = plan({"torch==1.13.0", "--facts", facts, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["plan"]["arch_list"], "8.9");
  EXPECT_EQ(j["plan"]["env"]["BUILD_SPLIT_CUDA"], "1");
}

TEST_F(PlanCli, SpecFileInTheWorkingDirectory) {
  std::ofstream(dir_ / "torchsmith.toml") << "[build]\ntorch = \"2.4.1\"\nmem_budget = \"8G\"\n";
  auto r = plan({"--root", host("s3-rtx5090-cmake4"), "--format", "sh"}, dir_.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("export MAX_JOBS='2'"), std::string::npos) << r.out;
  std::ofstream(dir_ / "torchsmith.toml") << "torch = \"2.4.1\"\nmem_budget = \"a lot\"\n";
  auto bad = plan({"--root", host("s3-rtx5090-cmake4")}, dir_.string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("torchsmith.toml:2: mem_budget:"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace ts::plan

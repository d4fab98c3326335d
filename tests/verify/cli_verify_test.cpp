// torchsmith verify end to end: the real binary on hand-built ELFs with and without GPU code, a lock
// file, and bad input; exit codes 0 / 1 / 2 and the --json shape.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "elf_builder.h"
#include "fatbin_builder.h"
#include "plan/plan.h"
#include "plan/render.h"
#include "verify_test_util.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

class VerifyCli : public ::testing::Test {
 protected:
  void SetUp() override {
    bin_ = std::string(TS_BINARY_DIR) + "/torchsmith";
    if (!fs::exists(bin_)) GTEST_SKIP() << bin_ << " not built";
    // A library with sm_90 SASS and compute_90 PTX, needing nothing.
    test::ElfSpec s;
    s.soname = "libgpu.so";
    s.fatbin = test::fatbin_container({test::fatbin_entry(2, 90, 0x11, "cubin"), test::fatbin_entry(1, 90, 0x8011, "ptx", 16)});
    gpu_ = tmp_ / "pkg/libgpu.so";
    test::write(gpu_, test::ElfBuilder(s).build());
    test::write(tmp_ / "pkg/README.txt", "not an ELF, not named like one: skipped in a directory\n");
  }

  util::RunResult verify(std::vector<std::string> args) {
    args.insert(args.begin(), {bin_, "verify", "--no-color"});
    return test::run(args);
  }

  test::TempDir tmp_;
  std::string bin_, gpu_;
};

TEST_F(VerifyCli, PassesWhenTheArchesAreThere) {
  auto r = verify({gpu_, "--arch", "9.0"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("has 9.0 (sm_90 compute_90)"), std::string::npos) << r.out;
}

TEST_F(VerifyCli, LockFileAskingForAnotherArchFails) {
  plan::Plan p;
  p.arch_list = *ArchList::parse("8.0;9.0");
  test::write(tmp_ / "lock.json", plan::lock_json(p).dump(2));
  auto r = verify({gpu_, "--plan", tmp_ / "lock.json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("missing sm_80"), std::string::npos) << r.out;
}

// The lock's arch list is read once, with the lock: text that is no arch list is bad input (2).
TEST_F(VerifyCli, LockFileWithABadArchListIsBadInput) {
  plan::Plan p;
  auto j = plan::lock_json(p);
  j["arch_list"] = "8.0;sm_9x";
  test::write(tmp_ / "lock.json", j.dump(2));
  auto r = verify({gpu_, "--plan", tmp_ / "lock.json"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("arch_list '8.0;sm_9x'"), std::string::npos) << r.err;
}

TEST_F(VerifyCli, JsonOverADirectory) {
  fs::create_symlink("libgpu.so", tmp_ / "pkg/libgpu.so.1");  // another name of the same file: read once
  auto r = verify({tmp_ / "pkg", "--arch", "8.0", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["ok"].get<bool>());
  ASSERT_EQ(j["files"].size(), 1u);  // README.txt is not an ELF; libgpu.so.1 is libgpu.so
  EXPECT_EQ(j["files"][0]["soname"], "libgpu.so");
  EXPECT_EQ(j["files"][0]["cuda"]["sass"], nlohmann::json::array({"sm_90"}));
  EXPECT_EQ(j["files"][0]["cuda"]["ptx"], nlohmann::json::array({"compute_90"}));
  bool missing = false;
  for (const auto& v : j["verdicts"]) missing |= v["outcome"] == "fail" && v["detail"] == "missing sm_80";
  EXPECT_TRUE(missing) << r.out;
}

TEST_F(VerifyCli, BadFilesFailWithClearErrors) {
  test::write(tmp_ / "libfake.so", "this is not a library\n");
  auto r = verify({tmp_ / "libfake.so"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("not an ELF file"), std::string::npos) << r.out;

  const std::string whole = test::slurp(gpu_);
  test::write(tmp_ / "libcut.so", whole.substr(0, whole.size() / 2));
  r = verify({tmp_ / "libcut.so"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("section header table past end of file"), std::string::npos) << r.out;

  test::ElfSpec s;
  s.fatbin = "garbage in the fatbin section";
  test::write(tmp_ / "libgarbage.so", test::ElfBuilder(s).build());
  r = verify({tmp_ / "libgarbage.so"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(".nv_fatbin: fatbin at 0x0: bad magic"), std::string::npos) << r.out;
}

TEST_F(VerifyCli, MissingNeededFails) {
  test::ElfSpec s;
  s.needed = {"libnowhere-ts-test.so.3"};
  test::write(tmp_ / "libneeds.so", test::ElfBuilder(s).build());
  auto r = verify({tmp_ / "libneeds.so"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("libnowhere-ts-test.so.3 not found (needed by libneeds.so)"), std::string::npos) << r.out;
}

TEST_F(VerifyCli, PreloadedDirectoryAnswersNeeded) {
  test::ElfSpec torch;
  torch.soname = "libtorch-ts-test.so";
  test::write(tmp_ / "torch/lib/libtorch-ts-test.so", test::ElfBuilder(torch).build());
  test::ElfSpec ext;
  ext.needed = {"libtorch-ts-test.so"};
  test::write(tmp_ / "ext/_ext.so", test::ElfBuilder(ext).build());
  EXPECT_EQ(verify({tmp_ / "ext/_ext.so"}).exit_code, 1);
  auto r = verify({tmp_ / "ext/_ext.so", "--preload", tmp_ / "torch/lib"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(verify({tmp_ / "ext/_ext.so", "--preload", tmp_ / "nowhere"}).exit_code, 2);
}

TEST_F(VerifyCli, BadInputExitsTwo) {
  EXPECT_EQ(verify({tmp_ / "no-such-file.so"}).exit_code, 2);
  EXPECT_EQ(verify({gpu_, "--arch", "not-an-arch"}).exit_code, 2);
  test::write(tmp_ / "not-a-lock.json", "{\"hello\": 1}");
  auto r = verify({gpu_, "--plan", tmp_ / "not-a-lock.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a torchsmith lock file"), std::string::npos) << r.err;
  EXPECT_EQ(verify({gpu_, "--plan", tmp_ / "not-a-lock.json", "--arch", "8.0"}).exit_code, 2);
  test::TempDir empty;
  EXPECT_EQ(verify({empty.path()}).exit_code, 2);
}

}  // namespace
}  // namespace ts::verify

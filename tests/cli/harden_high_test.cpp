// Issue 32's three high findings through the real binary, each re-tried with new inputs of its
// class: names are bytes (the source copy's record), a lock is data (its steps and environment).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/canary.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using ts::testing::run_torchsmith;
using Dir = ::ts::testkit::TempDir;
using Canary = ::ts::testkit::Canary;

std::string write_lock(const std::string& path, const std::string& source_dir, const nlohmann::json& steps,
                       const std::map<std::string, std::string>& env = {}) {
  nlohmann::json j = {{"schema", "torchsmith-plan/1"}, {"spec", nlohmann::json::object()}, {"import_name", "x"},
                      {"env", env}, {"steps", steps}, {"source", {{"dir", source_dir}}}};
  util::write_file_atomic(path, j.dump(2));
  return path;
}

// Finding 1: a source file named "x\n0\t0\t.." became the record entry ".." (OUT/src/.. = OUT); the
// second build deleted OUT, and with --out PARENT the source in it. Now: refused, the name escaped.
TEST(HardenHigh, ASourceFileNameNeverDeletesTheOutputsParent) {
  for (const std::string name : {"x\n0\t0\t..", "y\r\n0\t0\t..", "z\x1b]0;t\x07", "w\x7f"}) {
    Dir d;
    const std::string parent = d / "parent", src = parent + "/ext";
    Canary canary(parent + "/canary");
    fs::create_directories(src);
    std::ofstream(src + "/setup.py") << "setup()\n";
    std::ofstream(src + "/" + name) << "x\n";
    write_lock(d / "lock.json", src, nlohmann::json::array({{{"name", "build"}, {"argv", {"/bin/true"}}, {"cwd", "{src}"}}}));
    for (int run = 0; run < 2; ++run) {
      auto r = run_torchsmith({"build", "--trust-lock", "--lock", d / "lock.json", "--out", parent + "/out",
                               "--compile-cache", "none", "--no-governor"});
      EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
      EXPECT_NE(r.err.find("will not copy"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
    }
    EXPECT_TRUE(canary.unchanged());
    EXPECT_TRUE(fs::exists(parent + "/out/.torchsmith-out"));  // OUT itself is still there
    EXPECT_EQ(util::read_file(src + "/setup.py").value_or(""), "setup()\n");
  }
}

// Finding 2: a lock whose step became `sh -c ...` and whose env gained LD_PRELOAD ran both.
TEST(HardenHigh, ALockRunsOnlyWhatAPlanMakes) {
  Dir d;
  const std::string marker = d / "ran";
  fs::create_directories(d / "ext");
  auto lock = write_lock(d / "lock.json", d / "ext",
                         nlohmann::json::array({{{"name", "build"}, {"argv", {"sh", "-c", "touch " + marker}}, {"cwd", "{src}"}}}),
                         {{"LD_PRELOAD", d / "evil.so"}});
  auto r = run_torchsmith({"build", "--lock", lock, "--out", d / "out", "--compile-cache", "none", "--no-governor"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_NE(r.err.find("runs sh"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("LD_PRELOAD"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--trust-lock"), std::string::npos) << r.err;  // the way out is named
  EXPECT_FALSE(fs::exists(d / "out"));                                  // refused before anything ran

  // Re-tried with fields the attack did not change: a loader key on its own, a fetch step.
  for (auto [steps, env] : std::vector<std::pair<nlohmann::json, std::map<std::string, std::string>>>{
           {nlohmann::json::array(), {{"PYTHONSTARTUP", d / "x.py"}}},
           {nlohmann::json::array(), {{"BASH_ENV", d / "x.sh"}}},
           {nlohmann::json::array({{{"name", "fetch"}, {"argv", {"git", "clone", "--upload-pack=touch " + marker, "x", "{src}"}}}}), {}},
           {nlohmann::json::array({{{"name", "build"}, {"argv", {"cmake", "-E", "touch", marker}}, {"cwd", "{src}"}}}), {}}}) {
    write_lock(d / "lock2.json", d / "ext", steps, env);
    r = run_torchsmith({"build", "--lock", d / "lock2.json", "--out", d / "out2", "--compile-cache", "none"});
    EXPECT_EQ(r.exit_code, 2) << steps.dump() << r.err;
    EXPECT_FALSE(fs::exists(marker));
  }
}

// A lock `plan -o` wrote and someone edited afterwards is named as such.
TEST(HardenHigh, ALockEditedAfterWritingIsNamed) {
  Dir d;
  auto r = run_torchsmith({"plan", "torch==2.4.1", "--python", "/usr/bin/python3", "--without", "cuda", "-o", d / "lock.json"});
  if (r.exit_code != 0) GTEST_SKIP() << "no plan for torch 2.4.1 on this machine: " << r.out;
  auto lock = nlohmann::json::parse(util::read_file(d / "lock.json").value_or("{}"));
  ASSERT_TRUE(lock.contains("digest"));
  lock["env"]["USE_CUDA"] = "1";
  ASSERT_EQ(util::write_file_atomic(d / "lock.json", lock.dump(2)), "");
  r = run_torchsmith({"build", "--lock", d / "lock.json", "--out", d / "out", "--compile-cache", "none"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("changed after torchsmith wrote it"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::cli

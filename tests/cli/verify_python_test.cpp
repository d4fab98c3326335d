// torchsmith verify --python end to end: the real binary against Debian's torch, a lock file asking
// CUDA, a hanging fake Python, bad usage; exit codes 0 / 1 / 2, the table and the --json shape.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "plan/plan.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;
using testing::run_torchsmith;

class VerifyPython : public ::testing::Test {
 protected:
  void SetUp() override {
    if (util::run({"/usr/bin/python3", "-c", "import torch"}, {std::chrono::seconds(60)}).exit_code != 0)
      GTEST_SKIP() << "no python3-torch";
  }

  std::string lock(const plan::Plan& p) {
    std::string path = dir_ + "/lock.json";
    util::write_file_atomic(path, nlohmann::json(p).dump(2));
    return path;
  }
  static plan::Plan cpu_plan() {
    plan::Plan p;
    p.torch_version = "1.13";
    p.features = {{"cuda", false}, {"cudnn", false}};
    p.cmake_options = {{"USE_CUDA", "OFF"}, {"USE_CUDNN", "OFF"}};
    return p;
  }
  ::ts::testkit::TempDir tmp_{"ts-verify-py"};
  std::string dir_ = tmp_.path();
};

TEST_F(VerifyPython, DebianTorchAgainstACpuPlanPasses) {
  auto r = run_torchsmith({"verify", "--python", "/usr/bin/python3", "--plan", lock(cpu_plan())});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok    import torch     torch 1.13"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok    cuda             CPU build, as planned"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skip  gpu              not asked for"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", 0 failed, 1 skipped"), std::string::npos) << r.out;
}

TEST_F(VerifyPython, CudaPlanFailsWithAClearLine) {
  plan::Plan p = cpu_plan();
  p.cuda = plan::CudaChoice::from_text("12.8.93");
  auto r = run_torchsmith({"verify", "--python", "/usr/bin/python3", "--plan", lock(p), "--gpu"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  cuda             plan says CUDA 12.8, torch reports none"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("FAIL  gpu devices      no GPU visible"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skip  gpu matmul       no GPU"), std::string::npos) << r.out;
}

TEST_F(VerifyPython, JsonShape) {
  auto r = run_torchsmith({"verify", "--python", "/usr/bin/python3", "--gpu", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["python"]["interpreter"], "/usr/bin/python3");
  EXPECT_TRUE(j["python"]["steps"]["import torch"]["ok"].get<bool>());
  EXPECT_TRUE(j["python"]["steps"]["torch facts"]["value"]["config"].is_string());
  bool skip = false;
  for (const auto& v : j["verdicts"]) skip |= v["check"] == "gpu devices" && v["outcome"] == "skip";
  EXPECT_TRUE(skip) << r.out;
}

TEST_F(VerifyPython, HangingPythonIsAFailVerdict) {
  std::string hang =
      std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/bad-python/usr/bin/python3";
  auto r = run_torchsmith({"verify", "--python", hang, "--timeout", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL  python           timed out after 1 s"), std::string::npos) << r.out;
}

// verify reads the KB for the torch under test's NumPy range: a runtime dependency whose newest
// release wants NumPy 2 (as opencv does) comes at an older release, and NumPy 2 is not installed.
TEST_F(VerifyPython, RuntimeDependenciesKeepTheTorchsNumpyRange) {
  if (util::run({"/usr/bin/python3", "-m", "pip", "--version"}).exit_code != 0) GTEST_SKIP() << "no pip";
  fs::create_directories(dir_ + "/wh");
  auto wheel = [&](const std::string& dir, const std::string& name, const std::string& version, const std::string& req) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(60);
    auto r = util::run({"/usr/bin/python3", "-c",
                        "import base64, hashlib, sys, zipfile\n"
                        "d, n, v, req = sys.argv[1:5]\n"
                        "di = '%s-%s.dist-info/' % (n, v)\n"
                        "meta = 'Metadata-Version: 2.1\\nName: %s\\nVersion: %s\\n' % (n, v) + ('Requires-Dist: %s\\n' % req if req else '')\n"
                        "files = {n + '/__init__.py': b'', di + 'METADATA': meta.encode(),\n"
                        "         di + 'WHEEL': b'Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}\n"
                        "rec = ''.join('%s,sha256=%s,%d\\n' % (f, base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode(), len(b)) for f, b in files.items())\n"
                        "with zipfile.ZipFile('%s/%s-%s-py3-none-any.whl' % (d, n, v), 'w') as z:\n"
                        "    for f, b in files.items(): z.writestr(f, b)\n"
                        "    z.writestr(di + 'RECORD', rec + di + 'RECORD,,\\n')\n",
                        dir, name, version, req},
                       o);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  };
  wheel(dir_ + "/wh", "numpy", "2.0", "");  // a stand-in NumPy 2
  wheel(dir_ + "/wh", "tscv", "2.0", "numpy>=2");
  wheel(dir_ + "/wh", "tscv", "1.0", "numpy>=1");
  wheel(dir_, "tspkg", "0.1", "tscv");
  plan::Plan p = cpu_plan();
  p.import_name = "tspkg";
  auto r = run_torchsmith({"verify", dir_ + "/tspkg-0.1-py3-none-any.whl", "--python", "/usr/bin/python3", "--plan",
                           lock(p), "--wheelhouse", dir_ + "/wh"},
                          std::chrono::seconds(280));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("note  dependency constraints numpy>=1,<2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok    dependency tscv  tscv: installed 1.0 from " + dir_ + "/wh"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok    import tspkg"), std::string::npos) << r.out;
}

TEST_F(VerifyPython, BadUsageIsExit2) {
  auto r = run_torchsmith({"verify"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing to verify"), std::string::npos) << r.err;
  r = run_torchsmith({"verify", "--python", "/no/such/python"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such executable"), std::string::npos) << r.err;
  r = run_torchsmith({"verify", "--python", "/usr/bin/python3", dir_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("(*.whl)"), std::string::npos) << r.err;
  r = run_torchsmith({"verify", dir_, "--gpu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--gpu runs torch"), std::string::npos) << r.err;
  util::write_file_atomic(dir_ + "/bad.json", "{not json");
  r = run_torchsmith({"verify", "--python", "/usr/bin/python3", "--plan", dir_ + "/bad.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a torchsmith lock file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts

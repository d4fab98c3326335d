// Issue 32: `verify --python` installed and imported a wheel whose RECORD check failed. The shared
// wheel check now runs first: a wheel another command refuses is never installed or imported.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testkit/hostile_wheels.h"
#include "testkit/temp_dir.h"
#include "verify/python_check.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

TEST(RecordGate, AWheelWhoseRecordLiesIsNeverInstalledOrImported) {
  testkit::TempDir t;
  const std::string canary = t / "imported";
  // Its __init__ leaves a file when imported; RECORD hashes other bytes than the ones it holds.
  const std::string init = "open(" + std::string("'") + canary + "', 'w').write('imported')\n";
  const std::string wheel = t / "tinypkg-0.1-py3-none-any.whl";
  std::ofstream(wheel, std::ios::binary) << testkit::craft_wheel(
      "tinypkg-0.1.dist-info", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
      {{"tinypkg/__init__.py", init}}, "tinypkg/__init__.py");
  PythonCheckOptions o;
  o.python = "/usr/bin/python3";
  o.wheel = wheel;
  plan::Plan p;
  p.import_name = "tinypkg";
  o.plan = p;
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  std::string all;
  for (const auto& v : r.verdicts) all += v.check + ": " + v.detail + "\n";
  ASSERT_EQ(r.verdicts.size(), 1u) << all;
  EXPECT_EQ(r.verdicts[0].check, "install");
  EXPECT_EQ(r.verdicts[0].outcome, Outcome::fail);
  EXPECT_NE(r.verdicts[0].detail.find("does not match"), std::string::npos) << all;
  EXPECT_FALSE(fs::exists(canary));
  EXPECT_FALSE(fs::exists(t / "work/install"));
}

// The rest of the class's hostile wheels: each stops verify --python the same way.
TEST(RecordGate, EveryHostileWheelStopsItBeforeInstalling) {
  for (const auto& h : testkit::hostile_wheels()) {
    SCOPED_TRACE(h.what);
    testkit::TempDir t;
    std::ofstream(t / h.file_name, std::ios::binary) << h.bytes;
    PythonCheckOptions o;
    o.python = "/usr/bin/python3";
    o.wheel = t / h.file_name;
    o.work_dir = t / "work";
    auto r = verify_python_install(o);
    ASSERT_EQ(r.verdicts.size(), 1u);
    EXPECT_EQ(r.verdicts[0].outcome, Outcome::fail);
    EXPECT_NE(r.verdicts[0].detail.find("not installed"), std::string::npos) << r.verdicts[0].detail;
    EXPECT_FALSE(fs::exists(t / "work/install"));
  }
}

}  // namespace
}  // namespace ts::verify

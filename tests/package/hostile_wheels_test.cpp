// Issue 32, class 5: every command that reads a wheel (repair, conda, verify, index) refuses the
// same hostile wheels, so no two of them disagree on one; what they print holds no raw control
// character; nothing is written outside the output directory (the Tag that named "../../x").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "package/conda_package.h"
#include "package/index.h"
#include "package/repair.h"
#include "testkit/hostile_wheels.h"
#include "testkit/temp_dir.h"
#include "verify/verify.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;

bool has_control(const std::string& s) {
  for (char c : s)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) return true;
  return false;
}

TEST(HostileWheels, EveryReaderRefusesEachOne) {
  for (const auto& h : testkit::hostile_wheels()) {
    SCOPED_TRACE(h.what);
    testkit::TempDir t;
    fs::create_directories(t / "in/deep/er");
    const std::string wheel = t / ("in/deep/er/" + h.file_name);
    std::ofstream(wheel, std::ios::binary) << h.bytes;

    RepairOptions ro;
    ro.wheel = wheel;
    ro.out_dir = t / "in/deep/er/repaired";
    ro.patchelf = "none";
    auto rep = repair_wheel(ro);
    EXPECT_EQ(rep.exit_code, 2) << rep.error;
    EXPECT_FALSE(has_control(rep.error)) << rep.error;

    CondaOptions co;
    co.out_dir = t / "in/deep/er/chan";
    co.python = "3.11";
    co.timestamp = 1700000000;
    auto conda = make_conda_packages(wheel, co);
    EXPECT_EQ(conda.exit_code, 2) << conda.error;
    EXPECT_TRUE(conda.outputs.empty());
    EXPECT_FALSE(has_control(conda.error)) << conda.error;

    auto ver = verify::verify_files({wheel}, {});
    bool refused = false;
    for (const auto& v : ver.verdicts) {
      if (v.check == "wheel" && v.outcome == verify::Outcome::fail) refused = true;
      EXPECT_FALSE(has_control(v.detail)) << v.detail;
    }
    EXPECT_TRUE(refused);

    auto idx = build_index(t / "in/deep/er");
    ASSERT_EQ(idx.problems.size(), 1u) << idx.fatal;
    EXPECT_EQ(idx.wheels, 0);
    EXPECT_FALSE(has_control(idx.problems[0].error)) << idx.problems[0].error;

    // Nothing landed beside the input's directory ("../../x" from the Tag) and no staging is left.
    std::error_code ec;
    for (fs::recursive_directory_iterator it(t.path(), ec), end; !ec && it != end; it.increment(ec)) {
      const std::string rel = fs::relative(it->path(), t.path(), ec).string();
      EXPECT_TRUE(rel == "in" || rel == "in/deep" || rel.rfind("in/deep/er", 0) == 0) << rel;
      for (const char* staging : {".ts-repair-", ".torchsmith-conda-", ".tmp-"})
        EXPECT_EQ(rel.find(staging), std::string::npos) << rel;
    }
  }
}

}  // namespace
}  // namespace ts::package

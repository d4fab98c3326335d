// A wheel with no compiled extension (a pure-Python package built through the extension path):
// the package step says so as information and passes the wheel on unchanged; only a plan that
// compiles CUDA code makes it a failure, with that reason.
#include <gtest/gtest.h>

#include <filesystem>

#include "formats/zip_writer.h"
#include "package/repair.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"
#include "util/fs.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;

std::string pure_wheel(const std::string& dir) {
  const std::string wheel = dir + "/pure_pkg-0.1-py3-none-any.whl";
  formats::ZipWriter w(wheel);
  w.add("pure_pkg/__init__.py", "x = 1\n");
  w.add("pure_pkg-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: pure-pkg\nVersion: 0.1\n");
  w.add("pure_pkg-0.1.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: py3-none-any\n");
  EXPECT_TRUE(testkit::add_record(w, "pure_pkg-0.1.dist-info"));
  EXPECT_TRUE(w.finish()) << w.error();
  return wheel;
}

const verify::Verdict* check(const RepairResult& r, const std::string& name) {
  for (const auto& v : r.verdicts)
    if (v.check == name) return &v;
  return nullptr;
}

TEST(RepairPure, ACpuPlansPurePythonWheelIsCopiedUnchangedWithANote) {
  testkit::TempDir dir{"ts-repair-pure"};
  RepairOptions o;
  o.wheel = pure_wheel(dir.path());
  o.out_dir = dir / "dist";
  plan::Plan cpu;  // an extension plan without CUDA
  o.plan = &cpu;
  RepairResult r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_TRUE(r.unchanged);
  EXPECT_EQ(r.output, dir / "dist/pure_pkg-0.1-py3-none-any.whl");
  EXPECT_EQ(util::read_file(r.output), util::read_file(o.wheel));
  const verify::Verdict* v = check(r, "extension");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->outcome, verify::Outcome::note);
  EXPECT_NE(v->detail.find("no compiled extension"), std::string::npos) << v->detail;
  for (const auto& x : r.verdicts) EXPECT_NE(x.outcome, verify::Outcome::fail) << x.check << ": " << x.detail;
}

TEST(RepairPure, ACudaPlansWheelWithoutAnExtensionFailsSayingWhy) {
  testkit::TempDir dir{"ts-repair-pure"};
  RepairOptions o;
  o.wheel = pure_wheel(dir.path());
  o.out_dir = dir / "dist";
  plan::Plan cuda;
  cuda.cuda = plan::CudaChoice::from_text("12.8.93");
  cuda.arch_list = *ArchList::parse("8.9");
  o.plan = &cuda;
  RepairResult r = repair_wheel(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "");
  EXPECT_FALSE(fs::exists(dir / "dist/pure_pkg-0.1-py3-none-any.whl"));
  const verify::Verdict* v = check(r, "extension");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->outcome, verify::Outcome::fail);
  EXPECT_NE(v->detail.find("the plan builds CUDA code (CUDA 12.8.93, arches 8.9)"), std::string::npos) << v->detail;
}

}  // namespace
}  // namespace ts::package

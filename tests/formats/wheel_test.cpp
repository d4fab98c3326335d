// The one wheel check (repair, verify and conda all call it): what each of them used to let through.
#include "formats/wheel.h"

#include <gtest/gtest.h>

#include "testkit/zip_craft.h"

namespace ts::formats {
namespace {

using testkit::ZipCraft;

std::string check(const std::string& bytes) {
  std::string err;
  auto zip = ZipArchive::open({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, &err);
  if (!zip) return err;
  auto w = check_wheel(*zip, &err);
  return w ? "ok " + w->dist_info + " " + w->name + " " + w->version : err;
}

const std::string kElf = std::string("\x7f" "ELF", 4) + std::string(60, '\0');

TEST(WheelCheck, AcceptsAWheelWhoseRecordIsTrue) {
  ZipCraft z;
  testkit::add_wheel(z, "pkg-1.0.dist-info", {{"pkg/__init__.py", ""}, {"pkg/_x.so", kElf}});
  EXPECT_EQ(check(z.finish()), "ok pkg-1.0.dist-info pkg 1.0");
}

TEST(WheelCheck, RefusesNoRecordOrALyingOne) {
  {
    ZipCraft z;
    z.add("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n");
    z.add("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
    EXPECT_EQ(check(z.finish()), "pkg-1.0.dist-info/RECORD is missing");
  }
  {  // a member listed without its hash
    ZipCraft z;
    std::string rec = testkit::record_line("pkg/a.py", "original");
    z.add("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n");
    z.add("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
    z.add("pkg/a.py", "changed!");
    z.add("pkg-1.0.dist-info/RECORD", rec + "pkg-1.0.dist-info/METADATA,,\npkg-1.0.dist-info/WHEEL,,\n");
    EXPECT_NE(check(z.finish()).find("gives no hash for 'pkg-1.0.dist-info/METADATA'"), std::string::npos);
  }
  {
    ZipCraft z;
    testkit::add_wheel(z, "pkg-1.0.dist-info", {{"pkg/a.py", "original"}});
    z.add("pkg/b.py", "smuggled in");
    EXPECT_NE(check(z.finish()).find("does not list 'pkg/b.py'"), std::string::npos);
  }
  {  // a hash that does not match the bytes
    ZipCraft z;
    const std::string line = testkit::record_line("pkg/a.py", "original");
    z.add("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n");
    z.add("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
    z.add("pkg/a.py", "changed!");
    z.add("pkg-1.0.dist-info/RECORD",
          testkit::record_line("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n") +
              testkit::record_line("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n") + line);
    EXPECT_NE(check(z.finish()).find("sha256 of 'pkg/a.py' does not match"), std::string::npos);
  }
}

TEST(WheelCheck, RefusesTwoDistInfosNoVersionAndANonElfLibrary) {
  {
    ZipCraft z;
    testkit::add_wheel(z, "pkg-1.0.dist-info", {{"other-2.0.dist-info/METADATA", "Name: other\nVersion: 2\n"}});
    EXPECT_NE(check(z.finish()).find("more than one .dist-info"), std::string::npos);
  }
  {
    ZipCraft z;
    z.add("pkg-1.0.dist-info/METADATA", "Name: pkg\n");
    z.add("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
    z.add("pkg-1.0.dist-info/RECORD", "");
    EXPECT_EQ(check(z.finish()), "pkg-1.0.dist-info/METADATA has no Version: line");
  }
  {
    ZipCraft z;
    testkit::add_wheel(z, "pkg-1.0.dist-info", {{"pkg/_x.so", "INPUT(-lc)\n"}});
    EXPECT_NE(check(z.finish()).find("pkg/_x.so is named like a shared library but is not an ELF"), std::string::npos);
  }
}

}  // namespace
}  // namespace ts::formats

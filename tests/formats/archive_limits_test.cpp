// Issue 32, class 5 at the reader: the limits a 3,000 x (1 MiB - 1) wheel passed, member lookup by
// hash (200k members took 93 s), the shared wheel check's new refusals, and names printed escaped.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <cstdio>

#include "formats/mapped_file.h"
#include "formats/wheel.h"
#include "formats/zip.h"
#include "formats/zip_writer.h"
#include "testkit/hostile_wheels.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"

namespace ts::formats {
namespace {

using testkit::ZipCraft;

std::optional<ZipArchive> open(const std::string& bytes, std::string& err) {
  return ZipArchive::open({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, &err);
}

bool has_control(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

TEST(ArchiveLimits, ManyMembersJustUnderTheRatioFloorAreOneBomb) {
  const std::string bytes = testkit::many_small_bombs("pkg-1.0.dist-info", 3000, (1u << 20) - 1);
  EXPECT_LT(bytes.size(), 4u << 20);
  std::string err;
  EXPECT_FALSE(open(bytes, err));
  EXPECT_NE(err.find("compression ratio over 200:1"), std::string::npos) << err;
  // A few such members in a normal archive stay readable: the whole archive's ratio decides.
  ZipCraft z;
  std::string text;
  for (int i = 0; text.size() < (3u << 20); ++i) text += "line " + std::to_string(i * 7919 % 100003) + " of a source file\n";
  z.add("big.txt", text);
  z.add("zeros.bin", std::string((1u << 20) - 1, '\0'));
  ASSERT_TRUE(open(z.finish(), err)) << err;
}

// A wheel of n empty members with a true RECORD; open + check_wheel in CPU seconds (wall time on
// a shared machine says little).
double check_seconds(const testkit::TempDir& t, int n) {
  const std::string path = t / ("many-1.0-py3-none-any.whl");
  std::filesystem::remove(path);
  {
    ZipWriter w(path);
    for (int i = 0; i < n; ++i) EXPECT_TRUE(w.add("many/m" + std::to_string(i) + ".py", "", false));
    EXPECT_TRUE(w.add("many-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: many\nVersion: 1.0\n"));
    EXPECT_TRUE(w.add("many-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: py3-none-any\n"));
    EXPECT_TRUE(testkit::add_record(w, "many-1.0.dist-info"));
    EXPECT_TRUE(w.finish()) << w.error();
  }
  const std::clock_t start = std::clock();
  MappedFile f(path);
  EXPECT_TRUE(f.ok());
  std::string err;
  auto zip = ZipArchive::open(f.bytes(), &err);
  EXPECT_TRUE(zip) << err;
  if (zip) {
    EXPECT_TRUE(check_wheel(*zip, &err, path)) << err;
    EXPECT_EQ(zip->find("many/m" + std::to_string(n - 1) + ".py"), &zip->members()[n - 1]);
    EXPECT_EQ(zip->find("many/m" + std::to_string(n) + ".py"), nullptr);
  }
  return double(std::clock() - start) / CLOCKS_PER_SEC;
}

// RECORD's 200k lines each looked their member up by a scan of 200k members (93 s on the attack
// run's machine): four times the members now cost about four times as much, not sixteen.
TEST(ArchiveLimits, MemberLookupIsByHash) {
  testkit::TempDir t;
  const double quarter = check_seconds(t, 50'000), full = check_seconds(t, 200'000);
  std::printf("wheel of 50,000 members: open + check_wheel %.2f CPU s; of 200,000: %.2f CPU s\n", quarter, full);
  EXPECT_LT(full, 8 * quarter + 1.0);
}

TEST(ArchiveLimits, TheSharedWheelCheckRefusesWhatOneReaderUsedTo) {
  for (const auto& h : testkit::hostile_wheels()) {
    SCOPED_TRACE(h.what);
    std::string err;
    auto zip = open(h.bytes, err);
    if (zip) {
      EXPECT_FALSE(check_wheel(*zip, &err, h.file_name));
    }
    EXPECT_FALSE(err.empty());
    EXPECT_FALSE(has_control(err)) << err;
  }
}

TEST(ArchiveLimits, NamesArePrintedEscaped) {
  ZipCraft z;
  z.add("../\x1b]0;pwned\x07", "x");
  std::string err;
  EXPECT_FALSE(open(z.finish(), err));
  EXPECT_NE(err.find("\\x1b]0;pwned\\x07"), std::string::npos) << err;
  EXPECT_FALSE(has_control(err)) << err;
}

}  // namespace
}  // namespace ts::formats

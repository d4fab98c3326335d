// The zip reader's defences, each against an archive crafted here: limits on entries, sizes and
// ratio, overlapping members, local headers that lie, duplicate names, over-long names, bad CRCs.
#include "formats/zip.h"
#include "formats/zip_writer.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "testkit/temp_dir.h"
#include "util/process.h"
#include "testkit/zip_craft.h"

namespace ts::formats {
namespace {

using testkit::ZipCraft;

std::optional<ZipArchive> open(const std::string& bytes, std::string& err, const ZipLimits& lim = {}) {
  return ZipArchive::open({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, &err, lim);
}

TEST(ZipReader, ReadsWhatItIsGiven) {
  ZipCraft z;
  z.add("a/b.txt", "hello hello hello");
  z.add("c", "stored", false);
  const std::string bytes = z.finish();
  std::string err, out;
  auto zip = open(bytes, err);
  ASSERT_TRUE(zip) << err;
  ASSERT_EQ(zip->members().size(), 2u);
  EXPECT_EQ(zip->read(zip->members()[0], out, 1 << 20), "");
  EXPECT_EQ(out, "hello hello hello");
  EXPECT_EQ(zip->total_size(), 17u + 6u);
}

// One deflate stream named by many central entries: the 264 KB file that became 5 GiB.
TEST(ZipReader, RefusesMembersThatShareBytes) {
  ZipCraft z;
  std::string noise(1 << 20, '\0');
  std::uint32_t x = 1;
  for (auto& c : noise) c = static_cast<char>((x = x * 1664525u + 1013904223u) >> 24);
  auto e = z.add("bomb/0", noise);
  for (int i = 1; i < 20; ++i) {
    auto c = e;
    c.name = "bomb/" + std::to_string(i);
    z.central(c);
  }
  std::string err;
  EXPECT_FALSE(open(z.finish(), err));
  EXPECT_NE(err.find("crafted"), std::string::npos) << err;
}

// Two honest local headers, but the first member's data runs over the second's header.
TEST(ZipReader, RefusesOverlappingMemberData) {
  ZipCraft z;
  const std::string b = "second";
  const std::uint64_t span = 30 + 1 + b.size();  // a's "data": b's local header and content
  auto a = z.local({"a", 0, 0, span, span}, "");
  auto second = z.local({"b", 0, ZipCraft::crc(b), b.size(), b.size()}, b);
  z.central(a);
  z.central(second);
  std::string err;
  EXPECT_FALSE(open(z.finish(), err));
  EXPECT_NE(err.find("overlap"), std::string::npos) << err;
}

TEST(ZipReader, RefusesALocalHeaderThatDisagrees) {
  ZipCraft z;
  auto e = z.add("x", "content");
  z.entries().back().crc ^= 1;  // the central directory says another CRC
  std::string err;
  EXPECT_FALSE(open(z.finish(), err));
  EXPECT_NE(err.find("local header disagrees"), std::string::npos) << err;
}

TEST(ZipReader, RefusesDuplicateNames) {
  ZipCraft z;
  z.add("same", "one");
  z.add("same", "two");
  std::string err;
  EXPECT_FALSE(open(z.finish(), err));
  EXPECT_NE(err.find("appears twice"), std::string::npos) << err;
}

TEST(ZipReader, RefusesANamePartLongerThanAFileSystemHolds) {
  ZipCraft z;
  z.add("pkg/" + std::string(300, 'n') + ".py", "x");
  std::string err;
  EXPECT_FALSE(open(z.finish(), err));
  EXPECT_NE(err.find("file systems hold at most 255"), std::string::npos) << err;
}

TEST(ZipReader, LimitsEntriesSizesAndRatio) {
  ZipCraft z;
  z.add("a", std::string(3000, 'a'), false);
  z.add("b", std::string(3000, 'b'), false);
  const std::string bytes = z.finish();
  std::string err;
  ZipLimits lim;
  lim.max_entries = 1;
  EXPECT_FALSE(open(bytes, err, lim));
  EXPECT_NE(err.find("over the limit of 1"), std::string::npos) << err;
  lim = {};
  lim.max_member_size = 2000;
  EXPECT_FALSE(open(bytes, err, lim));
  EXPECT_NE(err.find("a: "), std::string::npos) << err;
  lim = {};
  lim.max_total_size = 5000;
  EXPECT_FALSE(open(bytes, err, lim));
  EXPECT_NE(err.find("total"), std::string::npos) << err;
  EXPECT_TRUE(open(bytes, err)) << err;

  ZipCraft bomb;  // 64 MiB of zeros deflate to ~64 KB: ratio ~1000:1
  bomb.add("zeros", std::string(64u << 20, '\0'));
  EXPECT_FALSE(open(bomb.finish(), err));
  EXPECT_NE(err.find("ratio"), std::string::npos) << err;
}

TEST(ZipReader, ExtractChecksTheCrcAndRemovesAFailedFile) {
  ZipCraft z;
  auto e = z.local({"x", 0, ZipCraft::crc("right") ^ 1, 5, 5}, "right");
  z.central(e);
  const std::string bytes = z.finish();
  std::string err;
  auto zip = open(bytes, err);
  ASSERT_TRUE(zip) << err;
  testkit::TempDir d;
  EXPECT_NE(zip->extract(zip->members()[0], d.path() + "/x").find("CRC mismatch"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(d.path() + "/x"));
}

TEST(ZipReader, WriteErrorsNameErrnoAndSpaceHasItsOwnMessage) {
  EXPECT_EQ(write_error("/o/x", ENOSPC).rfind("no space left on the device holding /o/x", 0), 0u);
  EXPECT_EQ(write_error("/o/x", EACCES), std::string("cannot write /o/x: ") + std::strerror(EACCES));
  // A real full file system: a 64 KiB tmpfs (needs root; skipped where mount is not permitted).
  testkit::TempDir d;
  const std::string mnt = d.path() + "/small";
  std::filesystem::create_directory(mnt);
  auto m = util::run({"mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt});
  if (!m.ok()) GTEST_SKIP() << "cannot mount a small tmpfs here (not root?): " << m.err;
  std::string noise(256 << 10, '\0');
  std::uint32_t x = 7;
  for (auto& c : noise) c = static_cast<char>((x = x * 1664525u + 1013904223u) >> 24);
  ZipCraft z;
  z.add("big", noise, false);
  const std::string bytes = z.finish();
  std::string err;
  auto zip = open(bytes, err);
  std::string e = zip ? zip->extract(zip->members()[0], mnt + "/big") : err;
  const bool left = std::filesystem::exists(mnt + "/big");
  // The writer on the same full disk: the reason, not "write failed", and no temp file left.
  std::string werr;
  {
    ZipWriter w(mnt + "/out.whl");
    if (w.add("big", noise, false) && w.finish()) werr = "(written)";
    else werr = w.error();
  }
  const bool any_left = !std::filesystem::is_empty(mnt);
  util::run({"umount", mnt});
  EXPECT_NE(werr.find("no space left on the device holding " + mnt + "/out.whl"), std::string::npos) << werr;
  EXPECT_FALSE(any_left);
  EXPECT_EQ(e.rfind("no space left on the device holding " + mnt + "/big", 0), 0u) << e;
  EXPECT_FALSE(left);
}

}  // namespace
}  // namespace ts::formats

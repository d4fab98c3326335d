// Crafted archives against repair, verify and conda: all three refuse the same wheels, for the
// same reason, without writing the bytes a zip bomb promises or leaving their work directories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_util.h"
#include "testkit/temp_dir.h"
#include "testkit/zip_craft.h"

namespace ts::testing {
namespace {

namespace fs = std::filesystem;
using testkit::ZipCraft;

std::uint64_t bytes_under(const std::string& dir) {
  std::uint64_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) n += it->file_size(ec);
  return n;
}

void write(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

struct Outcome {
  int repair, verify, conda;
  std::string repair_err, verify_out, conda_err;
};

// The three commands on one wheel, each writing under its own directory of `d`.
Outcome run_all(const testkit::TempDir& d, const std::string& wheel) {
  Outcome o;
  auto r = run_torchsmith({"repair", wheel, "-o", d.path() + "/repaired"});
  o.repair = r.exit_code;
  o.repair_err = r.err;
  auto v = run_torchsmith({"verify", wheel});
  o.verify = v.exit_code;
  o.verify_out = v.out + v.err;
  auto c = run_torchsmith({"conda", wheel, "-o", d.path() + "/chan", "--python", "3.11"});
  o.conda = c.exit_code;
  o.conda_err = c.err;
  return o;
}

// One 2 MiB member named 40 times: 80 MiB from a 2 MiB file (the was 264 KB -> 5 GiB).
TEST(ArchiveCli, ASharedBytesBombIsRefusedByAllThree) {
  testkit::TempDir d;
  std::string noise(2 << 20, '\0');
  std::uint32_t x = 3;
  for (auto& c : noise) c = static_cast<char>((x = x * 1664525u + 1013904223u) >> 24);
  ZipCraft z;
  testkit::add_wheel(z, "bomb-1.0.dist-info", {});
  auto e = z.add("bomb/0.bin", noise, false);
  for (int i = 1; i < 40; ++i) {
    e.name = "bomb/" + std::to_string(i) + ".bin";
    z.central(e);
  }
  const std::string wheel = d.path() + "/bomb-1.0-cp311-cp311-linux_x86_64.whl";
  write(wheel, z.finish());
  auto o = run_all(d, wheel);
  EXPECT_EQ(o.repair, 2) << o.repair_err;
  EXPECT_NE(o.repair_err.find("crafted"), std::string::npos) << o.repair_err;
  EXPECT_NE(o.verify, 0) << o.verify_out;
  EXPECT_NE(o.verify_out.find("crafted"), std::string::npos) << o.verify_out;
  EXPECT_EQ(o.conda, 2) << o.conda_err;
  EXPECT_NE(o.conda_err.find("crafted"), std::string::npos) << o.conda_err;
  EXPECT_LT(bytes_under(d.path()), 8u << 20);  // the wheel itself and nothing inflated
}

TEST(ArchiveCli, TheSameWheelChecksInAllThree) {
  const std::string elf_like = "INPUT(-lc)\n";
  struct Case {
    std::string what, expect;
    std::function<void(ZipCraft&)> build;
  };
  const std::vector<Case> cases = {
      {"duplicate member", "appears twice",
       [](ZipCraft& z) {
         testkit::add_wheel(z, "pkg-1.0.dist-info", {{"pkg/a.py", "1"}});
         z.add("pkg/a.py", "2");
       }},
      {"two .dist-info", "more than one .dist-info",
       [](ZipCraft& z) { testkit::add_wheel(z, "pkg-1.0.dist-info", {{"evil-2.0.dist-info/METADATA", "Name: evil\n"}}); }},
      {"no Version", "has no Version",
       [](ZipCraft& z) {
         z.add("pkg-1.0.dist-info/METADATA", "Name: pkg\n");
         z.add("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
         z.add("pkg-1.0.dist-info/RECORD", "");
       }},
      {"non-ELF .so", "not an ELF", [&](ZipCraft& z) { testkit::add_wheel(z, "pkg-1.0.dist-info", {{"pkg/_x.so", elf_like}}); }},
      {"no RECORD", "RECORD is missing",
       [](ZipCraft& z) {
         z.add("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n");
         z.add("pkg-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
       }},
      {"lying RECORD", "does not match",
       [](ZipCraft& z) {
         const std::string m = "Name: pkg\nVersion: 1.0\n", w = "Tag: py3-none-any\n";
         z.add("pkg-1.0.dist-info/METADATA", m);
         z.add("pkg-1.0.dist-info/WHEEL", w);
         z.add("pkg/a.py", "print('changed')\n");
         z.add("pkg-1.0.dist-info/RECORD", testkit::record_line("pkg-1.0.dist-info/METADATA", m) +
                                               testkit::record_line("pkg-1.0.dist-info/WHEEL", w) +
                                               testkit::record_line("pkg/a.py", "print('original')\n"));
       }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    testkit::TempDir d;
    ZipCraft z;
    c.build(z);
    const std::string wheel = d.path() + "/pkg-1.0-cp311-cp311-linux_x86_64.whl";
    write(wheel, z.finish());
    auto o = run_all(d, wheel);
    EXPECT_EQ(o.repair, 2) << o.repair_err;
    EXPECT_NE(o.repair_err.find(c.expect), std::string::npos) << o.repair_err;
    EXPECT_NE(o.verify, 0) << o.verify_out;
    EXPECT_NE(o.verify_out.find(c.expect), std::string::npos) << o.verify_out;
    EXPECT_EQ(o.conda, 2) << o.conda_err;
    EXPECT_NE(o.conda_err.find(c.expect), std::string::npos) << o.conda_err;
  }
}

// A 300-byte member name: repair used to abort (std::terminate, exit 134) and leave its work tree.
TEST(ArchiveCli, AnOverlongMemberNameIsBadInputAndLeavesNothing) {
  testkit::TempDir d;
  ZipCraft z;
  testkit::add_wheel(z, "pkg-1.0.dist-info", {{"pkg/" + std::string(300, 'n') + ".py", "x = 1\n"}});
  const std::string wheel = d.path() + "/pkg-1.0-cp311-cp311-linux_x86_64.whl";
  write(wheel, z.finish());
  fs::create_directories(d.path() + "/out");
  auto r = run_torchsmith({"repair", wheel, "-o", d.path() + "/out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("at most 255"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(d.path() + "/out"));  // no .ts-repair-* work directory left
}

}  // namespace
}  // namespace ts::testing

// The tar extractor over hostile archives: every way out of the tree refused, naming the member;
// xz behind it (NVIDIA's .tar.xz), a truncated stream an error, the bounds enforced.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "formats/tar_extract.h"
#include "formats/tar_writer.h"
#include "formats/xz_stream.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::formats {
namespace {

namespace fs = std::filesystem;

// One raw ustar member (the writer refuses the names these tests need), checksum filled in.
std::string member(const std::string& name, char type, const std::string& data = "", const std::string& link = "",
                   unsigned mode = 0644) {
  char h[512] = {};
  std::memcpy(h, name.data(), std::min<std::size_t>(name.size(), 100));
  std::snprintf(h + 100, 8, "%07o", mode);
  std::snprintf(h + 108, 8, "%07o", 0);
  std::snprintf(h + 116, 8, "%07o", 0);
  std::snprintf(h + 124, 12, "%011o", static_cast<unsigned>(data.size()));
  std::snprintf(h + 136, 12, "%011o", 0);
  h[156] = type;
  std::memcpy(h + 157, link.data(), std::min<std::size_t>(link.size(), 100));
  std::memcpy(h + 257, "ustar", 6);
  std::memcpy(h + 263, "00", 2);
  std::memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : h) sum += c;
  std::snprintf(h + 148, 8, "%06o", sum);
  std::string out(h, 512);
  out += data;
  out.append((512 - data.size() % 512) % 512, '\0');
  return out;
}
std::string end() { return std::string(1024, '\0'); }

std::string extract_bytes(const std::string& tar, const std::string& dir, const TarLimits& l = {}) {
  BytesSource src({reinterpret_cast<const unsigned char*>(tar.data()), tar.size()});
  return extract_tar(src, dir, l);
}

TEST(TarExtract, FilesDirsAndLinksInsideTheTree) {
  testkit::TempDir t;
  std::string tar = member("./a-archive/", '5') + member("./a-archive/bin/nvcc", '0', "elf", "", 0755) +
                    member("a-archive/lib/libcudart.so.12.4.127", '0', "so") +
                    member("a-archive/lib/libcudart.so.12", '2', "", "libcudart.so.12.4.127") +
                    member("a-archive/lib/libcudart.so", '2', "", "libcudart.so.12") +
                    member("a-archive/include/x.h", '2', "", "../lib/libcudart.so") + end();
  ASSERT_EQ(extract_bytes(tar, t / "out"), "");
  EXPECT_EQ(*util::read_file(t / "out/a-archive/bin/nvcc"), "elf");
  EXPECT_TRUE((fs::status(t / "out/a-archive/bin/nvcc").permissions() & fs::perms::owner_exec) != fs::perms::none);
  EXPECT_EQ(fs::read_symlink(t / "out/a-archive/lib/libcudart.so").string(), "libcudart.so.12");
  EXPECT_EQ(*util::read_file(t / "out/a-archive/lib/libcudart.so"), "so");
}

TEST(TarExtract, EveryWayOutIsRefusedNamingTheMember) {
  struct Case { const char* what; std::string tar; const char* says; };
  std::vector<Case> cases{
      {"dot-dot", member("a/../../evil", '0', "x"), "../../evil"},
      {"absolute", member("/etc/evil", '0', "x"), "/etc/evil"},
      {"link out", member("a/up", '2', "", "../../etc"), "points out of the tree"},
      {"absolute link", member("a/abs", '2', "", "/etc/passwd"), "absolute path"},
      {"write through a link", member("a", '5') + member("a/l", '2', "", ".") + member("a/l/x", '0', "x"), "through the link"},
      {"link through a link", member("l", '2', "", ".") + member("m", '2', "", "l/.."), "through another link"},
      {"hard link", member("h", '1', "", "etc/passwd"), "hard link"},
      {"device", member("d", '3'), "is not taken"},
  };
  for (const auto& c : cases) {
    testkit::TempDir t;
    std::string err = extract_bytes(c.tar + end(), t / "out");
    EXPECT_NE(err.find(c.says), std::string::npos) << c.what << ": " << err;
    EXPECT_FALSE(fs::exists(t / "evil")) << c.what;
  }
}

TEST(TarExtract, BoundsAndTruncation) {
  testkit::TempDir t;
  std::string two = member("a", '0', "1234") + member("b", '0', "5678") + end();
  TarLimits few;
  few.max_entries = 1;
  EXPECT_NE(extract_bytes(two, t / "o1", few).find("more than 1 members"), std::string::npos);
  TarLimits small;
  small.max_total_size = 6;
  EXPECT_NE(extract_bytes(two, t / "o2", small).find("together pass"), std::string::npos);
  std::string cut = member("a", '0', std::string(2000, 'x')).substr(0, 1200);
  EXPECT_NE(extract_bytes(cut, t / "o3").find("truncated"), std::string::npos);
}

// xz from the system's xz(1), as NVIDIA's archives are made; cut short, it is an error, not a tree.
TEST(TarExtract, XzArchivesAndTruncatedOnes) {
  testkit::TempDir t;
  std::string tar = member("p-archive/include/cuda_runtime.h", '0', std::string(100000, 'c')) + end();
  ASSERT_EQ(util::write_file_atomic(t / "a.tar", tar), "");
  auto r = util::run({"xz", "-0", "-k", "--", t / "a.tar"});
  ASSERT_TRUE(r.ok()) << r.err;
  ASSERT_EQ(extract_tar_file(t / "a.tar.xz", t / "out"), "");
  EXPECT_EQ(fs::file_size(t / "out/p-archive/include/cuda_runtime.h"), 100000u);
  auto bytes = *util::read_file(t / "a.tar.xz");
  ASSERT_EQ(util::write_file_atomic(t / "cut.tar.xz", bytes.substr(0, bytes.size() / 2)), "");
  std::string err = extract_tar_file(t / "cut.tar.xz", t / "out2");
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  ASSERT_EQ(util::write_file_atomic(t / "not.tar.xz", "plain text, not an xz stream at all"), "");
  err = extract_tar_file(t / "not.tar.xz", t / "out3");
  EXPECT_NE(err.find("not xz data"), std::string::npos) << err;
}

}  // namespace
}  // namespace ts::formats

#include "formats/zip_writer.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "package/record.h"
#include "wheel_testkit.h"
#include "formats/mapped_file.h"
#include "formats/zip.h"

namespace ts::package {
namespace {

using testkit::slurp;
using testkit::spit;
using testkit::TempDir;

std::string extract(const formats::ZipArchive& z, const std::string& name, const std::string& to) {
  for (const auto& m : z.members())
    if (m.name == name) {
      std::string err = z.extract(m, to);
      return err.empty() ? slurp(to) : "ERROR " + err;
    }
  return "MISSING";
}

TEST(ZipWriter, RoundTripsThroughTheZipReaderAndPython) {
  TempDir t;
  std::string big(300000, 'x');
  for (std::size_t i = 0; i < big.size(); i += 7) big[i] = char('a' + i % 26);
  spit(t / "src.bin", big);
  ::chmod((t / "src.bin").c_str(), 0755);
  formats::ZipWriter w(t / "out.zip");
  ASSERT_TRUE(w.add("pkg/__init__.py", "print('hi')\n")) << w.error();
  ASSERT_TRUE(w.add("pkg/stored.txt", "stored bytes", false)) << w.error();
  ASSERT_TRUE(w.add_file("pkg/lib.so", t / "src.bin")) << w.error();
  ASSERT_TRUE(w.add("pkg/empty", "")) << w.error();
  ASSERT_TRUE(w.finish()) << w.error();
  EXPECT_FALSE(std::filesystem::exists(t / ("out.zip.tmp-" + std::to_string(getpid()))));

  ASSERT_EQ(w.entries().size(), 4u);
  EXPECT_EQ(w.entries()[2].mode, 0755u);
  EXPECT_EQ(w.entries()[2].size, big.size());
  EXPECT_LT(w.entries()[2].compressed_size, big.size());  // deflated
  Sha256 s;
  s.update(big.data(), big.size());
  EXPECT_EQ(w.entries()[2].sha256, s.digest());

  formats::MappedFile f(t / "out.zip");
  std::string err;
  auto z = formats::ZipArchive::open(f.bytes(), &err);
  ASSERT_TRUE(z) << err;
  ASSERT_EQ(z->members().size(), 4u);
  EXPECT_EQ(z->members()[0].name, "pkg/__init__.py");  // the caller's order
  EXPECT_EQ(extract(*z, "pkg/__init__.py", t / "a"), "print('hi')\n");
  EXPECT_EQ(extract(*z, "pkg/stored.txt", t / "b"), "stored bytes");
  EXPECT_EQ(extract(*z, "pkg/lib.so", t / "c"), big);
  EXPECT_EQ(extract(*z, "pkg/empty", t / "d"), "");

  // A second, independent reader: CRCs, modes and the order as Python's zipfile sees them.
  auto r = testkit::run({"/usr/bin/python3", "-c",
                         "import sys,zipfile\n"
                         "z=zipfile.ZipFile(sys.argv[1])\n"
                         "assert z.testzip() is None\n"
                         "print([(i.filename, oct(i.external_attr>>16), i.date_time) for i in "
                         "z.infolist()])",
                         t / "out.zip"});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("('pkg/lib.so', '0o100755', (1980, 1, 1, 0, 0, 0))"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("('pkg/__init__.py', '0o100644'"), std::string::npos) << r.out;
}

TEST(ZipWriter, SameInputGivesTheSameBytes) {
  TempDir t;
  for (const char* name : {"one.zip", "two.zip"}) {
    formats::ZipWriter w(t / name);
    ASSERT_TRUE(w.add("a.txt", "alpha"));
    ASSERT_TRUE(w.add("b/c.txt", std::string(5000, 'c')));
    ASSERT_TRUE(w.finish());
  }
  EXPECT_EQ(slurp(t / "one.zip"), slurp(t / "two.zip"));
  formats::ZipWriter w(t / "three.zip");
  w.set_time(1700000000);  // 2023-11-14 22:13:20 UTC
  ASSERT_TRUE(w.add("a.txt", "alpha"));
  ASSERT_TRUE(w.finish());
  auto r = testkit::run({"/usr/bin/python3", "-c",
                         "import sys,zipfile\nprint(zipfile.ZipFile(sys.argv[1]).infolist()[0]"
                         ".date_time)",
                         t / "three.zip"});
  EXPECT_EQ(r.out, "(2023, 11, 14, 22, 13, 20)\n") << r.err;
}

TEST(ZipWriter, RefusesUnsafeNamesAndLeavesNoFile) {
  TempDir t;
  for (const char* bad : {"../evil", "/abs/path", "a/../../b", "a//b", "./x", "a\\b", ""}) {
    formats::ZipWriter w(t / "bad.zip");
    EXPECT_FALSE(w.add(bad, "x")) << bad;
    EXPECT_NE(w.error().find("bad member name"), std::string::npos) << w.error();
    EXPECT_FALSE(w.finish());
  }
  {
    formats::ZipWriter w(t / "dup.zip");
    ASSERT_TRUE(w.add("a", "1"));
    EXPECT_FALSE(w.add("a", "2"));
    EXPECT_NE(w.error().find("duplicate member name 'a'"), std::string::npos) << w.error();
  }
  {
    formats::ZipWriter w(t / "missing.zip");
    EXPECT_FALSE(w.add_file("x", t / "no-such-file"));
    EXPECT_NE(w.error().find("no-such-file"), std::string::npos) << w.error();
  }
  {
    formats::ZipWriter w(t / "abandoned.zip");  // never finished: the temp file goes with it
    ASSERT_TRUE(w.add("a", "1"));
  }
  EXPECT_TRUE(std::filesystem::is_empty(t.path()));
}

TEST(ZipWriter, Zip64WhenOverSixtyFiveThousandEntries) {
  TempDir t;
  formats::ZipWriter w(t / "many.zip");
  for (int i = 0; i < 70000; ++i) ASSERT_TRUE(w.add("f/" + std::to_string(i), "", false));
  ASSERT_TRUE(w.finish()) << w.error();
  formats::MappedFile f(t / "many.zip");
  std::string err;
  auto z = formats::ZipArchive::open(f.bytes(), &err);
  ASSERT_TRUE(z) << err;
  EXPECT_EQ(z->members().size(), 70000u);
  EXPECT_EQ(z->members().back().name, "f/69999");
  auto r = testkit::run({"/usr/bin/python3", "-c",
                         "import sys,zipfile\nprint(len(zipfile.ZipFile(sys.argv[1]).infolist()))",
                         t / "many.zip"});
  EXPECT_EQ(r.out, "70000\n") << r.err;
}

// A 4.5 GiB member, mostly a sparse hole: stored, the hole is skipped in the output too, so the
// test needs a few MiB of disk. The member after it sits past 4 GiB (a ZIP64 offset).
TEST(ZipWriter, Zip64SparseMemberOverFourGiB) {
  TempDir t;
  const std::uint64_t size = 4608ull << 20;
  {
    int fd = ::open((t / "sparse.bin").c_str(), O_WRONLY | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "HEAD", 4, 0), 4);
    ASSERT_EQ(::pwrite(fd, "TAIL", 4, off_t(size - 4)), 4);
    ::close(fd);
  }
  const auto t0 = std::chrono::steady_clock::now();
  formats::ZipWriter w(t / "big.zip");
  ASSERT_TRUE(w.add("small-before", "before"));
  ASSERT_TRUE(w.add_file("huge.bin", t / "sparse.bin", false)) << w.error();
  ASSERT_TRUE(w.add("small-after", "after"));
  ASSERT_TRUE(w.finish()) << w.error();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("wrote a %.1f GiB sparse member in %.1f s\n", double(size) / (1 << 30), secs);

  struct stat st{};
  ASSERT_EQ(::stat((t / "big.zip").c_str(), &st), 0);
  EXPECT_GT(std::uint64_t(st.st_size), size);
  EXPECT_LT(std::uint64_t(st.st_blocks) * 512, 64ull << 20);  // the hole stayed a hole

  formats::MappedFile f(t / "big.zip");
  std::string err;
  auto z = formats::ZipArchive::open(f.bytes(), &err);
  ASSERT_TRUE(z) << err;
  ASSERT_EQ(z->members().size(), 3u);
  EXPECT_EQ(z->members()[1].size, size);
  EXPECT_EQ(z->members()[1].compressed_size, size);
  EXPECT_GT(z->members()[2].local_offset, 0xffffffffull);
  EXPECT_EQ(extract(*z, "small-after", t / "after"), "after");
  // The member's bytes, read where they are data and known zeros where the file has a hole (SEEK_DATA;
  // a file system without holes reads it all): HEAD, zeros, TAIL. Its CRC is that content's, from
  // zlib's crc32_combine, without passing 4.5 GiB through a reader (that took ~20 s).
  const auto& big = z->members()[1];
  std::string content_error;
  {
    int fd = ::open((t / "big.zip").c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    std::vector<char> buf(1 << 20);
    for (std::uint64_t at = big.data_offset, end = big.data_offset + size; at < end && content_error.empty();) {
      off_t d = ::lseek(fd, off_t(at), SEEK_DATA);
      if (d < 0 || std::uint64_t(d) >= end) break;  // a hole to the end: zeros
      off_t h = ::lseek(fd, d, SEEK_HOLE);
      std::uint64_t stop = std::min<std::uint64_t>(end, h < 0 ? end : std::uint64_t(h));
      for (std::uint64_t p = std::uint64_t(d); p < stop;) {
        std::size_t n = std::size_t(std::min<std::uint64_t>(buf.size(), stop - p));
        ASSERT_EQ(::pread(fd, buf.data(), n, off_t(p)), ssize_t(n));
        for (std::size_t i = 0; i < n; ++i) {
          std::uint64_t k = p + i - big.data_offset;  // offset in the member
          char want = k < 4 ? "HEAD"[k] : k >= size - 4 ? "TAIL"[k - (size - 4)] : '\0';
          if (buf[i] != want) content_error = "byte " + std::to_string(k) + " differs";
        }
        p += n;
      }
      at = stop;
    }
    ::close(fd);
  }
  EXPECT_EQ(content_error, "");
  auto crc_of = [](const char* s, std::size_t n) { return crc32(0L, reinterpret_cast<const Bytef*>(s), uInt(n)); };
  std::vector<char> mib(1 << 20, 0);
  uLong zeros = 0;  // CRC of size - 8 zero bytes, by whole MiB then the rest
  std::uint64_t left = size - 8;
  for (uLong block = crc_of(mib.data(), mib.size()); left >= mib.size(); left -= mib.size())
    zeros = crc32_combine(zeros, block, z_off_t(mib.size()));
  zeros = crc32_combine(zeros, crc_of(mib.data(), left), z_off_t(left));
  const uLong want_crc = crc32_combine(crc32_combine(crc_of("HEAD", 4), zeros, z_off_t(size - 8)), crc_of("TAIL", 4), 4);
  EXPECT_EQ(big.crc, want_crc);
  // Python's zipfile reads the ZIP64 directory to the same member: its size, CRC, stored, and the
  // local header it points at leads to HEAD and ends at TAIL.
  auto r = testkit::run({"/usr/bin/python3", "-c",
                         "import sys,zipfile,struct\n"
                         "z=zipfile.ZipFile(sys.argv[1]); i=z.getinfo('huge.bin')\n"
                         "with open(sys.argv[1],'rb') as f:\n"
                         "  f.seek(i.header_offset); h=f.read(30); n,e=struct.unpack('<HH',h[26:30]); f.seek(n+e,1)\n"
                         "  head=f.read(4); f.seek(i.file_size-8,1); tail=f.read(4)\n"
                         "print(i.file_size, i.CRC, i.compress_type, h[:4]==b'PK\\x03\\x04', head, tail, z.read('small-after'))",
                         t / "big.zip"},
                        300);
  EXPECT_EQ(r.out, std::to_string(size) + " " + std::to_string(want_crc) + " 0 True b'HEAD' b'TAIL' b'after'\n") << r.err;
}

}  // namespace
}  // namespace ts::package

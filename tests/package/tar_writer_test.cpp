// The tar writer and reader, and the bzip2/zstd streams: round trips, Python's tarfile as the
// independent reader, long names (pax), and corrupt or truncated input as errors.
#include "formats/tar_writer.h"

#include <gtest/gtest.h>

#include <cstring>

#include "conda_testkit.h"
#include "formats/bzip_stream.h"
#include "formats/tar_reader.h"
#include "formats/zstd_stream.h"

namespace ts::package {
namespace {

using ts::testing::TempDir;

class StringSink : public formats::ByteSink {
 public:
  std::string data;
  bool write(const void* p, std::size_t n) override {
    data.append(static_cast<const char*>(p), n);
    return true;
  }
  bool finish() override { return true; }
  const std::string& error() const override { return err_; }

 private:
  std::string err_;
};

class StringSource : public formats::ByteSource {
 public:
  explicit StringSource(std::string d) : d_(std::move(d)) {}
  std::size_t read(void* p, std::size_t n) override {
    n = std::min(n, d_.size() - pos_);
    std::memcpy(p, d_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  const std::string& error() const override { return err_; }

 private:
  std::string d_, err_;
  std::size_t pos_ = 0;
};

const std::string kLong =
    std::string(60, 'a') + "/" + std::string(70, 'b') + "/" + std::string(40, 'c') + ".py";

std::vector<formats::TarEntry> sample(const std::string& file) {
  return {{"info/index.json", "", "{}", "", 0644},
          {kLong, "", "long", "", 0644},
          {"lib/libx.so", file, "", "", 0755},
          {"lib/link.so", "", "", "libx.so", 0777}};
}

TEST(Tar, RoundTripThroughOurReaderAndPythonsTarfile) {
  TempDir t("tar");
  std::string file = t.path + "/payload";
  util::write_file_atomic(file, std::string(1000, 'x'));
  StringSink s;
  ASSERT_EQ(formats::write_tar(sample(file), s, 1234567890), "");
  EXPECT_EQ(s.data.size() % 10240, 0u);

  StringSource src(s.data);
  formats::TarReader r(src);
  formats::TarMember m;
  std::vector<std::string> names;
  while (r.next(m)) {
    names.push_back(m.name);
    if (m.name == kLong) {
      std::string d;
      ASSERT_TRUE(r.read_data(d, 100));
      EXPECT_EQ(d, "long");
    }
  }
  EXPECT_EQ(r.error(), "");
  EXPECT_EQ(names,
            (std::vector<std::string>{"info/index.json", kLong, "lib/libx.so", "lib/link.so"}));

  util::write_file_atomic(t.path + "/a.tar", s.data);
  auto py = ts::testing::py({"-c",
                             "import tarfile,sys\n"
                             "t=tarfile.open(sys.argv[1])\n"
                             "for m in t.getmembers(): print(m.name, m.size, oct(m.mode), m.uid, "
                             "m.gid, m.mtime, m.linkname)",
                             t.path + "/a.tar"});
  ASSERT_TRUE(py.ok()) << py.err;
  EXPECT_EQ(
      py.out,
      "info/index.json 2 0o644 0 0 1234567890 \n" + kLong + " 4 0o644 0 0 1234567890 \n" +
          "lib/libx.so 1000 0o755 0 0 1234567890 \nlib/link.so 0 0o777 0 0 1234567890 libx.so\n");
}

TEST(Tar, UnsafeNamesAreRefused) {
  StringSink s;
  for (const char* bad : {"../x", "/etc/passwd", "a/../../b", "a//b", ""})
    EXPECT_NE(formats::write_tar({{bad, "", "x", "", 0644}}, s, 0), "") << bad;
}

TEST(Tar, GarbageAndTruncationAreErrors) {
  StringSink s;
  ASSERT_EQ(formats::write_tar({{"a.txt", "", std::string(3000, 'y'), "", 0644}}, s, 0), "");
  StringSource cut(s.data.substr(0, 1500));
  formats::TarReader r(cut);
  formats::TarMember m;
  ASSERT_TRUE(r.next(m));
  EXPECT_FALSE(r.next(m));
  EXPECT_NE(r.error().find("truncated"), std::string::npos) << r.error();
  StringSource junk(std::string(512, 'j'));
  formats::TarReader j(junk);
  EXPECT_FALSE(j.next(m));
  EXPECT_NE(j.error(), "");
}

template <class Sink, class Source>
void round_trip(const char* tool) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i * 7919 % 10007) + ",";
  StringSink raw;
  {
    Sink z(raw);
    ASSERT_TRUE(z.write(text.data(), text.size()));
    ASSERT_TRUE(z.finish());
  }
  StringSource in(raw.data);
  Source dz(in);
  std::string back;
  char buf[777];
  while (std::size_t n = dz.read(buf, sizeof buf)) back.append(buf, n);
  EXPECT_EQ(dz.error(), "");
  EXPECT_EQ(back, text);
  // Python's own module decodes it too.
  TempDir t(tool);
  util::write_file_atomic(t.path + "/z", raw.data);
  auto py = ts::testing::py(
      {"-c",
       std::string("import sys,") + (std::string(tool) == "bz2" ? "bz2 as m" : "subprocess") +
           "\nd=open(sys.argv[1],'rb').read()\n" +
           (std::string(tool) == "bz2" ? "print(len(m.decompress(d)))"
                                       : "print(len(subprocess.run(['zstd','-dc'],input=d,capture_"
                                         "output=True,check=True).stdout))"),
       t.path + "/z"});
  ASSERT_TRUE(py.ok()) << py.err;
  EXPECT_EQ(util::trim(py.out), std::to_string(text.size()));
  // Truncated: an error, not a short success.
  StringSource cut(raw.data.substr(0, raw.data.size() / 2));
  Source dc(cut);
  while (dc.read(buf, sizeof buf)) {
  }
  EXPECT_NE(dc.error(), "");
}

TEST(Streams, Bzip2RoundTripAndTruncation) { round_trip<formats::Bzip2Sink, formats::Bzip2Source>("bz2"); }
TEST(Streams, ZstdRoundTripAndTruncation) { round_trip<formats::ZstdSink, formats::ZstdSource>("zstd"); }

}  // namespace
}  // namespace ts::package

// The codec filters' shared plumbing: bytes handed on, the other stream's error kept as the filter's own,
// for both codecs, each way.
#include "formats/filter_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "formats/bzip_stream.h"
#include "formats/zstd_stream.h"

namespace ts::formats {
namespace {

// Keeps what it is given until `room` bytes, then refuses with an error.
struct Bucket : ByteSink {
  std::size_t room = SIZE_MAX;
  std::string got, err;
  bool write(const void* d, std::size_t n) override {
    if (got.size() + n > room) {
      err = "disk full";
      return false;
    }
    got.append(static_cast<const char*>(d), n);
    return true;
  }
  bool finish() override { return err.empty(); }
  const std::string& error() const override { return err; }
};

// Gives `data`, then fails with an error instead of ending.
struct Flaky : ByteSource {
  std::string data, err;
  std::size_t at = 0;
  std::size_t read(void* d, std::size_t n) override {
    if (at == data.size()) {
      err = "read error";
      return 0;
    }
    n = std::min(n, data.size() - at);
    std::memcpy(d, data.data() + at, n);
    at += n;
    return n;
  }
  const std::string& error() const override { return err; }
};

// The identity filter: what the base classes do, with no codec in the way.
struct Copy : FilterSink {
  explicit Copy(ByteSink& out) : FilterSink(out, 4) {}
  bool write(const void* d, std::size_t n) override {
    std::memcpy(buf_.data(), d, n);
    return pass_on(n);
  }
  bool finish() override { return other_.finish(); }
};

struct Chunks : FilterSource {
  explicit Chunks(ByteSource& in) : FilterSource(in, 3) {}
  std::size_t read(void* d, std::size_t n) override {
    auto got = refill();
    if (!got) return 0;
    std::memcpy(d, buf_.data(), *got);
    return *got;
  }
};

TEST(FilterSink, HandsBytesOnAndKeepsTheSinksError) {
  Bucket b;
  b.room = 5;
  Copy c(b);
  EXPECT_TRUE(c.write("abc", 3));
  EXPECT_TRUE(c.write("", 0));  // nothing produced: nothing asked of the sink
  EXPECT_EQ(b.got, "abc");
  EXPECT_FALSE(c.write("def", 3));
  EXPECT_EQ(c.error(), "disk full");
}

TEST(FilterSource, ReadsInChunksAndKeepsTheSourcesError) {
  Flaky f;
  f.data = "hello";
  Chunks c(f);
  char buf[8];
  EXPECT_EQ(c.read(buf, sizeof buf), 3u);
  EXPECT_EQ(c.read(buf, sizeof buf), 2u);
  EXPECT_EQ(c.read(buf, sizeof buf), 0u);
  EXPECT_EQ(c.error(), "read error");
}

TEST(FilterSink, BothCodecsKeepTheSinksError) {
  const std::string text(1 << 20, 'x');
  for (int codec = 0; codec < 2; ++codec) {
    Bucket b;
    b.room = 0;  // refuses the first byte the compressor hands on
    bool ok;
    std::string err;
    if (codec == 0) {
      ZstdSink z(b);
      ok = z.write(text.data(), text.size()) && z.finish();
      err = z.error();
    } else {
      Bzip2Sink z(b);
      ok = z.write(text.data(), text.size()) && z.finish();
      err = z.error();
    }
    EXPECT_FALSE(ok) << codec;
    EXPECT_EQ(err, "disk full") << codec;
  }
}

TEST(FilterSource, BothCodecsKeepTheSourcesError) {
  for (int codec = 0; codec < 2; ++codec) {
    Flaky f;  // no bytes, then an error
    std::string err;
    char buf[16];
    if (codec == 0) {
      ZstdSource z(f);
      EXPECT_EQ(z.read(buf, sizeof buf), 0u);
      err = z.error();
    } else {
      Bzip2Source z(f);
      EXPECT_EQ(z.read(buf, sizeof buf), 0u);
      err = z.error();
    }
    EXPECT_EQ(err, "read error") << codec;
  }
}

}  // namespace
}  // namespace ts::formats

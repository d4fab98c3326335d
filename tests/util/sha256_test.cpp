#include "util/sha256.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "testkit/temp_dir.h"

namespace ts::util {
namespace {

std::string digest_of(const std::string& s) {
  Sha256 h;
  h.update(s.data(), s.size());
  return hex(h.digest());
}

TEST(Sha256Stream, KnownVectorsAndPiecewiseEqualsWhole) {
  EXPECT_EQ(digest_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(digest_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string text(1000, 'x');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
  Sha256 pieces;
  for (std::size_t at = 0; at < text.size(); at += 37)
    pieces.update(text.data() + at, std::min<std::size_t>(37, text.size() - at));
  EXPECT_EQ(hex(pieces.digest()), digest_of(text));
}

TEST(Sha256Stream, ZerosWithoutABuffer) {
  Sha256 z;
  z.update("a", 1);
  z.update_zeros(10000);
  EXPECT_EQ(hex(z.digest()), digest_of("a" + std::string(10000, '\0')));
}

TEST(Sha256File, DigestOfTheBytesOrNothingWhenUnreadable) {
  testkit::TempDir d;
  const std::string p = d.path() + "/abc";
  std::ofstream(p, std::ios::binary) << "abc";
  EXPECT_EQ(sha256_file(p), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_FALSE(sha256_file(d.path() + "/missing"));
  EXPECT_FALSE(sha256_file(d.path()));  // a directory opens but cannot be read
}

}  // namespace
}  // namespace ts::util

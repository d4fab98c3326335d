#include "util/sha256.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

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

}  // namespace
}  // namespace ts::util

#include "util/printable.h"

#include <gtest/gtest.h>

namespace ts::util {
namespace {

TEST(Printable, ControlCharactersAreEscapedTheRestKept) {
  EXPECT_EQ(printable("2.4.0a0"), "2.4.0a0");
  EXPECT_EQ(printable("\x1b]0;pwned\x07 2.4"), "\\x1b]0;pwned\\x07 2.4");
  EXPECT_EQ(printable("a\nb\tc\x7f"), "a\\x0ab\\x09c\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 stays readable
}

}  // namespace
}  // namespace ts::util

#include "util/split.h"

#include <gtest/gtest.h>

namespace ts::util {
namespace {

using V = std::vector<std::string>;

TEST(Split, EveryFieldEmptyOnesIncluded) {
  EXPECT_EQ(split("cp312-cp312-linux_x86_64", '-'), (V{"cp312", "cp312", "linux_x86_64"}));
  EXPECT_EQ(split("a,,b", ','), (V{"a", "", "b"}));
  EXPECT_EQ(split("line\n", '\n'), (V{"line", ""}));
  EXPECT_EQ(split("", '\n'), (V{""}));
}

TEST(Split, NonEmptyFieldsOnly) {
  EXPECT_EQ(split_nonempty("/usr//lib/", '/'), (V{"usr", "lib"}));
  EXPECT_EQ(split_nonempty(":$ORIGIN::/opt/lib:", ':'), (V{"$ORIGIN", "/opt/lib"}));
  EXPECT_EQ(split_nonempty("", ':'), V{});
  EXPECT_EQ(split_nonempty("/", '/'), V{});
}

TEST(Join, SeparatorBetweenItems) {
  EXPECT_EQ(join({"8.0", "8.6", "9.0"}, ", "), "8.0, 8.6, 9.0");
  EXPECT_EQ(join({"$ORIGIN", "", "/opt"}, ":"), "$ORIGIN::/opt");  // an empty item inside is kept
  EXPECT_EQ(join({"", "a"}, ","), "a");                            // a leading one adds no separator
  EXPECT_EQ(join({}, ","), "");
}

}  // namespace
}  // namespace ts::util

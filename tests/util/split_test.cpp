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

}  // namespace
}  // namespace ts::util

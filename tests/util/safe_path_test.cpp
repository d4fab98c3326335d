#include "util/safe_path.h"

#include <gtest/gtest.h>

namespace ts::util {
namespace {

TEST(SafePath, JoinsRelativeNamesUnderTheBase) {
  EXPECT_EQ(join_inside("/out", "a.whl").value_or(""), "/out/a.whl");
  EXPECT_EQ(join_inside("/out/", "linux-64/x.conda").value_or(""), "/out/linux-64/x.conda");
  EXPECT_EQ(join_components("/out", {"linux-64", "torch-2.4.1-py311_0.conda"}).value_or(""),
            "/out/linux-64/torch-2.4.1-py311_0.conda");
  EXPECT_EQ(join_inside("out", "..a").value_or(""), "out/..a");  // a name that only starts with dots is a name
}

TEST(SafePath, RefusesWhatWouldLeaveTheBase) {
  std::string err;
  EXPECT_FALSE(join_inside("/out", "../x", &err));
  EXPECT_NE(err.find("'..'"), std::string::npos) << err;
  for (const char* bad : {"", "/etc/passwd", "a/../../x", "a//b", "./a", "a/.", "a/", "x\ny", "a\x1b"})
    EXPECT_FALSE(join_inside("/out", bad)) << bad;
  EXPECT_FALSE(join_components("/out", {"3.11/../../x"}, &err));
  EXPECT_NE(err.find("'/'"), std::string::npos) << err;
  EXPECT_FALSE(join_components("/out", {".."}));
  EXPECT_FALSE(join_components("/out", {""}));
  EXPECT_FALSE(join_components("/out", {std::string(256, 'a')}));
}

TEST(SafePath, OperandsNeverLookLikeOptions) {
  EXPECT_EQ(as_operand("-x.so"), "./-x.so");
  EXPECT_EQ(as_operand("/abs/-x.so"), "/abs/-x.so");
  EXPECT_EQ(as_operand("lib.so"), "lib.so");
}

}  // namespace
}  // namespace ts::util

#include "util/utc_time.h"

#include <gtest/gtest.h>

using namespace ts::util;

TEST(UtcTime, FormatsTheGivenInstantInUtcWhateverTheLocalZone) {
  setenv("TZ", "Asia/Kolkata", 1);
  tzset();
  std::time_t t = 1700000000;  // 2023-11-14T22:13:20Z
  EXPECT_EQ(utc_time(kIso8601, t), "2023-11-14T22:13:20Z");
  EXPECT_EQ(utc_time(kCompact, t), "20231114T221320Z");
  EXPECT_EQ(utc_time(kDate, t), "2023-11-14");
  unsetenv("TZ");
  tzset();
}

TEST(UtcTime, NowIsAnIsoInstant) {
  std::string s = utc_time();
  ASSERT_EQ(s.size(), 20u) << s;
  EXPECT_EQ(s[10], 'T');
  EXPECT_EQ(s.back(), 'Z');
}

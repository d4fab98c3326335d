#include "scale/farm.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "testkit/temp_dir.h"

namespace ts::scale {
namespace {

TEST(Farm, DownStoreAndUnreachableHostAreReportedNotFatal) {
  testkit::TempDir d;
  bool distcc = access("/usr/bin/distcc", X_OK) == 0 && access("/usr/bin/c++", X_OK) == 0;
  FarmCheck f = check_farm("ccache+redis://127.0.0.1:1", distcc ? "127.0.0.1:1/4" : "", "c++", "/usr/bin:/bin", d.path());
  EXPECT_EQ(f.error, "");
  EXPECT_FALSE(f.store.ok);
  std::string text = farm_text(f);
  EXPECT_NE(text.find("down  store redis://127.0.0.1:1 (ccache)"), std::string::npos) << text;
  EXPECT_NE(text.find("a build would go on without it"), std::string::npos) << text;
  auto j = farm_json(f);
  EXPECT_EQ(j["store"]["ok"], false);
  if (distcc) {
    EXPECT_NE(text.find("skip  127.0.0.1:1/4: not reachable"), std::string::npos) << text;
    EXPECT_NE(text.find("0 remote slots on 0 of 1 hosts"), std::string::npos) << text;
    EXPECT_EQ(j["distcc"]["hosts"][0]["kept"], false);
  }
}

TEST(Farm, BadInputIsAnError) {
  EXPECT_NE(check_farm("redis://h", "", "c++", "", "").error.find("--cache"), std::string::npos);
  EXPECT_NE(check_farm("", "@h", "c++", "", "").error.find("--hosts"), std::string::npos);
}

}  // namespace
}  // namespace ts::scale

// Issue 21: nothing under the canary directory changes in any test. Every test binary runs each
// test with canaries checked after it (tests/testkit/canary_env.cpp); here, that the check can fail.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testkit/canary.h"

namespace fs = std::filesystem;

// The check itself can fail: a file changed, added or removed under a canary is seen.
TEST(Canary, SeesAChangedAddedOrRemovedFile) {
  std::string dir = (fs::temp_directory_path() / ("ts-canary-self-" + std::to_string(::getpid()))).string();
  {
    ts::testkit::Canary c(dir);
    EXPECT_TRUE(c.unchanged());
    std::ofstream(dir + "/keep.txt") << "changed\n";
    EXPECT_FALSE(c.unchanged());
  }
  {
    ts::testkit::Canary c(dir);
    std::ofstream(dir + "/sub/new") << "";
    EXPECT_FALSE(c.unchanged());
  }
  {
    ts::testkit::Canary c(dir);
    fs::remove(dir + "/sub/data.bin");
    EXPECT_FALSE(c.unchanged());
  }
  fs::remove_all(dir);
}

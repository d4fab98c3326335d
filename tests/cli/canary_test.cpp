// Issue 21: nothing under the canary directory changes in any test. Every test of test_cli (build,
// repair, conda, clean, fix, ...) runs with a canary beside the scratch directories the tests
// make (in the temp directory) and one in the HOME the binary is given; ctest runs each test in
// its own process, so each test is checked on its own and a change fails it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "testkit/canary.h"

namespace {

namespace fs = std::filesystem;

class CanaryEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string tag = "ts-canary-" + std::to_string(::getpid());
    for (const fs::path& parent : {fs::temp_directory_path(), fs::path(TS_BINARY_DIR)})
      canaries_.push_back(std::make_unique<ts::testkit::Canary>((parent / tag).string()));
  }
  void TearDown() override {
    for (const auto& c : canaries_) {
      EXPECT_TRUE(c->unchanged()) << "a test changed the canary directory " << c->path()
                                  << " (something wrote, renamed or deleted outside its output)";
      std::error_code ec;
      fs::remove_all(c->path(), ec);
    }
  }

 private:
  std::vector<std::unique_ptr<ts::testkit::Canary>> canaries_;
};

const auto* const kCanary = ::testing::AddGlobalTestEnvironment(new CanaryEnvironment);

}  // namespace

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

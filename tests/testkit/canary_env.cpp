// Issue 21: nothing under the canary directory changes in any test. Linked into every test binary
// (CMakeLists.txt): each test process gets a canary beside the scratch directories tests make (in
// the temp directory) and one in the build directory (the HOME test_cli gives the binary), checked
// when the process ends; ctest runs each test in its own process, so each test is checked alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "testkit/canary.h"

namespace {

namespace fs = std::filesystem;

class CanaryEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    for (const fs::path& parent : {fs::temp_directory_path(), fs::path(TS_BINARY_DIR)})
      canaries_.push_back(std::make_unique<ts::testkit::Canary>(ts::testkit::canary_path(parent.string())));
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

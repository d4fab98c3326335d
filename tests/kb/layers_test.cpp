// kb::for_each_layer: a stage's KB file, embedded copy first, then each overlay directory's copy in order.
#include <gtest/gtest.h>

#include <filesystem>

#include "kb/layers.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts {
namespace {

std::vector<std::pair<std::string, std::string>> layers(std::string_view name, const std::vector<std::string>& dirs) {
  std::vector<std::pair<std::string, std::string>> got;
  kb::for_each_layer(name, dirs, [&](const std::string& file, std::string_view text) {
    got.emplace_back(file, std::string(text.substr(0, 40)));
  });
  return got;
}

TEST(KbLayers, EmbeddedFirstThenEachOverlayThatHasTheFile) {
  testkit::TempDir t;
  std::filesystem::create_directories(t / "a");
  std::filesystem::create_directories(t / "b");
  std::filesystem::create_directories(t / "c");  // has no build.toml: skipped
  ASSERT_EQ(util::write_file_atomic(t / "a/build.toml", "# a\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "b/build.toml", "# b\n"), "");
  auto got = layers("build.toml", {t / "b", t / "c", t / "a"});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first, "build.toml");  // the embedded copy, cited by its name
  EXPECT_FALSE(got[0].second.empty());
  EXPECT_EQ(got[1], (std::pair<std::string, std::string>{t / "b/build.toml", "# b\n"}));
  EXPECT_EQ(got[2], (std::pair<std::string, std::string>{t / "a/build.toml", "# a\n"}));
}

TEST(KbLayers, AFileNoLayerHasIsNeverRead) {
  testkit::TempDir t;
  EXPECT_TRUE(layers("no-such-file.toml", {t.path(), t / "missing-dir"}).empty());
}

}  // namespace
}  // namespace ts

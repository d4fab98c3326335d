// kb/layers.h: a stage's KB file, embedded copy first, then each overlay directory's copy in order;
// a folder's files the same way.
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

// A folder's layers: the embedded files directly in it, sorted; an overlay's *.toml files, sorted,
// subfolders and other extensions left out.
TEST(KbLayers, AFoldersFilesSortedAndOnlyItsOwn) {
  auto fixes = kb::embedded_folder("fixes/");
  ASSERT_FALSE(fixes.empty());
  for (std::size_t i = 0; i < fixes.size(); ++i) {
    EXPECT_EQ(fixes[i].name.rfind("fixes/", 0), 0u) << fixes[i].name;
    EXPECT_EQ(fixes[i].name.substr(fixes[i].name.size() - 5), ".toml") << fixes[i].name;
    EXPECT_FALSE(fixes[i].text.empty()) << fixes[i].name;
    if (i) { EXPECT_LT(fixes[i - 1].name, fixes[i].name); }
  }
  testkit::TempDir t;
  std::filesystem::create_directories(t / "packages/nested");
  ASSERT_EQ(util::write_file_atomic(t / "packages/b.toml", "# b\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "packages/a.toml", "# a\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "packages/notes.md", "x"), "");
  ASSERT_EQ(util::write_file_atomic(t / "packages/nested/c.toml", "# c\n"), "");
  std::string list_error;
  auto got = kb::folder_layer(t / "packages", &list_error);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].name, t / "packages/a.toml");
  EXPECT_EQ(got[0].text, "# a\n");
  EXPECT_TRUE(got[0].read);
  EXPECT_EQ(got[1].name, t / "packages/b.toml");
  EXPECT_TRUE(list_error.empty()) << list_error;
  EXPECT_TRUE(kb::folder_layer(t / "missing").empty());  // an overlay without the folder adds nothing
}

}  // namespace
}  // namespace ts

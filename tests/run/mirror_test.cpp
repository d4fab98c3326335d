#include "run/mirror.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

void put(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(Mirror, CopiesThenPropagatesDeletionsAndKeepsUnchangedFiles) {
  testkit::TempDir d;
  const std::string src = d / "ext", out = d / "out/src";
  put(src + "/setup.py", "setup()\n");
  put(src + "/csrc/a.cpp", "int a;\n");
  put(src + "/csrc/gone.cpp", "int gone;\n");
  put(src + "/old/x.h", "x\n");
  auto m = mirror_tree(src, out, {});
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(m.copied, 4u);
  EXPECT_TRUE(fs::exists(out + "/csrc/gone.cpp"));
  // What the build wrote into its copy stays.
  put(out + "/build/temp/a.o", "obj");
  put(out + "/hello.egg-info/PKG-INFO", "x");
  put(out + "/csrc/__pycache__/x.pyc", "made by the build, not copied");
  auto a_time = fs::last_write_time(out + "/csrc/a.cpp");

  fs::remove(src + "/csrc/gone.cpp");
  fs::remove_all(src + "/old");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  m = mirror_tree(src, out, {});
  ASSERT_EQ(m.error, "");
  EXPECT_FALSE(fs::exists(out + "/csrc/gone.cpp"));  // no longer compiled
  EXPECT_FALSE(fs::exists(out + "/old"));
  EXPECT_EQ(m.copied, 0u);
  EXPECT_EQ(fs::last_write_time(out + "/csrc/a.cpp"), a_time);  // incremental: untouched
  EXPECT_TRUE(fs::exists(out + "/build/temp/a.o"));
  EXPECT_TRUE(fs::exists(out + "/hello.egg-info/PKG-INFO"));
  EXPECT_TRUE(fs::exists(out + "/csrc/__pycache__/x.pyc"));
}

// A copy made before the mirror kept its record (an older torchsmith): compared whole once.
TEST(Mirror, ACopyWithoutARecordIsComparedWhole) {
  testkit::TempDir d;
  put(d / "ext/a.cpp", "int a;\n");
  put(d / "out/a.cpp", "int a;\n");
  put(d / "out/stale.cpp", "int stale;\n");
  put(d / "out/ext-copy/torchsmith-build/src/a.cpp", "nested\n");
  put(d / "out/build/keep.o", "o");
  auto m = mirror_tree(d / "ext", d / "out", {});
  ASSERT_EQ(m.error, "");
  EXPECT_FALSE(fs::exists(d / "out/stale.cpp"));
  EXPECT_FALSE(fs::exists(d / "out/ext-copy"));
  EXPECT_TRUE(fs::exists(d / "out/build/keep.o"));
  EXPECT_TRUE(fs::exists(d / "out/a.cpp"));
}

// A file replaced by an older one of the same size (a checkout of an old commit) is a change.
TEST(Mirror, AnOlderFileOfTheSameSizeIsCopiedAgain) {
  testkit::TempDir d;
  const std::string src = d / "ext", out = d / "out";
  put(src + "/a.cpp", "int a = 1;\n");
  ASSERT_EQ(mirror_tree(src, out, {}).error, "");
  put(src + "/a.cpp", "int a = 2;\n");
  fs::last_write_time(src + "/a.cpp", fs::last_write_time(src + "/a.cpp") - std::chrono::hours(24));
  auto m = mirror_tree(src, out, {});
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(m.copied, 1u);
  EXPECT_EQ(util::read_file(out + "/a.cpp").value_or(""), "int a = 2;\n");
}

// `cd ext && torchsmith build .`: the default --out is inside the tree; it is left out of the
// copy instead of being copied into itself, and so is any other torchsmith output or cache.
TEST(Mirror, AnOutputInsideTheSourceIsLeftOut) {
  testkit::TempDir d;
  const std::string src = d / "ext";
  put(src + "/a.cpp", "int a;\n");
  put(src + "/old-out/" + kOutMarker, "x");
  put(src + "/old-out/src/a.cpp", "int a;\n");
  put(src + "/.cache/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n");
  const std::string out = src + "/torchsmith-build";
  auto m = mirror_tree(src, out + "/src", {out});
  ASSERT_EQ(m.error, "");
  EXPECT_TRUE(fs::exists(out + "/src/a.cpp"));
  EXPECT_FALSE(fs::exists(out + "/src/torchsmith-build"));
  EXPECT_FALSE(fs::exists(out + "/src/old-out"));
  EXPECT_FALSE(fs::exists(out + "/src/.cache"));
  EXPECT_EQ(m.skipped.size(), 3u);
  // Twice: the copy's own directory is still left out.
  m = mirror_tree(src, out + "/src", {out});
  ASSERT_EQ(m.error, "");
  EXPECT_FALSE(fs::exists(out + "/src/torchsmith-build"));
}

TEST(Mirror, RefusesACopyIntoTheTreeItself) {
  testkit::TempDir d;
  put(d / "ext/a.cpp", "int a;\n");
  auto m = mirror_tree(d / "ext", d / "ext/copy", {});
  EXPECT_NE(m.error.find("inside the tree itself"), std::string::npos) << m.error;
  EXPECT_FALSE(fs::exists(d / "ext/copy"));
  m = mirror_tree(d / "ext", d / "ext", {});
  EXPECT_NE(m.error, "");
  m = mirror_tree(d / "ext", d.path(), {});
  EXPECT_NE(m.error.find("inside its copy's directory"), std::string::npos) << m.error;
}

// Links are copied as links and removed as links: a link to outside never leads a deletion there.
TEST(Mirror, LinksAreMirroredAsLinks) {
  testkit::TempDir d;
  put(d / "canary/keep", "keep");
  put(d / "ext/a.cpp", "int a;\n");
  fs::create_directory_symlink(d / "canary", d / "ext/link");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_TRUE(fs::is_symlink(d / "out/link"));
  fs::remove(d / "ext/link");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_FALSE(fs::exists(d / "out/link"));
  EXPECT_EQ(util::read_file(d / "canary/keep").value_or(""), "keep");
}

}  // namespace
}  // namespace ts::run

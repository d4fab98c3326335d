#include "run/clean_guard.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "run/mirror.h"
#include "testkit/temp_dir.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

TEST(CleanGuard, OnlyADirectoryHoldingABuild) {
  testkit::TempDir d;
  fs::create_directories(d / "cmake");
  std::ofstream(d / "cmake/CMakeCache.txt") << "CMAKE_HOME_DIRECTORY:INTERNAL=" << d.path() << "/src\n";
  EXPECT_EQ(why_not_removable(d / "cmake"), "");
  fs::create_directories(d / "ninja");
  std::ofstream(d / "ninja/build.ninja") << "\n";
  EXPECT_EQ(why_not_removable(d / "ninja"), "");
  fs::create_directories(d / "out");
  ASSERT_EQ(write_out_marker(d / "out"), "");
  EXPECT_EQ(why_not_removable(d / "out"), "");

  fs::create_directories(d / "docs");
  std::ofstream(d / "docs/notes.txt") << "mine\n";
  EXPECT_NE(why_not_removable(d / "docs").find("holds no build"), std::string::npos);
  EXPECT_EQ(why_not_removable(d / "docs", "", false), "");  // --if-stale: checked for a cache itself
}

TEST(CleanGuard, NeverRootHomeCwdOrTheSource) {
  EXPECT_NE(why_not_removable("/").find("the root directory"), std::string::npos);
  testkit::TempDir d;
  fs::create_directories(d / "home/me/proj/build");
  std::ofstream(d / "home/me/CMakeCache.txt") << "\n";  // a build marker does not make $HOME removable
  const char* old_home = std::getenv("HOME");
  std::string saved = old_home ? old_home : "";
  setenv("HOME", (d / "home/me").c_str(), 1);
  EXPECT_NE(why_not_removable(d / "home/me").find("home directory"), std::string::npos);
  EXPECT_NE(why_not_removable(d / "home").find("home directory"), std::string::npos);
  if (old_home) setenv("HOME", saved.c_str(), 1);
  else unsetenv("HOME");

  std::ofstream(d / "home/me/proj/build/CMakeCache.txt") << "\n";
  char cwd[4096];
  ASSERT_TRUE(getcwd(cwd, sizeof cwd));
  ASSERT_EQ(chdir((d / "home/me/proj/build").c_str()), 0);
  EXPECT_NE(why_not_removable(".").find("current directory"), std::string::npos);
  EXPECT_NE(why_not_removable("..").find("current directory"), std::string::npos);
  ASSERT_EQ(chdir(cwd), 0);
  EXPECT_NE(why_not_removable(d / "home/me/proj", d / "home/me/proj/src").find("source tree"), std::string::npos);
}

TEST(CleanGuard, NeverACheckoutAnInSourceBuildOrALink) {
  testkit::TempDir d;
  fs::create_directories(d / "repo/.git");
  std::ofstream(d / "repo/CMakeCache.txt") << "\n";
  EXPECT_NE(why_not_removable(d / "repo").find("git checkout"), std::string::npos);
  fs::create_directories(d / "insrc");
  std::ofstream(d / "insrc/CMakeCache.txt") << "CMAKE_HOME_DIRECTORY:INTERNAL=" << d.path() << "/insrc\n";
  EXPECT_NE(why_not_removable(d / "insrc").find("in-source"), std::string::npos);
  fs::create_directories(d / "b");
  std::ofstream(d / "b/build.ninja") << "\n";
  fs::create_directory_symlink(d / "b", d / "link");
  EXPECT_NE(why_not_removable(d / "link").find("symbolic link"), std::string::npos);
}

}  // namespace
}  // namespace ts::run

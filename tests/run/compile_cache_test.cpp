#include "run/compile_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace ts::run {
namespace {

namespace fs = std::filesystem;

TEST(CompileCache, ParsesCcachePrintStats) {
  auto c = parse_ccache_print_stats("cache_miss\t224\ndirect_cache_hit\t218\npreprocessed_cache_hit\t5\n"
                                    "direct_cache_miss\t229\nlocal_storage_hit\t223\n");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hits, 223u);
  EXPECT_EQ(c->misses, 224u);
  EXPECT_FALSE(parse_ccache_print_stats("garbage\n"));
}

TEST(CompileCache, NamedToolMissingIsAnErrorAutoIsNone) {
  std::string err;
  auto none = find_compile_cache("auto", "/nonexistent", &err);
  EXPECT_EQ(none.tool, "");
  EXPECT_EQ(err, "");
  find_compile_cache("sccache", "/nonexistent", &err);
  EXPECT_NE(err.find("--compile-cache sccache: not found"), std::string::npos) << err;
  EXPECT_EQ(find_compile_cache("none", "/usr/bin", &err).tool, "");
}

TEST(CompileCache, CMakeBuildsGetLaunchersOthersAMasquerade) {
  CompileCache c{"ccache", "/usr/bin/ccache"};
  std::map<std::string, std::string> env{{"CXX", "/usr/bin/g++"}, {"CC", "/usr/bin/gcc"}, {"PATH", "/opt/x/bin"}};
  auto cm = env;
  EXPECT_EQ(apply_compile_cache(c, true, "", cm), "");
  EXPECT_EQ(cm["CMAKE_CXX_COMPILER_LAUNCHER"], "/usr/bin/ccache");
  EXPECT_EQ(cm["CMAKE_CUDA_COMPILER_LAUNCHER"], "/usr/bin/ccache");
  EXPECT_EQ(cm["CXX"], "/usr/bin/g++");
  std::string t = (fs::temp_directory_path() / "ts-cc-XXXXXX").string();
  ASSERT_NE(::mkdtemp(t.data()), nullptr);
  EXPECT_EQ(apply_compile_cache(c, false, t + "/bin", env), "");
  EXPECT_EQ(env["CXX"], t + "/bin/g++");
  EXPECT_EQ(fs::read_symlink(t + "/bin/g++"), "/usr/bin/ccache");
  EXPECT_EQ(env["CC"], t + "/bin/gcc");
  EXPECT_EQ(env["PATH"], "/opt/x/bin:/usr/bin");  // ccache finds the real g++ there
  EXPECT_EQ(env.count("CMAKE_CXX_COMPILER_LAUNCHER"), 0u);
  fs::remove_all(t);
}

}  // namespace
}  // namespace ts::run

#include "run/compile_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "util/process.h"
#include "testkit/temp_dir.h"

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

// ccache 4.7's counters with remote storage (a second machine, empty local cache, warm store).
TEST(CompileCache, ParsesRemoteStorageCountersAndDiffs) {
  auto before = parse_ccache_print_stats("cache_miss\t2\ndirect_cache_hit\t0\nlocal_storage_hit\t0\n"
                                         "remote_storage_hit\t1\nremote_storage_miss\t2\nremote_storage_error\t0\n");
  auto after = parse_ccache_print_stats("cache_miss\t3\ndirect_cache_hit\t25\nlocal_storage_hit\t1\n"
                                        "remote_storage_hit\t25\nremote_storage_miss\t3\nremote_storage_error\t4\n"
                                        "remote_storage_timeout\t1\n");
  ASSERT_TRUE(before && after);
  EXPECT_EQ(after->remote_hits, 25u);
  EXPECT_EQ(after->remote_errors, 5u);  // errors and timeouts
  CacheCounts d = counts_between(*before, *after);
  EXPECT_EQ(d.hits, 25u);
  EXPECT_EQ(d.misses, 1u);
  EXPECT_EQ(d.remote_hits, 24u);
  EXPECT_EQ(d.remote_misses, 1u);
  EXPECT_EQ(d.local_hits, 1u);
  EXPECT_EQ(counts_between(*after, *before).hits, 0u);  // a cleared cache never goes below zero
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
  ::ts::testkit::TempDir tmp("ts-cc");
  const std::string& t = tmp.path();
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(apply_compile_cache(c, false, t + "/bin", env), "");
  EXPECT_EQ(env["CXX"], t + "/bin/g++");
  EXPECT_EQ(fs::read_symlink(t + "/bin/g++"), "/usr/bin/ccache");
  EXPECT_EQ(env["CC"], t + "/bin/gcc");
  EXPECT_EQ(env["PATH"], "/opt/x/bin:/usr/bin");  // ccache finds the real g++ there
  EXPECT_EQ(env.count("CMAKE_CXX_COMPILER_LAUNCHER"), 0u);
}


TEST(CompileCache, ExtensionBuildsRunNvccThroughTheCacheViaPytorchNvcc) {
  CompileCache c{"ccache", "/usr/bin/ccache"};
  ::ts::testkit::TempDir tmp("ts-cc");
  const std::string& t = tmp.path();
  ASSERT_FALSE(t.empty());
  std::map<std::string, std::string> env{{"CXX", "/usr/bin/g++"},
                                         {"CUDA_HOME", "/usr/local/cuda-13.0"},
                                         {"PATH", "/usr/local/cuda-13.0/bin:/usr/bin"}};
  EXPECT_EQ(apply_compile_cache(c, false, t + "/bin", env), "");
  EXPECT_EQ(env["PYTORCH_NVCC"], "/usr/bin/ccache /usr/local/cuda-13.0/bin/nvcc");
  EXPECT_EQ(env["CMAKE_CUDA_COMPILER_LAUNCHER"], "/usr/bin/ccache");  // setup.py that drives CMake
  EXPECT_EQ(env["CUDA_HOME"], "/usr/local/cuda-13.0");  // headers and libraries from the real toolkit
  EXPECT_EQ(env["CXX"], t + "/bin/g++");
  EXPECT_EQ(env.count("CMAKE_CXX_COMPILER_LAUNCHER"), 0u);  // CXX is wrapped already: no double ccache

  // A CPU build has no CUDA_HOME: nothing about nvcc.
  std::map<std::string, std::string> cpu{{"CXX", "/usr/bin/g++"}, {"PATH", "/usr/bin"}};
  EXPECT_EQ(apply_compile_cache(c, false, t + "/bin", cpu), "");
  EXPECT_EQ(cpu.count("PYTORCH_NVCC"), 0u);
  EXPECT_EQ(cpu.count("CMAKE_CUDA_COMPILER_LAUNCHER"), 0u);

  // A PYTORCH_NVCC the plan chose stays; CMake builds get launchers, not PYTORCH_NVCC.
  std::map<std::string, std::string> own{{"CUDA_HOME", "/c"}, {"PYTORCH_NVCC", "/opt/my-nvcc"}};
  EXPECT_EQ(apply_compile_cache(c, false, t + "/bin", own), "");
  EXPECT_EQ(own["PYTORCH_NVCC"], "/opt/my-nvcc");
  std::map<std::string, std::string> cm{{"CUDA_HOME", "/c"}};
  EXPECT_EQ(apply_compile_cache(c, true, "", cm), "");
  EXPECT_EQ(cm.count("PYTORCH_NVCC"), 0u);
}

TEST(CompileCache, TheToolsOwnSettingsReachTheBuild) {
  std::map<std::string, std::string> outer{{"CCACHE_DIR", "/tmp/c"}, {"CCACHE_BASEDIR", "/w"},
                                           {"SCCACHE_DIR", "/tmp/s"}, {"HOME", "/root"}};
  std::map<std::string, std::string> env{{"CCACHE_BASEDIR", "/plan"}};
  pass_cache_settings({"ccache", "/usr/bin/ccache"}, outer, env);
  EXPECT_EQ(env["CCACHE_DIR"], "/tmp/c");
  EXPECT_EQ(env["CCACHE_BASEDIR"], "/plan");  // the plan's own value wins
  EXPECT_EQ(env.count("SCCACHE_DIR"), 0u);
  EXPECT_EQ(env.count("HOME"), 0u);  // nothing else leaks into the exact environment
  std::map<std::string, std::string> s;
  pass_cache_settings({"sccache", "/opt/sccache"}, outer, s);
  EXPECT_EQ(s, (std::map<std::string, std::string>{{"SCCACHE_DIR", "/tmp/s"}}));
  std::map<std::string, std::string> none;
  pass_cache_settings({}, outer, none);
  EXPECT_TRUE(none.empty());
}

TEST(CompileCache, NvccCommandNeedsPathsNinjaCanSplit) {
  EXPECT_EQ(nvcc_through_cache({"sccache", "/opt/sccache"}, "/usr/local/cuda"), "/opt/sccache /usr/local/cuda/bin/nvcc");
  EXPECT_EQ(nvcc_through_cache({"ccache", "/usr/bin/ccache"}, "/opt/my cuda"), "");
  EXPECT_EQ(nvcc_through_cache({"ccache", "/my tools/ccache"}, "/usr/local/cuda"), "");
  EXPECT_EQ(nvcc_through_cache({}, "/usr/local/cuda"), "");
  EXPECT_EQ(nvcc_through_cache({"ccache", "/usr/bin/ccache"}, ""), "");
}

// The real thing where ccache and nvcc are installed: PYTORCH_NVCC's command run as ninja runs it
// (sh -c), twice on one .cu file with the -MD -MF form of dependency flags, the second is a hit.
TEST(CompileCache, RealCcacheCachesNvccCompiles) {
  std::string ccache = util::find_program("ccache", util::split_path("/usr/bin:/usr/local/bin"));
  if (ccache.empty() || !fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "needs ccache and /usr/local/cuda";
  ::ts::testkit::TempDir tmp("ts-ccnv");
  const std::string& t = tmp.path();
  ASSERT_FALSE(t.empty());
  std::ofstream(t + "/k.cu") << "__global__ void twice(float* x) { x[threadIdx.x] *= 2; }\n";
  CompileCache c{"ccache", ccache};
  std::string cmd = nvcc_through_cache(c, "/usr/local/cuda");
  ASSERT_FALSE(cmd.empty());
  util::RunOptions o;
  o.timeout = std::chrono::milliseconds(120000);
  o.cwd = t;
  // A clean environment: a CCACHE_DISABLE, CCACHE_RECACHE or config of the caller must not decide.
  o.env = std::map<std::string, std::string>{{"CCACHE_DIR", t + "/cache"},
                                             {"CCACHE_CONFIGPATH", t + "/ccache.conf"},
                                             {"HOME", t},
                                             {"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"}};
  std::string line = cmd + " -MD -MF k.o.d -c k.cu -o k.o -gencode arch=compute_90,code=sm_90";
  for (int i = 0; i < 2; ++i) {
    auto r = util::run({"/bin/sh", "-c", line}, o);
    ASSERT_TRUE(r.ok()) << r.err;
    ASSERT_TRUE(fs::exists(t + "/k.o"));
  }
  auto stats = util::run({ccache, "--print-stats"}, o);
  ASSERT_TRUE(stats.ok()) << stats.err;
  auto n = parse_ccache_print_stats(stats.out);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->misses, 1u);
  EXPECT_EQ(n->hits, 1u);
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// cpp_extension splits CC/CXX at whitespace: with an --out that has a space, the masquerade
// links go to a directory under the cache home whose path has none, and CXX still runs the cache.
TEST(CompileCache, AMasqueradeUnderAPathWithASpaceMovesToTheCacheHome) {
  ::ts::testkit::TempDir tmp("ts-cc");
  const std::string out = tmp.path() + "/my out/.cache-bin";
  const char* old = std::getenv("XDG_CACHE_HOME");
  std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", (tmp.path() + "/cache").c_str(), 1);
  CompileCache c{"ccache", "/usr/bin/ccache"};
  std::map<std::string, std::string> env{{"CXX", "/usr/bin/g++"}, {"PATH", "/usr/bin"}};
  EXPECT_EQ(apply_compile_cache(c, false, out, env), "");
  EXPECT_EQ(env["CXX"].find(' '), std::string::npos) << env["CXX"];
  EXPECT_EQ(env["CXX"].rfind(tmp.path() + "/cache/torchsmith/cache-bin/", 0), 0u) << env["CXX"];
  EXPECT_EQ(fs::read_symlink(env["CXX"]), "/usr/bin/ccache");
  EXPECT_EQ(masquerade_dir(tmp.path() + "/plain"), tmp.path() + "/plain");

  // A cache home with a space as well: refused with the reason (the build then runs uncached).
  setenv("XDG_CACHE_HOME", (tmp.path() + "/a cache").c_str(), 1);
  std::map<std::string, std::string> env2{{"CXX", "/usr/bin/g++"}};
  std::string e = apply_compile_cache(c, false, out, env2);
  EXPECT_NE(e.find("splits the compiler path"), std::string::npos) << e;
  EXPECT_EQ(env2["CXX"], "/usr/bin/g++");
  if (old) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace ts::run

#include "run/scale_setup.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "testkit/temp_dir.h"

namespace ts::run {
namespace {

plan::ScalePlan ccache_store(const std::string& url) {
  plan::ScalePlan s;
  s.cache_engine = "ccache";
  s.cache_store = url;
  return s;
}

TEST(ScaleSetup, StoreEnvBoundsCcachesWaitsAndKeepsTheCompilerArgs) {
  std::map<std::string, std::string> env;
  store_env(ccache_store("redis://127.100.0.2:6379"), "/out", env);
  EXPECT_EQ(env["CCACHE_REMOTE_STORAGE"], "redis://127.100.0.2:6379|connect-timeout=500|operation-timeout=3000");
  // No base_dir of our own: it would make ccache rewrite paths and change the objects' bytes.
  EXPECT_EQ(env.count("CCACHE_BASEDIR"), 0u);
  plan::ScalePlan s;
  s.cache_engine = "sccache";
  s.cache_store = "redis://h:6379";
  env.clear();
  store_env(s, "/out", env);
  EXPECT_EQ(env["SCCACHE_REDIS_ENDPOINT"], "redis://h:6379");
  EXPECT_EQ(env.size(), 1u);
}

TEST(ScaleSetup, StoreDownMeansNoStoreAndAWarning) {
  std::map<std::string, std::string> env;
  report::CacheStats rec;
  // Port 1 on loopback: nothing listens there.
  EXPECT_EQ(prepare_store(ccache_store("redis://127.0.0.1:1"), "/out", rec, env), "ccache");
  EXPECT_FALSE(rec.store_ok);
  EXPECT_EQ(rec.store, "redis://127.0.0.1:1");
  EXPECT_NE(rec.warning.find("did not answer"), std::string::npos) << rec.warning;
  EXPECT_NE(rec.warning.find("goes on without it"), std::string::npos) << rec.warning;
  EXPECT_EQ(env.count("CCACHE_REMOTE_STORAGE"), 0u);
  // No store planned: nothing to do.
  report::CacheStats none;
  EXPECT_EQ(prepare_store({}, "/out", none, env), "");
  EXPECT_EQ(none.store, "");
}

TEST(ScaleSetup, DistccBehindCcacheOrInItsPlace) {
  if (access("/usr/bin/distcc", X_OK) != 0) GTEST_SKIP() << "needs distcc";
  testkit::TempDir d;
  plan::ScalePlan s;
  s.distribute = "distcc";
  s.hosts = "127.100.0.3:3632/4";
  std::map<std::string, std::string> env{{"PATH", "/usr/bin:/bin"}};
  CompileCache ccache{"ccache", "/usr/bin/ccache"};
  EXPECT_EQ(apply_distcc(s, ccache, d.path() + "/distcc", d.path() + "/distcc.log", env), "");
  EXPECT_EQ(env["CCACHE_PREFIX"], "/usr/bin/distcc");
  EXPECT_EQ(env["DISTCC_HOSTS"], "127.100.0.3:3632/4");
  EXPECT_EQ(env["DISTCC_LOG"], d.path() + "/distcc.log");
  EXPECT_TRUE(std::filesystem::is_directory(d.path() + "/distcc"));
  // nvcc through ccache, but not through distcc.
  env["CUDA_HOME"] = "/usr/local/cuda";
  env["PYTORCH_NVCC"] = "/usr/bin/ccache /usr/local/cuda/bin/nvcc";
  env["CMAKE_CUDA_COMPILER_LAUNCHER"] = "/usr/bin/ccache";
  keep_nvcc_local(ccache, env);
  EXPECT_EQ(env["PYTORCH_NVCC"], "/usr/bin/env -u CCACHE_PREFIX /usr/bin/ccache /usr/local/cuda/bin/nvcc");
  EXPECT_EQ(env["CMAKE_CUDA_COMPILER_LAUNCHER"], "/usr/bin/env;-u;CCACHE_PREFIX;/usr/bin/ccache");

  CompileCache none;
  env = {{"PATH", "/usr/bin:/bin"}};
  EXPECT_EQ(apply_distcc(s, none, d.path() + "/distcc", d.path() + "/distcc.log", env), "");
  EXPECT_EQ(none.tool, "distcc");
  EXPECT_EQ(env.count("CCACHE_PREFIX"), 0u);
  CompileCache sccache{"sccache", "/usr/bin/sccache"};
  EXPECT_NE(apply_distcc(s, sccache, d.path() + "/distcc", d.path() + "/l", env).find("use ccache"), std::string::npos);
  // No hosts kept: nothing changes.
  s.hosts.clear();
  CompileCache c2;
  env.clear();
  EXPECT_EQ(apply_distcc(s, c2, d.path() + "/distcc", d.path() + "/l", env), "");
  EXPECT_TRUE(env.empty());
}

}  // namespace
}  // namespace ts::run

#include "run/stale.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "util/fs.h"
#include "testkit/temp_dir.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

using Dir = ::ts::testkit::TempDir;

std::string cache(const std::string& home, const std::string& cxx, const std::string& gen = "Ninja") {
  return "# This is the CMakeCache file.\n"
         "//Path to a program.\n"
         "CMAKE_CXX_COMPILER:FILEPATH=" + cxx + "\n"
         "CMAKE_GENERATOR:INTERNAL=" + gen + "\n"
         "CMAKE_HOME_DIRECTORY:INTERNAL=" + home + "\n"
         "CUDA_NVCC_EXECUTABLE:FILEPATH=CUDA_NVCC_EXECUTABLE-NOTFOUND\n"
         "Python_EXECUTABLE:FILEPATH=/usr/bin/python3\r\n";
}

TEST(Stale, ParsesCacheLines) {
  auto c = parse_cmake_cache(cache("/src", "/usr/bin/g++"));
  EXPECT_EQ(c["CMAKE_CXX_COMPILER"], "/usr/bin/g++");
  EXPECT_EQ(c["CMAKE_GENERATOR"], "Ninja");
  EXPECT_EQ(c["Python_EXECUTABLE"], "/usr/bin/python3");  // CR stripped
  EXPECT_EQ(c.count("//Path to a program."), 0u);
}

TEST(Stale, AbsentCacheIsNotConfigured) {
  Dir d;
  auto r = check_stale(d.path() + "/build", {});
  EXPECT_FALSE(r.exists);
  EXPECT_FALSE(r.stale);
}

TEST(Stale, SameToolchainIsReusedAndSymlinksCompareByTarget) {
  Dir d;
  fs::create_directories(d.path() + "/build");
  // /usr/bin/c++ and /usr/bin/g++ both lead to the same compiler on Debian (alternatives).
  std::string cxx = fs::exists("/usr/bin/c++") ? "/usr/bin/c++" : "/usr/bin/g++";
  ASSERT_EQ(util::write_file_atomic(d.path() + "/build/CMakeCache.txt", cache(d.path(), cxx)), "");
  TreeExpectation want{d.path(), fs::canonical(cxx).string(), "", "/usr/bin/python3", "Ninja"};
  auto r = check_stale(d.path() + "/build", want);
  EXPECT_TRUE(r.exists);
  EXPECT_FALSE(r.stale) << (r.reasons.empty() ? "" : r.reasons[0]);
}

TEST(Stale, OtherCompilerTreeAndGeneratorAreEachAReason) {
  Dir d;
  fs::create_directories(d.path() + "/build");
  ASSERT_EQ(util::write_file_atomic(d.path() + "/build/CMakeCache.txt",
                                    cache("/elsewhere/pytorch", "/opt/gcc-9/bin/g++", "Unix Makefiles")), "");
  TreeExpectation want{d.path(), "/usr/bin/g++-12", "/usr/local/cuda/bin/nvcc", "/usr/bin/python3", "Ninja"};
  auto r = check_stale(d.path() + "/build", want);
  EXPECT_TRUE(r.stale);
  ASSERT_EQ(r.reasons.size(), 3u);  // nvcc NOTFOUND in the cache is not a difference
  EXPECT_NE(r.reasons[0].find("source tree /elsewhere/pytorch"), std::string::npos) << r.reasons[0];
  EXPECT_NE(r.reasons[1].find("C++ compiler /opt/gcc-9/bin/g++ (in the cache) vs /usr/bin/g++-12"), std::string::npos)
      << r.reasons[1];
  EXPECT_NE(r.reasons[2].find("Does not match the generator used previously"), std::string::npos) << r.reasons[2];
}

TEST(Stale, CleanKeepsTheLogsThenRemoves) {
  Dir d;
  std::string b = d.path() + "/build";
  fs::create_directories(b + "/CMakeFiles");
  ASSERT_EQ(util::write_file_atomic(b + "/CMakeCache.txt", "X:STRING=1\n"), "");
  ASSERT_EQ(util::write_file_atomic(b + "/CMakeFiles/CMakeError.log", "error text\n"), "");
  ASSERT_EQ(util::write_file_atomic(b + "/.ninja_log", "# ninja log v5\n"), "");
  ASSERT_EQ(util::write_file_atomic(b + "/big.o", "object"), "");
  std::vector<std::string> kept;
  EXPECT_EQ(clean_build_dir(b, d.path() + "/kept", &kept), "");
  EXPECT_FALSE(fs::exists(b));
  EXPECT_EQ(kept.size(), 3u);
  EXPECT_EQ(util::read_file(d.path() + "/kept/CMakeError.log").value_or(""), "error text\n");
  EXPECT_TRUE(fs::exists(d.path() + "/kept/.ninja_log"));
  EXPECT_FALSE(fs::exists(d.path() + "/kept/big.o"));
}

TEST(Stale, ExpectationComesFromThePlan) {
  plan::Plan p;
  p.env = {{"CXX", "/usr/bin/g++-11"}, {"USE_NINJA", "1"}};
  p.cuda = plan::CudaChoice::from_text("11.8.89");
  p.cuda_home = "/usr/local/cuda-11.8";
  p.python = "/opt/conda/bin/python3";
  auto t = expectation_from_plan(p, "/src/pytorch");
  EXPECT_EQ(t.home_directory, "/src/pytorch");
  EXPECT_EQ(t.cxx_compiler, "/usr/bin/g++-11");
  EXPECT_EQ(t.cuda_compiler, "/usr/local/cuda-11.8/bin/nvcc");
  EXPECT_EQ(t.python, "/opt/conda/bin/python3");
  EXPECT_EQ(t.generator, "Ninja");
}

}  // namespace
}  // namespace ts::run

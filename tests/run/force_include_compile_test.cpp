// The force-include remedy on real compiles (run/remedy.h, triage's stdlib.toml rule): a source that
// uses std::cout with no include fails under nvcc 13 (`namespace "std" has no member "cout"`, the
// wording that names no header) and under g++; triage's root cause gives the header from the table,
// and the same compile with the remedy's NVCC_APPEND_FLAGS / CXXFLAGS succeeds. Near misses: a
// member the table does not have, and a namespace of the source's own that merely looks like std.
// The same for Thrust's names under nvcc 13 (CCCL 3.0), whose header goes to nvcc alone.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "run/remedy.h"
#include "testkit/find_nvcc.h"
#include "testkit/temp_dir.h"
#include "triage/scanner.h"
#include "triage/signature.h"
#include "util/fs.h"
#include "util/process.h"
#include "triage/test_util.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

using triage::testing::engine;  // one Engine over the embedded signatures (tests/triage/test_util.h)

using testkit::find_nvcc;  // tests/testkit/find_nvcc.h

// Compiles `source` with `argv` (the file's path last), diagnoses the failure and asks for the remedy.
struct Attempt {
  util::RunResult ran;
  RemedyPlan remedy;
};
Attempt compile_and_diagnose(std::vector<std::string> argv, const std::map<std::string, std::string>& extra = {}) {
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  o.extra_env = extra;
  Attempt a;
  a.ran = util::run(argv, o);
  if (!a.ran.ok()) {
    triage::Diagnosis d = triage::diagnose_text(engine(), a.ran.out + a.ran.err);
    a.remedy = choose_remedy(d, {}, {}, {}, 0, {}, true, {});
  }
  return a;
}

TEST(ForceIncludeCompile, NvccStdCoutWithoutIostreamBuildsWithTheTablesHeader) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda)";
  testkit::TempDir t("ts-force-include");
  const std::string src = "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                          "int report(int n) { std::cout << n << '\\n'; return 0; }\n";
  ASSERT_EQ(util::write_file_atomic(t / "utils.cu", src), "");
  std::vector<std::string> argv{nvcc, "-c", "-arch=sm_90", "-o", t / "utils.o", t / "utils.cu"};
  Attempt first = compile_and_diagnose(argv);
  ASSERT_FALSE(first.ran.ok());
  EXPECT_NE((first.ran.out + first.ran.err).find("namespace \"std\" has no member \"cout\""), std::string::npos)
      << first.ran.out << first.ran.err;
  ASSERT_TRUE(first.remedy.retry) << first.remedy.refused;
  EXPECT_EQ(first.remedy.kind, "force_include");
  EXPECT_EQ(first.remedy.env.at("NVCC_APPEND_FLAGS"), "-include iostream");
  EXPECT_EQ(first.remedy.env.at("TORCHSMITH_FORCE_INCLUDE"), "iostream");
  Attempt retry = compile_and_diagnose(argv, {{"NVCC_APPEND_FLAGS", first.remedy.env.at("NVCC_APPEND_FLAGS")}});
  EXPECT_TRUE(retry.ran.ok()) << retry.ran.out << retry.ran.err;
  EXPECT_TRUE(fs::exists(t / "utils.o"));

  // A member no table row has: no header to include, so no retry.
  ASSERT_EQ(util::write_file_atomic(t / "other.cu", "int f() { return std::frobnicate(1); }\n"), "");
  Attempt unknown = compile_and_diagnose({nvcc, "-c", "-arch=sm_90", "-o", t / "other.o", t / "other.cu"});
  ASSERT_FALSE(unknown.ran.ok());
  EXPECT_FALSE(unknown.remedy.retry);
  // The source's own namespace that nvcc says lacks `cout`: not std's, nothing force-included.
  ASSERT_EQ(util::write_file_atomic(t / "mine.cu", "namespace mystd { int x; }\nint f() { mystd::cout << 1; return 0; }\n"), "");
  Attempt mine = compile_and_diagnose({nvcc, "-c", "-arch=sm_90", "-o", t / "mine.o", t / "mine.cu"});
  ASSERT_FALSE(mine.ran.ok());
  EXPECT_NE((mine.ran.out + mine.ran.err).find("namespace \"mystd\" has no member \"cout\""), std::string::npos)
      << mine.ran.out << mine.ran.err;
  EXPECT_TRUE(!mine.remedy.retry || mine.remedy.env.count("TORCHSMITH_FORCE_INCLUDE") == 0) << mine.remedy.reason;
}

// Thrust's name with its namespace there and its header not (CUDA 13's CCCL 3.0 and newer torch headers
// include fewer Thrust headers; torch's c10/util/complex.h still brings <thrust/complex.h> under nvcc):
// nvcc 13 says `namespace "thrust" has no member "device"`, and the retry force-includes the header
// stdlib.toml gives, for nvcc only. Near misses: a Thrust name the table lacks, and the source's own
// namespace `thrust_utils`.
TEST(ForceIncludeCompile, NvccThrustDeviceWithoutExecutionPolicyBuildsWithTheTablesHeaderForNvccOnly) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda)";
  testkit::TempDir t("ts-force-include");
  const std::string src = "#include <thrust/complex.h>\n"
                          "template <class Policy> int on(const Policy&) { return 1; }\n"
                          "int device_policy() { return on(thrust::device); }\n";
  ASSERT_EQ(util::write_file_atomic(t / "policy.cu", src), "");
  std::vector<std::string> argv{nvcc, "-c", "-arch=sm_90", "-o", t / "policy.o", t / "policy.cu"};
  Attempt first = compile_and_diagnose(argv);
  ASSERT_FALSE(first.ran.ok());
  EXPECT_NE((first.ran.out + first.ran.err).find("namespace \"thrust\" has no member \"device\""), std::string::npos)
      << first.ran.out << first.ran.err;
  ASSERT_TRUE(first.remedy.retry) << first.remedy.refused;
  EXPECT_EQ(first.remedy.kind, "force_include");
  EXPECT_EQ(first.remedy.reason.rfind("MISSING_CCCL_HEADER: <thrust/execution_policy.h>", 0), 0u) << first.remedy.reason;
  EXPECT_EQ(first.remedy.env.at("NVCC_APPEND_FLAGS"), "-include thrust/execution_policy.h");
  EXPECT_EQ(first.remedy.env.count("CXXFLAGS"), 0u);  // nvcc's sources only
  EXPECT_EQ(first.remedy.env.count("TORCHSMITH_FORCE_INCLUDE"), 0u);
  Attempt retry = compile_and_diagnose(argv, {{"NVCC_APPEND_FLAGS", first.remedy.env.at("NVCC_APPEND_FLAGS")}});
  EXPECT_TRUE(retry.ran.ok()) << retry.ran.out << retry.ran.err;
  EXPECT_TRUE(fs::exists(t / "policy.o"));

  // A Thrust name no row has: no header to include, so no retry.
  ASSERT_EQ(util::write_file_atomic(t / "other.cu", "#include <thrust/complex.h>\nint f() { return thrust::frobnicate(1); }\n"), "");
  Attempt unknown = compile_and_diagnose({nvcc, "-c", "-arch=sm_90", "-o", t / "other.o", t / "other.cu"});
  ASSERT_FALSE(unknown.ran.ok());
  EXPECT_NE((unknown.ran.out + unknown.ran.err).find("namespace \"thrust\" has no member \"frobnicate\""), std::string::npos)
      << unknown.ran.out << unknown.ran.err;
  EXPECT_FALSE(unknown.remedy.retry) << unknown.remedy.reason;
  // The source's own namespace whose name starts like Thrust's: nothing of Thrust's force-included.
  ASSERT_EQ(util::write_file_atomic(t / "mine.cu", "namespace thrust_utils { int x; }\nint f() { return thrust_utils::device(1); }\n"), "");
  Attempt mine = compile_and_diagnose({nvcc, "-c", "-arch=sm_90", "-o", t / "mine.o", t / "mine.cu"});
  ASSERT_FALSE(mine.ran.ok());
  EXPECT_NE((mine.ran.out + mine.ran.err).find("namespace \"thrust_utils\" has no member \"device\""), std::string::npos)
      << mine.ran.out << mine.ran.err;
  EXPECT_TRUE(!mine.remedy.retry || mine.remedy.env.count("NVCC_APPEND_FLAGS") == 0) << mine.remedy.reason;
}

// The host compiler's side: CXXFLAGS carries the same -include (what CMake and the build helper read).
TEST(ForceIncludeCompile, HostCompilerNumericLimitsBuildsWithTheRemedysCxxflags) {
  std::string cxx = util::find_program("g++", util::split_path(std::getenv("PATH") ? std::getenv("PATH") : ""));
  if (cxx.empty()) GTEST_SKIP() << "no g++ on PATH";
  testkit::TempDir t("ts-force-include");
  ASSERT_EQ(util::write_file_atomic(t / "lim.cpp", "int big() { return std::numeric_limits<int>::max(); }\n"), "");
  std::vector<std::string> argv{cxx, "-c", "-o", t / "lim.o", t / "lim.cpp"};
  Attempt first = compile_and_diagnose(argv);
  ASSERT_FALSE(first.ran.ok());
  ASSERT_TRUE(first.remedy.retry) << first.remedy.refused;
  ASSERT_EQ(first.remedy.env.at("CXXFLAGS"), "-include limits");
  std::vector<std::string> with{cxx, "-include", "limits", "-c", "-o", t / "lim.o", t / "lim.cpp"};
  Attempt retry = compile_and_diagnose(with);
  EXPECT_TRUE(retry.ran.ok()) << retry.ran.out << retry.ran.err;
}

}  // namespace
}  // namespace ts::run

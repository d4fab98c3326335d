// build.cuda-half-operators on a real nvcc compile (run/remedy.h, signatures.toml's
// CUDA_HALF_OPERATOR_AMBIGUOUS): spconv's maxpool backward compares c10::Half with == in a __global__
// template; compiled as a CMake project compiles it (no cpp_extension defines) it fails under nvcc 13
// with torch's headers (`more than one operator "==" matches these operands`), triage names the class,
// and the same command with the remedy's NVCC_APPEND_FLAGS compiles. Near miss: the remedy refuses a
// second time (the defines already there). Needs nvcc and the test venv's torch headers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "run/remedy.h"
#include "testkit/find_nvcc.h"
#include "testkit/temp_dir.h"
#include "triage/scanner.h"
#include "triage/signature.h"
#include "triage/test_util.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

using triage::testing::engine;  // one Engine over the embedded signatures (tests/triage/test_util.h)

using testkit::find_nvcc;  // tests/testkit/find_nvcc.h

// The newest torch the tests have (the test venv's): its include directory, or "".
std::string torch_include() {
  const char* home = std::getenv("HOME");
  std::string py = std::string(home ? home : "/root") + "/.cache/torchsmith/test-venvs/torch-cu13/bin/python";
  if (!fs::exists(py)) return "";
  auto r = util::run({py, "-c", "import os, torch; print(os.path.dirname(torch.__file__))"}, {std::chrono::seconds(120)});
  return r.ok() && !r.out.empty() ? r.out.substr(0, r.out.find('\n')) + "/include" : "";
}

TEST(HalfOperatorsCompile, HalfComparedInDeviceCodeBuildsWithCppExtensionsDefines) {
  const std::string nvcc = find_nvcc(), inc = torch_include();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda)";
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  testkit::TempDir t("ts-half-ops");
  ASSERT_EQ(util::write_file_atomic(t / "maxpool.cu",
                                    "#include <c10/util/Half.h>\n"
                                    "template <typename T>\n"
                                    "__global__ void backward(const T* in, const T* out, const T* dout, T* din, int n) {\n"
                                    "  int i = threadIdx.x;\n"
                                    "  if (i < n && in[i] == out[i]) din[i] += dout[i];\n"
                                    "}\n"
                                    "template __global__ void backward<c10::Half>(const c10::Half*, const c10::Half*, "
                                    "const c10::Half*, c10::Half*, int);\n"),
            "");
  std::vector<std::string> argv{nvcc, "-c", "-std=c++20", "-arch=sm_86", "-I" + inc, "-o", t / "maxpool.o", t / "maxpool.cu"};
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  auto before = util::run(argv, o);
  ASSERT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("more than one operator \"==\" matches these operands"), std::string::npos)
      << before.out << before.err;
  triage::Diagnosis d = triage::diagnose_text(engine(), before.out + before.err);
  ASSERT_NE(d.root(), nullptr);
  EXPECT_EQ(d.root()->id, "CUDA_HALF_OPERATOR_AMBIGUOUS");
  RemedyPlan r = choose_remedy(d, {}, {}, {}, 0, {}, true, {});
  ASSERT_TRUE(r.retry) << r.refused;
  ASSERT_EQ(r.env.count("NVCC_APPEND_FLAGS"), 1u);
  o.extra_env = {{"NVCC_APPEND_FLAGS", r.env.at("NVCC_APPEND_FLAGS")}};
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err;
  EXPECT_TRUE(fs::exists(t / "maxpool.o"));
  EXPECT_FALSE(choose_remedy(d, r.env, {}, {}, 1, {}, true, {}).retry);
}

}  // namespace
}  // namespace ts::run

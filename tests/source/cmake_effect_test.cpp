// The sm_120 fix does what it is for: CMake itself accepts "12.0" after it, and refuses it before.
#include <gtest/gtest.h>

#include "source/apply.h"
#include "test_tree.h"
#include "util/process.h"

using namespace ts::source;
using namespace ts::source::testkit;

namespace {

const char* kArchFile = "cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake";

ts::util::RunResult select_arches(const std::string& tree, const std::string& arches) {
  std::string script = tree + "/probe.cmake";
  spit(script, "set(CUDA_VERSION 12.8)\ninclude(\"" + tree + "/" + kArchFile + "\")\n"
               "CUDA_SELECT_NVCC_ARCH_FLAGS(flags " + arches + ")\n");
  return ts::util::run({"cmake", "-P", script});
}

}  // namespace

TEST(Sm120FixEffect, CMakeAcceptsTwoDigitMajorsOnlyAfterTheFix) {
  if (ts::util::run({"cmake", "--version"}).not_found) GTEST_SKIP() << "cmake not installed";
  std::vector<std::string> errors;
  FixSet set = load_fixes({}, errors);
  for (const char* name : {"torch-2.4", "torch-1.13"}) {
    ScratchDir dir;
    std::string tree = copy_tree(name, dir);
    auto before = select_arches(tree, "8.6 12.0");
    EXPECT_FALSE(before.ok()) << name;
    EXPECT_NE(before.err.find("Unknown CUDA Architecture Name 12.0"), std::string::npos) << before.err;
    FixContext ctx{"torch", name == std::string("torch-2.4") ? "2.4.1" : "1.13.1", "12.8", "", "", {ts::CudaArch::of(12, 0)}};
    ApplyResult r = apply_fixes(tree, {set.find("torch-select-compute-arch-sm120")}, ctx);
    ASSERT_TRUE(r.ok) << name;
    auto after = select_arches(tree, "8.6 12.0 10.0+PTX Blackwell");
    EXPECT_TRUE(after.ok()) << name << ": " << after.err;
  }
}

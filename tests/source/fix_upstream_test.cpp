// The fixes checked against upstream files: each applied to a fake tree shaped like the upstream
// file at the version it claims (tests/fixtures/trees), applied twice (= once), and reverted byte
// for byte; on a tree that already has upstream's own fix it must be a no-op or report drift.
#include <gtest/gtest.h>

#include <map>

#include "source/apply.h"
#include "source/hash.h"
#include "test_tree.h"
#include "util/process.h"

using namespace ts::source;
using namespace ts::source::testkit;
using ts::CudaArch;

namespace {

const char* kCudaCmake = "cmake/public/cuda.cmake";
const char* kQuantType = "torch/csrc/jit/passes/quantization/quantization_type.h";

std::vector<std::string> ids(const std::vector<const Fix*>& fixes) {
  std::vector<std::string> out;
  for (const Fix* f : fixes) out.push_back(f->id);
  return out;
}

const FixReport* report_for(const ApplyResult& r, const std::string& id) {
  for (const auto& rep : r.fixes)
    if (rep.id == id) return &rep;
  return nullptr;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(UpstreamFixes, NvToolsExtOnTorch24WithCuda129) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "2.4.1", "12.9", "3.30.2", "12.2.0", {}};
  auto chosen = select_fixes(set, ctx);
  ASSERT_EQ(ids(chosen), std::vector<std::string>{"torch-cuda-nvtoolsext-nvtx3"});
  auto before = tree_digest(tree);
  std::string original = slurp(tree + "/" + kCudaCmake);

  ApplyResult r1 = apply_fixes(tree, chosen, ctx);
  ASSERT_TRUE(r1.ok) << joined(r1.errors);
  EXPECT_EQ(r1.changed_files, std::vector<std::string>{kCudaCmake});
  std::string patched = slurp(tree + "/" + kCudaCmake);
  EXPECT_EQ(patched.find("message(FATAL_ERROR \"Failed to find nvToolsExt\")"), std::string::npos);
  EXPECT_NE(patched.find("if(NOT TARGET CUDA::nvToolsExt)\n  # torchsmith fix torch-cuda-nvtoolsext-nvtx3"),
            std::string::npos);
  EXPECT_NE(patched.find("add_library(CUDA::nvToolsExt INTERFACE IMPORTED)\n"
                         "  target_include_directories(CUDA::nvToolsExt INTERFACE \"${TORCHSMITH_NVTX3_DIR}/nvtx3\")"),
            std::string::npos);
  // Everything else is as upstream had it: torch::nvtoolsext still links CUDA::nvToolsExt, which
  // now exists either way; the edit sits where the check was, after find_package(CUDAToolkit).
  EXPECT_EQ(count(patched, "add_library(CUDA::nvToolsExt INTERFACE IMPORTED)"), 1u);
  EXPECT_NE(patched.find("    TARGET torch::nvtoolsext PROPERTY INTERFACE_LINK_LIBRARIES\n    CUDA::nvToolsExt)"),
            std::string::npos);
  EXPECT_LT(patched.find("find_package(CUDAToolkit REQUIRED)"), patched.find("torchsmith fix"));
  EXPECT_LT(patched.find("torchsmith fix"), patched.find("# nvToolsExt\nadd_library(torch::nvtoolsext"));
  EXPECT_EQ(patched.size() - original.size(),
            set.find("torch-cuda-nvtoolsext-nvtx3")->edits[0].text.size() -
                set.find("torch-cuda-nvtoolsext-nvtx3")->edits[0].anchor.size());

  auto once = tree_digest(tree);
  ApplyResult r2 = apply_fixes(tree, chosen, ctx);
  ASSERT_TRUE(r2.ok) << joined(r2.errors);
  EXPECT_TRUE(r2.changed_files.empty());
  EXPECT_EQ(tree_digest(tree), once);
  const FixReport* rep = report_for(r2, "torch-cuda-nvtoolsext-nvtx3");
  ASSERT_NE(rep, nullptr);
  EXPECT_EQ(rep->state, FixReport::State::already_applied);

  RevertResult rv = revert_fixes(tree);
  ASSERT_TRUE(rv.ok) << joined(rv.errors);
  EXPECT_EQ(rv.restored, std::vector<std::string>{kCudaCmake});
  EXPECT_EQ(slurp(tree + "/" + kCudaCmake), original);
  EXPECT_EQ(tree_digest(tree), before);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
}

TEST(UpstreamFixes, NvToolsExtReportsDriftOnTheNvtx3FormOf25) {
  // 2.5+ look for header-only NVTX3 themselves and have no FATAL_ERROR to replace: the fix is
  // not selected there, and forced onto such a tree it names the file instead of guessing.
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.6", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "2.6.0", "12.9", "3.30", "13.3", {}};
  EXPECT_TRUE(select_fixes(set, ctx).empty());
  auto before = tree_digest(tree);
  ApplyResult r = apply_fixes(tree, {set.find("torch-cuda-nvtoolsext-nvtx3")}, ctx);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(joined(r.errors).find(std::string("upstream drifted: ") + kCudaCmake + ": anchor"), std::string::npos)
      << joined(r.errors);
  EXPECT_NE(joined(r.errors).find("matched 0 times"), std::string::npos) << joined(r.errors);
  EXPECT_EQ(tree_digest(tree), before);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
}

TEST(UpstreamFixes, QuantizationTypeGetsCstdintWithGcc13OnTorch113) {
  ScratchDir dir;
  std::string tree = copy_tree("torch-1.13", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "1.13.1", "11.7", "3.26.4", "13.2.0", {}};
  auto chosen = select_fixes(set, ctx);
  // The 1.13 install-command fix has no host condition, so it comes along.
  ASSERT_EQ(ids(chosen), (std::vector<std::string>{"torch-jit-quantization-type-cstdint-gcc13",
                                                   "torch-setup-stock-install-command"}));
  auto before = tree_digest(tree);
  std::string original = slurp(tree + "/" + kQuantType);

  ApplyResult r1 = apply_fixes(tree, chosen, ctx);
  ASSERT_TRUE(r1.ok) << joined(r1.errors);
  EXPECT_EQ(r1.changed_files, (std::vector<std::string>{kQuantType, "setup.py"}));
  std::string patched = slurp(tree + "/" + kQuantType);
  EXPECT_EQ(patched.rfind("#pragma once\n#include <cstdint>\n#include <ostream>\n\nnamespace torch {\n", 0), 0u)
      << patched;
  EXPECT_EQ(patched, "#pragma once\n#include <cstdint>\n" + original.substr(std::string("#pragma once\n").size()));

  auto once = tree_digest(tree);
  ApplyResult r2 = apply_fixes(tree, chosen, ctx);
  ASSERT_TRUE(r2.ok) << joined(r2.errors);
  EXPECT_TRUE(r2.changed_files.empty());
  EXPECT_EQ(tree_digest(tree), once);
  const FixReport* rep = report_for(r2, "torch-jit-quantization-type-cstdint-gcc13");
  ASSERT_NE(rep, nullptr);
  EXPECT_EQ(rep->state, FixReport::State::already_applied);

  // The patched header stands on its own (any GCC): uint8_t comes from the include it now has.
  if (!ts::util::run({"g++", "--version"}).not_found) {
    std::string probe = dir / "probe.cpp";
    spit(probe, "#include \"" + tree + "/" + kQuantType + "\"\nint main() { return torch::jit::STATIC; }\n");
    auto cc = ts::util::run({"g++", "-std=c++17", "-fsyntax-only", probe});
    EXPECT_TRUE(cc.ok()) << cc.err;
  }

  RevertResult rv = revert_fixes(tree);
  ASSERT_TRUE(rv.ok) << joined(rv.errors);
  EXPECT_EQ(slurp(tree + "/" + kQuantType), original);
  EXPECT_EQ(tree_digest(tree), before);
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
}

TEST(UpstreamFixes, QuantizationTypeFixIsANoOpWhereUpstreamAlreadyHasTheInclude) {
  // 2.1+ carry the include (pytorch#98951): the fix is not selected, and forced it changes nothing.
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  FixSet set = builtin();
  FixContext ctx{"torch", "2.4.1", "12.4", "3.30", "13.3.0", {}};
  EXPECT_TRUE(select_fixes(set, ctx).empty());
  auto before = tree_digest(tree);
  ApplyResult r = apply_fixes(tree, {set.find("torch-jit-quantization-type-cstdint-gcc13")}, ctx);
  ASSERT_TRUE(r.ok) << joined(r.errors);
  EXPECT_TRUE(r.changed_files.empty());
  const FixReport* rep = report_for(r, "torch-jit-quantization-type-cstdint-gcc13");
  ASSERT_NE(rep, nullptr);
  EXPECT_EQ(rep->state, FixReport::State::already_applied);
  EXPECT_EQ(tree_digest(tree), before);
}

// The nvToolsExt fix does what it is for, in CMake itself: on a toolkit with only the header-only
// NVTX3 (what CUDA 12.9+ ship), the 2.4 cuda.cmake stops before the fix and configures after it,
// and a source that includes <nvToolsExt.h> through torch::nvtoolsext gets the NVTX3 header.
TEST(UpstreamFixesEffect, NvToolsExtConfiguresAndCompilesAgainstHeaderOnlyNvtx3) {
  if (ts::util::run({"cmake", "--version"}).not_found || ts::util::run({"c++", "--version"}).not_found)
    GTEST_SKIP() << "cmake or c++ not installed";
  ScratchDir dir;
  std::string tree = copy_tree("torch-2.4", dir);
  // A CUDA 12.9-like toolkit: include/nvtx3/nvToolsExt.h, no libnvToolsExt, no v2 header.
  std::string cuda = dir / "cuda";
  fs::create_directories(cuda + "/include/nvtx3");
  spit(cuda + "/include/nvtx3/nvToolsExt.h",
       "#pragma once\n#define TS_FAKE_NVTX3 1\ninline int nvtxRangePushA(const char*) { return 0; }\n");
  // FindCUDAToolkit stand-in: the targets 2.4's cuda.cmake uses, and no CUDA::nvToolsExt.
  fs::create_directories(dir / "modules");
  spit(dir / "modules/FindCUDAToolkit.cmake",
       "set(CUDAToolkit_FOUND TRUE)\nset(CUDAToolkit_VERSION 12.9.0)\n"
       "set(CUDAToolkit_INCLUDE_DIRS \"" + cuda + "/include\")\n"
       "add_library(CUDA::cudart INTERFACE IMPORTED)\n");
  spit(dir / "main.cpp",
       "#include <nvToolsExt.h>\nstatic_assert(TS_FAKE_NVTX3, \"\");\nint main() { return nvtxRangePushA(\"x\"); }\n");
  spit(dir / "CMakeLists.txt",
       "cmake_minimum_required(VERSION 3.18)\nproject(probe CXX)\n"
       "list(APPEND CMAKE_MODULE_PATH \"" + (dir / "modules") + "\")\n"
       "set(CMAKE_CUDA_COMPILER_VERSION 12.9.0)\n"
       "include(\"" + tree + "/" + kCudaCmake + "\")\n"
       "add_executable(probe main.cpp)\ntarget_link_libraries(probe PRIVATE torch::nvtoolsext)\n");
  auto configure = [&](const std::string& build) {
    return ts::util::run({"cmake", "-S", dir.path(), "-B", build, "-G", "Ninja"});
  };
  if (ts::util::run({"ninja", "--version"}).not_found) GTEST_SKIP() << "ninja not installed";

  auto before = configure(dir / "build-before");
  EXPECT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("Failed to find nvToolsExt"), std::string::npos) << before.err;

  FixSet set = builtin();
  FixContext ctx{"torch", "2.4.1", "12.9", "", "", {}};
  ApplyResult r = apply_fixes(tree, {set.find("torch-cuda-nvtoolsext-nvtx3")}, ctx);
  ASSERT_TRUE(r.ok) << joined(r.errors);
  auto after = configure(dir / "build-after");
  ASSERT_TRUE(after.ok()) << after.out << after.err;
  auto build = ts::util::run({"cmake", "--build", dir / "build-after"});
  EXPECT_TRUE(build.ok()) << build.out << build.err;
}

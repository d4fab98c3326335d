// What a package directory reaches above itself through quoted includes (fairseq's lightconv_layer:
// `#include "../cuda_utils.cu"`), in turn through what those files include; near misses reach nothing.
#include "source/outside_reach.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"

namespace ts::source {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(OutsideReach, AnIncludeAboveThePackageAndWhatItIncludesAreFound) {
  testkit::TempDir t;
  fs::path repo = fs::path(t.path()) / "fairseq/modules";
  write(repo / "lightconv_layer/lightconv_cuda_kernel.cu", "#include \"lightconv_cuda.cuh\"\n#include \"../cuda_utils.cu\"\n");
  write(repo / "lightconv_layer/lightconv_cuda.cuh", "#pragma once\n");
  write(repo / "cuda_utils.cu", "#include \"common/limits.h\"\n");
  write(repo / "common/limits.h", "#pragma once\n");
  write(repo / "unrelated.cu", "int x;\n");
  auto r = find_outside_reach((repo / "lightconv_layer").string());
  EXPECT_EQ(r.depth, 1);
  EXPECT_EQ(r.files, (std::vector<std::string>{"../cuda_utils.cu", "../common/limits.h"}));
  ASSERT_FALSE(r.why.empty());
  EXPECT_EQ(r.why[0], "lightconv_cuda_kernel.cu:2: #include \"../cuda_utils.cu\"");
  EXPECT_EQ(tail_components((repo / "lightconv_layer").string(), r.depth), "lightconv_layer");
  EXPECT_EQ(tail_components("/a/b/c", 2), "b/c");
}

TEST(OutsideReach, IncludesThatStayInsideOrFindNothingReachNothing) {
  testkit::TempDir t;
  fs::path pkg = fs::path(t.path()) / "pkg";
  write(pkg / "src/a.cpp", "#include \"../include/a.h\"\n#include \"../../missing.h\"\n// #include \"../../x.h\" is a comment\n");
  write(pkg / "include/a.h", "#pragma once\n");
  write(fs::path(t.path()) / "x.h", "\n");
  write(fs::path(t.path()) / "far/away/deep.h", "\n");
  write(pkg / "b.cpp", "#include <../system.h>\n");
  auto r = find_outside_reach(pkg.string());
  EXPECT_EQ(r.depth, 0);
  EXPECT_TRUE(r.files.empty());
}

}  // namespace
}  // namespace ts::source

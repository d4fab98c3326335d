// build.header-source's files (run/header_source.h): a folder build.toml pins by commit and sha256,
// brought from a mirror directory into the cache, copied into the build's copy of the source as files
// the fix journal says torchsmith created, so a revert removes them and leaves the tree as it was.
// No compiler, no network: a few files in a scratch directory.
#include <gtest/gtest.h>

#include <filesystem>

#include "run/header_source.h"
#include "source/apply.h"
#include "source/hash.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCommit = "0123456789abcdef0123456789abcdef01234567";
const std::string kMath = "#pragma once\n#define LT_HELPER 1\n";
const std::string kString = "#pragma once\n";

plan::HeaderSource entry() {
  return {{"helper_math.h", "helper_string.h"}, {source::sha256_hex(kMath), source::sha256_hex(kString)},
          "NVIDIA/cuda-samples", "v0", kCommit, "Common", "a stand-in", {}};
}

std::string mirror_with(const std::string& dir, const std::string& math) {
  const fs::path m = fs::path(dir) / "mirror";
  const fs::path d = m / "NVIDIA/cuda-samples" / kCommit / "Common";
  fs::create_directories(d);
  EXPECT_EQ(util::write_file_atomic((d / "helper_math.h").string(), math), "");
  EXPECT_EQ(util::write_file_atomic((d / "helper_string.h").string(), kString), "");
  return m.string();
}

TEST(HeaderSource, TheMissingHeaderIsReadFromGccAndNvccLines) {
  EXPECT_EQ(missing_header_in("src/bvh_cuda_op.cu:38:10: fatal error: helper_math.h: No such file or directory"),
            "helper_math.h");
  EXPECT_EQ(missing_header_in("k.cu(3): catastrophic error: cannot open source file \"cuda/helper_cuda.h\""), "helper_cuda.h");
  EXPECT_EQ(missing_header_in("error: expected ';' before '}' token"), "");
}

TEST(HeaderSource, FilesComeIntoTheCacheAndTheBuildsCopyAndRevertRemovesThem) {
  testkit::TempDir t("ts-header-source");
  const std::string tree = t / "src", cache = t / "cache";
  fs::create_directories(tree);
  ASSERT_EQ(util::write_file_atomic(tree + "/module.cpp", "#include \"helper_math.h\"\n"), "");
  HeaderSourceResult r = provide_header_source(entry(), cache, mirror_with(t.path(), kMath), tree, false);
  ASSERT_EQ(r.error, "");
  const std::string cached = cache + "/header-sources/NVIDIA+cuda-samples@" + kCommit + "/Common";
  EXPECT_EQ(util::read_file(cached + "/helper_math.h").value_or(""), kMath);
  EXPECT_EQ(r.include_dir, tree + "/torchsmith-headers/cuda-samples/Common");
  EXPECT_EQ(util::read_file(r.include_dir + "/helper_string.h").value_or(""), kString);
  EXPECT_EQ(r.copied, (std::vector<std::string>{"torchsmith-headers/cuda-samples/Common/helper_math.h",
                                                "torchsmith-headers/cuda-samples/Common/helper_string.h"}));
  EXPECT_NE(r.diff.find("+#define LT_HELPER 1"), std::string::npos) << r.diff;
  // Again: from the cache, nothing fetched (the mirror is gone), nothing written twice.
  fs::remove_all(t / "mirror");
  HeaderSourceResult again = provide_header_source(entry(), cache, t / "mirror", tree, false);
  EXPECT_EQ(again.error, "");
  EXPECT_EQ(again.from, "the cache");
  EXPECT_TRUE(again.copied.empty());
  source::RevertResult rv = source::revert_fixes(tree);
  ASSERT_TRUE(rv.ok);
  EXPECT_FALSE(fs::exists(r.include_dir + "/helper_math.h"));
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith/journal.json"));
  EXPECT_EQ(util::read_file(tree + "/module.cpp").value_or(""), "#include \"helper_math.h\"\n");
}

// Near misses: a file that is not the pinned one is refused and nothing is written into the tree or
// kept in the cache; a tree built in place gets the cache's folder and no file of its own.
TEST(HeaderSource, AnotherFileIsRefusedAndATreeInPlaceIsNotWritten) {
  testkit::TempDir t("ts-header-source");
  const std::string tree = t / "src", cache = t / "cache";
  fs::create_directories(tree);
  HeaderSourceResult bad = provide_header_source(entry(), cache, mirror_with(t.path(), "#define LT_HELPER 2\n"), tree, false);
  EXPECT_NE(bad.error.find(", the KB pins " + source::sha256_hex(kMath)), std::string::npos) << bad.error;
  EXPECT_FALSE(fs::exists(tree + "/torchsmith-headers"));
  EXPECT_FALSE(fs::exists(cache + "/header-sources/NVIDIA+cuda-samples@" + std::string(kCommit) + "/Common/helper_math.h"));
  fs::remove_all(t / "mirror");
  HeaderSourceResult in_place = provide_header_source(entry(), cache, mirror_with(t.path(), kMath), tree, true);
  EXPECT_EQ(in_place.error, "");
  EXPECT_EQ(in_place.include_dir, cache + "/header-sources/NVIDIA+cuda-samples@" + kCommit + "/Common");
  EXPECT_FALSE(fs::exists(tree + "/torchsmith-headers"));
  EXPECT_FALSE(fs::exists(tree + "/.torchsmith"));
}

}  // namespace
}  // namespace ts::run

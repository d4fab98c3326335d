// build.header-source end to end (tests/fixtures/projects/long_tail/samples_header) against Debian's torch
// 1.13, offline: the package includes "helper_math.h" from $CUDA_SAMPLES_INC, as torch-mesh-isect does,
// and nothing sets it (the CUDA samples left the toolkit with 11.6). Plain `pip wheel --no-build-isolation`
// stops at the include; torchsmith's build stops there too, triage names CUDA_SAMPLES_HEADER_MISSING, and
// the retry gets the folder build.toml's [[header_source]] names, brought into the cache from a mirror
// directory (TORCHSMITH_HEADER_SOURCE_MIRROR) and copied into the build's copy of the source, journaled.
// The folder is a stand-in made here, given by a --kb overlay entry with the real one's key
// (NVIDIA/cuda-samples, Common), so it replaces it. Near miss: a mirror whose file is not the pinned one
// is refused and the build fails as before.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "source/hash.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCommit = "0123456789abcdef0123456789abcdef01234567";
constexpr const char* kHelper = "#pragma once\n#define LT_SAMPLES_HELPER 11\n";

struct Served {
  testkit::TempDir t;
  util::RunResult plain, built;
};

// The package copied, the overlay and the mirror written (`served` is what the mirror holds), then
// torchsmith build offline.
void build(Served& s, const std::string& served) {
  fs::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/samples_header", s.t / "pkg",
           fs::copy_options::recursive);
  fs::create_directories(s.t / "kb");
  ASSERT_EQ(util::write_file_atomic(s.t / "kb/build.toml",
                                    std::string("[[header_source]]\nheaders = [\"helper_math.h\"]\nsha256 = [\"") +
                                        source::sha256_hex(kHelper) + "\"]\nrepository = \"NVIDIA/cuda-samples\"\n"
                                        "tag = \"v0.0-test\"\ncommit = \"" + kCommit + "\"\npath = \"Common\"\n"
                                        "source = \"NVIDIA/cuda-samples@" + kCommit + ":Common/helper_math.h (a stand-in)\"\n"),
            "");
  const fs::path mirror = s.t / "mirror";
  fs::create_directories(mirror / "NVIDIA/cuda-samples" / kCommit / "Common");
  ASSERT_EQ(util::write_file_atomic(mirror / "NVIDIA/cuda-samples" / kCommit / "Common/helper_math.h", served), "");
  s.plain = util::run({"/usr/bin/python3", "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", s.t / "d", "."},
                      {std::chrono::seconds(120), std::nullopt, {}, s.t / "pkg"});
  util::RunOptions o;
  o.timeout = std::chrono::seconds(600);
  o.extra_env = {{"PIP_INDEX_URL", "http://127.0.0.1:9/simple"}, {"PIP_RETRIES", "0"}, {"PIP_TIMEOUT", "2"},
                 {"TORCHSMITH_HEADER_SOURCE_MIRROR", mirror.string()}};
  s.built = util::run({TS_BINARY, "--kb", s.t / "kb", "build", s.t / "pkg", "--torch", "/usr/bin/python3", "--out",
                       s.t / "out", "--cache-dir", s.t / "cache", "--compile-cache", "none"},
                      o);
}

TEST(HeaderSourceCli, ASamplesHeaderComesFromItsRepositoryFolderIntoTheBuildsCopy) {
  if (!testing::debian_torch())
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  Served s;
  build(s, kHelper);
  EXPECT_FALSE(s.plain.ok());
  EXPECT_NE((s.plain.out + s.plain.err).find("helper_math.h: No such file or directory"), std::string::npos)
      << s.plain.out << s.plain.err;
  ASSERT_EQ(s.built.exit_code, 0) << s.built.out << s.built.err;
  EXPECT_NE(s.built.out.find("smoke"), std::string::npos) << s.built.out;
  EXPECT_NE(s.built.err.find("CUDA_SAMPLES_HEADER_MISSING: [build.header-source] helper_math.h"), std::string::npos)
      << s.built.err;
  // In the cache at the commit, in the build's copy (journaled as created), never in the package's tree.
  EXPECT_EQ(util::read_file(s.t / "cache/header-sources/NVIDIA+cuda-samples@" + std::string(kCommit) +
                            "/Common/helper_math.h").value_or(""), kHelper);
  EXPECT_EQ(util::read_file(s.t / "out/src/torchsmith-headers/cuda-samples/Common/helper_math.h").value_or(""), kHelper);
  EXPECT_FALSE(fs::exists(s.t / "pkg/torchsmith-headers"));
  std::string journal = util::read_file(s.t / "out/src/.torchsmith/journal.json").value_or("");
  EXPECT_NE(journal.find("\"created\": true"), std::string::npos) << journal;
  EXPECT_NE(util::read_file(s.t / "out/last/header-source.diff").value_or("").find("+#define LT_SAMPLES_HELPER 11"),
            std::string::npos);
  // `torchsmith fix --revert` removes what the remedy added, and only that.
  auto rev = util::run({TS_BINARY, "fix", s.t / "out/src", "--revert"}, {});
  EXPECT_TRUE(rev.ok()) << rev.out << rev.err;
  EXPECT_FALSE(fs::exists(s.t / "out/src/torchsmith-headers/cuda-samples/Common/helper_math.h"));
  EXPECT_TRUE(fs::exists(s.t / "out/src/module.cpp"));
}

TEST(HeaderSourceCli, AFileThatIsNotThePinnedOneIsRefused) {
  if (!testing::debian_torch())
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  Served s;
  build(s, "#pragma once\n#define LT_SAMPLES_HELPER 12\n");
  EXPECT_NE(s.built.exit_code, 0) << s.built.out << s.built.err;
  EXPECT_NE(s.built.err.find("no retry: build.header-source: "), std::string::npos) << s.built.err;
  EXPECT_NE(s.built.err.find(", the KB pins " + source::sha256_hex(kHelper)), std::string::npos) << s.built.err;
  EXPECT_FALSE(fs::exists(s.t / "out/src/torchsmith-headers"));
}

}  // namespace
}  // namespace ts

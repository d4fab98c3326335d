// build.toml: loads clean, its lookups answer per version, and a broken overlay names file:line.
#include <gtest/gtest.h>

#include "plan/build_kb.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "kb/check.h"
#include "testkit/version_of.h"

namespace ts::plan {
namespace {

TEST(BuildKb, EmbeddedLoadsWithoutErrors) {
  std::vector<std::string> errors;
  BuildKb b = load_build_kb({}, errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_GE(b.features.size(), 15u);
  EXPECT_GE(b.portable.size(), 10u);
  for (const auto& f : b.features) EXPECT_FALSE(f.source.empty()) << f.name;
  for (const auto& f : b.features)
    for (const auto& n : f.needs) EXPECT_NE(b.feature(n), nullptr) << f.name << " needs unknown " << n;
}

TEST(BuildKb, VersionGatedEntries) {
  std::vector<std::string> errors;
  BuildKb b = load_build_kb({}, errors);
  auto has = [&](const char* v, const char* name) {
    for (const auto* f : b.features_for(testkit::version_of(v)))
      if (f->name == name) return true;
    return false;
  };
  EXPECT_TRUE(has("1.13.0", "split-cuda"));
  EXPECT_TRUE(has("1.8.0", "split-cuda"));
  EXPECT_FALSE(has("2.0.0", "split-cuda"));
  EXPECT_FALSE(has("1.13.0", "flash-attention"));
  EXPECT_EQ(b.invocation(testkit::version_of("2.4.1"), "wheel")->command[1], "setup.py");
  EXPECT_EQ(b.invocation(testkit::version_of("2.9.0"), "wheel")->command[2], "pip");
  EXPECT_EQ(b.portable_for(*Version::parse("11.8.89"), testkit::version_of("2.0.0"))->arches, "3.7;5.0;6.0;7.0;7.5;8.0;8.6;9.0");
  EXPECT_EQ(b.portable_for(*Version::parse("12.8"), testkit::version_of("2.7.0"))->arches, "7.0;7.5;8.0;8.6;9.0;10.0;12.0");
  EXPECT_EQ(b.portable_for(*Version::parse("10.2"), testkit::version_of("2.1.0")), nullptr);
  EXPECT_NE(b.env_var("CMAKE_POLICY_VERSION_MINIMUM", testkit::version_of("2.4.1")), nullptr);
  EXPECT_EQ(b.env_var("CMAKE_POLICY_VERSION_MINIMUM", testkit::version_of("2.8.0")), nullptr);
  EXPECT_EQ(b.image(*Version::parse("11.7.1"))->cudnn, "8");
  // A local label ("+cu121") is not part of the version a range is asked about.
  EXPECT_EQ(b.invocation(testkit::version_of("2.9.0+cu128"), "wheel")->command[2], "pip");
}

// Ranges, CUDA versions and image tags are parsed when the file loads: a bad tag is reported at its
// line (the file then contributes nothing), and the lookups compare typed values.
TEST(BuildKb, EntriesAreTypedWhenLoaded) {
  BuildKb b;
  std::vector<std::string> errors;
  ASSERT_TRUE(read_build_text(b, "o.toml",
                              "[[image]]\ncuda = \"12.4\"\nversions = [\"12.4.0\", \"12.4.1\"]\nos = [\"ubuntu22.04\"]\nsource = \"x\"\n"
                              "[[env]]\nname = \"X\"\ntorch = \">=2.1,<2.5\"\nsource = \"x\"\n",
                              errors)) << errors[0];
  ASSERT_EQ(b.images.size(), 1u);
  EXPECT_EQ(b.images[0].versions.back(), testkit::version_of("12.4.1"));
  EXPECT_EQ(b.images[0].versions.back().original(), "12.4.1");
  EXPECT_EQ(b.image(testkit::version_of("12.4.131")), &b.images[0]);  // by major.minor
  EXPECT_EQ(b.image(testkit::version_of("12.5")), nullptr);
  EXPECT_EQ(b.env[0].torch.original(), ">=2.1,<2.5");
  EXPECT_NE(b.env_var("X", testkit::version_of("2.4.1")), nullptr);
  EXPECT_EQ(b.env_var("X", testkit::version_of("2.5.0")), nullptr);  // near miss: the bound itself
  BuildKb bad;
  EXPECT_FALSE(read_build_text(bad, "bad.toml",
                               "[[image]]\ncuda = \"12.4\"\nversions = [\"12.4.x\"]\nos = [\"ubuntu22.04\"]\nsource = \"x\"\n",
                               errors));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.back().find("bad.toml:3"), std::string::npos) << errors.back();
  EXPECT_NE(errors.back().find("12.4.x"), std::string::npos) << errors.back();
  EXPECT_TRUE(bad.images.empty());
}

TEST(BuildKb, OverlayErrorsNameFileAndLine) {
  BuildKb b;
  std::vector<std::string> errors;
  EXPECT_FALSE(read_build_text(b, "over/build.toml", "[[feature]]\nname = \"x\"\noption = \"USE_X\"\ntorch = \"2.x\"\n",
                               errors));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("over/build.toml:"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("torch"), std::string::npos) << errors[0];
  errors.clear();
  EXPECT_FALSE(read_build_text(b, "b.toml", "[[portable]]\ncuda = \"11.8\"\narches = \"8.6;banana\"\nsource = \"x\"\n", errors));
  EXPECT_TRUE(b.portable.empty());  // a file with errors contributes nothing
}

TEST(BuildKb, OverlayReplacesByKey) {
  std::vector<std::string> errors;
  BuildKb b = load_build_kb({}, errors);
  ASSERT_TRUE(read_build_text(b, "o.toml", "[[portable]]\ncuda = \"12.8\"\narches = \"12.0\"\nsource = \"mine\"\n", errors));
  EXPECT_EQ(b.portable_for(*Version::parse("12.8"), testkit::version_of("2.7.0"))->arches, "12.0");
}

// n [[env]] entries, each merged by key: the reader's CPU seconds, and a later entry of a key
// replacing the earlier one in its place.
double env_overlay_seconds(int n, std::size_t* added) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "[[env]]\nname = \"VAR" + std::to_string(i) + "\"\nsource = \"s\"\n";
  text += "[[env]]\nname = \"VAR0\"\nsource = \"last\"\n";
  std::vector<std::string> errors;
  BuildKb b = load_build_kb({}, errors);
  const std::size_t before = b.env.size();
  const std::clock_t start = std::clock();
  EXPECT_TRUE(read_build_text(b, "o.toml", text, errors)) << (errors.empty() ? "" : errors[0]);
  const double secs = double(std::clock() - start) / CLOCKS_PER_SEC;
  *added = b.env.size() - before;
  EXPECT_EQ(b.env[before].name, "VAR0");
  EXPECT_EQ(b.env[before].source, "last");
  return secs;
}

// Linear: four times the entries cost about four times as much (with a scan per entry, 10,000 took
// 0.69 CPU s and 40,000 9.9 s, 14 times as much; by index 0.02 and 0.09).
TEST(BuildKb, OverlayLoadingIsLinearInEntries) {
  std::size_t quarter_n = 0, full_n = 0;
  const double quarter = env_overlay_seconds(10'000, &quarter_n), full = env_overlay_seconds(40'000, &full_n);
  std::printf("build.toml overlay: 10,000 [[env]] %.2f CPU s, 40,000 %.2f CPU s\n", quarter, full);
  EXPECT_EQ(quarter_n, 10'000u);
  EXPECT_EQ(full_n, 40'000u);
  EXPECT_LT(full, 8 * quarter + 0.5);
}

}  // namespace
}  // namespace ts::plan

namespace ts::plan {
namespace {

TEST(BuildKb, KbCheckValidatesBuildToml) {
  auto dir = std::filesystem::temp_directory_path() / ("ts-buildkb-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "build.toml") << "[[env]]\nname = \"MAX_JOBS\"\ntorch = \"nope\"\nsource = \"x\"\n";
  auto errors = kb::check_kb({dir.string()}, true, {kBuildTable.spec});
  std::filesystem::remove_all(dir);
  bool found = false;
  for (const auto& e : errors) found |= e.origin.line == 3 && e.message.find("torch") != std::string::npos;
  EXPECT_TRUE(found);
  for (const auto& e : errors)  // the embedded build.toml itself is clean
    if (e.origin.file == "build.toml") ADD_FAILURE() << e.str();
}


// build.header-wheel's table: an include path finds its entry by folder (entries end in '/', so
// "cutlassx/" is not "cutlass/"); a header that is no folder, or an include folder outside the
// distribution, is the file's error.
TEST(BuildKb, HeaderWheelsMatchByFolderAndAreChecked) {
  std::vector<std::string> errors;
  BuildKb b = load_build_kb({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const HeaderWheel* h = b.header_wheel("cutlass/gemm/device/gemm.h");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->distribution, "nvidia-cutlass");
  EXPECT_EQ(h->include.front(), "cutlass_library/source/include");
  EXPECT_NE(b.header_wheel("cute/tensor.hpp"), nullptr);
  EXPECT_EQ(b.header_wheel("cutlassx/cutlass.h"), nullptr);
  EXPECT_EQ(b.header_wheel("torch/extension.h"), nullptr);
  EXPECT_FALSE(read_build_text(b, "o.toml",
                               "[[header_wheel]]\nheader = \"eigen\"\ndistribution = \"x\"\ninclude = [\"../up\"]\n"
                               "source = \"https://example.org\"\n",
                               errors));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("is not a folder ending in '/'"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("is not a folder inside the distribution"), std::string::npos) << errors[1];
}

}  // namespace
}  // namespace ts::plan

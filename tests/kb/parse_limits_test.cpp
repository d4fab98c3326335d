// Issue 32, class 6 for TOML: a 200,000-deep table header from ~/.config/torchsmith/kb crashed kb
// check, doctor and plan (SIGSEGV in toml++); nesting and entry counts are screened before toml++
// sees the text, and loading 100k entries is linear (a scan per entry took 28.9 s).
#include <gtest/gtest.h>

#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "kb/kb.h"
#include "kb/toml_parse.h"
#include "testkit/temp_dir.h"

namespace ts::kb {
namespace {

std::string deep_header(std::size_t n) {
  std::string t = "[a";
  for (std::size_t i = 0; i < n; ++i) t += ".a";
  return t + "]\nx = 1\n";
}

TEST(TomlLimits, DeepKeysAndNestingAreRefusedBeforeTomlppSeesThem) {
  EXPECT_NE(toml_precheck(deep_header(200'000)).find("nested deeper than 64"), std::string::npos);
  EXPECT_NE(toml_precheck("x." + deep_header(100).substr(1)).find("nested deeper"), std::string::npos);
  EXPECT_NE(toml_precheck("x = " + std::string(100'000, '[')).find("nested deeper than 64"), std::string::npos);
  EXPECT_NE(toml_precheck("x = " + std::string(100'000, '{')).find("nested deeper than 64"), std::string::npos);
  // What real files hold stays accepted: dotted keys, floats in arrays, dots inside strings.
  EXPECT_EQ(toml_precheck(deep_header(40)), "");
  EXPECT_EQ(toml_precheck("a.b.c = [1.5, 2.5, 3.5]\nv = \"" + std::string(500, '.') + "\"\n[[x.y]]\nz = {a.b = 1}\n"), "");
}

TEST(TomlLimits, AnOverlayWithADeepHeaderIsAnErrorNotACrash) {
  testkit::TempDir t;
  std::ofstream(t / "gpus.toml") << deep_header(200'000);
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  ASSERT_TRUE(errors.empty());
  load_dir(kb, t.path(), errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].str().find("nested deeper than 64"), std::string::npos) << errors[0].str();
}

// N [[family]] entries in an overlay, each read, checked for a duplicate name and merged: the
// loader's CPU seconds (this process is single-threaded here; wall time on a shared machine is not).
double load_seconds(const testkit::TempDir& t, int n, std::size_t* families) {
  {
    std::ofstream f(t / "families.toml");
    for (int i = 0; i < n; ++i)
      f << "[[family]]\nname = \"Family" << i << "\"\narches = [\"8.0\"]\n"
           "source = \"https://docs.nvidia.com/cuda/cuda-c-programming-guide/\"\n\n";
  }
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  const std::size_t before = kb.families.size();
  const std::clock_t start = std::clock();
  load_dir(kb, t.path(), errors);
  const double secs = double(std::clock() - start) / CLOCKS_PER_SEC;
  for (std::size_t i = 0; i < errors.size() && i < 3; ++i) ADD_FAILURE() << errors[i].str();
  *families = kb.families.size() - before;
  return secs;
}

// Linear: four times the entries cost about four times as much (a scan per entry: sixteen; main
// took 28.9 s for 100k on the attack run's machine).
TEST(TomlLimits, LoadingIsLinearInEntries) {
  testkit::TempDir t;
  std::size_t quarter_n = 0, full_n = 0;
  const double quarter = load_seconds(t, 25'000, &quarter_n), full = load_seconds(t, 100'000, &full_n);
  std::printf("families.toml overlay: 25,000 entries %.2f CPU s, 100,000 entries %.2f CPU s\n", quarter, full);
  EXPECT_EQ(quarter_n, 25'000u);
  EXPECT_EQ(full_n, 100'000u);
  EXPECT_LT(full, 8 * quarter + 1.0);
}

}  // namespace
}  // namespace ts::kb

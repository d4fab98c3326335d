// Issue 32, class 6 for TOML: a 200,000-deep table header from ~/.config/torchsmith/kb crashed kb
// check, doctor and plan (SIGSEGV in toml++); nesting and entry counts are screened before toml++
// sees the text, and loading 100k entries is linear (a scan per entry took 28.9 s).
#include <gtest/gtest.h>

#include <chrono>
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

// 100,000 [[family]] entries in an overlay: every one read, checked for a duplicate name and merged.
TEST(TomlLimits, LoadingIsLinearInEntries) {
  testkit::TempDir t;
  {
    std::ofstream f(t / "families.toml");
    for (int i = 0; i < 100'000; ++i)
      f << "[[family]]\nname = \"Family" << i << "\"\narches = [\"8.0\"]\n"
           "source = \"https://docs.nvidia.com/cuda/cuda-c-programming-guide/\"\n\n";
  }
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  const std::size_t before = kb.families.size();
  const auto start = std::chrono::steady_clock::now();
  load_dir(kb, t.path(), errors);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("100,000-entry families.toml overlay loaded in %.2f s\n", secs);
  for (std::size_t i = 0; i < errors.size() && i < 3; ++i) ADD_FAILURE() << errors[i].str();
  EXPECT_EQ(kb.families.size(), before + 100'000);
  EXPECT_LT(secs, 15.0);  // a few seconds here; 28.9 s with a scan per entry
}

}  // namespace
}  // namespace ts::kb

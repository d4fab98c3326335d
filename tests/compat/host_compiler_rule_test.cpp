// The host-compiler rule (compiler.nvcc_host): the default GCC when it fits, else the newest that does.
#include "compat/host_compiler_rule.h"

#include <gtest/gtest.h>

namespace ts::compat {
namespace {

HostFacts gccs(std::vector<std::string> versions) {
  HostFacts f;
  for (const auto& v : versions)
    f.compilers.push_back({"gcc", "/usr/bin/gcc-" + v, "/usr/bin/g++-" + v, v, "x86_64-linux-gnu"});
  return f;
}

TEST(HostCompilerRule, DefaultWhenItFitsElseTheNewestThatDoes) {
  HostFacts f = gccs({"13.3.0", "11.4.0", "12.3.0"});
  const CompilerFacts& def = f.compilers[0];
  auto h = host_gcc(def, f, 0, 14);  // CUDA 12.8 takes gcc <= 14: the default stays
  EXPECT_EQ(h.pick, &def);
  EXPECT_FALSE(h.moved);
  h = host_gcc(def, f, 0, 12);  // CUDA 12.1-like limit: the newest within it
  ASSERT_NE(h.pick, nullptr);
  EXPECT_EQ(h.pick->version, "12.3.0");
  EXPECT_TRUE(h.moved);
  h = host_gcc(def, f, 9, 10);  // none fits: moved, nothing to pick
  EXPECT_EQ(h.pick, nullptr);
  EXPECT_TRUE(h.moved);
  h = host_gcc(f.compilers[1], f, 12, 0);  // a torch release's gcc_min passes over an older default
  ASSERT_NE(h.pick, nullptr);
  EXPECT_EQ(h.pick->version, "13.3.0");
}

}  // namespace
}  // namespace ts::compat

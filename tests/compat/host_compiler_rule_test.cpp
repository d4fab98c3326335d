// The host-compiler rule (compiler.nvcc_host): the default GCC when it fits, else the newest that does.
#include "compat/host_compiler_rule.h"

#include "testkit/version_of.h"
#include <gtest/gtest.h>

namespace ts::compat {
namespace {

HostFacts gccs(std::vector<std::string> versions) {
  HostFacts f;
  for (const auto& v : versions)
    f.compilers.push_back({"gcc", "/usr/bin/gcc-" + v, "/usr/bin/g++-" + v, FactVersion(v), "x86_64-linux-gnu"});
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

TEST(HostCompilerRule, BuildsStartFromTheDefaultGccElseTheNewestWithACxxDriver) {
  HostFacts f = gccs({"11.4.0", "13.3.0"});
  EXPECT_EQ(default_gcc(f), &f.compilers[0]);  // the default stays even when a newer one is installed
  f.compilers.insert(f.compilers.begin(), {"gcc", "/usr/bin/gcc", "", "14.2.0", "x86_64-linux-gnu"});
  ASSERT_NE(default_gcc(f), nullptr);  // the default (gcc on PATH) has no g++: nvcc and setup.py need one
  EXPECT_EQ(default_gcc(f)->version, "13.3.0");
  f.compilers[0] = {"gcc", "/usr/bin/gcc", "/usr/bin/g++", "", "x86_64-linux-gnu"};  // version not read
  EXPECT_EQ(default_gcc(f)->version, "13.3.0");
  EXPECT_EQ(default_gcc(HostFacts{}), nullptr);
  HostFacts clang;
  clang.compilers.push_back({"clang", "/usr/bin/clang", "/usr/bin/clang++", "17.0.6", "x86_64-linux-gnu"});
  EXPECT_EQ(default_gcc(clang), nullptr);
}

TEST(HostCompilerRule, OldestCudaThatAcceptsAGcc) {
  kb::Kb kb;
  for (auto [v, gmax] : {std::pair{"12.4", "13"}, {"11.8", "11"}, {"12.8", "14"}, {"10.2", ""}}) {
    kb::CudaRelease r;
    r.version = testkit::version_of(v);
    if (*gmax) r.gcc_max = testkit::version_of(gmax);
    kb.cuda.push_back(r);
  }
  ASSERT_NE(oldest_cuda_for_gcc(kb, 13), nullptr);
  EXPECT_EQ(oldest_cuda_for_gcc(kb, 13)->version.original(), "12.4");
  EXPECT_EQ(oldest_cuda_for_gcc(kb, 9)->version.original(), "11.8");  // 10.2 has no gcc_max in the KB: not counted
  EXPECT_EQ(oldest_cuda_for_gcc(kb, 15), nullptr);
}

TEST(HostCompilerRule, UserCompilerAndWhyItMisfits) {
  HostFacts f;
  f.compilers.push_back({"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.3.0", "x86_64-linux-gnu"});
  EXPECT_EQ(user_compiler(f), nullptr);  // CC/CXX unset
  f.compilers.push_back({"gcc", "/opt/gcc/bin/gcc", "/opt/gcc/bin/g++", "15.1.0", "x86_64-linux-gnu", "CC"});
  ASSERT_NE(user_compiler(f), nullptr);
  EXPECT_EQ(user_compiler(f)->cc, "/opt/gcc/bin/gcc");
  const CompilerFacts& u = *user_compiler(f);
  EXPECT_EQ(user_gcc_misfit(u, 9, 15, "lo", "hi"), "");
  EXPECT_EQ(user_gcc_misfit(u, 0, 14, "lo", "hi"), "gcc 15.1.0 is too new: hi");
  EXPECT_EQ(user_gcc_misfit(u, 16, 0, "lo", "hi"), "gcc 15.1.0 is too old: lo");
  CompilerFacts clang{"clang", "/usr/bin/clang", "/usr/bin/clang++", "18.1.3", "", "CC"};
  EXPECT_NE(user_gcc_misfit(clang, 0, 0, "", "").find("is clang"), std::string::npos);
  CompilerFacts c_only{"gcc", "/opt/gcc/bin/gcc", "", "14.2.0", "", "CC"};
  EXPECT_NE(user_gcc_misfit(c_only, 0, 0, "", "").find("no C++ driver"), std::string::npos);
  CompilerFacts unread{"gcc", "/opt/gcc/bin/gcc", "/opt/gcc/bin/g++", "", "", "CC"};
  EXPECT_EQ(user_gcc_misfit(unread, 0, 0, "", ""), "its version could not be read");
}

}  // namespace
}  // namespace ts::compat

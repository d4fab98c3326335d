// compiler.user-cc: the plan builds with the user's $CC/$CXX when it fits every limit the
// compiler step applies (nvcc's gcc_max, torch's gcc_min, a GCC with a C++ driver), so torchsmith
// and plain pip compile with one compiler; else it chooses as before and says why it passed it over.
#include <gtest/gtest.h>

#include "extension_fakes.h"
#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

const Decision* find(const Plan& p, const std::string& topic, const std::string& rule) {
  for (const auto& d : p.decisions)
    if (d.topic == topic && d.rule == rule) return &d;
  return nullptr;
}

CompilerFacts user_gcc(const std::string& version, const std::string& from_env = "CC") {
  return {"gcc", "/opt/gcc/bin/gcc", "/opt/gcc/bin/g++", FactVersion(version), "x86_64-linux-gnu", from_env};
}

// An extension against torch 2.7.1+cu128 with nvcc 12.8 (gcc_max 14); the default is /usr/bin/g++ 12.2.
HostFacts ext_host() { return testing::fake_host(testing::fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.9"}); }
PlanResult ext_plan(const HostFacts& f) {
  return make_extension_plan(testing::dir_request(testing::cuda_only_scan()), f, testing::test_kb(),
                             recipe_generic("d"), &testing::test_fixes());
}

TEST(UserCompiler, ExtensionTakesAFittingCc) {
  auto f = ext_host();
  f.compilers.push_back(user_gcc("13.3.0"));
  auto r = ext_plan(f);
  ASSERT_TRUE(r.ok()) << render_explain(r);
  const Decision* d = find(r.plan, "compiler", "compiler.user-cc");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_NE(d->value.find("gcc 13.3.0 (/opt/gcc/bin/g++)"), std::string::npos) << d->value;
  EXPECT_NE(d->reason.find("CC=/opt/gcc/bin/gcc"), std::string::npos) << d->reason;
  // The build env says the same compiler everywhere: setuptools' CC/CXX and nvcc's host compiler.
  EXPECT_EQ(testing::env(r.plan, "CC"), "/opt/gcc/bin/gcc");
  EXPECT_EQ(testing::env(r.plan, "CXX"), "/opt/gcc/bin/g++");
  EXPECT_EQ(testing::env(r.plan, "CUDAHOSTCXX"), "/opt/gcc/bin/g++");
  EXPECT_EQ(r.plan.host_compiler, "/opt/gcc/bin/g++");
}

TEST(UserCompiler, ExtensionPassesOverACcTooNewForNvcc) {
  auto f = ext_host();
  f.compilers.push_back(user_gcc("15.1.0"));
  auto r = ext_plan(f);
  ASSERT_TRUE(r.ok()) << render_explain(r);
  const Decision* d = find(r.plan, "compiler", "compiler.user-cc");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->value.find("passed over: CC=/opt/gcc/bin/gcc"), std::string::npos) << d->value;
  EXPECT_NE(d->reason.find("gcc 15.1.0 is too new"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("CUDA 12.8 accepts gcc <= 14"), std::string::npos) << d->reason;
  EXPECT_EQ(testing::env(r.plan, "CXX"), "/usr/bin/g++");  // chosen as without it
  EXPECT_EQ(testing::env(r.plan, "CUDAHOSTCXX"), "/usr/bin/g++");
}

TEST(UserCompiler, ExtensionWithoutCcIsUnchanged) {
  auto r = ext_plan(ext_host());
  ASSERT_TRUE(r.ok()) << render_explain(r);
  EXPECT_EQ(find(r.plan, "compiler", "compiler.user-cc"), nullptr);
  ASSERT_NE(find(r.plan, "compiler", "compiler.nvcc_host"), nullptr);
  EXPECT_EQ(testing::env(r.plan, "CXX"), "/usr/bin/g++");
}

TEST(UserCompiler, ACcWithoutCxxDriverIsPassedOver) {
  auto f = ext_host();
  CompilerFacts cc = user_gcc("13.3.0");
  cc.cxx.clear();
  f.compilers.push_back(cc);
  auto r = ext_plan(f);
  const Decision* d = find(r.plan, "compiler", "compiler.user-cc");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_NE(d->reason.find("no C++ driver"), std::string::npos) << d->reason;
  EXPECT_EQ(testing::env(r.plan, "CXX"), "/usr/bin/g++");
}

// A torch build: s1 has gcc 7.5 on PATH and CUDA 11.8 (gcc_max 11).
TEST(UserCompiler, TorchBuildTakesAFittingCcAndPassesOverANewOne) {
  HostFacts f = fixture("s1-rtx4090-cuda118");
  auto base = make_plan(spec_of("torch==1.13.0"), f, knowledge());
  ASSERT_TRUE(base.ok()) << render_explain(base);
  ASSERT_NE(base.plan.env.at("CXX"), "/opt/gcc/bin/g++");

  f.compilers.push_back(user_gcc("11.4.0"));
  auto r = make_plan(spec_of("torch==1.13.0"), f, knowledge());
  ASSERT_TRUE(r.ok()) << render_explain(r);
  const Decision* d = find(r.plan, "compiler", "compiler.user-cc");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_NE(d->value.find("gcc 11.4.0"), std::string::npos);
  EXPECT_EQ(r.plan.env.at("CXX"), "/opt/gcc/bin/g++");
  EXPECT_EQ(r.plan.env.at("CUDAHOSTCXX"), "/opt/gcc/bin/g++");
  EXPECT_EQ(r.plan.env.at("CMAKE_CUDA_HOST_COMPILER"), "/opt/gcc/bin/g++");

  f.compilers.back() = user_gcc("13.2.0");
  auto over = make_plan(spec_of("torch==1.13.0"), f, knowledge());
  ASSERT_TRUE(over.ok()) << render_explain(over);
  const Decision* o = find(over.plan, "compiler", "compiler.user-cc");
  ASSERT_NE(o, nullptr) << render_explain(over);
  EXPECT_NE(o->reason.find("gcc 13.2.0 is too new"), std::string::npos) << o->reason;
  EXPECT_EQ(over.plan.env.at("CXX"), base.plan.env.at("CXX"));  // chosen as without it
}

}  // namespace
}  // namespace ts::plan

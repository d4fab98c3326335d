// The toolkit reaches the build under every name a build system looks for it: a provisioned
// toolkit's cache directory is CUDA_HOME, CUDA_PATH, CUDACXX and the toolkit's place on PATH.
#include "plan/toolkit_env.h"

#include <gtest/gtest.h>

#include "plan/provision_choice.h"
#include "plan/render.h"
#include "plan_fixtures.h"
#include "testkit/version_of.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

TEST(ToolkitEnv, OneToolkitUnderEveryName) {
  auto e = toolkit_env("/opt/cuda-13.0");
  std::map<std::string, std::string> m;
  for (const auto& s : e) {
    m[s.name] = s.value;
    EXPECT_FALSE(s.reason.empty()) << s.name;
    EXPECT_FALSE(s.source.empty()) << s.name;
  }
  EXPECT_EQ(m["CUDA_HOME"], "/opt/cuda-13.0");
  EXPECT_EQ(m["CUDA_PATH"], "/opt/cuda-13.0");
  EXPECT_EQ(m["CUDACXX"], "/opt/cuda-13.0/bin/nvcc");
  EXPECT_TRUE(toolkit_env("").empty());
}

TEST(ToolkitEnv, AProvisionedToolkitIsTheTorchBuildsCudaHomeCudacxxAndPath) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  f.cuda_toolkits.clear();  // nothing installed: the plan provisions torch's own CUDA
  std::vector<std::string> errors;
  ProvisionCatalog cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  ProvisionContext pc;
  pc.catalog = &cat;
  pc.cache_root = "/cache";
  pc.platform = "manylinux2014_x86_64";
  auto r = make_plan(spec_of("torch==2.9.0"), f, knowledge(), &pc);
  const ToolRelease* t = provisionable_cuda(pc, {testkit::version_of("13.0")});
  ASSERT_NE(t, nullptr);
  std::string dir = provisioned_path(pc, *t);
  ASSERT_EQ(r.plan.cuda_home, dir) << render_explain(r);
  EXPECT_EQ(r.plan.env["CUDA_HOME"], dir);
  EXPECT_EQ(r.plan.env["CUDA_PATH"], dir);
  EXPECT_EQ(r.plan.env["CUDACXX"], dir + "/bin/nvcc");
  EXPECT_NE((":" + r.plan.env["PATH"] + ":").find(":" + dir + "/bin:"), std::string::npos) << r.plan.env["PATH"];
  // The step that makes it exist comes before the build that reads these.
  std::size_t prov = r.plan.steps.size(), build = r.plan.steps.size();
  for (std::size_t i = 0; i < r.plan.steps.size(); ++i) {
    if (r.plan.steps[i].name == "provision-cuda") prov = i;
    if (r.plan.steps[i].name == "build" && build == r.plan.steps.size()) build = i;
  }
  EXPECT_LT(prov, build) << render_explain(r);
}

}  // namespace
}  // namespace ts::plan

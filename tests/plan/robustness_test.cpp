// Every host fixture with a spread of requests: the resolver never crashes, gives a plan or
// conflicts, every conflict offers a way out, and a plan's environment always has what the build
// cannot do without.
#include <gtest/gtest.h>

#include <filesystem>

#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

TEST(Robustness, EveryFixtureEveryRequest) {
  std::vector<std::string> hosts;
  for (const auto& e : std::filesystem::directory_iterator(std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts"))
    if (e.is_directory()) hosts.push_back(e.path().filename().string());
  ASSERT_GE(hosts.size(), 5u);
  std::vector<std::pair<std::string, std::map<std::string, std::string>>> requests{
      {"torch==2.4.1", {}},
      {"torch==1.8.0", {{"--arch", "portable"}, {"--package", "conda,wheel,libtorch"}}},
      {"torch==2.11.0", {{"--arch", "ampere"}}},
      {"torch==1.13.1", {{"--without", "cuda"}}},
      {"torch==2.6.0", {{"--cuda", "12.6"}, {"--with", "test"}, {"--build-type", "relwithdebinfo"}}},
      {"torch==9.9.9", {}},
  };
  for (const auto& h : hosts) {
    for (const auto& [req, opts] : requests) {
      auto r = make_plan(spec_of(req, opts), fixture(h), knowledge());
      SCOPED_TRACE(h + " " + req);
      EXPECT_FALSE(render_explain(r).empty());
      EXPECT_FALSE(render_summary(r).empty());
      for (const auto& c : r.conflicts) EXPECT_FALSE(c.fixes.empty()) << c.what;
      if (!r.ok()) continue;
      EXPECT_TRUE(r.plan.env.count("PATH"));
      EXPECT_TRUE(r.plan.env.count("MAX_JOBS"));
      EXPECT_GE(r.plan.jobs, 1);
      EXPECT_FALSE(r.plan.steps.empty());
      EXPECT_FALSE(render_sh(r.plan).empty());
    }
  }
}

}  // namespace
}  // namespace ts::plan

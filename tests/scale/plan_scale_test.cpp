#include "scale/plan_scale.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"

namespace ts::scale {
namespace {

const plan::Decision* find(const plan::Plan& p, const std::string& topic) {
  for (const auto& d : p.decisions)
    if (d.topic == topic) return &d;
  return nullptr;
}

TEST(PlanScale, StoreDownIsAWarningNotAFailure) {
  plan::Plan p;
  testkit::TempDir d;
  // Port 1 on loopback: nothing listens, refused at once.
  ScaleResult r = plan_scale({"ccache+redis://127.0.0.1:1", "", ""}, p, "/usr/bin:/bin", d.path());
  EXPECT_EQ(r.error, "");
  EXPECT_FALSE(r.store.ok);
  EXPECT_EQ(p.scale.cache_engine, "ccache");
  EXPECT_EQ(p.scale.cache_store, "redis://127.0.0.1:1");
  const plan::Decision* c = find(p, "cache");
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->warning);
  EXPECT_NE(c->reason.find("never fails for the store"), std::string::npos) << c->reason;
}

TEST(PlanScale, BadRequestsAreErrors) {
  plan::Plan p;
  EXPECT_NE(plan_scale({"ccache+ftp://h", "", ""}, p, "", "").error.find("--cache"), std::string::npos);
  EXPECT_NE(plan_scale({"", "icecc", ""}, p, "", "").error.find("distcc"), std::string::npos);
  EXPECT_NE(plan_scale({"", "", "h1/2"}, p, "", "").error.find("--distribute distcc"), std::string::npos);
  EXPECT_NE(plan_scale({"sccache+redis://h", "distcc", "h1/2"}, p, "", "").error.find("ccache"), std::string::npos);
}

TEST(PlanScale, NoReachableHostKeepsTheLocalJobs) {
  if (access("/usr/bin/distcc", X_OK) != 0 || access("/usr/bin/c++", X_OK) != 0) GTEST_SKIP() << "needs distcc and c++";
  plan::Plan p;
  p.jobs = 3;
  p.env["MAX_JOBS"] = "3";
  testkit::TempDir d;
  ScaleResult r = plan_scale({"", "distcc", "127.0.0.1:1/8"}, p, "/usr/bin:/bin", d.path());
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(p.jobs, 3);
  EXPECT_EQ(p.env["MAX_JOBS"], "3");
  EXPECT_EQ(p.scale.remote_slots, 0);
  ASSERT_EQ(p.scale.left_out.size(), 1u);
  EXPECT_NE(p.scale.left_out[0].find("127.0.0.1:1/8: not reachable"), std::string::npos) << p.scale.left_out[0];
  const plan::Decision* h = find(p, "distcc host");
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->warning);
}

}  // namespace
}  // namespace ts::scale

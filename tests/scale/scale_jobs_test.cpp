// --distribute with --jobs, --mem-budget and a package built side by side (issue 33): the planner's
// scale step runs before its jobs step, so every job knob the build gets (MAX_JOBS,
// CMAKE_BUILD_PARALLEL_LEVEL, TORCHSMITH_EXT_JOBS, a step's -j) is written from the final plan.jobs.
// The hosts' probe is a fake (what check_hosts would find on two kept hosts); no process runs.
#include <gtest/gtest.h>

#include <string>

#include "plan/extension_fakes.h"
#include "plan/plan_fixtures.h"
#include "scale/plan_scale.h"

namespace ts::scale {
namespace {

using plan::testing::env;

// Every host kept, each with its slots, as check_hosts reports a host that compiles as this one does.
HostsCheck all_kept(const std::vector<DistccHost>& hosts, const std::string&) {
  HostsCheck h;
  h.distcc = "/usr/bin/distcc";
  h.local_compiler = "GCC: (Debian 12.2.0-14) 12.2.0";
  for (const auto& d : hosts) {
    HostCheck c;
    c.host = d;
    c.reachable = c.kept = true;
    c.compiler = h.local_compiler;
    h.hosts.push_back(c);
  }
  return h;
}

plan::ScaleProbe distcc(const std::string& hosts, ScaleResult& out) {
  return [&out, hosts](plan::Plan& p) { out = plan_scale({"", "distcc", hosts}, p, "/usr/bin:/bin", "", all_kept); };
}

// Every knob the plan's environment and steps carry for the job count.
void expect_every_knob_is(const plan::Plan& p, int jobs, int threads) {
  EXPECT_EQ(env(p, "MAX_JOBS"), std::to_string(jobs));
  for (const char* k : {"CMAKE_BUILD_PARALLEL_LEVEL"})
    if (p.env.count(k)) { EXPECT_EQ(p.env.at(k), std::to_string(jobs)) << k; }
  if (p.env.count("TORCHSMITH_EXT_JOBS")) { EXPECT_EQ(p.env.at("TORCHSMITH_EXT_JOBS"), std::to_string(jobs * threads)); }
  for (const auto& s : p.steps)
    for (std::size_t i = 0; i + 1 < s.argv.size(); ++i)
      if (s.argv[i] == "-j") { EXPECT_EQ(s.argv[i + 1], std::to_string(jobs)) << s.name; }
}

TEST(ScaleJobs, AnExtensionBuiltSideBySideGetsTheRemoteSlotsInEveryKnob) {
  auto req = plan::testing::dir_request(plan::testing::cuda_only_scan());
  auto f = plan::testing::fake_host(plan::testing::fake_python("2.11.0+cu130", "13.0"), {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 118 * plan::testing::kGiB;
  f.cpu.logical_cores = 16;
  plan::testing::ask_torch_arches(req, f);  // several arches: nvcc --threads, slots = jobs x threads
  req.jobs = 3;
  req.mem_budget_bytes = 24 * plan::testing::kGiB;
  ScaleResult found;
  req.scale = distcc("h1/8 h2/4", found);
  auto r = plan::make_extension_plan(req, f, plan::testing::test_kb(), plan::recipe_generic("demo-ext"),
                                     &plan::testing::test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(found.error, "");
  EXPECT_EQ(r.plan.scale.remote_slots, 12);
  EXPECT_EQ(r.plan.scale.local_jobs, 3);
  EXPECT_EQ(r.plan.jobs, 15);
  ASSERT_TRUE(r.plan.env.count("TORCHSMITH_EXT_JOBS")) << "the package is built side by side";
  int threads = r.plan.env.count("TORCHSMITH_NVCC_THREADS") ? std::stoi(r.plan.env.at("TORCHSMITH_NVCC_THREADS")) : 1;
  expect_every_knob_is(r.plan, 15, threads);
}

TEST(ScaleJobs, ATorchBuildGetsTheRemoteSlotsInMaxJobsAndItsBuildStep) {
  auto spec = plan::testing::spec_of("torch==2.4.1", {{"--jobs", "2"}, {"--mem-budget", "8G"}, {"--package", "libtorch"}});
  ScaleResult found;
  auto r = plan::make_plan(spec, plan::testing::fixture("two-toolkits"), plan::testing::knowledge(), nullptr,
                           distcc("h1/6", found));
  EXPECT_EQ(found.error, "");
  EXPECT_EQ(r.plan.scale.local_jobs, 2);
  EXPECT_EQ(r.plan.jobs, 8);
  expect_every_knob_is(r.plan, 8, 1);
  bool said = false;
  for (const auto& d : r.plan.decisions) said |= d.topic == "jobs" && d.value == "8" && d.rule == "plan.jobs";
  EXPECT_TRUE(said);
}

// Without hosts kept the memory's count stays, and the scale step's decisions carry its rule id.
TEST(ScaleJobs, NoHostKeptKeepsTheLocalJobs) {
  auto spec = plan::testing::spec_of("torch==2.4.1", {{"--jobs", "2"}});
  ScaleResult found;
  plan::ScaleProbe none = [&found](plan::Plan& p) {
    found = plan_scale({"", "distcc", "h1/6"}, p, "/usr/bin:/bin", "", [](const auto& hosts, const std::string& cxx) {
      HostsCheck h = all_kept(hosts, cxx);
      for (auto& c : h.hosts) c.kept = false, c.why = "not reachable";
      return h;
    });
  };
  auto r = plan::make_plan(spec, plan::testing::fixture("two-toolkits"), plan::testing::knowledge(), nullptr, none);
  EXPECT_EQ(r.plan.jobs, 2);
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), "2");
  bool stamped = false;
  for (const auto& d : r.plan.decisions) stamped |= d.topic == "distcc host" && d.rule == "plan.scale";
  EXPECT_TRUE(stamped);
}

}  // namespace
}  // namespace ts::scale

// A plan whose CUDA choice is a conflict states no value derived from the CUDA it does not have
// (issue 33): no version label or package name (+cpu beside USE_CUDA=1), no cuDNN/MAGMA advice with
// an empty CUDA in it, no fix chosen for the refused CUDA. Each such step says it is skipped because
// of the conflict. Over every machine description in tests/fixtures/hosts, three torch releases,
// and the three ways a command hands in provisioning (none, no cache directory, a cache).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

struct Refused {
  std::string where;  // "host torch==X (provision)"
  PlanResult r;
};

const ProvisionCatalog& catalog() {
  static const ProvisionCatalog cat = [] {
    std::vector<std::string> errors;
    auto c = load_provision_catalog({}, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    return c;
  }();
  return cat;
}

// Every plan on the fixture hosts whose CUDA choice is a conflict (a CUDA build left without a toolkit).
const std::vector<Refused>& refused_plans() {
  static const std::vector<Refused> all = [] {
    std::vector<Refused> out;
    std::vector<std::string> hosts;
    for (const auto& e : std::filesystem::directory_iterator(std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts"))
      if (e.is_directory()) hosts.push_back(e.path().filename().string());
    std::sort(hosts.begin(), hosts.end());
    for (const auto& h : hosts)
      for (const char* v : {"torch==2.4.1", "torch==2.6.0", "torch==2.9.0"})
        for (int mode = 0; mode < 3; ++mode) {
          ProvisionContext pc;
          pc.catalog = &catalog();
          pc.platform = "manylinux2014_x86_64";
          pc.cache_root = mode == 2 ? "/nonexistent/torchsmith-cache" : "";
          auto r = make_plan(spec_of(v, {{"--package", "wheel,conda"}}), fixture(h), knowledge(), mode ? &pc : nullptr);
          if (r.conflicts.empty() || !r.plan.cuda.is_conflict() || !r.plan.features.count("cuda") || !r.plan.features.at("cuda"))
            continue;
          out.push_back({h + " " + v + (mode == 0 ? "" : mode == 1 ? " (provision, no cache)" : " (provision)"), std::move(r)});
        }
    return out;
  }();
  return all;
}

const Decision* skipped(const PlanResult& r, const std::string& topic) {
  for (const auto& d : r.plan.decisions)
    if (d.topic == topic && d.value == "skipped") return &d;
  return nullptr;
}

// The refusals this test judges: at least one per kind of refusal the fixtures hold.
TEST(CudaConflict, TheFixtureHostsHoldRefusedCudaPlans) {
  const auto& all = refused_plans();
  EXPECT_GE(all.size(), 10u);
  bool no_toolkit = false, newer_major = false;
  for (const auto& p : all)
    for (const auto& c : p.r.conflicts) {
      no_toolkit |= c.why.find("no CUDA toolkit") != std::string::npos;
      newer_major |= c.why.find("newer major") != std::string::npos;
    }
  EXPECT_TRUE(no_toolkit);
  EXPECT_TRUE(newer_major);
}

TEST(CudaConflict, NoVersionLabelAndNoPackageName) {
  for (const auto& p : refused_plans()) {
    SCOPED_TRACE(p.where);
    EXPECT_EQ(p.r.plan.env.count("PYTORCH_BUILD_VERSION"), 0u) << p.r.plan.env.at("PYTORCH_BUILD_VERSION");
    EXPECT_EQ(p.r.plan.env.count("DESIRED_CUDA"), 0u);
    EXPECT_EQ(p.r.plan.build_version, "");
    for (const auto& a : p.r.plan.artifacts) EXPECT_TRUE(a.kind != "wheel" && a.kind != "conda") << a.name;
    for (const auto& d : p.r.plan.decisions) EXPECT_EQ(d.value.find("+cpu"), std::string::npos) << d.value;
    const Decision* v = skipped(p.r, "version");
    ASSERT_NE(v, nullptr) << render_explain(p.r);
    const Conflict* cuda = nullptr;  // the toolkit step's refusal, which the skip names
    for (const auto& c : p.r.conflicts)
      if (c.rule == "plan.toolkit") cuda = &c;
    ASSERT_NE(cuda, nullptr) << render_explain(p.r);
    EXPECT_NE(v->reason.find("(" + cuda->what + ")"), std::string::npos) << v->reason;
    EXPECT_NE(skipped(p.r, "artifact"), nullptr);
  }
}

TEST(CudaConflict, NoCudnnOrMagmaAdvice) {
  for (const auto& p : refused_plans()) {
    SCOPED_TRACE(p.where);
    for (const char* k : {"CUDNN_INCLUDE_DIR", "CUDNN_LIBRARY", "MAGMA_HOME", "NCCL_ROOT_DIR", "CUDA_HOME"})
      EXPECT_EQ(p.r.plan.env.count(k), 0u) << k;
    for (const auto& d : p.r.plan.decisions) {
      EXPECT_EQ(d.reason.find("nvidia-cudnn-cu"), std::string::npos) << d.reason;
      EXPECT_EQ(d.reason.find("magma-"), std::string::npos) << d.reason;
      EXPECT_EQ(d.value.find("USE_CUDNN=0"), std::string::npos) << d.reason;
      EXPECT_EQ(d.value.find("USE_MAGMA=0"), std::string::npos) << d.reason;
    }
    ASSERT_NE(skipped(p.r, "library"), nullptr) << render_explain(p.r);
  }
}

TEST(CudaConflict, NoFixChosenForTheRefusedCuda) {
  for (const auto& p : refused_plans()) {
    SCOPED_TRACE(p.where);
    for (const auto& f : p.r.plan.fixes) {
      const source::Fix* fix = knowledge().fixes.find(f.id);
      ASSERT_NE(fix, nullptr) << f.id;
      EXPECT_FALSE(fix->when.cuda.has_value()) << f.id << ": " << f.reason;
    }
    const Decision* s = skipped(p.r, "fix");
    ASSERT_NE(s, nullptr) << render_explain(p.r);
    EXPECT_NE(s->reason.find("conflict"), std::string::npos);
  }
}

// The plan carries the refusal typed (a CudaChoice that is the conflict, never an empty version),
// and every renderer reads that: the JSON names the conflict beside an empty "cuda" and reads back
// the same, and no nvidia/cuda image is derived from it.
TEST(CudaConflict, ThePlansCudaIsTheConflictAndTheRenderersSaySo) {
  for (const auto& p : refused_plans()) {
    SCOPED_TRACE(p.where);
    const CudaChoice& cuda = p.r.plan.cuda;
    ASSERT_TRUE(cuda.is_conflict());
    EXPECT_FALSE(cuda.is_chosen());
    EXPECT_EQ(cuda.version(), nullptr);
    EXPECT_EQ(cuda.cu_tag(), "");
    const Conflict* toolkit = nullptr;
    for (const auto& c : p.r.conflicts)
      if (c.rule == "plan.toolkit") toolkit = &c;
    ASSERT_NE(toolkit, nullptr);
    EXPECT_EQ(cuda.conflict_what(), toolkit->what);
    nlohmann::json j = p.r.plan;
    EXPECT_EQ(j.at("cuda"), "");
    EXPECT_EQ(j.at("cuda_conflict"), toolkit->what);
    EXPECT_EQ(j.get<Plan>().cuda, cuda);
    std::string err;
    EXPECT_EQ(docker_image(p.r.plan, knowledge().build, fixture("no-gpu"), &err), "");
    EXPECT_NE(err.find("conflict (" + toolkit->what + ")"), std::string::npos) << err;
  }
}

// Near misses: a CPU build is none (no conflict, the CPU image), a chosen toolkit its version.
TEST(CudaConflict, NoneAndChosenAreNotConflicts) {
  auto cpu = make_plan(spec_of("torch==2.4.1", {{"--without", "cuda"}}), fixture("two-toolkits"), knowledge());
  ASSERT_TRUE(cpu.ok()) << render_explain(cpu);
  EXPECT_TRUE(cpu.plan.cuda.is_none());
  EXPECT_EQ(nlohmann::json(cpu.plan).count("cuda_conflict"), 0u);
  std::string err;
  EXPECT_EQ(docker_image(cpu.plan, knowledge().build, fixture("two-toolkits"), &err), "ubuntu:22.04") << err;
  auto chosen = CudaChoice::from_text("12.8.93");
  EXPECT_TRUE(chosen.is_chosen());
  EXPECT_EQ(chosen.text(), "12.8.93");
  EXPECT_EQ(chosen.major_minor(), "12.8");
  EXPECT_EQ(chosen.cu_tag(), "cu128");
  EXPECT_TRUE(CudaChoice::from_text("").is_none());
  EXPECT_TRUE(CudaChoice::conflict("").is_conflict());  // a conflict with no words is still one
  EXPECT_THROW(CudaChoice::from_text("twelve"), std::invalid_argument);
}

// The same hosts with CUDA: the label, the name and the fixes are still chosen (the skip is the
// conflict's, not every plan's).
TEST(CudaConflict, APlanWithItsToolkitStillNamesItsPackage) {
  auto r = make_plan(spec_of("torch==2.4.1"), fixture("two-toolkits"), knowledge());
  ASSERT_TRUE(r.plan.cuda.is_chosen()) << render_explain(r);
  EXPECT_EQ(r.plan.env.at("PYTORCH_BUILD_VERSION").find("2.4.1+cu"), 0u);
  EXPECT_EQ(skipped(r, "version"), nullptr);
  EXPECT_EQ(skipped(r, "fix"), nullptr);
}

}  // namespace
}  // namespace ts::plan

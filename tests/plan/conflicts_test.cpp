#include <algorithm>
// The refusals the issue names, each with its way out, and the cases that must plan instead.
#include <gtest/gtest.h>

#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::find_conflict;
using testing::fixture;
using testing::has_decision;
using testing::knowledge;
using testing::spec_of;

bool any_fix_mentions(const Conflict& c, const std::string& s) {
  for (const auto& f : c.fixes)
    if (f.find(s) != std::string::npos) return true;
  return false;
}

TEST(Conflicts, Sm120WithCuda126NeedsCuda128) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  f.cuda_toolkits.front().version = "12.6.3";
  f.cuda_toolkits.front().path = "/usr/local/cuda-12.6";
  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  const Conflict* c = find_conflict(r, "needs CUDA >= 12.8");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->what.find("12.0"), std::string::npos);
  EXPECT_TRUE(any_fix_mentions(*c, "--cuda 12.8"));
  EXPECT_EQ(c->rule, "gpu.toolkit");  // compat's arch rule, the one doctor's GPU verdict asks
}

TEST(Conflicts, Gcc13OnlyWithCuda118SaysInstallGcc11) {
  HostFacts f = fixture("s1-rtx4090-cuda118");
  f.compilers = {{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", "x86_64-linux-gnu"}};
  auto r = make_plan(spec_of("torch==1.13.0"), f, knowledge());
  const Conflict* c = find_conflict(r, "unsupported GNU version");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, "install gcc-11"));
  EXPECT_TRUE(any_fix_mentions(*c, "CUDA >= "));
  EXPECT_EQ(c->rule, "compiler.nvcc_host");
}

TEST(Conflicts, Gcc11InstalledBesideGcc13IsChosenForCuda118) {
  HostFacts f = fixture("s1-rtx4090-cuda118");
  f.compilers = {{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", "x86_64-linux-gnu"},
                 {"gcc", "/usr/bin/gcc-11", "/usr/bin/g++-11", "11.4.0", "x86_64-linux-gnu"}};
  auto r = make_plan(spec_of("torch==1.13.0"), f, knowledge());
  ASSERT_TRUE(r.ok()) << render_explain(r);
  EXPECT_EQ(r.plan.env.at("CUDAHOSTCXX"), "/usr/bin/g++-11");
  EXPECT_EQ(r.plan.env.at("CMAKE_CUDA_HOST_COMPILER"), "/usr/bin/g++-11");
  EXPECT_EQ(r.plan.env.at("CXX"), "/usr/bin/g++-11");
  EXPECT_TRUE(has_decision(r, "compiler", "gcc 11.4.0"));
}

TEST(Conflicts, TwoToolkitsFixtureTakesGcc11ForCuda118) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--cuda", "11.8"}}), fixture("two-toolkits"), knowledge());
  EXPECT_EQ(r.plan.cuda_home, "/usr/local/cuda-11.8") << render_explain(r);
  ASSERT_TRUE(r.plan.env.count("CUDAHOSTCXX")) << render_explain(r);
  EXPECT_NE(r.plan.env.at("CUDAHOSTCXX").find("11"), std::string::npos);
}

TEST(Conflicts, Torch26WithPython38) {
  // The fixture's base Python (3.12) would fit; the Isaac Gym env's 3.8 is the one asked for.
  auto r = make_plan(spec_of("torch==2.6.0", {{"--python", "3.8"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  const Conflict* c = find_conflict(r, "needs Python 3.9");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->why.find("too old"), std::string::npos);
  EXPECT_TRUE(any_fix_mentions(*c, "torch 2.4"));  // the newest release that still takes 3.8
  EXPECT_EQ(c->rule, "python.target");
}

TEST(Conflicts, Cmake310WithTorch112) {
  auto r = make_plan(spec_of("torch==1.12.1", {{"--build-type", "debug"}}), fixture("s5-gtx1660ti-container"),
                     knowledge());
  const Conflict* c = find_conflict(r, "CMake 3.10.2");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->why.find(">= 3.13"), std::string::npos);
  EXPECT_TRUE(any_fix_mentions(*c, "pip install 'cmake>=3.13,<4'"));
  EXPECT_EQ(r.conflicts.size(), 1u) << render_conflicts(r.conflicts);
  EXPECT_EQ(c->rule, "plan.cmake");  // the planner's own step: no compat rule decides CMake
}

TEST(Conflicts, DriverOlderThanToolkitPredictsError804) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  f.driver.version = "470.82.01";  // below CUDA 12's minor-version floor too
  f.driver.cuda_version = "11.4";
  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  const Conflict* c = find_conflict(r, "Error 804");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, ">= 570"));
  EXPECT_EQ(c->rule, "driver.toolkit");
}

TEST(Conflicts, DriverUnderToolkitButOverTheMinorFloorIsAWarning) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  f.driver.version = "550.54.14";
  f.driver.cuda_version = "12.4";
  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  EXPECT_TRUE(r.ok()) << render_conflicts(r.conflicts);
  bool warned = false;
  for (const auto& d : r.plan.decisions) warned |= d.topic == "driver" && d.warning;
  EXPECT_TRUE(warned);
}

TEST(Conflicts, NoDriverLoadedIsOnlyAWarning) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  f.driver = {};
  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  EXPECT_EQ(find_conflict(r, "driver"), nullptr) << render_conflicts(r.conflicts);
  EXPECT_TRUE(r.ok()) << render_conflicts(r.conflicts);
  // Verify runs without its GPU checks (nothing could answer them), and says so.
  const Step* verify = nullptr;
  for (const auto& s : r.plan.steps)
    if (s.name == "verify") verify = &s;
  ASSERT_NE(verify, nullptr);
  EXPECT_EQ(std::find(verify->argv.begin(), verify->argv.end(), "--gpu"), verify->argv.end());
  EXPECT_NE(verify->note.find("no GPU test (no driver loaded here)"), std::string::npos) << verify->note;
}

TEST(Conflicts, ArchUnknownToTorchIsPlannedWithTheFix) {
  auto r = make_plan(spec_of("torch==2.4.1"), fixture("s3-rtx5090-cmake4"), knowledge());
  ASSERT_TRUE(r.ok()) << render_conflicts(r.conflicts);
  EXPECT_TRUE(has_decision(r, "arch", "12.0 (with fix torch-select-compute-arch-sm120)"));
  bool listed = false;
  for (const auto& f : r.plan.fixes) listed |= f.id == "torch-select-compute-arch-sm120" && f.hash.size() == 64;
  EXPECT_TRUE(listed);
}

TEST(Conflicts, ArchUnknownToTorchWithoutAnyFixIsRefused) {
  Knowledge k = knowledge();
  k.fixes.fixes.clear();
  auto r = make_plan(spec_of("torch==2.4.1"), fixture("s3-rtx5090-cmake4"), k);
  const Conflict* c = find_conflict(r, "no fix in the knowledge base");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, "torch 2.7"));
}

TEST(Conflicts, FamilyNameAda) {
  auto r = make_plan(spec_of("torch==1.13.0", {{"--arch", "ada"}}), fixture("s1-rtx4090-cuda118"), knowledge());
  ASSERT_TRUE(r.ok()) << render_explain(r);
  EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list().rfind("8.9", 0), 0u) << r.plan.arch_list.torch_cuda_arch_list();
}

TEST(Conflicts, MissingNumpySaysInstallFirst) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  for (auto& p : f.pythons) p.packages.erase("numpy");
  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  const Conflict* c = find_conflict(r, "compiled without NumPy support");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, "--without numpy"));
  auto r2 = make_plan(spec_of("torch==2.4.1", {{"--without", "numpy"}}), f, knowledge());
  EXPECT_EQ(find_conflict(r2, "NumPy"), nullptr);
}

TEST(Conflicts, NativeWithoutGpu) {
  auto r = make_plan(spec_of("torch==2.4.1"), fixture("no-gpu"), knowledge());
  EXPECT_TRUE(find_conflict(r, "no GPU") || find_conflict(r, "CUDA toolkit")) << render_explain(r);
  auto cpu = make_plan(spec_of("torch==2.4.1", {{"--without", "cuda"}}), fixture("no-gpu"), knowledge());
  EXPECT_EQ(find_conflict(cpu, "GPU"), nullptr) << render_conflicts(cpu.conflicts);
  EXPECT_EQ(cpu.plan.env.count("TORCH_CUDA_ARCH_LIST"), 0u);
  EXPECT_EQ(cpu.plan.env.at("USE_CUDNN"), "0");  // needs cuda
}

// No GPU and no --arch: both ways out (a CPU build, the target GPU named), and nvidia-smi only as
// something to run where the GPU is, never as if it were here (issue 37).
TEST(Conflicts, NativeWithoutGpuGivesBothWaysOut) {
  HostFacts f = fixture("no-gpu");
  ASSERT_TRUE(f.gpus.empty());
  auto r = make_plan(spec_of("torch==2.4.1", {{"--cuda", "12.4"}}), f, knowledge());
  const Conflict* c = find_conflict(r, "no GPU was found");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, "--without cuda")) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, "--arch X.Y")) << render_explain(r);
  for (const auto& fx : c->fixes) {
    if (fx.find("nvidia-smi") != std::string::npos) { EXPECT_NE(fx.find("on the machine with the GPU"), std::string::npos) << fx; }
  }
}

TEST(Conflicts, CudaAskedButNotInstalled) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--cuda", "12.4"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_NE(find_conflict(r, "is not installed"), nullptr) << render_explain(r);
}

TEST(BadSpec, UnknownFeatureAndArchName) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--with", "cudnnn"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_NE(r.bad_spec.find("'cudnnn' is not a feature"), std::string::npos) << r.bad_spec;
  auto a = make_plan(spec_of("torch==2.4.1", {{"--arch", "kepplerr"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_NE(a.bad_spec.find("'kepplerr' is not an arch name"), std::string::npos) << a.bad_spec;
}

TEST(Features, NeedsPropagateAndExplicitClashIsAConflict) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--without", "distributed"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_EQ(r.plan.env.at("USE_NCCL"), "0");
  EXPECT_EQ(r.plan.env.at("USE_GLOO"), "0");
  auto c = make_plan(spec_of("torch==2.4.1", {{"--with", "nccl"}, {"--without", "distributed"}}),
                     fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_NE(find_conflict(c, "needs distributed"), nullptr) << render_explain(c);
  auto s = make_plan(spec_of("torch==2.4.1", {{"--with", "split-cuda"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_NE(find_conflict(s, "BUILD_SPLIT_CUDA"), nullptr) << render_explain(s);
}

TEST(Arches, LongListWarnsWithAShorterOne) {
  auto r = make_plan(spec_of("torch==1.8.0", {{"--arch", "3.5;3.7;5.0;5.2;6.0;6.1;7.0;7.5;8.0"}, {"--package", "conda"}}),
                     fixture("s2-cuda110-conda"), knowledge());
  bool warned = false;
  for (const auto& d : r.plan.decisions)
    warned |= d.warning && d.reason.find("relocation truncated to fit") != std::string::npos &&
              d.reason.find("7.0;7.5") != std::string::npos;
  EXPECT_TRUE(warned) << render_explain(r);
}

TEST(Arches, PortableIsTheOfficialListAndKeepsThePlainLocalVersion) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--arch", "portable"}}), fixture("two-toolkits"), knowledge());
  ASSERT_FALSE(r.plan.arch_list.empty()) << render_explain(r);
  EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list(), "5.0;6.0;7.0;7.5;8.0;8.6;9.0") << render_explain(r);  // cu124
  EXPECT_EQ(r.plan.build_version, "2.4.1+cu124");
  EXPECT_EQ(r.plan.env.at("USE_STATIC_NCCL"), "1");  // redistributable
}

TEST(Jobs, MemoryBudgetAndCoresBoundMaxJobs) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--mem-budget", "8G"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_EQ(r.plan.env.at("MAX_JOBS"), "2");  // 8 GiB / 3 GiB per nvcc job
  auto big = make_plan(spec_of("torch==2.4.1"), fixture("s3-rtx5090-cmake4"), knowledge());
  int cores = fixture("s3-rtx5090-cmake4").cpu.logical_cores;
  EXPECT_LT(big.plan.jobs, cores);  // memory, not cores
  auto asked = make_plan(spec_of("torch==2.4.1", {{"--jobs", "4"}}), fixture("s3-rtx5090-cmake4"), knowledge());
  EXPECT_EQ(asked.plan.env.at("MAX_JOBS"), "4");
}

TEST(Jobs, CgroupLimitCounts) {
  auto r = make_plan(spec_of("torch==2.4.1", {{"--without", "cuda"}}), fixture("no-gpu"), knowledge());
  // no-gpu: memory.max 4 GiB with 1 GiB used -> 3 GiB usable, 2.5 GiB per C++ job.
  EXPECT_EQ(r.plan.env.at("MAX_JOBS"), "1") << render_explain(r);
}

TEST(Env, NothingFromTheShellLeaks) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  for (const auto& [k, v] : r.plan.env) {
    bool known = k == "PATH" || knowledge().build.env_var(k, *Version::parse("2.4.1")) || knowledge().build.feature([&] {
                   for (const auto& ft : knowledge().build.features)
                     if (ft.option == k) return ft.name;
                   return std::string();
                 }());
    EXPECT_TRUE(known) << k << " is set but build.toml does not list it";
  }
}

}  // namespace
}  // namespace ts::plan

// The extension planner's speed choices on fake facts: nvcc --threads for a portable build (through
// the package's own knob, else NVCC_APPEND_FLAGS), jobs x threads within memory, and the ninja fixes
// of serial packages planned as a step on the fetched tree.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <fstream>
#include <filesystem>

#include <algorithm>

#include "extension_fakes.h"
#include "plan/extension.h"
#include "testkit/temp_dir.h"

namespace ts::plan {
namespace {

using namespace testing;

const Step* step(const Plan& p, const std::string& name) {
  for (const auto& s : p.steps)
    if (s.name == name) return &s;
  return nullptr;
}

int step_index(const Plan& p, const std::string& name) {
  for (std::size_t i = 0; i < p.steps.size(); ++i)
    if (p.steps[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string all_conflicts(const PlanResult& r) {
  std::string s;
  for (const auto& c : r.conflicts) s += c.what + ": " + c.why + "\n";
  return s;
}

const Decision* decision(const Plan& p, const std::string& topic, const std::string& value_prefix) {
  for (const auto& d : p.decisions)
    if (d.topic == topic && d.value.rfind(value_prefix, 0) == 0) return &d;
  return nullptr;
}

// torch 2.11+cu130 with nvcc 13.0 and an H100, as on the GPU machine; torch carries six arches.
HostFacts gpu_machine(std::uint64_t usable_gib = 118, int cores = 16) {
  auto py = fake_python("2.11.0+cu130", "13.0");
  py.torch.arch_list = GpuCodeList::read({"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"});
  auto f = fake_host(py, {"13.0"}, {"9.0"});
  f.memory.usable_bytes = usable_gib * kGiB;
  f.cpu.logical_cores = cores;
  return f;
}

ExtensionRequest torch_arches() {
  auto req = dir_request(cuda_only_scan());
  req.arch = "torch";
  req.arch_origin = "--arch";
  return req;
}

int threads_of(const std::string& flags) {
  auto at = flags.find("--threads ");
  return at == std::string::npos ? 0 : std::stoi(flags.substr(at + 10));
}

TEST(SpeedPlan, AllOfTorchsArchesGetNvccThreadsThroughNvccAppendFlags) {
  auto f = gpu_machine();
  auto r = make_extension_plan(torch_arches(), f, test_kb(), recipe_generic("ext-cuda"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list(), "7.5;8.0;8.6;9.0;10.0;12.0");
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--threads 6");  // every arch at once
  int jobs = std::stoi(env(r.plan, "MAX_JOBS"));
  EXPECT_EQ(jobs, r.plan.jobs);
  // 3.0 + 0.5 x 5 = 5.5 GiB per 6-arch job, times 6 threads: 3 jobs fit 118 GiB.
  EXPECT_EQ(jobs, 3);
  const Decision* d = decision(r.plan, "env", "NVCC_APPEND_FLAGS=");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("3 job(s) x 6 nvcc thread(s) for 6 arch(es)"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("nvcc reads NVCC_APPEND_FLAGS itself"), std::string::npos) << d->reason;
}

TEST(SpeedPlan, MemoryBoundsJobsTimesThreads) {
  auto f = gpu_machine(24);
  auto r = make_extension_plan(torch_arches(), f, test_kb(), recipe_generic("ext-cuda"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  int threads = threads_of(env(r.plan, "NVCC_APPEND_FLAGS"));
  EXPECT_EQ(threads, 4);  // 24 / 5.5
  EXPECT_EQ(r.plan.jobs, 1);
  EXPECT_LE(r.plan.jobs * threads * 5.5, 24.0);
}

TEST(SpeedPlan, OneArchGetsNoThreadsFlag) {
  auto f = gpu_machine();
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("ext-cuda"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list(), "9.0");
  EXPECT_EQ(r.plan.env.count("NVCC_APPEND_FLAGS"), 0u);
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), "16");  // 118 / 3.0 GiB, bounded by the cores
}

TEST(SpeedPlan, ARecipesOwnAppendFlagsAreKept) {
  Recipe rc = recipe_generic("ext-cuda");
  rc.cuda_env["NVCC_APPEND_FLAGS"] = "--compress-mode=size";
  auto r = make_extension_plan(torch_arches(), gpu_machine(), test_kb(), rc, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--compress-mode=size --threads 6");
}

TEST(SpeedPlan, APackagesOwnThreadKnobTakesTheBalancedCount) {
  Recipe fa = recipe_generic("flash-attn");
  fa.cuda_only = true;
  fa.arch_env = "FLASH_ATTN_CUDA_ARCHS";
  fa.arch_format = "semicolon-sm";
  fa.nvcc_threads_env = "NVCC_THREADS";
  fa.mem_per_job = 8 * kGiB;
  fa.origin = {"packages/flash-attn.toml", 1};
  auto req = dir_request(cuda_only_scan());
  req.arch = "8.0;9.0";
  req.arch_origin = "--arch";
  auto r = make_extension_plan(req, gpu_machine(), test_kb(), fa, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(env(r.plan, "FLASH_ATTN_CUDA_ARCHS"), "80;90");
  EXPECT_EQ(env(r.plan, "NVCC_THREADS"), "2");
  EXPECT_EQ(r.plan.env.count("NVCC_APPEND_FLAGS"), 0u);  // its own knob, not a second --threads
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), "7");  // 118 / (8 GiB x 2 threads); ceil(16 / 2) = 8
}

TEST(SpeedPlan, ASerialBuildGivesItsMemoryToThreads) {
  Recipe rc = recipe_generic("serial-ext");
  rc.serial_build = true;
  rc.jobs_env = {};
  auto req = torch_arches();
  req.scan.ninja_off = true;  // its setup.py says use_ninja=False; no ninja here to turn it back on
  auto r = make_extension_plan(req, gpu_machine(), test_kb(), rc, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.jobs, 1);
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "--threads 6");
}


RecipeSet shipped_recipes() {
  std::vector<std::string> errors;
  return load_recipes({}, errors);
}

TEST(SpeedPlan, TorchScatterGetsTheNinjaFixOnItsTreeAndParallelJobs) {
  auto rs = shipped_recipes();
  const Recipe* scatter = rs.find("torch-scatter");
  ASSERT_NE(scatter, nullptr);
  auto r = make_extension_plan(by_name("torch-scatter", "2.1.2"), gpu_machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  const Step* fx = step(r.plan, "fix-source");
  ASSERT_NE(fx, nullptr);
  EXPECT_EQ(fx->argv, (std::vector<std::string>{"torchsmith", "fix", "{src}", "--fix", "torch-scatter-ninja", "--arch", "9.0"}));
  EXPECT_LT(step_index(r.plan, "fetch"), step_index(r.plan, "fix-source"));
  EXPECT_LT(step_index(r.plan, "fix-source"), step_index(r.plan, "build"));
  EXPECT_EQ(step(r.plan, "fix"), nullptr);  // nothing for torch 2.11's own cpp_extension.py
  ASSERT_EQ(r.plan.fixes.size(), 1u);
  EXPECT_EQ(r.plan.fixes[0].id, "torch-scatter-ninja");
  EXPECT_EQ(r.plan.jobs, 16);  // 118 GiB / 2.5 GiB per job, bounded by the cores
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), "16");
  EXPECT_NE(decision(r.plan, "fix", "torch-scatter-ninja"), nullptr);
}

TEST(SpeedPlan, VersionsOutsideTheFixRangeStaySerial) {
  auto rs = shipped_recipes();
  const Recipe* scatter = rs.find("torch-scatter");
  ASSERT_NE(scatter, nullptr);
  // 2.0.4's setup.py has ninja on already (no use_ninja=False): no fix, the recipe's serial flag.
  auto r = make_extension_plan(by_name("torch-scatter", "2.0.4"), gpu_machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(step(r.plan, "fix-source"), nullptr);
  EXPECT_EQ(r.plan.jobs, 1);
  // A directory without a literal version: not known, so no fix is applied on a guess.
  auto scan = cuda_only_scan();
  scan.name = "torch_scatter";
  scan.ninja_off = true;  // what its setup.py says (2.0.5 on); no ninja on this machine's PATH
  auto d = make_extension_plan(dir_request(scan), gpu_machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(d.ok()) << all_conflicts(d);
  EXPECT_EQ(step(d.plan, "fix-source"), nullptr);
  EXPECT_EQ(d.plan.jobs, 1);
  // Its setup.py's __version__ = '2.1.2' is enough: the copy being built gets the fix.
  scan.version = "2.1.2";
  auto v = make_extension_plan(dir_request(scan), gpu_machine(), test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(v.ok()) << all_conflicts(v);
  ASSERT_NE(step(v.plan, "fix-source"), nullptr);
  EXPECT_GT(v.plan.jobs, 1);
}

TEST(SpeedPlan, ScanReadsALiteralVersion) {
  ::ts::testkit::TempDir tmp("ts-scan");
  const std::string& t = tmp.path();
  ASSERT_FALSE(t.empty());
  std::ofstream(t + "/setup.py") << "__version__ = '2.1.2'\nsetup(name='torch_scatter', version=__version__)\n";
  std::string err;
  auto scan = scan_source_dir(t, &err);
  EXPECT_EQ(scan.version, "2.1.2");
  EXPECT_EQ(scan.version.parsed(), Version::parse("2.1.2"));  // parsed as the scan read it
  EXPECT_EQ(scan.name, "torch_scatter");
  std::ofstream(t + "/setup.py") << "setup(name='x', version=get_version())\n";
  EXPECT_EQ(scan_source_dir(t, &err).version, "");
}

TEST(SpeedPlan, TorchClusterGetsItsNinjaFix) {
  auto rs = shipped_recipes();
  const Recipe* cluster = rs.find("torch-cluster");
  ASSERT_NE(cluster, nullptr);
  auto r = make_extension_plan(by_name("torch-cluster", "1.6.3"), gpu_machine(), test_kb(), *cluster, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  const Step* fx = step(r.plan, "fix-source");
  ASSERT_NE(fx, nullptr);
  EXPECT_EQ(fx->argv[4], "torch-cluster-ninja");
  EXPECT_GT(r.plan.jobs, 1);
}

}  // namespace
}  // namespace ts::plan

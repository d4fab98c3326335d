// The planner core both kinds of plan run through: a declared step table run in order under each
// step's rule id, steps skipped by `when`, the plan stopped by `stop_after`, provision steps put
// before the compiles, and the jobs the memory model allows (with the warning when asked for more).
#include "testkit/version_of.h"
#include <gtest/gtest.h>

#include "plan/plan_core.h"

namespace ts::plan::core {
namespace {

constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;

struct Fixture {
  HostFacts facts;
  kb::Kb kb;
  PlanResult out;
  Ctx c{facts, kb, out};
};

TEST(PlanCore, RunsStepsInOrderEachUnderItsRuleId) {
  Fixture f;
  constexpr PlanStep steps[] = {
      {"kind.first", [](Ctx& c) { c.decide("a", "1", "first", "test"); }},
      {"kind.second", [](Ctx& c) {
         c.decide("b", "2", "second", "test");
         c.decide("c", "3", "a compat rule decided", "test", "jobs.memory");
         c.conflict("d", "why", {"fix"}, "test");
       }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.decisions.size(), 3u);
  EXPECT_EQ(f.out.plan.decisions[0].topic, "a");
  EXPECT_EQ(f.out.plan.decisions[0].rule, "kind.first");
  EXPECT_EQ(f.out.plan.decisions[1].rule, "kind.second");
  EXPECT_EQ(f.out.plan.decisions[2].rule, "jobs.memory");  // a named rule wins over the step's
  ASSERT_EQ(f.out.conflicts.size(), 1u);
  EXPECT_EQ(f.out.conflicts[0].rule, "kind.second");
  EXPECT_TRUE(f.c.decisions.empty());  // the log was moved into the plan
}

TEST(PlanCore, WhenSkipsAStepAndStopAfterEndsThePlan) {
  Fixture f;
  constexpr PlanStep steps[] = {
      {"kind.cuda_only", [](Ctx& c) { c.decide("cuda", "on", "", "test"); }, kEveryKind,
       [](const Ctx& c) { return c.cuda_on; }},
      {"kind.release", [](Ctx& c) { c.decide("release", "none", "", "test"); }, kEveryKind, nullptr,
       [](const Ctx& c) { return c.python == nullptr; }},
      {"kind.after", [](Ctx& c) { c.decide("after", "ran", "", "test"); }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.decisions.size(), 1u);  // cuda_only skipped, after never reached
  EXPECT_EQ(f.out.plan.decisions[0].rule, "kind.release");
}

TEST(PlanCore, AStepOfAnotherKindDoesNotRun) {
  Fixture f;
  f.c.kind = kExtensionBuild;
  constexpr PlanStep steps[] = {
      {"kind.torch_only", [](Ctx& c) { c.decide("torch", "ran", "", "test"); }, kTorchBuild},
      {"kind.extension_only", [](Ctx& c) { c.decide("extension", "ran", "", "test"); }, kExtensionBuild},
      {"kind.both", [](Ctx& c) { c.decide("both", "ran", "", "test"); }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.decisions.size(), 2u);
  EXPECT_EQ(f.out.plan.decisions[0].rule, "kind.extension_only");
  EXPECT_EQ(f.out.plan.decisions[1].rule, "kind.both");
}

TEST(PlanCore, ProvisionStepsGoAfterFetchAndBeforeTheCompiles) {
  Fixture f;
  constexpr PlanStep steps[] = {
      {"kind.steps", [](Ctx& c) {
         c.p.steps = {{"fetch", {}, "", ""}, {"build", {}, "", ""}};
         c.provision_steps = {{"provision", {}, "", ""}};
       }},
  };
  run(f.c, steps);
  ASSERT_EQ(f.out.plan.steps.size(), 3u);
  EXPECT_EQ(f.out.plan.steps[0].name, "fetch");
  EXPECT_EQ(f.out.plan.steps[1].name, "provision");
  EXPECT_EQ(f.out.plan.steps[2].name, "build");
}

TEST(PlanCore, SetEnvRecordsTheVariableAsADecision) {
  Fixture f;
  f.c.rule = "kind.env";
  f.c.set_env("CC", "/usr/bin/gcc", "the chosen compiler", "facts");
  EXPECT_EQ(f.out.plan.env.at("CC"), "/usr/bin/gcc");
  ASSERT_EQ(f.c.decisions.size(), 1u);
  EXPECT_EQ(f.c.decisions[0].value, "CC=/usr/bin/gcc");
  EXPECT_EQ(f.c.decisions[0].source, "facts");
  EXPECT_EQ(f.c.decisions[0].rule, "kind.env");
}

TEST(PlanCore, JobsFollowMemoryAndAskingForMoreIsWarned) {
  Fixture f;
  f.facts.cpu.logical_cores = 16;
  f.facts.memory.usable_bytes = 8 * kGiB;
  f.facts.memory.available_bytes = 8 * kGiB;
  compat::JobCost cost{2.0, "2.0 GiB per C++ job"};
  JobsFit fit = fit_jobs(f.c, 0, cost);
  EXPECT_EQ(fit.cores, 16);
  EXPECT_EQ(fit.fit.by_mem, 4);
  EXPECT_EQ(fit.fit.jobs, 4);
  // A --mem-budget below the machine's memory is what the jobs are sized for.
  EXPECT_EQ(fit_jobs(f.c, 4 * kGiB, cost).fit.jobs, 2);

  warn_jobs_over_memory(f.c, 4, "--jobs", fit, "the model", "resources.toml");
  EXPECT_TRUE(f.c.decisions.empty());  // what memory allows: nothing to say
  warn_jobs_over_memory(f.c, 12, "--jobs", fit, "the model", "resources.toml");
  ASSERT_EQ(f.c.decisions.size(), 1u);
  EXPECT_TRUE(f.c.decisions[0].warning);
  EXPECT_EQ(f.c.decisions[0].rule, "jobs.memory");
  EXPECT_EQ(f.c.decisions[0].reason, "asked for (--jobs), but the memory model allows 4: the model");
}

TEST(PlanCore, ArchNamesMeanTheSameInEveryKind) {
  HostFacts facts;
  facts.gpus.resize(2);
  facts.gpus[0].compute_capability = CudaArch::of(8, 6);
  facts.gpus[1].compute_capability.reset();  // not known: left out
  auto native = native_arches(facts);
  ASSERT_EQ(native.size(), 1u);
  EXPECT_EQ(native[0].number(), "86");
  EXPECT_TRUE(native_arches(HostFacts{}).empty());

  kb::ArchFamily ampere;
  ampere.arches = testkit::arches_of({"8.0", "8.6", "8.7"});
  EXPECT_EQ(family_arches(ampere).size(), 3u);
  ampere.torch_arches = testkit::arches_of({"8.0", "8.6+PTX"});  // what torch's own name means wins
  auto torch = family_arches(ampere);
  ASSERT_EQ(torch.size(), 2u);
  EXPECT_EQ(torch[1].str(), "8.6+PTX");
}

TEST(PlanCore, PathIsTheKindsToolsThenToolkitCompilerAndSystem) {
  Fixture f;
  CompilerFacts cc{"gcc", "/opt/gcc/bin/gcc-12", "/opt/gcc/bin/g++-12", "12.3.0", "x86_64-linux-gnu"};
  f.c.compiler = &cc;
  f.c.p.cuda_home = "/usr/local/cuda-12.4";
  const std::string sys = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  set_path(f.c, {"/venv/bin", "", "/venv/bin", "/opt/cmake/bin"}, "only the chosen tools");
  // A CPU build: no toolkit bin even when CUDA_HOME is known; empty and repeated dirs dropped.
  EXPECT_EQ(f.out.plan.env.at("PATH"), "/venv/bin:/opt/cmake/bin:/opt/gcc/bin:" + sys);
  f.c.cuda_on = true;
  set_path(f.c, {"/usr/bin"}, "only the chosen tools");
  EXPECT_EQ(f.out.plan.env.at("PATH"), "/usr/bin:/usr/local/cuda-12.4/bin:/opt/gcc/bin:/usr/local/sbin:/usr/local/bin:"
                                       "/usr/sbin:/sbin:/bin");
  ASSERT_EQ(f.c.decisions.size(), 2u);
  EXPECT_EQ(f.c.decisions[1].value, "PATH=" + f.out.plan.env.at("PATH"));
  EXPECT_EQ(f.c.decisions[1].source, "torchsmith");
}

TEST(PlanCore, PathKeepsTheSystemOrderForASystemCompiler) {
  // MinkowskiEngine's setup.py runs a bare `pip`: with /usr/bin/g++ put ahead of the system dirs,
  // /usr/bin/pip (the OS's, PEP 668) shadowed /usr/local/bin/pip, which the user's shell finds first.
  Fixture f;
  CompilerFacts cc{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.3.0", "x86_64-linux-gnu"};
  f.c.compiler = &cc;
  f.c.cuda_on = true;
  f.c.p.cuda_home = "/usr/local/cuda-13.0";
  set_path(f.c, {"/opt/torch/.venv/bin"}, "the target Python's bin first");
  EXPECT_EQ(f.out.plan.env.at("PATH"), "/opt/torch/.venv/bin:/usr/local/cuda-13.0/bin:/usr/local/sbin:/usr/local/bin:"
                                       "/usr/sbin:/usr/bin:/sbin:/bin");
}

TEST(PlanCore, CompilerEnvNamesTheCDriverElseTheCxxOne) {
  Fixture f;
  set_compiler_env(f.c, {"gcc", "/usr/bin/gcc-12", "/usr/bin/g++-12", "12.3.0", ""}, "the chosen compiler", "facts");
  EXPECT_EQ(f.out.plan.env.at("CC"), "/usr/bin/gcc-12");
  EXPECT_EQ(f.out.plan.env.at("CXX"), "/usr/bin/g++-12");
  set_compiler_env(f.c, {"gcc", "", "/usr/bin/g++-13", "13.3.0", ""}, "the chosen compiler", "facts");
  EXPECT_EQ(f.out.plan.env.at("CC"), "/usr/bin/g++-13");
  EXPECT_EQ(f.c.decisions.size(), 4u);
}

TEST(PlanCore, NvccLimitComesFromTheBuildsCudaOnlyWhenCudaIsCompiled) {
  Fixture f;
  kb::CudaRelease r124;
  r124.version = testkit::version_of("12.4");
  r124.gcc_max = testkit::version_of("13");
  kb::CudaRelease r118;
  r118.version = testkit::version_of("11.8");
  r118.gcc_max = testkit::version_of("11");
  f.kb.cuda = {r124, r118};
  CudaToolkitFacts tk;
  tk.version = "11.8.89";
  f.c.toolkit = &tk;
  EXPECT_EQ(nvcc_gcc_max(f.c), 0);  // CUDA off
  f.c.cuda_on = true;
  EXPECT_EQ(nvcc_gcc_max(f.c), 11);  // the toolkit's release (an extension build)
  f.c.cuda_rel = &f.kb.cuda[0];
  EXPECT_EQ(nvcc_gcc_max(f.c), 13);  // a torch build's CUDA release wins
  tk.version = "9.9";
  f.c.cuda_rel = nullptr;
  EXPECT_EQ(nvcc_gcc_max(f.c), 0);  // not in the KB: no limit known
}

TEST(PlanCore, ArchTextReadsNumbersNativeFamiliesAndTheKindsOwnNames) {
  Fixture f;
  f.facts.gpus.resize(1);
  f.facts.gpus[0].compute_capability = CudaArch::of(8, 9);
  kb::ArchFamily ampere;
  ampere.name = "ampere";
  ampere.arches = testkit::arches_of({"8.0", "8.6"});
  f.kb.families = {ampere};
  ArchNames names;
  names.own = [](const std::string& n, std::string* err) -> std::optional<std::vector<CudaArch>> {
    if (n == "mine") return std::vector<CudaArch>{*CudaArch::parse("7.5")};
    if (n == "empty") {
      *err = "nothing here";
      return std::vector<CudaArch>{};
    }
    return std::nullopt;
  };
  names.unknown_error = [](const std::string& n) { return "'" + n + "' is no name of this kind"; };
  std::string err;
  auto l = parse_arches(f.c, "native;ampere;mine;9.0+PTX", names, &err);
  ASSERT_TRUE(l) << err;
  EXPECT_EQ(l->torch_cuda_arch_list(), "7.5;8.0;8.6;8.9;9.0+PTX");
  EXPECT_TRUE(names.native);
  EXPECT_FALSE(names.no_gpu);

  auto fresh = [&] {  // the kind's resolvers, none of the flags a reading left
    ArchNames n;
    n.own = names.own;
    n.unknown_error = names.unknown_error;
    return n;
  };
  ArchNames n2 = fresh();
  EXPECT_FALSE(parse_arches(f.c, "8.6;bogus", n2, &err));
  EXPECT_EQ(n2.unknown, "bogus");
  EXPECT_NE(err.find("'bogus' is no name of this kind"), std::string::npos) << err;
  ArchNames n3 = fresh();
  EXPECT_FALSE(parse_arches(f.c, "empty", n3, &err));
  EXPECT_NE(err.find("nothing here"), std::string::npos) << err;
  EXPECT_TRUE(n3.unknown.empty());

  f.facts.gpus.clear();
  ArchNames n4 = fresh();
  EXPECT_FALSE(parse_arches(f.c, "native", n4, &err));
  EXPECT_TRUE(n4.no_gpu);
  EXPECT_FALSE(n4.native);
}

TEST(PlanCore, ToolkitPathNeedsNvccAndAReadableVersion) {
  Fixture f;
  CudaToolkitFacts runtime_only{};
  runtime_only.path = "/opt/cuda";
  runtime_only.version = "12.4.131";
  f.facts.cuda_toolkits.push_back(runtime_only);
  EXPECT_EQ(toolkit_at(f.c, "/opt/cuda"), nullptr);  // no nvcc: nothing to compile with
  f.facts.cuda_toolkits[0].nvcc = "/opt/cuda/bin/nvcc";
  f.facts.cuda_toolkits[0].version = "";
  EXPECT_EQ(toolkit_at(f.c, "/opt/cuda"), nullptr);  // version not read: nvcc's limits unknown
  f.facts.cuda_toolkits[0].version = "12.4.131";
  EXPECT_EQ(toolkit_at(f.c, "/opt/cuda"), &f.facts.cuda_toolkits[0]);
  EXPECT_EQ(toolkit_at(f.c, "/usr/local/cuda"), nullptr);
}

TEST(PlanCore, WheelTagsStandInForWhatIsNotKnown) {
  Fixture f;
  f.facts.cpu.arch = "aarch64";
  EXPECT_EQ(wheel_tags(f.c).abi, "cp3XX");
  EXPECT_EQ(wheel_tags(f.c).platform, "linux_aarch64");
  PythonFacts py;
  f.c.python = &py;
  EXPECT_EQ(wheel_tags(f.c).abi, "cp3XX");  // probed without its tags
  py.abi_tag = "cp312";
  py.platform_tag = "manylinux_2_28_aarch64";
  EXPECT_EQ(wheel_tags(f.c).abi, "cp312");
  EXPECT_EQ(wheel_tags(f.c).platform, "manylinux_2_28_aarch64");
}

TEST(PlanCore, AProvisionedToolkitIsNvccsAndItsStepIsPlanned) {
  Fixture f;
  ProvisionContext pc;
  pc.cache_root = "/cache";
  pc.platform = "manylinux2014_x86_64";
  ToolRelease t;
  t.kind = "cuda";
  t.version = testkit::version_of("12.8.93");
  t.wheels = {{"nvidia-cuda-nvcc-cu12", "12.8.93"}};
  use_provisioned_toolkit(f.c, pc, t);
  ASSERT_EQ(f.c.toolkit, &f.c.provisioned);
  EXPECT_EQ(f.c.toolkit->version, "12.8.93");
  EXPECT_EQ(f.c.toolkit->path.rfind("/cache/", 0), 0u) << f.c.toolkit->path;
  ASSERT_EQ(f.c.provision_steps.size(), 1u);
  EXPECT_EQ(f.c.provision_steps[0].name, "provision-cuda");
  ASSERT_EQ(f.out.plan.provisioned.size(), 1u);
  EXPECT_EQ(package_step("n").argv[2], "{built_wheel}");
}

}  // namespace
}  // namespace ts::plan::core

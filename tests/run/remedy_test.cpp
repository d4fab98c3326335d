#include "run/remedy.h"

#include <gtest/gtest.h>

#include "plan/plan.h"

namespace ts::run {
namespace {

// A diagnosis whose root cause is one signature with the given remedy.
struct Diag {
  triage::Signature sig;
  triage::Diagnosis d;
  Diag(const std::string& id, triage::RemedyKind kind, std::map<std::string, std::string> env = {}) {
    sig.id = id;
    sig.remedy.kind = kind;
    sig.remedy.env = env;
    triage::Finding f;
    f.id = id;
    f.sig = &sig;
    f.remedy = sig.remedy;
    d.findings.push_back(f);
    d.root_count = 1;
  }
};

TEST(Remedy, HalvesEveryJobKnobThatIsSet) {
  Diag g("OOM_CC1PLUS_KILLED", triage::RemedyKind::halve_jobs);
  auto r = choose_remedy(g.d, {{"MAX_JOBS", "8"}, {"CMAKE_BUILD_PARALLEL_LEVEL", "8"}}, {8}, {}, 0, {});
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("MAX_JOBS"), "4");
  EXPECT_EQ(r.env.at("CMAKE_BUILD_PARALLEL_LEVEL"), "4");
  EXPECT_EQ(r.reason, "OOM_CC1PLUS_KILLED: jobs 8 -> 4");
  EXPECT_FALSE(r.clean_build);
}

TEST(Remedy, SideBySideExtensionSlotsHalveToo) {
  Diag g("OOM_CC1PLUS_KILLED", triage::RemedyKind::halve_jobs);
  auto r = choose_remedy(g.d, {{"MAX_JOBS", "3"}, {"TORCHSMITH_EXT_JOBS", "18"}}, {3, 6, 0, true}, {}, 0, {});
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("MAX_JOBS"), "1");
  EXPECT_EQ(r.env.at("TORCHSMITH_EXT_JOBS"), "6");  // 1 job x 6 nvcc threads: the slots follow the jobs
}

TEST(Remedy, SplitCompileThreadsHalveToo) {
  Diag g("OOM_NVCC_SUBPROCESS_KILLED", triage::RemedyKind::halve_jobs);
  auto r = choose_remedy(g.d, {{"MAX_JOBS", "16"}, {"NVCC_APPEND_FLAGS", "--threads 6 --split-compile 4"}}, {16, 6, 4}, {}, 0, {});
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("MAX_JOBS"), "8");
  EXPECT_EQ(r.env.at("NVCC_APPEND_FLAGS"), "--threads 6 --split-compile 2");
  EXPECT_NE(r.reason.find("split-compile 4 -> 2"), std::string::npos) << r.reason;
  // A split of 2 halves to none; at one job the split alone is halved.
  r = choose_remedy(g.d, {{"MAX_JOBS", "1"}, {"NVCC_APPEND_FLAGS", "--split-compile 2 --keep"}}, {1, 1, 2}, {}, 0, {});
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("NVCC_APPEND_FLAGS"), "--keep");
  EXPECT_EQ(r.env.count("MAX_JOBS"), 0u);
  r = choose_remedy(g.d, {{"MAX_JOBS", "4"}, {"NVCC_APPEND_FLAGS", "--threads 2"}}, {4, 2}, {}, 0, {});
  EXPECT_EQ(r.env.count("NVCC_APPEND_FLAGS"), 0u);
}

// The counts are typed: a retry halves what the previous retry left (RemedyPlan::parallel), every
// knob is written from them, and a count the signature carries (triage's MAX_JOBS from memory)
// yields to the halved one.
TEST(Remedy, ASecondRetryHalvesTheCountsTheFirstLeft) {
  Diag g("OOM_CC1PLUS_KILLED", triage::RemedyKind::halve_jobs, {{"MAX_JOBS", "3"}});
  std::map<std::string, std::string> env{{"MAX_JOBS", "12"}, {"TORCHSMITH_EXT_JOBS", "24"}};
  plan::Parallelism now{12, 2, 0, true};
  auto first = choose_remedy(g.d, env, Ran{now}, {}, 0, {});
  ASSERT_TRUE(first.retry && first.parallel) << first.refused;
  EXPECT_EQ(first.parallel->jobs, 6);
  EXPECT_EQ(first.env.at("MAX_JOBS"), "6");
  EXPECT_EQ(first.env.at("TORCHSMITH_EXT_JOBS"), "12");
  for (const auto& [k, v] : first.env) env[k] = v;
  auto second = choose_remedy(g.d, env, Ran{*first.parallel}, {}, 1, {});
  ASSERT_TRUE(second.retry && second.parallel) << second.refused;
  EXPECT_EQ(second.env.at("MAX_JOBS"), "3");
  EXPECT_EQ(second.env.at("TORCHSMITH_EXT_JOBS"), "6");
  EXPECT_EQ(second.reason, "OOM_CC1PLUS_KILLED: jobs 6 -> 3");
}

TEST(Remedy, OneJobCannotBeHalved) {
  Diag g("OOM_CC1PLUS_KILLED", triage::RemedyKind::halve_jobs);
  auto r = choose_remedy(g.d, {{"MAX_JOBS", "1"}}, {1}, {}, 0, {});
  EXPECT_FALSE(r.retry);
  EXPECT_NE(r.refused.find("already at 1 job"), std::string::npos);
}

TEST(Remedy, SetEnvReconfiguresOnlyWhenItChangesSomething) {
  Diag g("CMAKE4_POLICY_MINIMUM", triage::RemedyKind::set_env, {{"CMAKE_POLICY_VERSION_MINIMUM", "3.5"}});
  auto r = choose_remedy(g.d, {{"MAX_JOBS", "2"}}, {2}, {}, 0, {});
  ASSERT_TRUE(r.retry);
  EXPECT_EQ(r.env.at("CMAKE_POLICY_VERSION_MINIMUM"), "3.5");
  EXPECT_TRUE(r.reconfigure);
  auto again = choose_remedy(g.d, {{"CMAKE_POLICY_VERSION_MINIMUM", "3.5"}}, {}, {}, 0, {});
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("did not help"), std::string::npos);
}

TEST(Remedy, ArchShrinkNeedsPermissionAndAKnownGpu) {
  Diag g("PTXAS_TOO_MUCH_SHARED_DATA", triage::RemedyKind::shorten_arch_list);
  std::map<std::string, std::string> env{{"TORCH_CUDA_ARCH_LIST", "5.0;6.0;7.0;8.0;9.0"}};
  const Ran planned{{}, *ArchList::parse("5.0;6.0;7.0;8.0;9.0")};
  auto no = choose_remedy(g.d, env, planned, {}, 0, *ArchList::parse("9.0"));
  EXPECT_FALSE(no.retry);
  EXPECT_NE(no.refused.find("--allow-arch-shrink"), std::string::npos);
  RetryPolicy allow;
  allow.allow_arch_shrink = true;
  auto yes = choose_remedy(g.d, env, planned, allow, 0, *ArchList::parse("9.0"));
  ASSERT_TRUE(yes.retry);
  EXPECT_EQ(yes.env.at("TORCH_CUDA_ARCH_LIST"), "9.0");
  ASSERT_TRUE(yes.arch_list.has_value());  // typed, for the run's next attempt
  EXPECT_EQ(*yes.arch_list, *ArchList::parse("9.0"));
  EXPECT_FALSE(choose_remedy(g.d, env, planned, allow, 0, {}).retry);  // no GPU here: nothing shorter known
  // Already only the GPUs here (the list the step ran with, typed): nothing shorter.
  EXPECT_FALSE(choose_remedy(g.d, env, Ran{{}, *ArchList::parse("9.0")}, allow, 0, *ArchList::parse("9.0")).retry);
}

TEST(Remedy, BoundedAndSwitchableOff) {
  Diag g("STALE_BUILD_DIR", triage::RemedyKind::clean_build_dir);
  auto r = choose_remedy(g.d, {}, {}, {}, 0, {});
  ASSERT_TRUE(r.retry);
  EXPECT_TRUE(r.clean_build);
  RetryPolicy p;
  EXPECT_FALSE(choose_remedy(g.d, {}, {}, p, p.max_retries, {}).retry);
  p.auto_fix = false;
  auto off = choose_remedy(g.d, {}, {}, p, 0, {});
  EXPECT_FALSE(off.retry);
  EXPECT_NE(off.refused.find("--no-auto-fix"), std::string::npos);
}

TEST(Remedy, CompilerSwitchOnlyToAnInstalledCompilerThatFits) {
  // No fitting compiler known (triage had no facts, or none is installed): the plan must change.
  Diag g("NVCC_HOST_GCC_TOO_NEW", triage::RemedyKind::switch_host_compiler);
  auto r = choose_remedy(g.d, {}, {}, {}, 0, {});
  EXPECT_FALSE(r.retry);
  EXPECT_NE(r.refused.find("needs a different plan"), std::string::npos);
  triage::Diagnosis unknown;  // no root cause: nothing to do
  EXPECT_FALSE(choose_remedy(unknown, {}, {}, {}, 0, {}).retry);

  // specialize() found gcc-11 installed: switch to it, clean the build dir, say what changed.
  Diag fit("NVCC_HOST_GCC_TOO_NEW", triage::RemedyKind::switch_host_compiler,
           {{"CC", "/usr/bin/gcc-11"}, {"CXX", "/usr/bin/g++-11"}, {"CUDAHOSTCXX", "/usr/bin/g++-11"}});
  auto s = choose_remedy(fit.d, {{"CUDAHOSTCXX", "/usr/bin/g++-13"}}, {}, {}, 0, {});
  ASSERT_TRUE(s.retry) << s.refused;
  EXPECT_EQ(s.env.at("CUDAHOSTCXX"), "/usr/bin/g++-11");
  EXPECT_EQ(s.env.at("CC"), "/usr/bin/gcc-11");
  EXPECT_TRUE(s.clean_build);
  EXPECT_NE(s.reason.find("/usr/bin/g++-13 -> /usr/bin/g++-11"), std::string::npos) << s.reason;

  // Already on that compiler: it did not help, no loop.
  auto again = choose_remedy(fit.d, {{"CUDAHOSTCXX", "/usr/bin/g++-11"}}, {}, {}, 0, {});
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("did not help"), std::string::npos);

  // --no-auto-fix keeps the old behaviour.
  RetryPolicy off;
  off.auto_fix = false;
  auto no = choose_remedy(fit.d, {}, {}, off, 0, {});
  EXPECT_FALSE(no.retry);
  EXPECT_NE(no.refused.find("--no-auto-fix"), std::string::npos);
}

TEST(Remedy, StaleCacheIsCleanedAndSaysSo) {
  Diag g("STALE_CMAKE_MAKE_PROGRAM", triage::RemedyKind::clean_build_dir);
  auto r = choose_remedy(g.d, {}, {}, {}, 0, {});
  ASSERT_TRUE(r.retry);
  EXPECT_TRUE(r.clean_build);
  EXPECT_NE(r.reason.find("STALE_CMAKE_MAKE_PROGRAM"), std::string::npos);
  EXPECT_NE(r.reason.find("cleaned"), std::string::npos);
  RetryPolicy off;
  off.auto_fix = false;
  EXPECT_FALSE(choose_remedy(g.d, {}, {}, off, 0, {}).retry);
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// A forgotten standard header: force-included for nvcc, CMake's CXXFLAGS and the build helper.
TEST(Remedy, ForceIncludeAddsTheHeaderEverywhereOnceAndPutsTheHelperFirst) {
  Diag g("MISSING_STD_HEADER", triage::RemedyKind::force_include);
  g.d.findings[0].remedy.header = "$1";
  g.d.findings[0].captures = {"limits"};
  auto r = choose_remedy(g.d, {{"NVCC_APPEND_FLAGS", "--threads 2"}, {"PYTHONPATH", "/x"}}, {}, {}, 0, {});
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("NVCC_APPEND_FLAGS"), "--threads 2 -include limits");
  EXPECT_EQ(r.env.at("CXXFLAGS"), "-include limits");
  EXPECT_EQ(r.env.at("TORCHSMITH_FORCE_INCLUDE"), "limits");
  EXPECT_EQ(r.env.at("PYTHONPATH"), std::string(plan::kPyshimPlaceholder) + ":/x");
  EXPECT_TRUE(r.reconfigure);
  EXPECT_EQ(r.reason, "MISSING_STD_HEADER: <limits> force-included (-include limits for the host compiler and nvcc)");

  // The retry failed on the same header: the remedy did not help, so no third build.
  auto again = choose_remedy(g.d, r.env, {}, {}, 1, {});
  EXPECT_FALSE(again.retry);
  EXPECT_EQ(again.refused, "<limits> is already force-included: the remedy did not help");

  // Another header on top of the first keeps both and does not put the helper twice.
  g.d.findings[0].captures = {"cstdint"};
  auto both = choose_remedy(g.d, r.env, {}, {}, 1, {});
  ASSERT_TRUE(both.retry) << both.refused;
  EXPECT_EQ(both.env.at("TORCHSMITH_FORCE_INCLUDE"), "limits cstdint");
  EXPECT_EQ(both.env.count("PYTHONPATH"), 0u);
}

// A Thrust/CUB header (the table's row says compiler = "nvcc"): nvcc's flags only, no CXXFLAGS, no
// build helper, no reconfigure; the same header again is refused.
TEST(Remedy, ForceIncludeOfAnNvccOnlyHeaderGoesToNvccAlone) {
  Diag g("MISSING_CCCL_HEADER", triage::RemedyKind::force_include);
  g.d.findings[0].remedy.header = "$1";
  g.d.findings[0].remedy.compiler = "nvcc";
  g.d.findings[0].captures = {"thrust/execution_policy.h"};
  auto r = choose_remedy(g.d, {{"NVCC_APPEND_FLAGS", "--threads 2"}, {"PYTHONPATH", "/x"}}, {}, {}, 0, {});
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("NVCC_APPEND_FLAGS"), "--threads 2 -include thrust/execution_policy.h");
  EXPECT_EQ(r.env.count("CXXFLAGS"), 0u);
  EXPECT_EQ(r.env.count("TORCHSMITH_FORCE_INCLUDE"), 0u);
  EXPECT_EQ(r.env.count("PYTHONPATH"), 0u);
  EXPECT_FALSE(r.reconfigure);
  EXPECT_EQ(r.reason, "MISSING_CCCL_HEADER: <thrust/execution_policy.h> force-included (-include thrust/execution_policy.h "
                      "for nvcc, CUDA sources only)");
  auto again = choose_remedy(g.d, r.env, {}, {}, 1, {});
  EXPECT_FALSE(again.retry);
  EXPECT_EQ(again.refused, "<thrust/execution_policy.h> is already force-included: the remedy did not help");
}

TEST(Remedy, ForceIncludeRefusesWhatIsNotAHeaderName) {
  Diag g("MISSING_STD_HEADER", triage::RemedyKind::force_include);
  g.d.findings[0].remedy.header = "$1";
  for (std::string bad : {"", "../../etc/passwd", "/usr/include/stdio.h", "-Wl,--foo", "a b"}) {
    g.d.findings[0].captures = {bad};
    auto r = choose_remedy(g.d, {}, {}, {}, 0, {});
    EXPECT_FALSE(r.retry) << bad;
    EXPECT_EQ(r.refused, "no header name in the log line") << bad;
  }
  RetryPolicy off;
  off.auto_fix = false;
  g.d.findings[0].captures = {"cstdint"};
  EXPECT_FALSE(choose_remedy(g.d, {}, {}, off, 0, {}).retry);
}

// A build helper remedy named by a signature (build_remedy): its values from the evidence line
// and the run's environment; refused outside a build step and when it cannot help.
struct BuildDiag : Diag {
  BuildDiag(const std::string& id, const std::string& rule, const std::string& line)
      : Diag(id, triage::RemedyKind::build_remedy) {
    sig.remedy.rule = rule;
    d.findings[0].remedy = sig.remedy;
    d.findings[0].evidence.push_back({12, line});
  }
};

TEST(Remedy, BuildRemedyTakesTheStandardFromTheLine) {
  BuildDiag g("CXX17_REQUIRED", "build.cxx-std", "/usr/include/c++/12/bits/c++0x_warning.h:32:2: error: #error This "
              "file requires compiler and library support for the ISO C++ 2017 standard.");
  auto r = choose_remedy(g.d, {}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_CXX_STD"), "17");
  EXPECT_EQ(r.cxx_std, 17);
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}");
  EXPECT_TRUE(r.reconfigure);
}

// CMake's generator names the dialect, not "C++NN" (sphconv: torch 2.15's cuda_std_20 on CMake 3.25);
// near miss: a dialect with no number is no standard.
TEST(Remedy, BuildRemedyTakesTheStandardFromCmakesDialect) {
  BuildDiag g("CMAKE_LANGUAGE_DIALECT_FLAGS_UNKNOWN", "build.cxx-std",
              "  Target \"sphconv_cuda\" requires the language dialect \"CUDA20\" (with compiler");
  auto r = choose_remedy(g.d, {}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("TORCHSMITH_CMAKE_STD"), "20");
  EXPECT_TRUE(r.reconfigure);
  BuildDiag none("CMAKE_LANGUAGE_DIALECT_FLAGS_UNKNOWN", "build.cxx-std", "  requires the language dialect \"CUDA\"");
  EXPECT_FALSE(choose_remedy(none.d, {}, {4}, {}, 0, ArchList{}, true).retry);
}

// The standard the step ran with is the typed one (the plan's, or an earlier remedy's), never the
// environment's text read back: a stale TORCHSMITH_CXX_STD says nothing, the typed 17 refuses.
TEST(Remedy, BuildRemedyComparesWithTheTypedStandard) {
  BuildDiag g("CXX17_REQUIRED", "build.cxx-std", "error: #error This file requires compiler and library support for "
              "the ISO C++ 2017 standard.");
  Ran raised{{4}};
  raised.cxx_std = 17;
  auto no = choose_remedy(g.d, {}, raised, {}, 0, ArchList{}, true);
  EXPECT_FALSE(no.retry);
  EXPECT_NE(no.refused.find("already raised to C++17"), std::string::npos) << no.refused;
  auto yes = choose_remedy(g.d, {{"TORCHSMITH_CXX_STD", "17"}}, Ran{{4}}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(yes.retry) << yes.refused;
  EXPECT_EQ(yes.cxx_std, 17);
  raised.cxx_std = 14;  // near miss: an older standard is raised
  EXPECT_TRUE(choose_remedy(g.d, {}, raised, {}, 0, ArchList{}, true).retry);
}

TEST(Remedy, BuildRemedyOnlyInABuildStep) {
  BuildDiag g("NVIDIA_DRIVER_MISSING", "build.gpu-target", "RuntimeError: Found no NVIDIA driver on your system.");
  auto r = choose_remedy(g.d, {{"TORCH_CUDA_ARCH_LIST", "8.6"}}, Ran{{4}, *ArchList::parse("8.6")}, {}, 0, ArchList{}, false);
  EXPECT_FALSE(r.retry);
  EXPECT_NE(r.refused.find("this step is not one"), std::string::npos) << r.refused;
  r = choose_remedy(g.d, {{"TORCH_CUDA_ARCH_LIST", "8.6+PTX;9.0"}}, Ran{{4}, *ArchList::parse("8.6+PTX;9.0")}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("TORCHSMITH_GPU_TARGET"), "8.6");
}

TEST(Remedy, BuildRemedyThatCannotHelpIsRefused) {
  BuildDiag gpu("BUILD_NEEDS_A_GPU", "build.gpu-target", "NotImplementedError: Cuda is not availabel");
  EXPECT_NE(choose_remedy(gpu.d, {}, {4}, {}, 0, ArchList{}, true).refused.find("a CPU build"), std::string::npos);
  BuildDiag std("CXX17_REQUIRED", "build.cxx-std", "error: 'optional' in namespace 'std' does not name a template type");
  EXPECT_NE(choose_remedy(std.d, {}, {4}, {}, 0, ArchList{}, true).refused.find("names no C++ standard"), std::string::npos);
  BuildDiag odd("X", "build.nothing", "x");
  EXPECT_NE(choose_remedy(odd.d, {}, {4}, {}, 0, ArchList{}, true).refused.find("no build helper remedy 'build.nothing'"),
            std::string::npos);
}

// build.cuda-half-operators: the signature's defines are appended to what nvcc already gets (an earlier
// force-include's -include), once; the signature's own variable is not passed on. Near miss: nvcc that
// already has them (the remedy ran, or the build passes them itself) gets no retry.
TEST(Remedy, HalfOperatorDefinesAreAppendedForNvccOnce) {
  const std::string defines = "-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__";
  BuildDiag g("CUDA_HALF_OPERATOR_AMBIGUOUS", "build.cuda-half-operators",
              "            operand types are: const c10::Half == const c10::Half");
  g.d.findings[0].remedy.env = {{"TORCHSMITH_NVCC_HALF_DEFINES", defines}};
  g.sig.remedy.env = g.d.findings[0].remedy.env;
  auto r = choose_remedy(g.d, {{"NVCC_APPEND_FLAGS", "-include cstdint"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.env.at("NVCC_APPEND_FLAGS"), "-include cstdint " + defines);
  EXPECT_EQ(r.env.count("TORCHSMITH_NVCC_HALF_DEFINES"), 0u);
  EXPECT_EQ(r.reason.rfind("CUDA_HALF_OPERATOR_AMBIGUOUS: [build.cuda-half-operators]", 0), 0u) << r.reason;
  EXPECT_EQ(choose_remedy(g.d, {}, {4}, {}, 0, ArchList{}, true).env.at("NVCC_APPEND_FLAGS"), defines);
  auto again = choose_remedy(g.d, {{"NVCC_APPEND_FLAGS", defines}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already gets -D__CUDA_NO_HALF_OPERATORS__"), std::string::npos) << again.refused;
}

// torchmcubes on the GPU machine: the LTO link could not start lto-wrapper. The retry turns LTO off
// through the helper (its CMake include too: reconfigure); near miss: LTO already off is refused.
TEST(Remedy, NoLtoTurnsLinkTimeOptimisationOffOnce) {
  BuildDiag g("LTO_WRAPPER_CANNOT_RUN", "build.no-lto", "/usr/bin/ld: error: could not run lto-wrapper");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_NO_LTO"), "1");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_TRUE(r.reconfigure);
  EXPECT_NE(r.reason.find("LTO_WRAPPER_CANNOT_RUN: [build.no-lto]"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("-DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_NO_LTO", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already off"), std::string::npos) << again.refused;
  EXPECT_FALSE(choose_remedy(g.d, {}, {4}, {}, 0, ArchList{}, false).retry);  // not a build step
}

// shocc on the GPU machine: setup.py's own cmake call found no TorchConfig.cmake. Live, the retry's
// CMAKE_PREFIX_PATH starts with the plan's torch.utils.cmake_prefix_path (a value there stays after it),
// reconfigured; near misses: already first is refused, a plan with no torch prefix is refused.
// A source archive whose build asks setuptools_scm for its version, unseen by the scan (a backend's own
// use): the retry gives the version asked for, else 0.0.0. Near misses: the variable already set (by the
// plan's scan or an earlier retry) is refused; outside a build step it is refused.
TEST(Remedy, ScmVersionGivesTheVersionAskedForOnce) {
  BuildDiag g("SETUPTOOLS_SCM_NO_VERSION", "build.scm-version",
              "LookupError: setuptools-scm was unable to detect version for /tmp/out/src.");
  Ran now;
  now.version = "0.1.2";
  auto r = choose_remedy(g.d, {}, now, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("SETUPTOOLS_SCM_PRETEND_VERSION"), "0.1.2");
  EXPECT_NE(r.reason.find("SETUPTOOLS_SCM_NO_VERSION: [build.scm-version]"), std::string::npos) << r.reason;
  EXPECT_EQ(choose_remedy(g.d, {}, Ran{}, {}, 0, ArchList{}, true).env.at("SETUPTOOLS_SCM_PRETEND_VERSION"), "0.0.0");
  auto again = choose_remedy(g.d, {{"SETUPTOOLS_SCM_PRETEND_VERSION", "0.1.2"}}, now, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already 0.1.2"), std::string::npos) << again.refused;
  EXPECT_FALSE(choose_remedy(g.d, {}, now, {}, 0, ArchList{}, false).retry);
  plan::Plan p;
  p.spec.version = "0.1.2";
  EXPECT_EQ(ran_of(p).version, "0.1.2");
}

TEST(Remedy, TorchPrefixPutsTheTargetTorchFirstOnce) {
  BuildDiag g("TORCHCONFIG_NOT_FOUND", "build.torch-prefix",
              "  Could not find a package configuration file provided by \"Torch\" with any of");
  Ran now;
  now.parallel.jobs = 4;
  now.torch_cmake_prefix = "/venv/lib/python3.12/site-packages/torch/share/cmake";
  auto r = choose_remedy(g.d, {{"CMAKE_PREFIX_PATH", "/opt/healpix"}}, now, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("CMAKE_PREFIX_PATH"), "/venv/lib/python3.12/site-packages/torch/share/cmake:/opt/healpix");
  EXPECT_TRUE(r.reconfigure);
  EXPECT_NE(r.reason.find("TORCHCONFIG_NOT_FOUND: [build.torch-prefix]"), std::string::npos) << r.reason;
  EXPECT_EQ(choose_remedy(g.d, {}, now, {}, 0, ArchList{}, true).env.at("CMAKE_PREFIX_PATH"), now.torch_cmake_prefix);
  auto again = choose_remedy(g.d, {{"CMAKE_PREFIX_PATH", now.torch_cmake_prefix + ":/opt/healpix"}}, now, {}, 1,
                             ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already starts with"), std::string::npos) << again.refused;
  Ran bare;
  EXPECT_FALSE(choose_remedy(g.d, {}, bare, {}, 0, ArchList{}, true).retry);
  // The plan carries the prefix into the lock and back.
  plan::Plan p;
  p.torch_cmake_prefix = now.torch_cmake_prefix;
  EXPECT_EQ(ran_of(p).torch_cmake_prefix, now.torch_cmake_prefix);
}

// The long-tail run's end2end-asr: CMAKE_CUDA_COMPILER_NOT_FOUND's reconfigure ran twice, the same
// change each time. A retry already made for the step (same cause, same change) is refused; near miss:
// halving jobs again is a new change and still retries.
TEST(Remedy, ARetryTheStepAlreadyMadeIsNotMadeAgain) {
  Diag g("CMAKE_CUDA_COMPILER_NOT_FOUND", triage::RemedyKind::reconfigure);
  auto first = choose_remedy(g.d, {}, {}, {}, 0, {}, true);
  ASSERT_TRUE(first.retry);
  auto again = choose_remedy(g.d, {}, {}, {}, 1, {}, true, {first.reason});
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("the same retry already ran for this step"), std::string::npos) << again.refused;
  EXPECT_NE(again.refused.find("changes nothing"), std::string::npos) << again.refused;

  Diag oom("OOM_CC1PLUS_KILLED", triage::RemedyKind::halve_jobs);
  Ran now;
  now.parallel.jobs = 8;
  auto h1 = choose_remedy(oom.d, {}, now, {}, 0, {}, true);
  ASSERT_TRUE(h1.retry);
  now.parallel = *h1.parallel;
  auto h2 = choose_remedy(oom.d, {}, now, {}, 1, {}, true, {h1.reason});
  EXPECT_TRUE(h2.retry) << h2.refused;
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// Vox-Surf on the GPU machine: cpp_extension met an extension with no source (setup.py globbed
// another layout's paths). The retry reroots them through the helper; near miss: already rerooted.
TEST(Remedy, SourceRerootRetriesOnceThroughTheHelper) {
  BuildDiag g("EXTENSION_WITHOUT_SOURCES", "build.source-reroot",
              "AssertionError: At least one source is required to build a library");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_REROOT"), "1");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_NE(r.reason.find("EXTENSION_WITHOUT_SOURCES: [build.source-reroot]"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_REROOT", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already rerooted"), std::string::npos) << again.refused;
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// mlp_maps' hashencoder: setup.py's CUDAExtension has its name commented out. The retry names it
// through the helper (from the package's own load()); near miss: already named that way.
TEST(Remedy, ExtensionNameRetriesOnceThroughTheHelper) {
  BuildDiag g("SETUP_PY_EXTENSION_WITHOUT_NAME", "build.extension-name",
              "TypeError: CUDAExtension() missing 1 required positional argument: 'name'");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_EXT_NAME"), "1");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_NE(r.reason.find("SETUP_PY_EXTENSION_WITHOUT_NAME: [build.extension-name]"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_EXT_NAME", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already named"), std::string::npos) << again.refused;
}

// 3DLUT-interpolation's tetrahedral_cuda.cpp launches kernels, which g++ cannot read. The retry
// compiles such sources with nvcc through the helper, with the signature's template-stub flag; near
// miss: already done, the remedy did not help.
TEST(Remedy, CppKernelLaunchRetriesOnceThroughTheHelper) {
  BuildDiag g("CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE", "build.cpp-kernel-launch",
              "src/tetrahedral_cuda.cpp:26:41: error: expected primary-expression before '<' token");
  g.d.findings[0].remedy.env = {{"TORCHSMITH_NVCC_TEMPLATE_STUB", "-static-global-template-stub=false"}};
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_CPP_LAUNCH"), "1");
  EXPECT_EQ(r.env.at("TORCHSMITH_NVCC_TEMPLATE_STUB"), "-static-global-template-stub=false");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_NE(r.reason.find("CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE: [build.cpp-kernel-launch]"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_CPP_LAUNCH", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already compiled by nvcc"), std::string::npos) << again.refused;
}

// torch-mesh-isect includes the CUDA samples' helper_math.h: the retry names the header for the
// pipeline to bring (run/header_source.h); near misses: a line naming no header, one already brought.
TEST(Remedy, HeaderSourceNamesTheMissingHeader) {
  BuildDiag g("CUDA_SAMPLES_HEADER_MISSING", "build.header-source",
              "/x/src/bvh_cuda_op.cu:38:10: fatal error: helper_math.h: No such file or directory");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.header_source, "helper_math.h");
  EXPECT_EQ(r.env.at("TORCHSMITH_HEADER_SOURCES"), "helper_math.h");
  EXPECT_EQ(r.env.count("PYTHONPATH"), 0u);  // the compilers read CPATH; no build helper
  BuildDiag nvcc("CUDA_SAMPLES_HEADER_MISSING", "build.header-source",
                 "src/k.cu(3): catastrophic error: cannot open source file \"helper_cuda.h\"");
  EXPECT_EQ(choose_remedy(nvcc.d, {}, {4}, {}, 0, ArchList{}, true).header_source, "helper_cuda.h");
  BuildDiag none("CUDA_SAMPLES_HEADER_MISSING", "build.header-source", "error: something else");
  EXPECT_FALSE(choose_remedy(none.d, {}, {4}, {}, 0, ArchList{}, true).retry);
  auto again = choose_remedy(g.d, {{"TORCHSMITH_HEADER_SOURCES", "helper_math.h"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already brought"), std::string::npos) << again.refused;
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// depth-from-focus's gauss_psf: ninja found no file for a source setup.py lists (renamed in the tree).
// The retry names it after the file beside it through the helper; near miss: already tried.
TEST(Remedy, SourceNameRetriesOnceThroughTheHelper) {
  BuildDiag g("EXTENSION_SOURCE_MISSING", "build.source-name",
              "ninja: error: '/w/src/gauss_psf_kernel.cu', needed by '/w/src/build/temp.linux-x86_64-cpython-311/"
              "gauss_psf_kernel.o', missing and no known rule to make it");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_SOURCE_NAME"), "1");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_NE(r.reason.find("EXTENSION_SOURCE_MISSING: [build.source-name]"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_SOURCE_NAME", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already looked for"), std::string::npos) << again.refused;
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// cond-norm's xcn_cuda: a header the .cu files include with <> from beside them. The rule names the
// header for the pipeline to look for in the source; near misses: already tried, a line with no header.
TEST(Remedy, OwnHeaderDirNamesTheHeaderForThePipelineOnce) {
  BuildDiag g("MISSING_HEADER_GENERIC", "build.own-header-dir",
              "/w/src/xcn_cuda_kernel.cu:16:10: fatal error: sub/DeviceSqrt.cuh: No such file or directory");
  auto r = choose_remedy(g.d, {}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.own_header, "sub/DeviceSqrt.cuh");
  EXPECT_EQ(r.env.at("TORCHSMITH_OWN_HEADERS"), "sub/DeviceSqrt.cuh");
  EXPECT_NE(r.reason.find("MISSING_HEADER_GENERIC: [build.own-header-dir] sub/DeviceSqrt.cuh"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_OWN_HEADERS", "sub/DeviceSqrt.cuh"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already on CPATH"), std::string::npos) << again.refused;
  BuildDiag none("MISSING_HEADER_GENERIC", "build.own-header-dir", "fatal error C1083: Cannot open include file: 'x.h'");
  EXPECT_FALSE(choose_remedy(none.d, {}, {4}, {}, 0, ArchList{}, true).retry);
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// neuralnet-pytorch's versioneer.py on Python 3.12: the retry gives the removed names back through the
// helper with the signature's table; near misses: a signature with no table, and a second trigger.
TEST(Remedy, PythonAliasRetriesOnceWithTheSignaturesTable) {
  BuildDiag g("PY312_CONFIGPARSER_REMOVED", "build.python-alias",
              "AttributeError: module 'configparser' has no attribute 'SafeConfigParser'. Did you mean: 'RawConfigParser'?");
  BuildDiag bare("PY312_CONFIGPARSER_REMOVED", "build.python-alias", "AttributeError: module 'configparser' has no "
                 "attribute 'SafeConfigParser'");
  g.d.findings[0].remedy.env["TORCHSMITH_PY_ALIASES"] = "configparser:SafeConfigParser=ConfigParser";
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_PY_ALIASES"), "configparser:SafeConfigParser=ConfigParser");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_NE(r.reason.find("PY312_CONFIGPARSER_REMOVED: [build.python-alias]"), std::string::npos) << r.reason;
  EXPECT_FALSE(choose_remedy(bare.d, {}, {4}, {}, 0, ArchList{}, true).retry);
  auto again = choose_remedy(g.d, {{"TORCHSMITH_PY_ALIASES", "configparser:SafeConfigParser=ConfigParser"}}, {4}, {}, 1,
                             ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already given back"), std::string::npos) << again.refused;
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// lookforthechange's setup.py on torch >= 2.6: the retry takes cuda= as device_type through the helper, once.
TEST(Remedy, CppExtensionDeviceTypeRetriesOnce) {
  BuildDiag g("CPP_EXTENSION_CUDA_FLAG_REMOVED", "build.cpp-extension-device-type",
              "TypeError: library_paths() got an unexpected keyword argument 'cuda'");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_CPP_EXT_DEVICE_TYPE"), "1");
  EXPECT_EQ(r.env.at("PYTHONPATH"), "{pyshim}:/x");
  EXPECT_NE(r.reason.find("CPP_EXTENSION_CUDA_FLAG_REMOVED: [build.cpp-extension-device-type]"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_CPP_EXT_DEVICE_TYPE", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("the remedy did not help"), std::string::npos) << again.refused;
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// sphconv: the configure stopped at the author's /usr/local/cuda-10.2/bin/nvcc, which a scan that missed
// the set() (a file it does not read) would leave; the retry gives CMake the build's toolchain through the
// helper's include and reconfigures. Near miss: asked already.
TEST(Remedy, CmakeToolchainRetriesOnceThroughTheHelper) {
  BuildDiag g("CMAKE_CUDA_COMPILER_PATH_MISSING", "build.cmake-toolchain", "  The CMAKE_CUDA_COMPILER:");
  auto r = choose_remedy(g.d, {{"PYTHONPATH", "/x"}}, {4}, {}, 0, ArchList{}, true);
  ASSERT_TRUE(r.retry) << r.refused;
  EXPECT_EQ(r.kind, "build_remedy");
  EXPECT_EQ(r.env.at("TORCHSMITH_CMAKE_TOOLCHAIN"), "1");
  EXPECT_TRUE(r.reconfigure);
  EXPECT_NE(r.reason.find("CMAKE_CUDA_COMPILER_PATH_MISSING: [build.cmake-toolchain]"), std::string::npos) << r.reason;
  auto again = choose_remedy(g.d, {{"TORCHSMITH_CMAKE_TOOLCHAIN", "1"}}, {4}, {}, 1, ArchList{}, true);
  EXPECT_FALSE(again.retry);
  EXPECT_NE(again.refused.find("already gets the plan's compilers"), std::string::npos) << again.refused;
}

}  // namespace
}  // namespace ts::run

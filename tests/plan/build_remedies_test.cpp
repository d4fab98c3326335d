// The build-environment remedies in the plan: decided from what setup.py does (SourceScan), each
// with its rule id, its value for the build helper and a decision; near misses get none.
#include "plan/build_remedies.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "extension_fakes.h"
#include "plan/build_kb.h"
#include "plan/extension.h"
#include "plan/lock_check.h"
#include "testkit/temp_dir.h"

#include <fstream>

namespace ts::plan {
namespace {

using namespace testing;

HostFacts machine(const std::string& torch = "2.11.0+cu130") {
  auto f = fake_host(fake_python(torch, "13.0"), {"13.0"}, {"9.0"});
  f.memory.usable_bytes = 64 * kGiB;
  return f;
}

const Decision* remedy(const Plan& p, const std::string& rule) {
  for (const auto& d : p.decisions)
    if (d.topic == "remedy" && d.rule == rule) return &d;
  return nullptr;
}

PlanResult plan(SourceScan s, const HostFacts& f = machine(), bool cpu = false) {
  auto req = dir_request(s);
  req.cpu = cpu;
  return make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
}

TEST(BuildRemedies, AGpuCheckGetsThePlannedTarget) {
  auto s = cuda_only_scan();
  s.gpu_check = true;
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_GPU_TARGET"), "9.0");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kGpuTargetRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.gpu-target 9.0");
  EXPECT_NE(d->reason.find("torch.cuda answers for the planned target 9.0"), std::string::npos);
}

TEST(BuildRemedies, TheSummaryShowsTheRepairsAndTheSwitches) {
  auto s = cuda_only_scan();
  s.gpu_check = true;
  s.env_switches = {"WITH_OPS"};
  std::string text = render_extension_summary(plan(s));
  EXPECT_NE(text.find("  repairs: build.gpu-target 9.0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  its own switches (--env KEY=VALUE): WITH_OPS\n"), std::string::npos) << text;
  EXPECT_EQ(render_extension_summary(plan(cuda_only_scan())).find("repairs:"), std::string::npos);
}

TEST(BuildRemedies, ASiblingExtensionThePackageImportsIsAWarning) {
  auto s = cuda_only_scan();
  s.sibling_extensions = {{"prefix_sum", "external/prefix_sum/setup.py"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  auto it = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                         [](const Decision& d) { return d.topic == "extension" && d.warning; });
  ASSERT_NE(it, r.plan.decisions.end());
  EXPECT_EQ(it->value, "imports prefix_sum, which this build does not make");
  EXPECT_NE(it->reason.find("torchsmith build SRC/external/prefix_sum"), std::string::npos) << it->reason;
  auto none = plan(cuda_only_scan());
  EXPECT_TRUE(std::none_of(none.plan.decisions.begin(), none.plan.decisions.end(),
                           [](const Decision& d) { return d.topic == "extension" && d.warning; }));
}

TEST(BuildRemedies, NoGpuCheckNoTarget) {
  auto r = plan(cuda_only_scan());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_GPU_TARGET"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kGpuTargetRule), nullptr);
}

TEST(BuildRemedies, ACpuBuildIsNotToldThereIsAGpu) {
  auto s = cuda_only_scan();
  s.cpp_extension = true;  // a CPU path exists
  s.gpu_check = true;
  auto r = plan(s, machine(), /*cpu=*/true);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_GPU_TARGET"), "<unset>");
}

TEST(BuildRemedies, ItsOwnArchListLosesToThePlans) {
  auto s = cuda_only_scan();
  s.own_arches = true;
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_ARCH_LIST"), r.plan.arch_list.torch_cuda_arch_list());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_ARCH_LIST"), "9.0");
  ASSERT_NE(remedy(r.plan, ext::kArchListRule), nullptr);
  EXPECT_EQ(remedy(plan(cuda_only_scan()).plan, ext::kArchListRule), nullptr);
}

// flame-1's rasterizer names gcc-8 for CC and CXX; the plan's compiler wins, said once with the line.
TEST(BuildRemedies, ItsOwnHostCompilerLosesToThePlans) {
  auto s = cuda_only_scan();
  s.own_compiler_env = {{"CC", "setup.py:6: os.environ['CC'] = os.environ['CXX'] = 'gcc-8'"},
                        {"CXX", "setup.py:6: os.environ['CC'] = os.environ['CXX'] = 'gcc-8'"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_HOST_COMPILER"), "1");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kHostCompilerEnvRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.host-compiler " + env(r.plan, "CXX"));
  EXPECT_NE(d->reason.find("setup.py sets its own host compiler (setup.py:6: os.environ['CC'] = os.environ['CXX'] = "
                           "'gcc-8'); the plan's"),
            std::string::npos) << d->reason;
  // Near miss: a setup.py that writes no compiler variable gets neither the switch nor the decision.
  auto none = plan(cuda_only_scan());
  EXPECT_EQ(env(none.plan, "TORCHSMITH_HOST_COMPILER"), "<unset>");
  EXPECT_EQ(remedy(none.plan, ext::kHostCompilerEnvRule), nullptr);
}

// pytorch_winoconv's setup.py runs `make`, whose Makefile passes nvcc -gencode flags from sm_30 and g++
// -std=c++14: wrappers first on PATH give those compiles the plan's arches and the torch's standard,
// said once with the line. Near misses: a setup.py that runs no tool of its own gets no wrapper; a CPU
// build wraps the host compilers only and forces no arch list.
TEST(BuildRemedies, ASetupPyThatRunsMakeGetsThePlansFlagsThroughWrappers) {
  auto s = cuda_only_scan();
  s.build_tool_calls = {{"make", "setup.py:5: os.system('make -j%d' % os.cpu_count())"}};
  auto r = plan(s, machine("2.14.0+cu130"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_TOOL_WRAP"), "nvcc g++ gcc c++ cc make");  // make: its own -j
  EXPECT_EQ(env(r.plan, "TORCHSMITH_ARCH_LIST"), "9.0");
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CXX_STD"), "20");  // torch.toml: 2.14 cxx_standard 20
  EXPECT_EQ(r.plan.cxx_std, 20);
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kToolFlagsRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.tool-flags nvcc g++ gcc c++ cc make");
  EXPECT_NE(d->reason.find("setup.py runs make itself (setup.py:5: os.system('make -j%d' % os.cpu_count()))"),
            std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("become the plan's 9.0"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("an -std older than C++20"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("make's own -j becomes the plan's job count (MAX_JOBS)"), std::string::npos) << d->reason;
  EXPECT_NE(render_extension_summary(r).find("build.tool-flags nvcc g++ gcc c++ cc make"), std::string::npos);

  auto none = plan(cuda_only_scan());
  EXPECT_EQ(env(none.plan, "TORCHSMITH_TOOL_WRAP"), "<unset>");
  EXPECT_EQ(remedy(none.plan, ext::kToolFlagsRule), nullptr);
  EXPECT_EQ(env(none.plan, "TORCHSMITH_ARCH_LIST"), "<unset>");

  auto cpu_scan = s;
  cpu_scan.cpp_extension = true;  // a CPU path exists
  auto cpu = plan(cpu_scan, machine("2.14.0+cu130"), /*cpu=*/true);
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ(env(cpu.plan, "TORCHSMITH_TOOL_WRAP"), "g++ gcc c++ cc make");
  EXPECT_EQ(env(cpu.plan, "TORCHSMITH_ARCH_LIST"), "<unset>");
  EXPECT_EQ(env(cpu.plan, "TORCHSMITH_CXX_STD"), "20");
}

// pyronn-torch from a source archive: setup(use_pyscaffold=True) asks setuptools_scm, and the tree has
// no .git: the plan gives the version (a PKG-INFO's first, else 0.0.0), said once with the line. Near
// misses: a tree with .git, one with a fallback_version, one with no setuptools_scm, and --env's own value.
TEST(BuildRemedies, SetuptoolsScmWithNoVcsMetadataGetsAVersion) {
  auto s = cuda_only_scan();
  s.scm_use = "setup.py:30: setup(use_pyscaffold=True,";
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "SETUPTOOLS_SCM_PRETEND_VERSION"), "0.0.0");
  const Decision* d = remedy(r.plan, ext::kScmVersionRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.scm-version 0.0.0");
  EXPECT_NE(d->reason.find("(setup.py:30: setup(use_pyscaffold=True,)"), std::string::npos) << d->reason;
  EXPECT_NE(render_extension_summary(r).find("build.scm-version 0.0.0"), std::string::npos);
  auto sdist = s;
  sdist.pkg_info_version = "0.1.2";
  EXPECT_EQ(env(plan(sdist).plan, "SETUPTOOLS_SCM_PRETEND_VERSION"), "0.1.2");

  auto git = s, fallback = s;
  git.vcs_metadata = true;
  fallback.scm_fallback = true;
  for (const auto& near : {git, fallback, cuda_only_scan()}) {
    auto n = plan(near);
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(env(n.plan, "SETUPTOOLS_SCM_PRETEND_VERSION"), "<unset>");
    EXPECT_EQ(remedy(n.plan, ext::kScmVersionRule), nullptr);
  }
  auto req = dir_request(s);
  req.env = {{"SETUPTOOLS_SCM_PRETEND_VERSION", "2.0"}};
  auto asked = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(asked.ok());
  EXPECT_EQ(env(asked.plan, "SETUPTOOLS_SCM_PRETEND_VERSION"), "2.0");
  EXPECT_EQ(remedy(asked.plan, ext::kScmVersionRule), nullptr);
}

// Where the build asks setuptools_scm (pyproject's table, setup.py's keywords, setup_requires), and the
// tree's .git and PKG-INFO. Near misses: use_scm_version=False, a commented keyword, no table.
TEST(BuildSwitchScan, SetuptoolsScmUseIsFound) {
  SourceScan kw;
  scan_scm_use("from setuptools import setup\n\nsetup(\n    name='x',\n    use_scm_version={'write_to': 'x/_v.py'},\n)\n",
               "", {}, kw);
  EXPECT_EQ(kw.scm_use, "setup.py:5: use_scm_version={'write_to': 'x/_v.py'},");
  EXPECT_FALSE(kw.scm_fallback);
  SourceScan fb;
  scan_scm_use("setup(use_scm_version={'fallback_version': '1.0'})\n", "", {}, fb);
  EXPECT_TRUE(fb.scm_fallback);
  SourceScan pysc;  // the line named is the code's, not a comment's above it
  scan_scm_use("# setup(use_pyscaffold=True) once git is there\nif __name__ == '__main__':\n    setup(use_pyscaffold=True,\n",
               "", {}, pysc);
  EXPECT_EQ(pysc.scm_use, "setup.py:3: setup(use_pyscaffold=True,");
  SourceScan table;
  scan_scm_use("", "[build-system]\nrequires = ['setuptools', 'setuptools_scm[toml]>=6.2']\n\n[tool.setuptools_scm]\n"
               "fallback_version = '0.0.1'\n", {}, table);
  EXPECT_EQ(table.scm_use, "pyproject.toml:4: [tool.setuptools_scm]");
  EXPECT_TRUE(table.scm_fallback);
  SourceScan req;
  scan_scm_use("setup(setup_requires=['setuptools_scm'], version='1')\n", "", {}, req);
  EXPECT_EQ(req.scm_use, "setup.py:1: setup(setup_requires=['setuptools_scm'], version='1')");
  SourceScan cfg;
  scan_scm_use("setup()\n", "", {"setuptools-scm>=3"}, cfg);
  EXPECT_EQ(cfg.scm_use, "setup.cfg [options] setup_requires: setuptools-scm>=3");

  SourceScan off;
  scan_scm_use("# setup(use_scm_version=True)\nsetup(use_scm_version=False, setup_requires=['numpy'])\n",
               "[tool.setuptools]\n", {"pyscaffold"}, off);
  EXPECT_EQ(off.scm_use, "");
  EXPECT_FALSE(off.scm_fallback);
}

TEST(BuildSwitchScan, SetuptoolsScmTreeMetadataIsRead) {
  testkit::TempDir dir;
  std::ofstream(dir / "setup.py") << "from setuptools import setup\nsetup(use_scm_version=True)\n";
  std::ofstream(dir / "PKG-INFO") << "Metadata-Version: 2.1\nName: x\nVersion: 0.3.1\n";
  std::string err;
  auto s = scan_source_dir(dir.path(), &err);
  EXPECT_EQ(s.scm_use, "setup.py:2: setup(use_scm_version=True)");
  EXPECT_EQ(s.pkg_info_version, "0.3.1");
  EXPECT_FALSE(s.vcs_metadata);
  std::filesystem::create_directory(dir / ".git");
  EXPECT_TRUE(scan_source_dir(dir.path(), &err).vcs_metadata);
}

// Its own -std in setup.py (build.cxx-std) and its make: the standard is set once, by the first.
TEST(BuildRemedies, ToolFlagsKeepTheStandardBuildCxxStdSet) {
  auto s = cuda_only_scan();
  s.std_flags = {{"-std=c++14", 14}};
  s.build_tool_calls = {{"nvcc", "setup.py:3: os.system('nvcc -c k.cu -o k.o')"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CXX_STD"), "17");
  ASSERT_NE(remedy(r.plan, ext::kCxxStdRule), nullptr);
  const Decision* d = remedy(r.plan, ext::kToolFlagsRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.tool-flags nvcc g++ gcc c++ cc");  // no make of its own: no make wrapper
  EXPECT_NE(d->reason.find("an -std older than C++17"), std::string::npos) << d->reason;
  EXPECT_EQ(d->reason.find("make's own -j"), std::string::npos) << d->reason;
}

// equi-pose's models/setup.py imports CUDAExtension and builds none (a pure vgtk wheel) while the
// tree's .cu files are vgtk/setup.py's: no CUDA is planned, so the package step takes the pure wheel.
// Near miss: the same tree whose setup.py builds an extension stays a CUDA build.
TEST(BuildRemedies, ASetupPyThatBuildsNoExtensionIsNoCudaBuild) {
  auto s = cuda_only_scan();
  s.no_extension = true;
  s.sibling_extensions = {{"epn_grouping", "vgtk/setup.py"}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.plan.cuda.is_chosen());
  EXPECT_TRUE(r.plan.arch_list.empty());
  auto it = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                         [](const Decision& d) { return d.topic == "extension" && d.value == "none (a pure-Python wheel)"; });
  ASSERT_NE(it, r.plan.decisions.end());
  EXPECT_NE(it->reason.find("are other setup.py files' (vgtk/setup.py)"), std::string::npos) << it->reason;
  auto near = plan(cuda_only_scan());
  ASSERT_TRUE(near.ok());
  EXPECT_TRUE(near.plan.cuda.is_chosen());
  EXPECT_EQ(near.plan.arch_list.torch_cuda_arch_list(), "9.0");
}

TEST(BuildSwitchScan, ASetupPyWithNoExtensionIsFound) {
  SourceScan s;
  scan_build_switches("from setuptools import find_packages, setup\n"
                      "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
                      "def setup_package():\n    setup(name='vgtk', version='1.0', packages=find_packages())\n"
                      "if __name__ == '__main__':\n    setup_package()\n# ext_modules=[CUDAExtension('x', ['x.cu'])]\n",
                      s);
  EXPECT_TRUE(s.no_extension);
  for (const char* near : {"setup(name='a', ext_modules=exts)\n", "mods = [CUDAExtension(name=f'{n}_ext', sources=srcs)]\n",
                           "setup(name='a', cmdclass={'build_ext': MyBuild})\n", "os.system('nvcc -c x.cu')\n",
                           "subprocess.check_call(['cmake', '..'])\n"}) {
    SourceScan t;
    scan_build_switches(near, t);
    EXPECT_FALSE(t.no_extension) << near;
  }
}

TEST(BuildRemedies, ItsOwnIncludeFlagsAreMadeAbsolute) {
  auto s = cuda_only_scan();
  s.own_includes = true;
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_ABS_INCLUDE"), "1");
  const Decision* d = remedy(r.plan, ext::kAbsIncludeRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->source.find("votenet/issues/108"), std::string::npos) << d->source;
  EXPECT_EQ(env(plan(cuda_only_scan()).plan, "TORCHSMITH_ABS_INCLUDE"), "<unset>");
  EXPECT_EQ(remedy(plan(cuda_only_scan()).plan, ext::kAbsIncludeRule), nullptr);
}

TEST(BuildRemedies, ASourceTheTreeGeneratesIsGeneratedFirst) {
  auto s = cuda_only_scan();
  s.generated_sources = {{"cuda_function_gen.py", {"lightconv_cuda_forward.cu", "lightconv_cuda_backward.cu"}}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_GENERATE"), "cuda_function_gen.py:lightconv_cuda_forward.cu,lightconv_cuda_backward.cu");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kGenerateSourcesRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("cuda_function_gen.py writes lightconv_cuda_forward.cu,lightconv_cuda_backward.cu"),
            std::string::npos) << d->reason;
  EXPECT_NE(d->source.find("fairseq"), std::string::npos) << d->source;
  // Near miss: nothing to generate, no remedy.
  EXPECT_EQ(env(plan(cuda_only_scan()).plan, "TORCHSMITH_GENERATE"), "<unset>");
  EXPECT_EQ(remedy(plan(cuda_only_scan()).plan, ext::kGenerateSourcesRule), nullptr);
}

TEST(BuildRemedies, SetupCalledTwiceBecomesOneSetup) {
  auto s = cuda_only_scan();
  s.setup_calls = 2;
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_ONE_SETUP"), "1");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kOneSetupRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("calls setup() 2 times at its top level"), std::string::npos) << d->reason;
  // Near miss: one call (or calls the scan does not see at the top level) is the package's own.
  s.setup_calls = 1;
  EXPECT_EQ(remedy(plan(s).plan, ext::kOneSetupRule), nullptr);
  EXPECT_EQ(env(plan(s).plan, "TORCHSMITH_ONE_SETUP"), "<unset>");
}

// motion-sparsity's BuildExt removes -Wstrict-prototypes from compiler_so: the helper makes a remove of
// a flag the command lacks do nothing. Near miss: a setup.py that removes nothing gets no remedy.
TEST(BuildRemedies, AFlagRemovedFromTheCompilersCommandIsTolerated) {
  auto s = cuda_only_scan();
  s.compiler_flag_removals = {"-Wstrict-prototypes"};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_FLAG_REMOVE"), "1");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kFlagRemoveRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.compiler-flag-remove -Wstrict-prototypes");
  EXPECT_NE(d->source.find("https://github.com/python/cpython/pull/7395"), std::string::npos) << d->source;
  EXPECT_EQ(remedy(plan(cuda_only_scan()).plan, ext::kFlagRemoveRule), nullptr);
  EXPECT_EQ(env(plan(cuda_only_scan()).plan, "TORCHSMITH_FLAG_REMOVE"), "<unset>");
}

TEST(BuildRemedies, AnOlderStdIsRaisedToTheTorchsStandard) {
  auto s = cuda_only_scan();
  s.std_flags = {{"-std=c++14", 14}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CXX_STD"), "17");  // torch.toml: 2.11 cxx_standard 17
  const Decision* d = remedy(r.plan, ext::kCxxStdRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("-std=c++14"), std::string::npos);
  EXPECT_NE(d->source.find("torch.toml"), std::string::npos);  // the KB entry it came from
}

// C++98 is older than any torch's standard though its number is larger.
TEST(BuildRemedies, Cxx98IsRaisedToo) {
  auto s = cuda_only_scan();
  s.std_flags = {{"-std=c++98", 98}, {"-std=c++xx", 0}};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CXX_STD"), "17");
  const Decision* d = remedy(r.plan, ext::kCxxStdRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("passes -std=c++98 while"), std::string::npos) << d->reason;  // the unknown one is not named
}

TEST(BuildRemedies, TheStandardFollowsTheTargetTorch) {
  auto s = cuda_only_scan();
  s.std_flags = {{"-std=c++17", 17}};
  EXPECT_EQ(env(plan(s).plan, "TORCHSMITH_CXX_STD"), "<unset>");  // 2.11 needs 17: enough
  auto r = plan(s, machine("2.14.0+cu130"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_CXX_STD"), "20");  // torch.toml: 2.14 cxx_standard 20 (#178150)
  s.std_flags = {{"-std=c++20", 20}};
  EXPECT_EQ(env(plan(s, machine("2.14.0+cu130")).plan, "TORCHSMITH_CXX_STD"), "<unset>");
}

TEST(BuildRemedies, ThePackagesOwnSwitchesAreShown) {
  auto s = cuda_only_scan();
  s.env_switches = {"FORCE_CUDA", "WITH_OPS", "MY_EXT_DEBUG"};
  auto r = plan(s);
  const Decision* d = decision(r.plan, "switches");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "WITH_OPS MY_EXT_DEBUG");  // FORCE_CUDA: the generic recipe sets it for a CUDA build
  EXPECT_NE(d->reason.find("--env KEY=VALUE"), std::string::npos);
}

// torch-mesh-isect: include_dirs=[..., osp.expandvars('$CUDA_SAMPLES_INC')]. The build's environment is
// the plan's, so unset it is the literal text: said before the build, with the way to give it.
TEST(BuildRemedies, AnIncludeDirFromAnUnsetVariableIsAWarning) {
  auto s = cuda_only_scan();
  s.include_env = {"CUDA_SAMPLES_INC"};
  auto unset = [](const Plan& p) -> const Decision* {
    for (const auto& d : p.decisions)
      if (d.topic == "extension" && d.value.rfind("include directory $", 0) == 0) return &d;
    return nullptr;
  };
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  const Decision* d = unset(r.plan);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->warning);
  EXPECT_EQ(d->value, "include directory $CUDA_SAMPLES_INC is not set");
  EXPECT_NE(d->reason.find("--env CUDA_SAMPLES_INC=DIR"), std::string::npos) << d->reason;
  // Near miss: given with --env, it is the package's switch and nothing is said.
  auto req = dir_request(s);
  req.env = {{"CUDA_SAMPLES_INC", "/opt/cuda-samples/Common"}};
  auto given = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(unset(given.plan), nullptr);
  EXPECT_EQ(env(given.plan, "CUDA_SAMPLES_INC"), "/opt/cuda-samples/Common");
}

TEST(BuildRemedies, AskedEnvGoesToTheBuild) {
  auto req = dir_request(cuda_only_scan());
  req.env = {{"WITH_OPS", "1"}};
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "WITH_OPS"), "1");
}

// A header installed outside the system's directories (sparsehash under a prefix) is found through
// CPATH; the build's environment is the plan's, so the user's exported search paths are carried.
TEST(BuildRemedies, ExportedSearchPathsGoToTheBuild) {
  auto f = machine();
  f.search_paths = {{"CPATH", "/opt/sparsehash/include"}, {"LIBRARY_PATH", "/opt/boost/lib"}};
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "CPATH"), "/opt/sparsehash/include");
  EXPECT_EQ(env(r.plan, "LIBRARY_PATH"), "/opt/boost/lib");
  bool said = false;
  for (const auto& d : r.plan.decisions)
    if (d.value == "CPATH=/opt/sparsehash/include") said = d.rule == "plan.search_paths" && d.source == "your environment";
  EXPECT_TRUE(said);
  // Near misses: none exported, none carried; one given with --env wins over the exported one.
  auto bare = make_extension_plan(dir_request(cuda_only_scan()), machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare.plan.env.count("CPATH"), 0u);
  auto req = dir_request(cuda_only_scan());
  req.env = {{"CPATH", "/elsewhere/include"}};
  auto given = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(env(given.plan, "CPATH"), "/elsewhere/include");
}

TEST(BuildRemedies, AskedEnvCannotOverrideThePlan) {
  auto req = dir_request(cuda_only_scan());
  req.env = {{"TORCH_CUDA_ARCH_LIST", "3.5"}};
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_FALSE(r.ok());
  ASSERT_FALSE(r.conflicts.empty());
  EXPECT_EQ(r.conflicts[0].what, "--env TORCH_CUDA_ARCH_LIST");
}

PlanResult pyproject_plan(std::vector<std::string> reqs, const ProvisionContext* pc) {
  auto s = cuda_only_scan();
  s.pyproject = true;
  s.pyproject_requires = std::move(reqs);
  auto req = dir_request(s);
  req.provision = pc;
  return make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
}

TEST(BuildRemedies, AMissingBackendGoesIntoAnOverlayWithoutTorch) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto r = pyproject_plan({"setuptools>=64", "scikit-build-core>=0.5", "torch>=2.0", "nvidia-cuda-runtime-cu12"}, &pc);
  ASSERT_TRUE(r.ok());
  const Step* st = nullptr;
  for (const auto& s : r.plan.steps)
    if (s.name == "build-requires") st = &s;
  ASSERT_NE(st, nullptr);
  const auto& a = st->argv;
  EXPECT_EQ(std::vector<std::string>(a.begin() + 1, a.begin() + 7),
            (std::vector<std::string>{"-m", "pip", "install", "--no-deps", "--upgrade", "--target"}));
  // After "--": the backend first (then what build.toml says it imports); setuptools is there (the
  // probe says); torch and its kin never.
  auto dashes = std::find(a.begin(), a.end(), "--");
  ASSERT_NE(dashes, a.end());
  ASSERT_NE(dashes + 1, a.end());
  EXPECT_EQ(*(dashes + 1), "scikit-build-core>=0.5");
  for (auto it = dashes + 1; it != a.end(); ++it) {
    EXPECT_EQ(it->find("torch"), std::string::npos) << *it;
    EXPECT_EQ(it->find("nvidia-"), std::string::npos) << *it;
    EXPECT_EQ(it->find("setuptools"), std::string::npos) << *it;
  }
  std::string overlay = a[7];
  EXPECT_EQ(overlay.rfind("/cache/build-overlay/", 0), 0u) << overlay;
  EXPECT_NE(env(r.plan, "PYTHONPATH").find(overlay), std::string::npos);
  ASSERT_NE(remedy(r.plan, ext::kBuildOverlayRule), nullptr);
}

// A backend installed with --no-deps would not import (scikit-build-core needs pathspec): what it
// imports at build time comes with it, from build.toml's [[backend]], markers left to pip.
TEST(BuildRemedies, AMissingBackendComesWithWhatItImports) {
  std::vector<std::string> errors;
  static const BuildKb bkb = load_build_kb({}, errors);
  ASSERT_TRUE(errors.empty()) << errors[0];
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.pyproject = true;
  s.pyproject_requires = {"scikit-build-core>=0.10", "torch"};
  auto req = dir_request(s);
  req.provision = &pc;
  req.build_kb = &bkb;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = nullptr;
  for (const auto& x : r.plan.steps)
    if (x.name == "build-requires") st = &x;
  ASSERT_NE(st, nullptr);
  std::vector<std::string> reqs(std::find(st->argv.begin(), st->argv.end(), "--") + 1, st->argv.end());
  // The fake Python is 3.12: the backports for Python < 3.11 are left out.
  EXPECT_EQ(reqs, (std::vector<std::string>{"scikit-build-core>=0.10", "packaging>=23.2", "pathspec>=0.10.1"}));
  const Decision* d = remedy(r.plan, ext::kBuildOverlayRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->source.find("scikit-build/scikit-build-core@"), std::string::npos) << d->source;
  // On Python 3.10 they come along, markers as written (pip reads them too).
  auto old = machine();
  old.pythons[0].version = "3.10.12";
  auto r310 = make_extension_plan(req, old, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r310.ok());
  for (const auto& x : r310.plan.steps)
    if (x.name == "build-requires") {
      EXPECT_EQ(std::count(x.argv.begin(), x.argv.end(), "tomli>=1.2.2; python_version<'3.11'"), 1);
    }
  // Near miss: a requirement that is no backend brings nothing more.
  s.pyproject_requires = {"cython>=3"};
  req = dir_request(s);
  req.provision = &pc;
  req.build_kb = &bkb;
  r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  for (const auto& x : r.plan.steps)
    if (x.name == "build-requires") { EXPECT_EQ(x.argv.back(), "cython>=3"); }
}

TEST(BuildRemedies, BuildRequirementsThatAreThereNeedNoOverlay) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto r = pyproject_plan({"setuptools", "wheel", "torch"}, &pc);
  ASSERT_TRUE(r.ok());
  for (const auto& s : r.plan.steps) EXPECT_NE(s.name, "build-requires");
  EXPECT_EQ(remedy(r.plan, ext::kBuildOverlayRule), nullptr);
}

// setup.cfg's [options] setup_requires reach the scan as written; near miss: a tree with no setup.cfg has none.
TEST(BuildSwitchScan, SetupRequiresOfSetupCfgAreRead) {
  testkit::TempDir t;
  std::ofstream(t / "setup.py") << "from setuptools import setup\nsetup(use_pyscaffold=True)\n";
  std::ofstream(t / "setup.cfg") << "[metadata]\nname = demo\n\n[options]\n# DON'T CHANGE THE FOLLOWING LINE!\n"
                                 << "setup_requires = pyscaffold>=3.2a0,<3.3a0\ninstall_requires =\n    numpy\n";
  std::string err;
  SourceScan s = scan_source_dir(t.path(), &err);
  EXPECT_EQ(s.setup_requires, (std::vector<std::string>{"pyscaffold>=3.2a0,<3.3a0"}));
  std::filesystem::remove(t / "setup.cfg");
  EXPECT_TRUE(scan_source_dir(t.path(), &err).setup_requires.empty());
}

// pyronn-torch's setup.cfg pins `setup_requires = pyscaffold>=3.2a0,<3.3a0` for its setup(use_pyscaffold=True),
// with no pyproject.toml: setuptools fetches a missing one when setup() runs, which an offline build
// without isolation cannot. It goes into the build overlay, as a pyproject's requirement does. Near
// misses: a pin the target satisfies (setuptools>=38.3 against its 75.1) and torch are not installed.
TEST(BuildRemedies, ASetupRequiresPinTheTargetLacksGoesIntoTheOverlay) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.setup_requires = {"pyscaffold>=3.2a0,<3.3a0", "setuptools>=38.3", "torch>=1.4"};
  auto req = dir_request(s);
  req.provision = &pc;
  auto f = machine();
  f.pythons[0].packages["setuptools"] = "75.1.0";
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = nullptr;
  for (const auto& x : r.plan.steps)
    if (x.name == "build-requires") st = &x;
  ASSERT_NE(st, nullptr);
  std::vector<std::string> reqs(std::find(st->argv.begin(), st->argv.end(), "--") + 1, st->argv.end());
  EXPECT_EQ(reqs, (std::vector<std::string>{"pyscaffold>=3.2a0,<3.3a0"}));
  const Decision* d = remedy(r.plan, ext::kBuildOverlayRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.overlay pyscaffold");
  EXPECT_EQ(d->source.rfind("setup.cfg [options] setup_requires; ", 0), 0u) << d->source;
  // Near miss: every pin satisfied (or torch's): no overlay.
  s.setup_requires = {"setuptools>=38.3", "torch"};
  req = dir_request(s);
  req.provision = &pc;
  auto none = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(none.ok());
  for (const auto& x : none.plan.steps) EXPECT_NE(x.name, "build-requires");
  EXPECT_EQ(remedy(none.plan, ext::kBuildOverlayRule), nullptr);
}

// The long-tail run's torchmcubes: offline, the overlay step tried to fetch scikit-build-core>=0.10 although
// the target environment may hold one. A requirement the environment satisfies (name and version) is not
// installed again; near miss: an installed version the requirement refuses still goes into the overlay.
TEST(BuildRemedies, ABackendTheTargetAlreadySatisfiesIsNotInstalledAgain) {
  std::vector<std::string> errors;
  static const BuildKb bkb = load_build_kb({}, errors);
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.pyproject = true;
  s.pyproject_requires = {"scikit-build-core>=0.10", "torch"};
  auto req = dir_request(s);
  req.provision = &pc;
  req.build_kb = &bkb;
  auto f = machine();
  f.pythons[0].packages["scikit_build_core"] = "0.11.1";
  f.pythons[0].packages["packaging"] = "24.1";
  f.pythons[0].packages["pathspec"] = "0.12.1";
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  for (const auto& x : r.plan.steps) EXPECT_NE(x.name, "build-requires");
  EXPECT_EQ(remedy(r.plan, ext::kBuildOverlayRule), nullptr);

  f.pythons[0].packages["scikit_build_core"] = "0.9.0";
  r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = nullptr;
  for (const auto& x : r.plan.steps)
    if (x.name == "build-requires") st = &x;
  ASSERT_NE(st, nullptr);
  std::vector<std::string> reqs(std::find(st->argv.begin(), st->argv.end(), "--") + 1, st->argv.end());
  EXPECT_EQ(reqs, (std::vector<std::string>{"scikit-build-core>=0.10"}));
}

// --wheelhouse (build.wheelhouse): the overlay's pip takes only the wheelhouse (no index), verify's
// argv carries it, and the lock as written passes lock_check. A torch wheel other than the target's
// there is refused (named, never installed); the target's own is not.
const Step* step_named(const Plan& p, const std::string& name) {
  for (const auto& x : p.steps)
    if (x.name == name) return &x;
  return nullptr;
}

ExtensionRequest house_request(SourceScan s, const ProvisionContext* pc, std::vector<std::string> files) {
  auto req = dir_request(s);
  req.provision = pc;
  req.wheelhouse = "/media/wheels";
  for (const auto& f : files) {
    auto d1 = f.find('-'), d2 = f.find('-', d1 + 1);
    std::string n = f.substr(0, d1);
    std::replace(n.begin(), n.end(), '_', '-');
    req.wheelhouse_wheels.push_back({n, FactVersion(f.substr(d1 + 1, d2 - d1 - 1)), f});
  }
  return req;
}

TEST(BuildRemedies, AWheelhouseFeedsTheOverlayAndVerifyOffline) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.pyproject = true;
  s.pyproject_requires = {"scikit-build-core>=0.10", "torch"};
  auto req = house_request(s, &pc, {"scikit_build_core-0.11.1-py3-none-any.whl", "torch-2.9.0-cp312-cp312-linux_x86_64.whl",
                                    "torch-2.11.0+cu130-cp312-cp312-linux_x86_64.whl"});
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = step_named(r.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(std::vector<std::string>(st->argv.begin() + 1, st->argv.begin() + 10),
            (std::vector<std::string>{"-m", "pip", "install", "--no-deps", "--upgrade", "--no-index", "--find-links",
                                      "/media/wheels", "--target"}));
  EXPECT_EQ(std::count(st->argv.begin(), st->argv.end(), "torch"), 0);
  const Step* v = step_named(r.plan, "verify");
  ASSERT_NE(v, nullptr);
  auto at = std::find(v->argv.begin(), v->argv.end(), "--wheelhouse");
  ASSERT_NE(at, v->argv.end());
  EXPECT_EQ(*(at + 1), "/media/wheels");
  const Decision* refused = nullptr;
  for (const auto& d : r.plan.decisions)
    if (d.topic == "wheelhouse" && d.warning) refused = &d;
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->value, "refused: torch-2.9.0-cp312-cp312-linux_x86_64.whl");  // the target's own is not named
  EXPECT_TRUE(lock_problems(r.plan).empty()) << lock_problems(r.plan).front();
  // The overlay without a wheelhouse asks the index, as before; a hand-edited --find-links that is not
  // absolute is no plan's.
  auto plain = pyproject_plan({"scikit-build-core>=0.10"}, &pc);
  EXPECT_EQ(std::count(step_named(plain.plan, "build-requires")->argv.begin(),
                       step_named(plain.plan, "build-requires")->argv.end(), "--no-index"), 0);
  Plan edited = r.plan;
  for (auto& x : edited.steps)
    if (x.name == "build-requires") x.argv[8] = "wheels";
  EXPECT_FALSE(lock_problems(edited).empty());
}

// torchmcubes asks for the programs' wheels ("cmake", "ninja"): the machine's own serve when their
// versions fit; near miss: a cmake older than the requirement still goes into the overlay.
TEST(BuildRemedies, TheMachinesCmakeAndNinjaServeTheirRequirements) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto f = machine();
  f.tools.push_back({"cmake", "/usr/bin/cmake", "3.25.1"});
  f.tools.push_back({"ninja", "/usr/bin/ninja", "1.11.1"});
  auto s = cuda_only_scan();
  s.pyproject = true;
  s.pyproject_requires = {"cmake", "ninja>=1.10"};
  auto req = dir_request(s);
  req.provision = &pc;
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(step_named(r.plan, "build-requires"), nullptr);
  s.pyproject_requires = {"cmake>=3.30", "ninja"};
  req = dir_request(s);
  req.provision = &pc;
  r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  const Step* st = step_named(r.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->argv.back(), "cmake>=3.30");
}

// build.fetch-local with no pybind11 in the target Python (the GPU machine's optimized-transducer): a
// pybind11 wheel of the wheelhouse goes into the overlay, whose package carries pybind11Config.cmake.
// Near misses: the target has pybind11, the wheelhouse has none, there is no wheelhouse.
TEST(BuildRemedies, FetchLocalTakesPybind11FromTheWheelhouse) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.setup_py = true;
  s.cmake_driver = "setup.py";
  s.cmake_fetches = {{"pybind11", "CMakeLists.txt:12: FetchContent_Declare(pybind11"}};
  auto req = house_request(s, &pc, {"pybind11-2.13.6-py3-none-any.whl"});
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = step_named(r.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->argv.back(), "pybind11");
  const Decision* d = remedy(r.plan, ext::kBuildOverlayRule);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("pybind11 for build.fetch-local"), std::string::npos) << d->reason;
  EXPECT_NE(env(r.plan, "CMAKE_ARGS").find("FETCHCONTENT_SOURCE_DIR_PYBIND11"), std::string::npos);
  auto has = machine();
  has.pythons[0].packages["pybind11"] = "2.13.6";
  EXPECT_EQ(step_named(make_extension_plan(req, has, test_kb(), recipe_generic("demo-ext"), &test_fixes()).plan,
                       "build-requires"), nullptr);
  auto none = house_request(s, &pc, {"ninja-1.11.1-py3-none-any.whl"});
  EXPECT_EQ(step_named(make_extension_plan(none, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes()).plan,
                       "build-requires"), nullptr);
  auto no_house = dir_request(s);
  no_house.provision = &pc;
  EXPECT_EQ(step_named(make_extension_plan(no_house, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes()).plan,
                       "build-requires"), nullptr);
}

TEST(BuildRemedies, WithoutACacheTheOverlayIsAWarning) {
  auto r = pyproject_plan({"scikit-build-core"}, nullptr);
  ASSERT_TRUE(r.ok());
  const Decision* d = remedy(r.plan, ext::kBuildOverlayRule);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->reason.find("pip install scikit-build-core"), std::string::npos);
}

TEST(BuildRemedies, StandardYears) {
  EXPECT_EQ(cxx_std_year("14"), 14);
  EXPECT_EQ(cxx_std_year("1z"), 17);
  EXPECT_EQ(cxx_std_year("2a"), 20);
  EXPECT_EQ(cxx_std_year("2c"), 26);
  EXPECT_EQ(cxx_std_year("98"), 98);
  EXPECT_EQ(cxx_std_year("latest"), 0);
  EXPECT_EQ(cxx_std_year("1"), 0);
  // Publication order, not the number: 98 is older than 03 and 17; unknown is never older.
  EXPECT_TRUE(cxx_std_older(14, 17));
  EXPECT_TRUE(cxx_std_older(98, 17));
  EXPECT_TRUE(cxx_std_older(98, 3));
  EXPECT_FALSE(cxx_std_older(17, 17));
  EXPECT_FALSE(cxx_std_older(20, 17));
  EXPECT_FALSE(cxx_std_older(0, 17));
  EXPECT_FALSE(cxx_std_older(14, 0));
}

// The scan reads each -std= flag's standard once, as it meets the flag (a draft name included).
TEST(BuildSwitchScan, StdFlagsCarryTheirStandard) {
  SourceScan s;
  scan_build_switches("cxx = ['-std=gnu++1z', '-std=c++98', '-std=c++xx']\n", s);
  EXPECT_EQ(s.std_flags, (std::vector<StdFlag>{{"-std=gnu++1z", 17}, {"-std=c++98", 98}, {"-std=c++xx", 0}}));
}

// What scan_build_switches reads in a setup.py's text.
TEST(BuildSwitchScan, ReadsChecksArchesStandardsAndSwitches) {
  SourceScan s;
  scan_build_switches(
      "import os, torch\n"
      "if not torch.cuda.is_available():\n    raise RuntimeError('Cuda is not available')\n"
      "os.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"3.5;6.0\"\n"
      "cxx = ['-O3', '-std=c++14', \"-I{}\".format('_ext_src/include')]\n"
      "nvcc = ['-std=c++14', '-gencode', 'arch=compute_60,code=sm_60']\n"
      "if os.environ.get('FORCE_CUDA', '0') == '1' or os.getenv(\"WITH_OPS\"): pass\n"
      "if 'DEBUG_BUILD' in os.environ: pass\n",
      s);
  EXPECT_TRUE(s.gpu_check);
  EXPECT_TRUE(s.own_arches);
  EXPECT_TRUE(s.own_includes);
  EXPECT_TRUE(s.ext_modules.empty());
  scan_build_switches("ext = [CUDAExtension('_ext', srcs), CppExtension(name=\"pkg._C\", sources=[])]\n"
                      "extension = CUDAExtension\nmods = [extension(\"maskrcnn._C\", sources)]\n", s);
  EXPECT_EQ(s.ext_modules, (std::vector<std::string>{"_ext", "pkg._C", "maskrcnn._C"}));
  EXPECT_EQ(s.std_flags, (std::vector<StdFlag>{{"-std=c++14", 14}}));
  EXPECT_EQ(s.env_switches, (std::vector<std::string>{"TORCH_CUDA_ARCH_LIST", "FORCE_CUDA", "WITH_OPS", "DEBUG_BUILD"}));
}

// torch-mesh-isect builds its list first; votenet-style os.path.join(here, 'include') is absolute.
TEST(BuildSwitchScan, ARelativeIncludeDirsEntryIsTheRemedysToo) {
  SourceScan s;
  scan_build_switches("bvh_include_dirs = torch.utils.cpp_extension.include_paths() + [\n    'include',\n"
                      "    osp.expandvars('$CUDA_SAMPLES_INC')]\next = CUDAExtension('bvh_cuda', srcs, include_dirs=bvh_include_dirs)\n", s);
  EXPECT_TRUE(s.own_includes);
  EXPECT_EQ(s.include_env, std::vector<std::string>{"CUDA_SAMPLES_INC"});
  EXPECT_EQ(s.env_switches, std::vector<std::string>{"CUDA_SAMPLES_INC"});
  SourceScan t;
  scan_build_switches("ext = CppExtension('m', srcs, include_dirs=[\"csrc\"])\n", t);
  EXPECT_TRUE(t.include_env.empty());
  EXPECT_TRUE(t.own_includes);
  SourceScan near;
  scan_build_switches("include_dirs = [os.path.join(here, 'include'), '/usr/include/eigen3']\n"
                      "include_package_data = True\npackages = ['pkg']\n", near);
  EXPECT_FALSE(near.own_includes);
}

// SS-Conv builds its include list while setup.py runs (os.path.join('src', op) for each directory of
// src/, appended to _include_dirs): unreadable, so the remedy is planned; a list given as a variable
// that setup.py never grows, or a grown list that is not the include_dirs, is not.
TEST(BuildSwitchScan, AnIncludeListSetupPyBuildsIsTheRemedysToo) {
  SourceScan s;
  scan_build_switches("_include_dirs= [os.path.dirname(get_python_inc(plat_specific=1)), ]\n"
                      "for op in os.listdir('src'):\n    dir_op = os.path.join('src', op)\n"
                      "    _include_dirs.append(dir_op)\n"
                      "setup(ext_modules=[CUDAExtension(name='ss_conv._ext', sources=srcs,\n"
                      "    include_dirs = _include_dirs,\n    extra_compile_args={})])\n", s);
  EXPECT_TRUE(s.own_includes);
  SourceScan t;
  scan_build_switches("inc = [here]\ninc += extra\next = CppExtension('m', srcs, include_dirs=inc)\n", t);
  EXPECT_TRUE(t.own_includes);
  SourceScan near;
  scan_build_switches("inc = torch.utils.cpp_extension.include_paths()\nsrcs = []\nsrcs.append('a.cpp')\n"
                      "ext = CppExtension('m', srcs, include_dirs=inc)\n", near);
  EXPECT_FALSE(near.own_includes);
}

// DSMNet's sync_bn calls setup() twice at column 0; calls under if/else, in a function, commented out
// or named otherwise are not counted.
TEST(BuildSwitchScan, CountsTopLevelSetupCalls) {
  SourceScan s;
  scan_build_switches("from setuptools import setup\nsetup(\n  name='a')\n\n\nsetup(name='b',\n)\n", s);
  EXPECT_EQ(s.setup_calls, 2);
  SourceScan t;
  scan_build_switches("import setuptools\nsetuptools.setup(name='a')\n", t);
  EXPECT_EQ(t.setup_calls, 1);
  SourceScan near;
  scan_build_switches("if cuda:\n    setup(name='a')\nelse:\n    setup(name='b')\n# setup(name='c')\n"
                      "def setup_package():\n    setup(name='d')\nsetup_package()\nmy_setup(name='e')\n", near);
  EXPECT_EQ(near.setup_calls, 0);
}

// crfrnn_layer (HapeMask) calls setup() twice at the top of `if __name__ == "__main__":`, which
// setuptools' backend runs; a call nested deeper there, or under another condition, is not counted.
TEST(BuildSwitchScan, CountsSetupCallsOfTheMainBlock) {
  SourceScan s;
  scan_build_switches("import os\nif __name__ == \"__main__\":\n    table = 'x'\n\n    setup(\n        name='a')\n"
                      "    setup(name='b', packages=['b'])\n", s);
  EXPECT_EQ(s.setup_calls, 2);
  SourceScan t;
  scan_build_switches("if '__main__' == __name__:\n  setuptools.setup(name='a')\nsetup(name='b')\n", t);
  EXPECT_EQ(t.setup_calls, 2);
  SourceScan near;
  scan_build_switches("if __name__ == '__main__':\n    if cuda:\n        setup(name='a')\n    else:\n"
                      "        setup(name='b')\nif __name__ == 'lib':\n    setup(name='c')\n    setup(name='d')\n"
                      "def main():\n    setup(name='e')\n", near);
  EXPECT_EQ(near.setup_calls, 0);
}

// motion-sparsity's `self.compiler.compiler_so.remove('-Wstrict-prototypes')` and its kin; a commented-out
// remove, a remove from another list and a remove of a variable are not read.
TEST(BuildSwitchScan, ReadsFlagsRemovedFromTheCompilersCommand) {
  SourceScan s;
  scan_build_switches("class BuildExt(BuildExtension):\n    def build_extensions(self):\n"
                      "        self.compiler.compiler_so.remove('-Wstrict-prototypes')\n"
                      "        self.compiler.compiler_so.remove(\"-Wstrict-prototypes\")\n"
                      "        self.compiler.linker_so.remove( '-g' )\n",
                      s);
  EXPECT_EQ(s.compiler_flag_removals, (std::vector<std::string>{"-Wstrict-prototypes", "-g"}));
  SourceScan near;
  scan_build_switches("# self.compiler.compiler_so.remove('-Wstrict-prototypes')\nflags.remove('-O2')\n"
                      "self.compiler.compiler_so.remove(flag)\nsys.path.remove('.')\n",
                      near);
  EXPECT_TRUE(near.compiler_flag_removals.empty());
}

TEST(BuildSwitchScan, ItsOwnCompilerWritesAreFound) {
  SourceScan s;
  scan_build_switches("import os\n# If you have gcc version 7, change below to 'gcc-7'\n"
                      "os.environ[\"CC\"] = os.environ[ 'CXX' ] = \"gcc-8\"\n"
                      "os.environ['CUDAHOSTCXX']='g++-8'\nos.environ.update({'NVCC_CCBIN': 'g++-8'})\n"
                      "os.environ['CC'] = 'gcc-7'\n",
                      s);
  ASSERT_EQ(s.own_compiler_env.size(), 4u);
  EXPECT_EQ(s.own_compiler_env[0], std::make_pair(std::string("CC"), std::string(
                                       "setup.py:3: os.environ[\"CC\"] = os.environ[ 'CXX' ] = \"gcc-8\"")));
  EXPECT_EQ(s.own_compiler_env[1].first, "CXX");
  EXPECT_EQ(s.own_compiler_env[2], std::make_pair(std::string("CUDAHOSTCXX"), std::string("setup.py:4: os.environ['CUDAHOSTCXX']='g++-8'")));
  EXPECT_EQ(s.own_compiler_env[3].first, "NVCC_CCBIN");
  // Near misses: a comment, a read, a comparison, a setdefault (the plan's value is already there),
  // another variable and a name that only ends in CC.
  SourceScan near;
  scan_build_switches("# os.environ['CC'] = 'gcc-8'\ncc = os.environ.get('CC', 'gcc')\n"
                      "if os.environ['CXX'] == 'clang++': pass\nos.environ.setdefault('CC', 'gcc-8')\n"
                      "os.environ['CFLAGS'] = '-O2'\nos.environ['NVCC'] = 'nvcc'\nos.environ['HIPCC'] = 'x'\n",
                      near);
  EXPECT_TRUE(near.own_compiler_env.empty()) << near.own_compiler_env[0].second;
}

// LDSHARED/LDCXXSHARED are distutils' link commands: a write of one names a compiler too.
TEST(BuildSwitchScan, ItsOwnLinkCommandWritesAreFound) {
  SourceScan s;
  scan_build_switches("import os\nos.environ['LDSHARED'] = 'gcc-8 -pthread -shared'\n"
                      "os.environ.update({'LDCXXSHARED': 'g++-8 -shared'})\n",
                      s);
  ASSERT_EQ(s.own_compiler_env.size(), 2u);
  EXPECT_EQ(s.own_compiler_env[0],
            std::make_pair(std::string("LDSHARED"), std::string("setup.py:2: os.environ['LDSHARED'] = 'gcc-8 -pthread -shared'")));
  EXPECT_EQ(s.own_compiler_env[1].first, "LDCXXSHARED");
  // Near misses: LDFLAGS, a read, a comment.
  SourceScan near;
  scan_build_switches("os.environ['LDFLAGS'] = '-L/x'\nld = os.environ.get('LDSHARED')\n# os.environ['LDSHARED'] = 'x'\n",
                      near);
  EXPECT_TRUE(near.own_compiler_env.empty()) << near.own_compiler_env[0].second;
}

// In the order they are written, each name once with its first line.
TEST(BuildSwitchScan, CompilerWritesInTheOrderTheyAreRead) {
  SourceScan s;
  scan_build_switches("os.environ.update({'CXX': 'g++-8'})\nos.environ['CC'] = 'gcc-8'; os.environ.update(CUDAHOSTCXX='g++-8')\n"
                      "os.environ['CXX'] = 'g++-9'\n",
                      s);
  ASSERT_EQ(s.own_compiler_env.size(), 3u);
  EXPECT_EQ(s.own_compiler_env[0], std::make_pair(std::string("CXX"), std::string("setup.py:1: os.environ.update({'CXX': 'g++-8'})")));
  EXPECT_EQ(s.own_compiler_env[1].first, "CC");
  EXPECT_EQ(s.own_compiler_env[2].first, "CUDAHOSTCXX");
}

TEST(BuildSwitchScan, BuildToolsItRunsItselfAreFound) {
  SourceScan s;
  scan_build_switches("import os, subprocess\n# Build the static library first\nos.system('make -j%d' % os.cpu_count())\n"
                      "subprocess.check_call(['nvcc', '-c', 'k.cu'])\nsubprocess.run('cd src && make', shell=True)\n",
                      s);
  ASSERT_EQ(s.build_tool_calls.size(), 2u);
  EXPECT_EQ(s.build_tool_calls[0],
            std::make_pair(std::string("make"), std::string("setup.py:3: os.system('make -j%d' % os.cpu_count())")));
  EXPECT_EQ(s.build_tool_calls[1], std::make_pair(std::string("nvcc"), std::string("setup.py:4: subprocess.check_call(['nvcc', '-c', 'k.cu'])")));
  SourceScan shell;
  scan_build_switches("subprocess.run(\"cd src && make\", shell=True)\nself.spawn(['gmake', '-C', 'lib'])\n", shell);
  ASSERT_EQ(shell.build_tool_calls.size(), 2u);
  EXPECT_EQ(shell.build_tool_calls[0].first, "make");
  EXPECT_EQ(shell.build_tool_calls[1].first, "gmake");
  // Near misses: a comment, a message, cmake (the CMake remedies reach its compiles), a word that
  // only holds make, and os.makedirs.
  SourceScan near;
  scan_build_switches("# os.system('make')\nprint('make sure CUDA is installed')\nsubprocess.check_call(['cmake', '..'])\n"
                      "os.system('cmake --build . && cmake --install .')\nos.system('remake')\nos.makedirs('build')\n",
                      near);
  EXPECT_TRUE(near.build_tool_calls.empty()) << near.build_tool_calls[0].second;
}

TEST(BuildSwitchScan, CommentsAndReadsAreNotChecksOrWrites) {
  SourceScan s;
  scan_build_switches(
      "# if not torch.cuda.is_available(): raise\n"
      "#   extra = ['-gencode', 'arch=compute_35,code=sm_35', '-std=c++11', '-Iinc']\n"
      "include_dirs = [os.path.join(here, 'include')]\n"
      "arches = os.environ.get('TORCH_CUDA_ARCH_LIST')\n"
      "if os.environ['TORCH_CUDA_ARCH_LIST'] == '': pass\n",
      s);
  EXPECT_FALSE(s.gpu_check);
  EXPECT_FALSE(s.own_arches);
  EXPECT_FALSE(s.own_includes);
  EXPECT_TRUE(s.std_flags.empty());
}

// A binding in a subdirectory that links what the parent's CMake project builds (the shape of
// warp-transducer's pytorch_binding, written here in its own words).
const char* kParentCmake =
    "project(rnnt)\nFIND_PACKAGE(CUDA)\nIF (WITH_GPU)\n  CUDA_ADD_LIBRARY(warprnnt SHARED src/rnnt.cu)\nELSE()\n"
    "  ADD_LIBRARY(warprnnt SHARED src/rnnt.cpp)\nENDIF()\nadd_executable(test_cpu tests/test_cpu.cpp)\n";
const char* kBindingSetup =
    "import os, sys\nfrom setuptools import setup\n# Build the library first\nlib_path = '../build'\n"
    "if 'WARP_RNNT_PATH' in os.environ:\n    lib_path = os.environ['WARP_RNNT_PATH']\n"
    "if not os.path.exists(os.path.join(lib_path, 'libwarprnnt.so')):\n    print('Could not find libwarprnnt.so')\n"
    "    sys.exit(1)\nsetup(name='warprnnt_pytorch', ext_modules=[CppExtension('warprnnt_pytorch.warp_rnnt', "
    "['src/binding.cpp'], library_dirs=[lib_path], libraries=['warprnnt'])])\n";

SourceScan binding_scan(const std::string& parent, const std::string& setup) {
  SourceScan s;
  scan_build_switches(setup, s);
  scan_parent_library(parent, setup, s);
  return s;
}

TEST(ParentLibraryScan, ABindingThatLinksTheParentsLibraryIsFound) {
  auto s = binding_scan(kParentCmake, kBindingSetup);
  ASSERT_TRUE(s.parent_library.has_value());
  EXPECT_EQ(s.parent_library->target, "warprnnt");
  EXPECT_EQ(s.parent_library->declared, "../CMakeLists.txt:4: CUDA_ADD_LIBRARY(warprnnt SHARED src/rnnt.cu)");
  EXPECT_EQ(s.parent_library->referenced,
            "setup.py:7: if not os.path.exists(os.path.join(lib_path, 'libwarprnnt.so')):");
  EXPECT_EQ(s.parent_library->env_var, "WARP_RNNT_PATH");
  EXPECT_EQ(s.parent_library->lib_dir, "../build");
}

TEST(ParentLibraryScan, OnlyLibrariesListOrOnlyBuildDirIsEnough) {
  // libraries=['warprnnt'] with no file name; the parent's only library through ../build alone.
  auto by_list = binding_scan(kParentCmake, "setup(ext_modules=[Extension('x', ['a.cpp'], libraries=['m', 'warprnnt'])])\n");
  ASSERT_TRUE(by_list.parent_library.has_value());
  EXPECT_EQ(by_list.parent_library->env_var, "");
  auto by_dir = binding_scan("add_library(core SHARED core.cpp)\n",
                             "setup(ext_modules=[Extension('x', ['a.cpp'], library_dirs=['../build'])])\n");
  ASSERT_TRUE(by_dir.parent_library.has_value());
  EXPECT_EQ(by_dir.parent_library->target, "core");
}

// Near misses: the parent has a CMake project but setup.py needs nothing from it (its own sources
// only, a name that merely contains the target's, a ../build of a parent with several libraries,
// a commented-out reference); an imported or interface library is nothing the parent builds.
TEST(ParentLibraryScan, ASetupPyThatNeedsNothingFromTheParentIsLeftAlone) {
  EXPECT_FALSE(binding_scan(kParentCmake, "setup(ext_modules=[CUDAExtension('warp', ['a.cu'])])\n").parent_library);
  EXPECT_FALSE(binding_scan(kParentCmake, "setup(ext_modules=[Extension('x', ['a.cpp'], libraries=['warprnnt2'])])\n"
                                          "# libwarprnnt.so from ../build\n").parent_library);
  EXPECT_FALSE(binding_scan("add_library(a SHARED a.cpp)\nadd_library(b SHARED b.cpp)\n",
                            "setup(ext_modules=[Extension('x', ['a.cpp'], library_dirs=['../build'])])\n").parent_library);
  EXPECT_FALSE(binding_scan("add_library(warprnnt SHARED IMPORTED)\n", kBindingSetup).parent_library);
  EXPECT_FALSE(binding_scan("", kBindingSetup).parent_library);
}

TEST(BuildRemedies, AParentLibraryTheBindingLinksIsAWarningWithTheStepsToBuildIt) {
  auto s = cuda_only_scan();
  scan_build_switches(kBindingSetup, s);
  scan_parent_library(kParentCmake, kBindingSetup, s);
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  auto it = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                         [](const Decision& d) { return d.rule == ext::kParentLibraryRule; });
  ASSERT_NE(it, r.plan.decisions.end());
  EXPECT_TRUE(it->warning);
  EXPECT_EQ(it->value, "links libwarprnnt, which ../CMakeLists.txt builds");
  EXPECT_NE(it->reason.find("cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES='90-real' && cmake --build build --target "
                            "warprnnt"), std::string::npos) << it->reason;
  EXPECT_NE(it->reason.find("--env WARP_RNNT_PATH=PARENT/build"), std::string::npos) << it->reason;
  EXPECT_NE(render_extension_summary(r).find("links libwarprnnt"), std::string::npos);
  // The user gave the library's directory: nothing to say.
  auto req = dir_request(s);
  req.env = {{"WARP_RNNT_PATH", "/opt/rnnt/build"}};
  auto given = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  EXPECT_TRUE(std::none_of(given.plan.decisions.begin(), given.plan.decisions.end(),
                           [](const Decision& d) { return d.rule == ext::kParentLibraryRule; }));
}


// setup.py's reads of a variable with no default (yx_modfs' NCCL_HOME): a read with a default, a write
// and a commented-out read are not ones; the line is setup.py's as written.
TEST(BuildSwitchScan, ReadsWithoutADefaultAreFoundWithTheirLine) {
  SourceScan s;
  scan_env_without_default("import os\n"
                           "# CUDNN = os.getenv('CUDNN_HOME')\n"
                           "NCCL_HOME = os.getenv('NCCL_HOME')\n"
                           "nccl_include_path = NCCL_HOME+'/include'\n"
                           "home = os.environ.get(\"CUDA_HOME\", '/usr/local/cuda')\n"
                           "os.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\n"
                           "lib = os.environ['CUDNN_LIB_DIR']\n"
                           "if os.environ.get('WITH_X'): pass\n",
                           s);
  ASSERT_EQ(s.env_no_default.size(), 3u);
  EXPECT_EQ(s.env_no_default[0].first, "NCCL_HOME");
  EXPECT_EQ(s.env_no_default[0].second, "setup.py:3: NCCL_HOME = os.getenv('NCCL_HOME')");
  EXPECT_EQ(s.env_no_default[1].first, "CUDNN_LIB_DIR");
  EXPECT_EQ(s.env_no_default[1].second, "setup.py:7: lib = os.environ['CUDNN_LIB_DIR']");
  EXPECT_EQ(s.env_no_default[2].first, "WITH_X");
}

LibraryFacts library(const std::string& name, const std::string& prefix, const std::string& source) {
  LibraryFacts l;
  l.name = name;
  l.version = "2.28.3";
  l.include_dir = prefix + "/include";
  l.library_dir = prefix + "/lib";
  l.source = source;
  return l;
}

PlanResult lib_env_plan(SourceScan s, const HostFacts& f, std::vector<std::pair<std::string, std::string>> asked = {},
                        bool cpu = false) {
  static const BuildKb kb = [] {
    std::vector<std::string> errors;
    BuildKb b = load_build_kb({}, errors);
    EXPECT_TRUE(errors.empty());
    return b;
  }();
  auto req = dir_request(s);
  req.build_kb = &kb;
  req.env = std::move(asked);
  req.cpu = cpu;
  return make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
}

// build.lib-env: yx_modfs' setup.py does `NCCL_HOME + '/include'` on os.getenv('NCCL_HOME'); the plan
// sets it to the NCCL the target Python's pip nvidia-nccl package installs (include/ and lib/), over
// the system's, and the decision says where from.
TEST(BuildRemedies, ALibraryVariableReadWithNoDefaultIsSetFromTheFacts) {
  auto s = cuda_only_scan();
  s.env_no_default = {{"NCCL_HOME", "setup.py:6: NCCL_HOME = os.getenv('NCCL_HOME')"}};
  auto f = machine();
  f.pythons[0].site_packages = "/opt/venv/lib/python3.12/site-packages";
  f.libraries = {library("nccl", "/usr", "header"),
                 library("nccl", "/opt/venv/lib/python3.12/site-packages/nvidia/nccl", "pip:nvidia-nccl-cu13"),
                 library("nccl", "/other/venv/site-packages/nvidia/nccl", "pip:nvidia-nccl-cu12")};
  auto r = lib_env_plan(s, f);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "NCCL_HOME"), "/opt/venv/lib/python3.12/site-packages/nvidia/nccl");
  const Decision* d = remedy(r.plan, ext::kLibEnvRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.lib-env NCCL_HOME=/opt/venv/lib/python3.12/site-packages/nvidia/nccl");
  EXPECT_NE(d->reason.find("setup.py:6: NCCL_HOME = os.getenv('NCCL_HOME')"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("pip:nvidia-nccl-cu13"), std::string::npos) << d->reason;
  EXPECT_NE(d->source.find("nccl-tests"), std::string::npos) << d->source;
  // The system's when the target Python has none; another environment's pip NCCL never.
  f.libraries.erase(f.libraries.begin() + 1);
  auto sys = lib_env_plan(s, f);
  ASSERT_TRUE(sys.ok());
  EXPECT_EQ(env(sys.plan, "NCCL_HOME"), "/usr");
  // An include-directory variable gets the include directory; a toolkit one the plan's toolkit.
  s.env_no_default = {{"NCCL_INCLUDE_DIR", "setup.py:2: x"}, {"CUDA_TOOLKIT_ROOT_DIR", "setup.py:3: y"}};
  auto inc = lib_env_plan(s, f);
  ASSERT_TRUE(inc.ok());
  EXPECT_EQ(env(inc.plan, "NCCL_INCLUDE_DIR"), "/usr/include");
  EXPECT_EQ(env(inc.plan, "CUDA_TOOLKIT_ROOT_DIR"), inc.plan.cuda_home);
}

// TreeEnergyLoss' lib_tree_filter raises 'LD_LIBRARY_PATH is not set.' unless the variable is there, and
// takes its value as the extension's library_dirs: the scan reads the guarded environ['LD_LIBRARY_PATH'],
// and the plan points it at the toolkit's lib64, as NVIDIA's installation guide has a user do. Near
// misses: a read with a default is not one (the scan skips it), and a CPU build has no toolkit to name
// (a warning naming --env, nothing set).
TEST(BuildRemedies, TheLoaderPathReadAsTheCudaLibraryDirIsTheToolkitsLib64) {
  SourceScan read;
  scan_env_without_default("import os\n"
                           "if 'LD_LIBRARY_PATH' not in os.environ:\n"
                           "    raise Exception('LD_LIBRARY_PATH is not set.')\n"
                           "cuda_lib_path = os.environ['LD_LIBRARY_PATH'].split(':')\n",
                           read);
  ASSERT_EQ(read.env_no_default.size(), 1u);
  EXPECT_EQ(read.env_no_default[0].second, "setup.py:4: cuda_lib_path = os.environ['LD_LIBRARY_PATH'].split(':')");
  auto s = cuda_only_scan();
  s.env_no_default = read.env_no_default;
  auto r = lib_env_plan(s, machine());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "LD_LIBRARY_PATH"), r.plan.cuda_home + "/lib64");
  const Decision* d = remedy(r.plan, ext::kLibEnvRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.lib-env LD_LIBRARY_PATH=" + r.plan.cuda_home + "/lib64");
  EXPECT_NE(d->source.find("cuda-installation-guide-linux"), std::string::npos) << d->source;
  // The plan's value passes the lock's check of what changes which code programs load.
  EXPECT_TRUE(lock_problems(r.plan).empty()) << lock_problems(r.plan).front();

  SourceScan with_default;
  scan_env_without_default("import os\nlibs = os.environ.get('LD_LIBRARY_PATH', '').split(':')\n", with_default);
  EXPECT_TRUE(with_default.env_no_default.empty());
  s.cpp_extension = true;  // a package with a CPU path too
  auto c = lib_env_plan(s, machine(), {}, true);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(env(c.plan, "LD_LIBRARY_PATH"), "<unset>");
}

// Near misses: the user's --env wins; a variable the plan sets itself (CUDA_HOME) keeps the plan's; one
// no table names (the package's own switch) is left to the switches line; with no NCCL anywhere, a
// warning naming --env.
TEST(BuildRemedies, ALibraryVariableGivenOrUnknownOrUnresolvedIsNotSet) {
  auto s = cuda_only_scan();
  s.env_no_default = {{"NCCL_HOME", "setup.py:6: NCCL_HOME = os.getenv('NCCL_HOME')"},
                      {"CUDA_HOME", "setup.py:7: os.environ['CUDA_HOME']"},
                      {"MY_EXT_ROOT", "setup.py:8: os.getenv('MY_EXT_ROOT')"}};
  auto f = machine();
  f.libraries = {library("nccl", "/usr", "header")};
  auto given = lib_env_plan(s, f, {{"NCCL_HOME", "/opt/nccl"}});
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(env(given.plan, "NCCL_HOME"), "/opt/nccl");
  EXPECT_EQ(remedy(given.plan, ext::kLibEnvRule), nullptr);
  EXPECT_EQ(env(given.plan, "CUDA_HOME"), given.plan.cuda_home);
  EXPECT_EQ(env(given.plan, "MY_EXT_ROOT"), "<unset>");
  f.libraries.clear();
  auto none = lib_env_plan(s, f);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(env(none.plan, "NCCL_HOME"), "<unset>");
  const Decision* w = nullptr;
  for (const auto& d : none.plan.decisions)
    if (d.rule == ext::kLibEnvRule) w = &d;
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->warning);
  EXPECT_EQ(w->value, "$NCCL_HOME is not set");
  EXPECT_NE(w->reason.find("--env NCCL_HOME=DIR"), std::string::npos) << w->reason;
}

// build.header-wheel: Cuda_LSS_HQ's backward_kernel includes "cutlass/cutlass.h" from a submodule its
// folder does not hold; build.toml's [[header_wheel]] names nvidia-cutlass, whose wheel carries CUTLASS's
// include/: it goes into the build overlay (--no-deps), its include folders on CPATH (before the user's),
// and not on PYTHONPATH (nothing imports it). The lock as written passes lock_check.
TEST(BuildRemedies, AnIncludedLibraryTheTreeLacksComesFromTheDistributionThatCarriesIt) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.setup_py = true;
  s.unshipped_includes = {{"torch/extension.h", "kernel.cu:1: #include torch/extension.h"},
                          {"cutlass/cutlass.h", "kernel.cu:14: #include cutlass/cutlass.h"},
                          {"cutlass/gemm/device/gemm.h", "kernel.cu:15: #include cutlass/gemm/device/gemm.h"}};
  auto f = machine();
  f.search_paths["CPATH"] = "/opt/mine/include";
  auto req = dir_request(s);
  req.provision = &pc;
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = step_named(r.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->argv.back(), "nvidia-cutlass");
  EXPECT_EQ(std::count(st->argv.begin(), st->argv.end(), "nvidia-cutlass"), 1);  // two includes, one distribution
  EXPECT_EQ(std::count(st->argv.begin(), st->argv.end(), "--no-deps"), 1);
  std::string overlay = *(std::find(st->argv.begin(), st->argv.end(), "--target") + 1);
  EXPECT_EQ(env(r.plan, "CPATH"), overlay + "/cutlass_library/source/include:" + overlay +
                                      "/cutlass_library/source/tools/util/include:/opt/mine/include");
  EXPECT_EQ(env(r.plan, "PYTHONPATH").find(overlay), std::string::npos);
  const Decision* d = remedy(r.plan, ext::kHeaderWheelRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.header-wheel nvidia-cutlass");
  EXPECT_NE(d->reason.find("kernel.cu:14: #include cutlass/cutlass.h"), std::string::npos) << d->reason;
  EXPECT_NE(d->source.find("NVIDIA/cutlass@v4.2.0:setup.cfg"), std::string::npos) << d->source;
  EXPECT_EQ(remedy(r.plan, ext::kBuildOverlayRule), nullptr);  // nothing the build imports
  EXPECT_TRUE(lock_problems(r.plan).empty()) << lock_problems(r.plan).front();
}

// Near misses: includes no [[header_wheel]] names (torch's own), and a wheelhouse without the wheel (a
// warning naming what to add, no install that could only fail offline).
TEST(BuildRemedies, AnIncludeTheKbDoesNotNameOrAWheelhouseLacksIsNotInstalled) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto s = cuda_only_scan();
  s.setup_py = true;
  s.unshipped_includes = {{"torch/extension.h", "kernel.cu:1: #include torch/extension.h"},
                          {"ATen/cuda/CUDAContext.h", "kernel.cu:2: #include ATen/cuda/CUDAContext.h"}};
  auto req = dir_request(s);
  req.provision = &pc;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(step_named(r.plan, "build-requires"), nullptr);
  EXPECT_EQ(env(r.plan, "CPATH"), "<unset>");
  EXPECT_EQ(remedy(r.plan, ext::kHeaderWheelRule), nullptr);
  s.unshipped_includes.push_back({"cute/tensor.hpp", "kernel.cu:3: #include cute/tensor.hpp"});
  auto bare = house_request(s, &pc, {"pybind11-2.13.6-py3-none-any.whl"});
  auto w = make_extension_plan(bare, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(step_named(w.plan, "build-requires"), nullptr);
  const Decision* d = remedy(w.plan, ext::kHeaderWheelRule);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->reason.find("pip download --no-deps -d DIR nvidia-cutlass"), std::string::npos) << d->reason;
  auto full = house_request(s, &pc, {"nvidia_cutlass-4.2.0.0-py3-none-any.whl"});
  auto h = make_extension_plan(full, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  const Step* st = step_named(h.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(std::count(st->argv.begin(), st->argv.end(), "--no-index"), 1);
  EXPECT_EQ(st->argv.back(), "nvidia-cutlass");
}

// The scan: an #include with a folder that no file of the tree is or ends with, each once with its first
// line; a library the tree vendors (third_party/ too, which the rest of the scan skips) is shipped.
TEST(UnshippedIncludeScan, IncludesNoFileOfTheTreeProvidesAreFoundWithTheirLine) {
  testkit::TempDir t;
  std::filesystem::create_directories(t / "src/ops");
  std::ofstream(t / "setup.py") << "from setuptools import setup\nsetup(name='k')\n";
  std::ofstream(t / "src/kernel.cu") << "#include <torch/extension.h>\n#include \"ops/local.h\"\n"
                                     << "// #include \"cutlass/in_a_comment.h\" is not an include\n"
                                     << "  #  include \"cutlass/cutlass.h\"\n#include <cutlass/cutlass.h>\n"
                                     << "#include \"cute/tensor.hpp\"\n";
  std::ofstream(t / "src/ops/local.h") << "#pragma once\n#include \"ops/local.h\"\n";
  std::string err;
  SourceScan s = scan_source_dir(t.path(), &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(s.unshipped_includes,
            (std::vector<std::pair<std::string, std::string>>{
                {"torch/extension.h", "src/kernel.cu:1: #include torch/extension.h"},
                {"cutlass/cutlass.h", "src/kernel.cu:4: #include cutlass/cutlass.h"},
                {"cute/tensor.hpp", "src/kernel.cu:6: #include cute/tensor.hpp"}}));
  std::filesystem::create_directories(t / "third_party/cutlass/include/cutlass");
  std::filesystem::create_directories(t / "include/cute");
  std::ofstream(t / "third_party/cutlass/include/cutlass/cutlass.h") << "#pragma once\n#include \"cutlass/x.h\"\n";
  std::ofstream(t / "include/cute/tensor.hpp") << "#pragma once\n";
  SourceScan v = scan_source_dir(t.path(), &err);
  EXPECT_EQ(v.unshipped_includes, (std::vector<std::pair<std::string, std::string>>{
                                      {"torch/extension.h", "src/kernel.cu:1: #include torch/extension.h"}}));
}

}  // namespace
}  // namespace ts::plan

namespace ts::plan {
namespace {

using namespace testing;

// build.removed-module: torchpermutohedral's setup.py has `import pkg_resources` at its top, which
// setuptools 82 removed (a fresh venv's setuptools stops it before any compile); build.toml's
// [[removed_module]] puts setuptools<82 into the build overlay on PYTHONPATH, with its own decision.
SourceScan imports_pkg_resources() {
  auto s = cuda_only_scan();
  s.setup_py = true;
  scan_build_imports("import torch\nfrom setuptools import setup\nimport os, glob\nimport pkg_resources\n", s);
  return s;
}

TEST(BuildRemedies, AModuleTheTargetsSetuptoolsRemovedComesFromAnOlderOneInTheOverlay) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto f = machine();
  f.pythons[0].packages["setuptools"] = FactVersion("84.2.1");
  auto req = dir_request(imports_pkg_resources());
  req.provision = &pc;
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = step_named(r.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->argv.back(), "setuptools<82");
  std::string overlay = *(std::find(st->argv.begin(), st->argv.end(), "--target") + 1);
  EXPECT_NE(env(r.plan, "PYTHONPATH").find(overlay), std::string::npos);
  const Decision* d = remedy(r.plan, ext::kRemovedModuleRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.removed-module pkg_resources");
  EXPECT_NE(d->reason.find("setup.py:4: import pkg_resources imports pkg_resources"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("has setuptools 84.2.1: setuptools<82"), std::string::npos) << d->reason;
  EXPECT_NE(d->source.find("pypa/setuptools/blob/v82.0.1/NEWS.rst"), std::string::npos) << d->source;
  EXPECT_EQ(remedy(r.plan, ext::kBuildOverlayRule), nullptr);  // no generic "the build requires" for it
  EXPECT_TRUE(lock_problems(r.plan).empty()) << lock_problems(r.plan).front();
}

// Near misses: a setuptools that still has it (69.0, the fakes'), a setup.py that never imports it,
// and a wheelhouse without a setuptools wheel (a warning naming what to add, no install offline).
TEST(BuildRemedies, AModuleTheTargetStillHasOrNeverImportedNeedsNoOverlay) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto req = dir_request(imports_pkg_resources());
  req.provision = &pc;
  auto old = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(step_named(old.plan, "build-requires"), nullptr);
  EXPECT_EQ(remedy(old.plan, ext::kRemovedModuleRule), nullptr);
  auto f = machine();
  f.pythons[0].packages["setuptools"] = FactVersion("84.2.1");
  auto s = cuda_only_scan();
  s.setup_py = true;
  scan_build_imports("from setuptools import setup\n# import pkg_resources\nimport pkg_resources_compat\n", s);
  auto never = dir_request(s);
  never.provision = &pc;
  auto n = make_extension_plan(never, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(step_named(n.plan, "build-requires"), nullptr);
  auto bare = house_request(imports_pkg_resources(), &pc, {"pybind11-2.13.6-py3-none-any.whl"});
  auto w = make_extension_plan(bare, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(step_named(w.plan, "build-requires"), nullptr);
  const Decision* d = remedy(w.plan, ext::kRemovedModuleRule);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->reason.find("pip download --no-deps -d DIR 'setuptools<82'"), std::string::npos) << d->reason;
}

// build.undeclared-module: transformerfusion's setup.py imports pybind11 inside get_pybind_include()
// for an include path, and neither pyproject.toml nor setup.py declares it; a target Python without
// pybind11 gets it in the build overlay (modules.toml's build-time modules, filled in by the command).
const BuildKb& kb_with_build_modules() {
  static const BuildKb kb = [] {
    BuildKb k = test_build_kb();
    k.build_modules = {{"pybind11", "pybind11", "https://pybind11.readthedocs.io/en/stable/compiling.html (modules.toml:29)"},
                       {"yaml", "pyyaml", "pytorch/pytorch@v2.6.0:requirements.txt (modules.toml:35)"}};
    return k;
  }();
  return kb;
}

SourceScan imports_pybind11() {
  auto s = cuda_only_scan();
  s.setup_py = true;
  scan_build_imports("import torch\nfrom setuptools import setup\nclass get_pybind_include(object):\n"
                     "    def __str__(self):\n        import pybind11\n        return pybind11.get_include()\n", s);
  return s;
}

TEST(BuildRemedies, ABuildModuleSetupPyImportsAndNothingDeclaresGoesIntoTheOverlay) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto req = dir_request(imports_pybind11());
  req.build_kb = &kb_with_build_modules();
  req.provision = &pc;
  auto r = make_extension_plan(req, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok());
  const Step* st = step_named(r.plan, "build-requires");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->argv.back(), "pybind11");
  std::string overlay = *(std::find(st->argv.begin(), st->argv.end(), "--target") + 1);
  EXPECT_NE(env(r.plan, "PYTHONPATH").find(overlay), std::string::npos);
  const Decision* d = remedy(r.plan, ext::kUndeclaredModuleRule);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->warning);
  EXPECT_EQ(d->value, "build.undeclared-module pybind11");
  EXPECT_NE(d->reason.find("setup.py:5: import pybind11 imports pybind11"), std::string::npos) << d->reason;
  EXPECT_NE(d->source.find("modules.toml:29"), std::string::npos) << d->source;
  EXPECT_EQ(remedy(r.plan, ext::kBuildOverlayRule), nullptr);  // its own decision, no generic one
  EXPECT_TRUE(lock_problems(r.plan).empty()) << lock_problems(r.plan).front();
}

// Near misses: the target has pybind11; a module that is no build-time module (tqdm); a wheelhouse
// with no pybind11 wheel (a warning naming what to add, nothing installed offline).
TEST(BuildRemedies, ABuildModuleTheTargetHasOrNoBuildModuleNeedsNoOverlay) {
  ProvisionContext pc;
  pc.cache_root = "/cache";
  auto has = machine();
  has.pythons[0].packages["pybind11"] = "2.13.6";
  auto req = dir_request(imports_pybind11());
  req.build_kb = &kb_with_build_modules();
  req.provision = &pc;
  auto h = make_extension_plan(req, has, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(step_named(h.plan, "build-requires"), nullptr);
  EXPECT_EQ(remedy(h.plan, ext::kUndeclaredModuleRule), nullptr);
  auto s = cuda_only_scan();
  s.setup_py = true;
  scan_build_imports("from setuptools import setup\nimport tqdm\n# import pybind11\n", s);
  auto other = dir_request(s);
  other.build_kb = &kb_with_build_modules();
  other.provision = &pc;
  auto o = make_extension_plan(other, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(step_named(o.plan, "build-requires"), nullptr);
  auto bare = house_request(imports_pybind11(), &pc, {"ninja-1.11.1-py3-none-any.whl"});
  bare.build_kb = &kb_with_build_modules();
  auto w = make_extension_plan(bare, machine(), test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(step_named(w.plan, "build-requires"), nullptr);
  const Decision* d = remedy(w.plan, ext::kUndeclaredModuleRule);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->reason.find("pip download --no-deps -d DIR pybind11"), std::string::npos) << d->reason;
}

TEST(BuildImports, TopLevelModulesWithTheirFirstLine) {
  SourceScan s;
  scan_build_imports("import os, glob as g\nfrom torch.utils.cpp_extension import BuildExtension\n"
                     "# import pkg_resources\n    import pkg_resources  # inside a try\nfrom . import local\n"
                     "import os\nimportlib = 1\n", s);
  std::vector<std::pair<std::string, std::string>> want{
      {"os", "setup.py:1: import os, glob as g"},
      {"glob", "setup.py:1: import os, glob as g"},
      {"torch", "setup.py:2: from torch.utils.cpp_extension import BuildExtension"},
      {"pkg_resources", "setup.py:4: import pkg_resources  # inside a try"}};
  EXPECT_EQ(s.build_imports, want);
}

}  // namespace
}  // namespace ts::plan

namespace ts::plan {
namespace {

using namespace testing;

// neuralnet-pytorch's setup.py: its CUDAExtension only when '--cuda-ext' is in sys.argv, removed before
// setup(). Near misses: a flag it does not remove (setup() would refuse it), a flag naming no CUDA.
TEST(BuildRemedies, ACudaSwitchOnSetupPysCommandLineIsRead) {
  SourceScan s;
  scan_build_switches("def get_extensions():\n    if '--cuda-ext' in sys.argv:\n        ext = CUDAExtension('x', srcs)\n"
                      "        sys.argv.remove(\"--cuda-ext\")\n    if \"--with_cuda\" in sys.argv:\n        pass\n"
                      "    if '--cpp-ext' in sys.argv:\n        sys.argv.remove('--cpp-ext')\n"
                      "# if '--cuda_old' in sys.argv: sys.argv.remove('--cuda_old')\n", s);
  EXPECT_EQ(s.cuda_argv_flags, (std::vector<std::string>{"--cuda-ext"}));
}

TEST(BuildRemedies, ACudaSwitchIsPassedToSetupPyWhenThePlanBuildsCuda) {
  auto s = cuda_only_scan();
  s.cuda_argv_flags = {"--cuda-ext"};
  auto r = plan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(env(r.plan, "TORCHSMITH_SETUP_FLAGS"), "--cuda-ext");
  EXPECT_EQ(env(r.plan, "PYTHONPATH"), "{pyshim}");
  const Decision* d = remedy(r.plan, ext::kSetupFlagRule);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->value, "build.setup-flag --cuda-ext");
  // Near miss: a CPU build (the package has a CPU path too) asks for no CUDA switch.
  s.cpp_extension = true;
  auto cpu = plan(s, machine(), true);
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ(env(cpu.plan, "TORCHSMITH_SETUP_FLAGS"), "<unset>");
  EXPECT_EQ(remedy(cpu.plan, ext::kSetupFlagRule), nullptr);
}

}  // namespace
}  // namespace ts::plan

// The extension planner end to end on fake facts: what it refuses, and the env, steps and artifacts
// of the plans it makes (recipes' knobs applied in their own spelling, jobs from memory).
#include <gtest/gtest.h>

#include "plan/extension.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "extension_fakes.h"
#include "tree_testkit.h"

namespace ts::plan {
namespace {

using namespace testing;

const Step* step(const Plan& p, const std::string& name) {
  for (const auto& s : p.steps)
    if (s.name == name) return &s;
  return nullptr;
}

std::string all_conflicts(const PlanResult& r) {
  std::string s;
  for (const auto& c : r.conflicts) s += c.what + ": " + c.why + "\n";
  return s;
}

RecipeSet shipped_recipes() {
  std::vector<std::string> errors;
  return load_recipes({}, errors);
}

// plan.toolkit and plan.fixes are one rule for both kinds: an extension whose nvcc is refused is left
// without a toolkit, and its fixes step says a fix for a CUDA version is skipped because of that
// conflict, as a torch build's does (tests/plan/cuda_conflict_test.cpp).
TEST(ExtensionPlan, ARefusedToolkitLeavesNoCudaAndTheFixesSayTheyAreSkipped) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {}, {"8.6"});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  const Conflict* refused = nullptr;
  for (const auto& c : r.conflicts)
    if (c.rule == "plan.toolkit") refused = &c;
  ASSERT_NE(refused, nullptr) << all_conflicts(r);
  ASSERT_TRUE(r.plan.cuda.is_conflict());  // a conflict, never an empty version
  EXPECT_EQ(r.plan.cuda.conflict_what(), refused->what);
  EXPECT_EQ(r.plan.cuda.text(), "");
  EXPECT_EQ(r.plan.cuda_home, "");
  EXPECT_EQ(r.plan.env.count("CUDA_HOME"), 0u);
  const Decision* skipped = nullptr;
  for (const auto& d : r.plan.decisions)
    if (d.topic == "fix" && d.value == "skipped") skipped = &d;
  ASSERT_NE(skipped, nullptr);
  EXPECT_EQ(skipped->rule, "plan.fixes");
  EXPECT_NE(skipped->reason.find("(" + refused->what + ")"), std::string::npos) << skipped->reason;
}

TEST(ExtensionPlan, CudaTorchWithNvccOfItsMajorPlansTheNativeArchOnly) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.6", "12.8", "13.0"}, {"8.6"});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  const Plan& p = r.plan;
  EXPECT_EQ(p.cuda.text(), "12.8");  // torch's minor preferred over the newer 13.0
  EXPECT_EQ(p.cuda_home, "/usr/local/cuda-12.8");
  EXPECT_EQ(env(p, "TORCH_CUDA_ARCH_LIST"), "8.6");  // target-only: no PTX, no other arches
  EXPECT_EQ(env(p, "CUDA_HOME"), "/usr/local/cuda-12.8");
  EXPECT_EQ(env(p, "CUDA_PATH"), "/usr/local/cuda-12.8");  // every name a build looks for it by
  EXPECT_EQ(env(p, "CUDACXX"), "/usr/local/cuda-12.8/bin/nvcc");
  EXPECT_EQ(env(p, "CXX"), "/usr/bin/g++");
  EXPECT_EQ(env(p, "FORCE_CUDA"), "1");  // the generic recipe's CUDA knob
  EXPECT_EQ(env(p, "PATH").rfind("/opt/venv/bin:/usr/local/cuda-12.8/bin:", 0), 0u) << env(p, "PATH");
  EXPECT_EQ(p.env.count("HOME"), 0u);  // nothing inherited
  const Step* b = step(p, "build");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->argv[0], "/opt/venv/bin/python3");
  // setuptools 69: torchsmith's PEP 517 frontend (no isolation, no deps), found in the helper's directory.
  EXPECT_EQ(b->argv, (std::vector<std::string>{"/opt/venv/bin/python3", "-m", "torchsmith_pep517", "-w", "dist", "."}));
  EXPECT_EQ(env(p, "PYTHONPATH").rfind("{pyshim}", 0), 0u) << env(p, "PYTHONPATH");
  EXPECT_EQ(b->cwd, "{src}");
  auto f2 = f;  // a setuptools before its legacy backend: pip wheel, never isolated
  for (auto& py : f2.pythons) py.packages["setuptools"] = "40.7.0";
  auto r2 = make_extension_plan(dir_request(cuda_only_scan()), f2, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r2.ok());
  const Step* b2 = step(r2.plan, "build");
  ASSERT_NE(b2, nullptr);
  EXPECT_NE(std::find(b2->argv.begin(), b2->argv.end(), "--no-build-isolation"), b2->argv.end());
  const Step* pk = step(p, "package");
  ASSERT_NE(pk, nullptr);
  const Step* v = step(p, "verify");
  ASSERT_NE(v, nullptr);
  // repair reads the target torch's directory: what import torch maps is torch's, never vendored.
  const std::string torch_dir = v->argv.back() == "--gpu" ? v->argv[v->argv.size() - 2] : v->argv.back();
  ASSERT_EQ(torch_dir.substr(torch_dir.size() - 4), "/lib");
  EXPECT_EQ(pk->argv, (std::vector<std::string>{"torchsmith", "repair", "{built_wheel}", "-o", "{dist}", "--plan", "{lock}",
                                                "--torch-dir", torch_dir.substr(0, torch_dir.size() - 4)}));
  EXPECT_NE(std::find(v->argv.begin(), v->argv.end(), "--plan"), v->argv.end());
  EXPECT_NE(std::find(v->argv.begin(), v->argv.end(), "--gpu"), v->argv.end());  // a driver and a GPU here
  EXPECT_NE(std::find(v->argv.begin(), v->argv.end(), "/opt/venv/lib/python3.12/site-packages/torch/lib"), v->argv.end());
  ASSERT_FALSE(p.artifacts.empty());
  EXPECT_EQ(p.artifacts[0].pattern, "demo_ext-*.whl");
  EXPECT_EQ(p.import_name, "demo_ext");
  EXPECT_EQ(p.source_dir, "/src/demo");
  EXPECT_EQ(step(p, "fetch"), nullptr);  // a directory is built as it is
}

// GeoTransformer: CUDAExtension over .cpp files only. The plan builds it with the toolkit (it needs CUDA's
// headers and runtime) and says, from the tree, that no GPU code will come; the lock carries it to verify.
// Near miss: a tree with .cu sources expects GPU code.
TEST(ExtensionPlan, ACudaExtensionWithNoCudaSourceIsPlannedWithNoGpuCode) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.6"});
  SourceScan s;
  s.cuda_extension = true;  // and no .cu/.cuh anywhere in the tree
  auto r = make_extension_plan(dir_request(s), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.cuda.text(), "12.8");
  EXPECT_TRUE(r.plan.no_device_code);
  auto d = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                        [](const Decision& x) { return x.topic == "device-code"; });
  ASSERT_NE(d, r.plan.decisions.end());
  EXPECT_EQ(d->value, "none");
  EXPECT_NE(d->reason.find("its CUDAExtension compiles C++ files only"), std::string::npos) << d->reason;
  nlohmann::json j = r.plan;
  EXPECT_EQ(j.at("device_code"), false);
  EXPECT_TRUE(j.get<Plan>().no_device_code);

  auto r2 = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r2.ok()) << all_conflicts(r2);
  EXPECT_FALSE(r2.plan.no_device_code);
  nlohmann::json j2 = r2.plan;
  EXPECT_FALSE(j2.contains("device_code"));
}

// fusedconvglu-cudnn: a CUDAExtension of one .cpp (cuDNN through torch) beside a .cu that no extension
// lists: setup.py names no .cu and finds no sources, so no GPU code is planned. Near misses: a setup.py
// that names a .cu, or globs its sources, expects GPU code.
TEST(ExtensionPlan, ACudaSourceNoExtensionListsIsNoGpuCode) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.6"});
  auto plan_of = [&](const std::string& setup_py) {
    auto s = cuda_only_scan();
    s.setup_py = true;
    scan_build_switches(setup_py, s);
    return make_extension_plan(dir_request(s), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  };
  auto r = plan_of("setup(name='convtbcglu', ext_modules=[CUDAExtension('convtbcglu', ['convtbcglu.cpp'])])\n");
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_TRUE(r.plan.no_device_code);
  auto d = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                        [](const Decision& x) { return x.topic == "device-code"; });
  ASSERT_NE(d, r.plan.decisions.end());
  EXPECT_NE(d->reason.find("no extension builds the tree's .cu sources"), std::string::npos) << d->reason;
  EXPECT_FALSE(plan_of("ext = CUDAExtension('m', ['m.cpp', 'm_kernel.cu'])\n").plan.no_device_code);
  EXPECT_FALSE(plan_of("ext = CUDAExtension('m', glob.glob('src/*'))\n").plan.no_device_code);
  EXPECT_FALSE(plan_of("srcs = [f for f in os.listdir('src')]\next = CUDAExtension('m', srcs)\n").plan.no_device_code);
}

// A tree without a package of its distribution's name is imported by the extension it builds
// (DCNv2: setup(name="DCNv2", ext_modules=[CUDAExtension("_ext", ...)])); near miss: one that has it.
TEST(ExtensionPlan, ImportNameComesFromTheTreeWhenTheDistributionIsNoModule) {
  auto f = fake_host(fake_python("2.11.0+cu130", "13.0"), {"13.0"}, {"9.0"});
  auto s = cuda_only_scan();
  s.name = "DCNv2";
  s.ext_modules = {"_ext"};
  s.py_packages = {"dcn_v2", "test"};
  auto r = make_extension_plan(dir_request(s), f, test_kb(), recipe_generic(s.name), &test_fixes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.plan.import_name, "_ext");
  EXPECT_EQ(r.plan.smoke, "import _ext");
  s.name = "pointnet2";
  s.ext_modules = {"pointnet2._ext"};
  EXPECT_EQ(make_extension_plan(dir_request(s), f, test_kb(), recipe_generic(s.name), &test_fixes()).plan.import_name,
            "pointnet2");
  s.name = "pytorch-loss";
  s.ext_modules = {"focal_cpp"};
  s.py_packages = {"pytorch_loss"};
  EXPECT_EQ(make_extension_plan(dir_request(s), f, test_kb(), recipe_generic(s.name), &test_fixes()).plan.import_name,
            "pytorch_loss");
  // An import is case-sensitive: the module chamfer3D, not the distribution's spelling chamfer3d.
  s.name = "chamfer3d";
  s.ext_modules = {"chamfer3D"};
  s.py_packages = {};
  r = make_extension_plan(dir_request(s), f, test_kb(), recipe_generic(s.name), &test_fixes());
  EXPECT_EQ(r.plan.import_name, "chamfer3D");
  EXPECT_EQ(r.plan.smoke, "import chamfer3D");
  s.name = "MyOps";
  s.ext_modules = {"myops._C"};
  s.py_packages = {"myops"};
  EXPECT_EQ(make_extension_plan(dir_request(s), f, test_kb(), recipe_generic(s.name), &test_fixes()).plan.import_name,
            "myops");
}

// setup(ext_package=...) installs each extension under that package, and top_level.txt still names
// the bare extension (setuptools' iter_distribution_names): srrcomp's CUDAExtension('eden_utils') with
// ext_package='srrcomp' is srrcomp.eden_utils (import srrcomp), PyTorch-EMDLoss's '_emd' with
// ext_package='_emd_ext' is _emd_ext._emd. Near miss: the same extension without ext_package.
TEST(ExtensionPlan, ImportNameHonoursSetupsExtPackage) {
  auto f = fake_host(fake_python("2.11.0+cu130", "13.0"), {"13.0"}, {"9.0"});
  auto plan_of = [&](const std::string& name, const std::string& setup_py) {
    auto s = cuda_only_scan();
    s.name = name;
    s.setup_py = true;
    scan_build_switches(setup_py, s);
    return make_extension_plan(dir_request(s), f, test_kb(), recipe_generic(name), &test_fixes()).plan;
  };
  auto p = plan_of("srrcomp", "ext = CUDAExtension(\n  'eden_utils', ['a.cpp', 'b.cu'])\n"
                              "setup(name='srrcomp', ext_package='srrcomp', ext_modules=[ext])\n");
  EXPECT_EQ(p.import_name, "srrcomp");
  EXPECT_EQ(p.smoke, "import srrcomp");
  p = plan_of("PyTorch EMD", "setup(name='PyTorch EMD', ext_package='_emd_ext',\n"
                             "  ext_modules=[CUDAExtension(name='_emd', sources=['e.cpp', 'e.cu'])])\n");
  EXPECT_EQ(p.import_name, "_emd_ext");
  EXPECT_EQ(p.smoke, "import _emd_ext");
  p = plan_of("srrcomp", "setup(name='srrcomp', ext_modules=[CUDAExtension('eden_utils', ['a.cpp', 'b.cu'])])\n");
  EXPECT_EQ(p.import_name, "eden_utils");
}

TEST(ExtensionPlan, OnlyNvccOfAnotherMajorIsRefused) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"13.0"}, {"8.6"});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(all_conflicts(r).find("mismatches the version that was used to compile PyTorch"), std::string::npos)
      << all_conflicts(r);
}

TEST(ExtensionPlan, CpuTorchAndCudaOnlyExtensionIsRefused) {
  auto f = fake_host(fake_python("1.13.1", ""), {"13.0"}, {});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_EQ(r.conflicts.size(), 1u) << all_conflicts(r);
  EXPECT_NE(r.conflicts[0].why.find("was built without CUDA"), std::string::npos);
}

TEST(ExtensionPlan, CudaOptionsOnACpuBuildAreSaidToBeUnusedNotDropped) {
  SourceScan scan;
  scan.cpp_extension = true;
  auto f = fake_host(fake_python("1.13.0a0", ""), {"13.0"}, {});
  auto req = dir_request(scan);
  req.arch = "torch";
  req.arch_origin = "--arch";
  req.split_compile = 4;
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(env(r.plan, "TORCH_CUDA_ARCH_LIST"), "<unset>");
  EXPECT_EQ(env(r.plan, "NVCC_APPEND_FLAGS"), "<unset>");
  int warned = 0;
  for (const auto& d : r.plan.decisions) {
    if (d.topic == "arch") {
      EXPECT_TRUE(d.warning);
      EXPECT_NE(d.reason.find("--arch torch is not used: this build compiles no CUDA code"), std::string::npos) << d.reason;
      ++warned;
    }
    if (d.topic == "split-compile") {
      EXPECT_TRUE(d.warning);
      EXPECT_NE(d.reason.find("--split-compile 4 is not used"), std::string::npos) << d.reason;
      ++warned;
    }
  }
  EXPECT_EQ(warned, 2);
}

TEST(ExtensionPlan, CpuTorchAndAPackageWithACpuPathBuildsCpuWithTheRecipesCpuKnob) {
  auto rs = shipped_recipes();
  const Recipe* scatter = rs.find("torch_scatter");
  ASSERT_NE(scatter, nullptr);
  auto f = fake_host(fake_python("1.13.0a0", ""), {"13.0"}, {});
  ExtensionRequest req;
  req.source.kind = ExtensionSource::Kind::name;
  req.source.name = "torch_scatter";
  req.source.version = "2.1.0";
  auto r = make_extension_plan(req, f, test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_TRUE(r.plan.cuda.is_none());  // a CPU build: no toolkit, and no conflict
  EXPECT_EQ(env(r.plan, "FORCE_ONLY_CPU"), "1");
  EXPECT_EQ(r.plan.env.count("FORCE_CUDA"), 0u);
  EXPECT_EQ(r.plan.env.count("CUDA_HOME"), 0u);
  const Step* fetch = step(r.plan, "fetch");
  ASSERT_NE(fetch, nullptr);
  EXPECT_NE(std::find(fetch->argv.begin(), fetch->argv.end(), "2.1.0"), fetch->argv.end());  // tag "{version}"
  EXPECT_EQ(r.plan.source_url, scatter->git_url);
  EXPECT_EQ(r.plan.import_name, "torch_scatter");
  EXPECT_EQ(r.plan.smoke, scatter->smoke);
}

// What the package imports undeclared (mmcv.ops: torchvision) reaches verify through the plan and its lock.
TEST(ExtensionPlan, TheRecipesRuntimeRequiresReachThePlanAndItsJson) {
  auto rs = shipped_recipes();
  const Recipe* mmcv = rs.find("mmcv-full");
  ASSERT_NE(mmcv, nullptr);
  auto f = fake_host(fake_python("1.13.0a0", ""), {"13.0"}, {});
  ExtensionRequest req;
  req.source.kind = ExtensionSource::Kind::name;
  req.source.name = "mmcv-full";
  req.source.version = "1.7.2";
  auto r = make_extension_plan(req, f, test_kb(), *mmcv, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.runtime_requires, std::vector<std::string>{"torchvision"});
  nlohmann::json j = r.plan;
  EXPECT_EQ(j.get<Plan>().runtime_requires, std::vector<std::string>{"torchvision"});
  r.plan.runtime_requires.clear();  // none: the key is left out, and reads back as none
  j = r.plan;
  EXPECT_FALSE(j.contains("runtime_requires"));
  EXPECT_TRUE(j.get<Plan>().runtime_requires.empty());
}

TEST(ExtensionPlan, TorchScatterWithCudaGetsForceCudaAndOneJob) {
  auto rs = shipped_recipes();
  const Recipe* scatter = rs.find("torch-scatter");
  ASSERT_NE(scatter, nullptr);
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.9"});
  ExtensionRequest req;
  req.source.kind = ExtensionSource::Kind::git;
  req.source.url = "https://github.com/rusty1s/pytorch_scatter.git";
  req.source.ref = "2.1.2";
  auto r = make_extension_plan(req, f, test_kb(), *scatter, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(env(r.plan, "FORCE_CUDA"), "1");
  EXPECT_EQ(env(r.plan, "TORCH_CUDA_ARCH_LIST"), "8.9");
  EXPECT_EQ(r.plan.jobs, 1);  // serial_build: its setup.py compiles one file at a time
  EXPECT_EQ(r.plan.source_ref, "2.1.2");
}

TEST(ExtensionPlan, FlashAttnArchKnobInItsFormatAndMemoryWeightedJobs) {
  Recipe fa = recipe_generic("flash-attn");
  fa.cuda_only = true;
  fa.arch_env = "FLASH_ATTN_CUDA_ARCHS";
  fa.arch_format = "semicolon-sm";
  fa.jobs_env = {"MAX_JOBS"};
  fa.nvcc_threads_env = "NVCC_THREADS";
  fa.mem_per_job = 8 * kGiB;
  fa.cuda_env = {{"FLASH_ATTENTION_FORCE_BUILD", "TRUE"}};
  fa.origin = {"packages/flash-attn.toml", 1};
  auto f = fake_host(fake_python("2.11.0+cu130", "13.0"), {"13.0"}, {"9.0"});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), fa, &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(env(r.plan, "FLASH_ATTN_CUDA_ARCHS"), "90");
  EXPECT_EQ(env(r.plan, "MAX_JOBS"), "3");  // 24 GiB / 8 GiB per job, not 16 cores
  EXPECT_EQ(env(r.plan, "NVCC_THREADS"), "1");  // one arch: more threads gain nothing
  EXPECT_EQ(env(r.plan, "FLASH_ATTENTION_FORCE_BUILD"), "TRUE");

  ExtensionRequest budget = dir_request(cuda_only_scan());
  budget.mem_budget_bytes = 10 * kGiB;
  auto small = make_extension_plan(budget, f, test_kb(), fa, &test_fixes());
  EXPECT_EQ(env(small.plan, "MAX_JOBS"), "1");
}

TEST(ExtensionPlan, ArchesFromTheGpusOrAskedAndNoGpuIsAConflict) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.6", "8.9"});
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("d"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list(), "8.6;8.9");

  auto asked = dir_request(cuda_only_scan());
  asked.arch = "9.0+PTX";
  asked.arch_origin = "--arch";
  r = make_extension_plan(asked, f, test_kb(), recipe_generic("d"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_EQ(env(r.plan, "TORCH_CUDA_ARCH_LIST"), "9.0+PTX");

  auto none = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {});
  r = make_extension_plan(dir_request(cuda_only_scan()), none, test_kb(), recipe_generic("d"), &test_fixes());
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_EQ(r.conflicts[0].what, "--arch native");
}

TEST(ExtensionPlan, OldTorchNewArchGetsTheFixStepOnTheInstalledTorch) {
  auto f = fake_host(fake_python("1.13.0", "11.8"), {"11.8"}, {"8.9"});
  f.compilers[0] = {"gcc", "/usr/bin/gcc-11", "/usr/bin/g++-11", "11.4.0", "x86_64-linux-gnu"};
  auto r = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("d"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  const Step* fix = step(r.plan, "fix");
  ASSERT_NE(fix, nullptr);
  EXPECT_EQ(fix->argv[2], "/opt/venv/lib/python3.12/site-packages");
  EXPECT_NE(std::find(fix->argv.begin(), fix->argv.end(), "torch-cpp-extension-arches-sm89-sm90"), fix->argv.end());

  auto none = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("d"), nullptr);
  EXPECT_FALSE(none.ok());
}

TEST(ExtensionPlan, NoTorchInTheChosenPythonIsAConflict) {
  auto f = fake_host(fake_python("2.7.1", ""), {}, {});
  auto req = dir_request(SourceScan{});
  req.torch_python = "/usr/bin/python3.9";
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("d"), nullptr);
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_NE(r.conflicts[0].what.find("/usr/bin/python3.9"), std::string::npos);
}

TEST(ExtensionPlan, AnUnknownNameHasNoSourceToFetch) {
  auto f = fake_host(fake_python("2.7.1", ""), {}, {});
  ExtensionRequest req;
  req.source.kind = ExtensionSource::Kind::name;
  req.source.name = "no-such-ext";
  req.source.version = "1.0";
  auto r = make_extension_plan(req, f, test_kb(), recipe_generic("no-such-ext"), nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(all_conflicts(r).find("where no-such-ext's source lives"), std::string::npos);
}

TEST(ExtensionRequirement, PathsUrlsAndNamesAreTold) {
  EXPECT_TRUE(is_extension_requirement("./hello_ext"));
  EXPECT_TRUE(is_extension_requirement("/abs/dir"));
  EXPECT_TRUE(is_extension_requirement("torch-scatter==2.1.0"));
  EXPECT_TRUE(is_extension_requirement("https://github.com/x/y@v1"));
  EXPECT_FALSE(is_extension_requirement("torch==2.4.1"));
  EXPECT_FALSE(is_extension_requirement("2.4.1"));

  std::string err;
  auto g = parse_extension_source("https://github.com/rusty1s/pytorch_scatter.git@2.1.0", &err);
  ASSERT_TRUE(g) << err;
  EXPECT_EQ(g->url, "https://github.com/rusty1s/pytorch_scatter.git");
  EXPECT_EQ(g->ref, "2.1.0");
  EXPECT_EQ(g->name, "pytorch_scatter");
  auto ssh = parse_extension_source("git@github.com:x/y.git@v2", &err);
  ASSERT_TRUE(ssh) << err;
  EXPECT_EQ(ssh->url, "git@github.com:x/y.git");
  EXPECT_FALSE(parse_extension_source("https://github.com/x/y", &err));
  EXPECT_NE(err.find("URL@TAG"), std::string::npos);
  auto n = parse_extension_source("detectron2==0.6", &err);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->kind, ExtensionSource::Kind::name);
  EXPECT_EQ(n->version, "0.6");
  EXPECT_FALSE(parse_extension_source("detectron2>=0.6", &err));
}

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// The Dao-AILab shape: setup(name=PACKAGE_NAME) after a CUDAExtension(name="..._cuda"), and the
// version read at build time from the package's __init__.py.
TEST(ExtensionScan, ANameConstantAndThePackagesOwnVersionAreRead) {
  ScratchDir d;
  write(d / "setup.py",
        "PACKAGE_NAME = \"demo_conv\"\n"
        "ext = [CUDAExtension(name=\"demo_conv_cuda\", sources=[\"csrc/a.cu\", \"csrc/b.cu\"])]\n"
        "def get_package_version():\n    return read('demo_conv/__init__.py')\n"
        "setup(\n    name=PACKAGE_NAME,\n    version=get_package_version(),\n    ext_modules=ext,\n)\n");
  write(d / "demo_conv/__init__.py", "__version__ = \"1.6.1\"\n");
  write(d / "csrc/a.cu", "");
  write(d / "csrc/b.cu", "");
  write(d / "csrc/common.cuh", "");
  std::string err;
  auto s = scan_source_dir(d.path(), &err);
  ASSERT_TRUE(s.scanned) << err;
  EXPECT_EQ(s.name, "demo_conv");
  EXPECT_EQ(s.version, "1.6.1");
  EXPECT_EQ(s.cu_files, 2);  // the header is not a compile
  // No literal, no constant: the first literal name= still (an Extension's), and no version.
  write(d / "setup.py", "ext = [CUDAExtension(name=\"only_ext\", sources=[])]\nsetup(name=compute(), ext_modules=ext)\n");
  s = scan_source_dir(d.path(), &err);
  EXPECT_EQ(s.name, "only_ext");
  EXPECT_EQ(s.version, "");
}

// FRNN: frnn/frnn.py imports prefix_sum, which external/prefix_sum/setup.py builds as its own package.
TEST(ExtensionScan, AnExtensionAnotherSetupPyOfTheTreeBuildsIsNamedWhenThePackageImportsIt) {
  ScratchDir d;
  write(d / "setup.py", "setup(name='frnn', ext_modules=[CUDAExtension('frnn._C', ['frnn/csrc/ext.cpp'])])\n");
  write(d / "frnn/__init__.py", "from .frnn import frnn_grid_points\n");
  write(d / "frnn/frnn.py", "import torch\nfrom frnn import _C\nfrom prefix_sum import prefix_sum_cuda\n");
  write(d / "external/prefix_sum/setup.py", "setup(name='prefix_sum', ext_modules=[CUDAExtension('prefix_sum', ['prefix_sum.cu'])])\n");
  write(d / "external/other/setup.py", "setup(name='other', ext_modules=[CUDAExtension('other_ops', ['o.cu'])])\n");
  std::string err;
  auto s = scan_source_dir(d.path(), &err);
  ASSERT_TRUE(s.scanned) << err;
  ASSERT_EQ(s.sibling_extensions.size(), 1u);  // other_ops is not imported: not named
  EXPECT_EQ(s.sibling_extensions[0].first, "prefix_sum");
  EXPECT_EQ(s.sibling_extensions[0].second, "external/prefix_sum/setup.py");
  // Near miss: only a comment and a longer name mention it: nothing to build beside.
  write(d / "frnn/frnn.py", "# from prefix_sum import prefix_sum_cuda\nimport prefix_sum_tools\n");
  EXPECT_TRUE(scan_source_dir(d.path(), &err).sibling_extensions.empty());
}

// fairseq's lightconv_layer: cuda_function_gen.py writes the .cu files lightconv_cuda_kernel.cu includes.
TEST(ExtensionScan, SourcesAScriptBesideSetupPyWritesAreFound) {
  ScratchDir d;
  write(d / "setup.py", "setup(name='lightconv_layer', ext_modules=[CUDAExtension('lightconv_cuda', ['k.cu'])])\n");
  write(d / "k.cu", "#include \"lightconv_cuda.cuh\"\n#include \"k_forward.cu\"\n#include \"k_backward.cu\"\n");
  write(d / "lightconv_cuda.cuh", "");
  write(d / "cuda_function_gen.py",
        "def gen_forward():\n    with open(\"k_forward.cu\", \"w\") as f:\n        f.write(x)\n"
        "def gen_backward():\n    with open('k_backward.cu', 'w') as f:\n        f.write(x)\n"
        "if __name__ == \"__main__\":\n    gen_forward()\n    gen_backward()\n");
  std::string err;
  auto s = scan_source_dir(d.path(), &err);
  ASSERT_TRUE(s.scanned) << err;
  ASSERT_EQ(s.generated_sources.size(), 1u);
  EXPECT_EQ(s.generated_sources[0].first, "cuda_function_gen.py");
  EXPECT_EQ(s.generated_sources[0].second, (std::vector<std::string>{"k_forward.cu", "k_backward.cu"}));
  // Near misses: a file the tree has already is not generated again; one no source includes is not needed.
  write(d / "k_backward.cu", "");
  s = scan_source_dir(d.path(), &err);
  ASSERT_EQ(s.generated_sources.size(), 1u);
  EXPECT_EQ(s.generated_sources[0].second, std::vector<std::string>{"k_forward.cu"});
  write(d / "k.cu", "// #include \"k_forward.cu\"\n");
  EXPECT_TRUE(scan_source_dir(d.path(), &err).generated_sources.empty());
  // A module with no __main__ block is not a script setup.py's author runs: left alone.
  write(d / "k.cu", "#include \"k_forward.cu\"\n");
  write(d / "cuda_function_gen.py", "def gen():\n    with open('k_forward.cu', 'w') as f:\n        f.write(x)\n");
  EXPECT_TRUE(scan_source_dir(d.path(), &err).generated_sources.empty());
}

// bottom-up-attention.pytorch: bua/ imports detectron2, which its detectron2/ submodule's setup.py
// builds (`extension(` an alias of CUDAExtension, its name on the next line).
TEST(ExtensionScan, ASubmoduleTheSmokeImportsIsASiblingExtension) {
  ScratchDir d;
  write(d / "setup.py", "ext_modules = [\n    extension(\n        \"bua.caffe.modeling._C\",\n        sources)]\n");
  write(d / "bua/__init__.py", "");
  write(d / "bua/caffe/config.py", "from detectron2.config import CfgNode as CN\n");
  write(d / "detectron2/setup.py", "extension = CUDAExtension\next_modules = [\n    extension(\n        \"detectron2._C\",\n"
                                   "        sources)]\n");
  std::string err;
  auto s = scan_source_dir(d.path(), &err);
  ASSERT_TRUE(s.scanned) << err;
  ASSERT_EQ(s.sibling_extensions.size(), 1u);
  EXPECT_EQ(s.sibling_extensions[0].first, "detectron2");
  EXPECT_EQ(s.sibling_extensions[0].second, "detectron2/setup.py");
}

// use_ninja=False in either spelling torch's BuildExtension takes it (torch-spline-conv 1.2.2's
// setup.py: "BuildExtension.with_options(no_python_abi_suffix=True, use_ninja=False)").
TEST(ExtensionScan, ASetupPyThatTurnsNinjaOffIsNoted) {
  ScratchDir d;
  auto scan = [&](const std::string& setup) {
    write(d / "setup.py", setup);
    std::string err;
    return scan_source_dir(d.path(), &err).ninja_off;
  };
  EXPECT_TRUE(scan("cmdclass={'build_ext': BuildExtension.with_options(no_python_abi_suffix=True, use_ninja=False)}\n"));
  EXPECT_TRUE(scan("cmdclass={\"build_ext\": BuildExtension.with_options(\n    use_ninja = False)}\n"));
  EXPECT_TRUE(scan("cmd = BuildExtension(dist,use_ninja=False)\n"));
  EXPECT_FALSE(scan("cmdclass={'build_ext': BuildExtension.with_options(use_ninja=True)}\n"));
  EXPECT_FALSE(scan("cmdclass={'build_ext': BuildExtension}  # was: use_ninja=False\n"));
  EXPECT_FALSE(scan("cmdclass={'build_ext': BuildExtension.with_options(use_ninja=USE_NINJA)}\n"));
  EXPECT_FALSE(scan("my_use_ninja=False\n"));
}

// InternImage's ops_dcnv3/functions/dcnv3_func.py: `dcn_version = float(pkg_resources.get_distribution('DCNv3').version)`.
// Its own distribution's version read as a number is found (file:line); near misses: torch's version
// as a number, another distribution's, a commented line, and the version read as text.
TEST(ExtensionScan, ThePackageReadingItsOwnVersionAsANumberIsFound) {
  ScratchDir d;
  write(d / "setup.py", "setup(name='DCNv3', version='1.1', ext_modules=[CUDAExtension('DCNv3', ['src/a.cu'])])\n");
  write(d / "functions/__init__.py", "from .dcnv3_func import f\n");
  write(d / "functions/dcnv3_func.py",
        "import pkg_resources\nimport torch\n"
        "TORCH = float(torch.__version__[:3])\n"
        "OTHER = float(pkg_resources.get_distribution('numpy').version[:3])\n"
        "# old = float(pkg_resources.get_distribution('DCNv3').version)\n"
        "TEXT = pkg_resources.get_distribution('DCNv3').version\n"
        "dcn_version = float(pkg_resources.get_distribution('DCNv3').version)\n");
  std::string err;
  auto s = scan_source_dir(d.path(), &err);
  EXPECT_EQ(s.own_version_numeric, (std::vector<std::string>{
      "functions/dcnv3_func.py:7: dcn_version = float(pkg_resources.get_distribution('DCNv3').version)"}));
  write(d / "functions/dcnv3_func.py", "from importlib.metadata import version\nV = tuple(map(int, version('dcnv3').split('.')))\n");
  EXPECT_EQ(scan_source_dir(d.path(), &err).own_version_numeric,
            (std::vector<std::string>{"functions/dcnv3_func.py:2: V = tuple(map(int, version('dcnv3').split('.')))"}));
  write(d / "functions/dcnv3_func.py", "from packaging.version import Version\nV = Version(version('DCNv3'))\n");
  EXPECT_TRUE(scan_source_dir(d.path(), &err).own_version_numeric.empty());
}

// The plan keeps such a package's version unlabelled (package.plain-version), says so in the summary
// and the lock; near miss: a package that does not read it gets the label.
TEST(ExtensionPlan, APackageReadingItsOwnVersionAsANumberGetsNoLocalLabel) {
  auto f = fake_host(fake_python("2.7.1+cu128", "12.8"), {"12.8"}, {"8.6"});
  auto s = cuda_only_scan();
  s.own_version_numeric = {"functions/dcnv3_func.py:17: dcn_version = float(pkg_resources.get_distribution('DCNv3').version)"};
  auto r = make_extension_plan(dir_request(s), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r.ok()) << all_conflicts(r);
  EXPECT_TRUE(r.plan.plain_version);
  auto d = std::find_if(r.plan.decisions.begin(), r.plan.decisions.end(),
                        [](const Decision& x) { return x.topic == "wheel-version"; });
  ASSERT_NE(d, r.plan.decisions.end());
  EXPECT_EQ(d->rule, "package.plain-version");
  EXPECT_NE(d->reason.find("functions/dcnv3_func.py:17"), std::string::npos) << d->reason;
  EXPECT_NE(render_extension_summary(r).find("  version: as the package writes it, no local label"), std::string::npos)
      << render_extension_summary(r);
  nlohmann::json j = r.plan;
  EXPECT_EQ(j.at("local_version"), "none");
  EXPECT_TRUE(j.get<Plan>().plain_version);
  auto r2 = make_extension_plan(dir_request(cuda_only_scan()), f, test_kb(), recipe_generic("demo-ext"), &test_fixes());
  ASSERT_TRUE(r2.ok());
  EXPECT_FALSE(r2.plan.plain_version);
  EXPECT_EQ(render_extension_summary(r2).find("version: as the package"), std::string::npos);
}

TEST(ExtensionScan, TheBundledExamplesAreReadAsWhatTheyAre) {
  std::filesystem::path root = std::filesystem::path(TS_SOURCE_DIR);
  std::string err;
  auto hello = scan_source_dir((root / "examples/hello_ext").string(), &err);
  ASSERT_TRUE(hello.scanned) << err;
  EXPECT_TRUE(hello.setup_py);
  EXPECT_EQ(hello.name, "hello_ext");
  EXPECT_FALSE(hello.cuda_sources);
  EXPECT_EQ(hello.cu_files, 0);
  auto cu = scan_source_dir((root / "tests/fixtures/projects/ext-cuda").string(), &err);
  ASSERT_TRUE(cu.scanned) << err;
  EXPECT_TRUE(cu.cuda_sources);
  EXPECT_EQ(cu.cu_files, 1);  // add_one_kernel.cu
  EXPECT_TRUE(cu.cuda_extension);
  EXPECT_FALSE(cu.cpp_extension);
  EXPECT_FALSE(scan_source_dir((root / "no/such/dir").string(), &err).scanned);
  EXPECT_NE(err.find("not a directory"), std::string::npos);
}

}  // namespace
}  // namespace ts::plan

// Facts make fixes specific: an installed gcc that fits the CUDA toolkit, the GPU's arch.
#include "test_util.h"
#include "triage/specialize.h"

#include "compat/arch_rule.h"
#include "compat/assess.h"
#include "compat/host_compiler_rule.h"

namespace ts::triage::testing {
namespace {

HostFacts host_with_compilers() {
  HostFacts f;
  f.compilers.push_back({"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", "x86_64-linux-gnu"});
  f.compilers.push_back({"gcc", "/usr/bin/gcc-11", "/usr/bin/g++-11", "11.4.0", "x86_64-linux-gnu"});
  f.compilers.push_back({"gcc", "/usr/bin/gcc-9", "/usr/bin/g++-9", "9.5.0", "x86_64-linux-gnu"});
  return f;
}

const std::string kGccLog =
    "-- The CXX compiler identification is GNU 13.2.0\n"
    "-- Found CUDA: /usr/local/cuda-11.8 (found version \"11.8\")\n"
    "FAILED: a.cu.o\n"
    "/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later than 11 are not supported!\n";

TEST(Specialize, GccTooNewNamesTheInstalledGccThatFits) {
  auto d = diagnose(kGccLog);
  ASSERT_EQ(root_id(d), "NVCC_HOST_GCC_TOO_NEW");
  EXPECT_EQ(d.log_facts.cuda_version, "11.8");
  EXPECT_EQ(d.log_facts.cxx_compiler, "GNU 13.2.0");
  HostFacts f = host_with_compilers();
  specialize(d, &f, &the_kb());
  const Finding& r = *d.root();
  EXPECT_NE(r.fix.find("gcc 13 is newer than CUDA 11.8 allows (<= 11); gcc-11 is installed at /usr/bin/gcc-11: "
                       "set CUDAHOSTCXX=/usr/bin/g++-11"), std::string::npos) << r.fix;
  EXPECT_EQ(r.remedy.kind, RemedyKind::switch_host_compiler);
  EXPECT_EQ(r.remedy.env.at("CUDAHOSTCXX"), "/usr/bin/g++-11");
}

TEST(Specialize, GccTooNewWithoutAFittingGccSaysWhatToInstall) {
  auto d = diagnose(kGccLog);
  HostFacts f;
  f.compilers.push_back({"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", ""});
  specialize(d, &f, &the_kb());
  EXPECT_NE(d.root()->fix.find("no installed gcc <= 11"), std::string::npos) << d.root()->fix;
}

TEST(Specialize, CppExtensionBoundsUseTheKbGccMax) {
  auto d = diagnose("RuntimeError: The current installed version of g++ (13.2.0) is greater than the maximum required version by CUDA 11.8. Please make sure to use an adequate version of g++ (>=6.0.0, <12.0).\n"
                    "-- CUDA version: 11.8\n");
  ASSERT_EQ(root_id(d), "CPP_EXT_COMPILER_VERSION_BOUNDS");
  HostFacts f = host_with_compilers();
  specialize(d, &f, &the_kb());
  const kb::CudaRelease* c = the_kb().find_cuda("11.8");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(d.root()->fix.find("(<= " + c->gcc_max.original() + ")"), std::string::npos) << d.root()->fix;
  EXPECT_NE(d.root()->fix.find("gcc-11 is installed"), std::string::npos) << d.root()->fix;
}

TEST(Specialize, ArchListAgainstTheGpu) {
  auto d = diagnose("-- TORCH_CUDA_ARCH_LIST=8.0;8.6\n"
                    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  ASSERT_EQ(root_id(d), "NO_KERNEL_IMAGE_FOR_DEVICE");
  HostFacts f;
  GpuFacts g;
  g.name = "NVIDIA GeForce RTX 4090";
  g.compute_capability = CudaArch::of(8, 9);
  f.gpus.push_back(g);
  specialize(d, &f, &the_kb());
  EXPECT_NE(d.root()->fix.find("This GPU is 8.9 (NVIDIA GeForce RTX 4090), the arch list was 8.0;8.6: "
                               "set TORCH_CUDA_ARCH_LIST=\"8.9\""), std::string::npos) << d.root()->fix;
  EXPECT_EQ(d.root()->remedy.env.at("TORCH_CUDA_ARCH_LIST"), "8.9");
}

TEST(Specialize, ArchTheToolkitDoesNotKnowFallsBackToPtx) {
  auto d = diagnose("-- Found CUDA: /usr/local/cuda (found version \"11.8\")\n"
                    "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n");
  HostFacts f;
  GpuFacts g;
  g.compute_capability = CudaArch::of(12, 0);
  f.gpus.push_back(g);
  specialize(d, &f, &the_kb());
  ASSERT_EQ(root_id(d), "NVCC_UNSUPPORTED_GPU_ARCH");
  EXPECT_NE(d.root()->remedy.env.at("TORCH_CUDA_ARCH_LIST").find("+PTX"), std::string::npos) << d.root()->fix;
  EXPECT_FALSE(d.root()->notes.empty());
}

TEST(Specialize, OutOfMemoryNamesAJobCountFromMemory) {
  auto d = diagnose("FAILED: a.o\nc++: fatal error: Killed signal terminated program cc1plus\n");
  ASSERT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  HostFacts f;
  f.memory.usable_bytes = 16ull << 30;
  specialize(d, &f, &the_kb());
  double per_job = the_kb().resources.cxx_job_gib;
  ASSERT_GT(per_job, 0);
  std::string want = std::to_string(std::max(1, static_cast<int>(16 / per_job)));
  EXPECT_EQ(d.root()->remedy.env.at("MAX_JOBS"), want) << d.root()->fix;
  EXPECT_NE(d.root()->fix.find("set MAX_JOBS=" + want), std::string::npos) << d.root()->fix;
}

// The job count a build was planned with under --mem-budget is the one the OOM advice starts from
// (compat's jobs.memory rule with the same budget), not the machine's whole memory.
TEST(Specialize, OutOfMemoryHonoursTheMemBudget) {
  HostFacts f;
  f.memory.usable_bytes = 64ull << 30;
  f.cpu.logical_cores = 64;
  double per_job = the_kb().resources.cxx_job_gib;
  ASSERT_GT(per_job, 0);
  auto whole = diagnose("FAILED: a.o\nc++: fatal error: Killed signal terminated program cc1plus\n");
  specialize(whole, &f, &the_kb());
  auto budget = diagnose("FAILED: a.o\nc++: fatal error: Killed signal terminated program cc1plus\n");
  specialize(budget, &f, &the_kb(), 4ull << 30);
  std::string want = std::to_string(std::max(1, static_cast<int>(4 / per_job)));
  EXPECT_EQ(budget.root()->remedy.env.at("MAX_JOBS"), want) << budget.root()->fix;
  EXPECT_NE(budget.root()->fix.find("--mem-budget"), std::string::npos) << budget.root()->fix;
  EXPECT_NE(whole.root()->remedy.env.at("MAX_JOBS"), want) << whole.root()->fix;
}

// The arch nvcc refused against the toolkits that compile for it (cuda.toml, rule gpu.toolkit), with
// the log's CUDA placed in that span: too old for compute_86 (zai-org/VisualGLM-6B#94 on CUDA 10.2),
// too new for compute_35 (star-hengxing/cs149-xmake#7 on CUDA 12). No facts about the machine needed.
TEST(Specialize, RefusedArchNamesTheToolkitsThatCompileIt) {
  auto d = diagnose("Cuda compilation tools, release 10.2, V10.2.89\nnvcc fatal : Unsupported gpu architecture 'compute_86'\n");
  ASSERT_EQ(root_id(d), "NVCC_UNSUPPORTED_GPU_ARCH");
  specialize(d, nullptr, &the_kb());
  const compat::ArchSpan s86 = compat::arch_span(the_kb(), CudaArch::of(8, 6));
  ASSERT_FALSE(s86.describe().empty());
  EXPECT_NE(d.root()->fix.find("nvcc compiles for compute_86 " + s86.describe() + "; the CUDA 10.2 here is older than that"),
            std::string::npos) << d.root()->fix;
  auto old = diagnose("Cuda compilation tools, release 12.1, V12.1.105\nerror: nvcc fatal   : Unsupported gpu architecture 'compute_35'\n");
  specialize(old, nullptr, &the_kb());
  const compat::ArchSpan s35 = compat::arch_span(the_kb(), CudaArch::of(3, 5));
  ASSERT_FALSE(s35.still_supported);
  EXPECT_NE(old.root()->fix.find("in " + s35.describe() + "; the CUDA 12.1 here no longer has it"), std::string::npos) << old.root()->fix;
  // Near misses: without the KB, or for another finding that names an arch, nothing is added.
  auto bare = diagnose("nvcc fatal : Unsupported gpu architecture 'compute_86'\n");
  specialize(bare, nullptr, nullptr);
  EXPECT_EQ(bare.root()->fix.find("nvcc compiles for"), std::string::npos);
  auto other = diagnose("RuntimeError: CUDA error: no kernel image is available for execution on the device (sm_86)\n");
  specialize(other, nullptr, &the_kb());
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->fix.find("nvcc compiles for"), std::string::npos);
}

TEST(Specialize, WithoutFactsTheGenericFixStays) {
  auto d = diagnose(kGccLog);
  std::string before = d.root()->fix;
  specialize(d, nullptr, nullptr);
  EXPECT_NE(d.root()->fix.find(before), std::string::npos);
}

}  // namespace
}  // namespace ts::triage::testing

namespace ts::triage::testing {
namespace {

// Doctor, the planners and triage ask one host-compiler rule: on the same machine and toolkit,
// triage's remedy names the compiler that compat's rule picks, and doctor's verdict says which rule.
TEST(Specialize, TheHostCompilerRemedyIsCompatsRule) {
  auto d = diagnose(kGccLog);
  HostFacts f = host_with_compilers();
  specialize(d, &f, &the_kb());
  int hi = compat::gcc_max_major(the_kb(), "11.8");
  ASSERT_GT(hi, 0);
  const CompilerFacts* pick = compat::newest_gcc(f, 0, hi);
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(d.root()->remedy.env.at("CUDAHOSTCXX"), pick->cxx);

  f.cuda_toolkits.push_back({});
  f.cuda_toolkits.back().version = "11.8";
  f.compilers.insert(f.compilers.begin(), {"gcc", "/usr/bin/gcc", "/usr/bin/g++", "13.2.0", ""});
  std::vector<compat::Verdict> vs;
  compat::check_compilers(f, the_kb(), compat::Target{}, vs);
  bool seen = false;
  for (const auto& v : vs)
    if (v.rule == compat::kHostCompilerRule) {
      seen = true;
      EXPECT_EQ(v.level, compat::Level::fail) << v.reason;
      EXPECT_NE(v.fix.find(pick->cxx), std::string::npos) << v.fix;
    }
  EXPECT_TRUE(seen);
}

// Python.h missing under an embeddable Python (https://github.com/woct0rdho/triton-windows/issues/83):
// the fix is the distribution's missing include/, not a -dev package; elsewhere the fix stays.
TEST(Specialize, PythonHeaderUnderAnEmbeddablePythonNamesItsMissingInclude) {
  Diagnosis d = diagnose(
      "H:\\ComfyUI128\\python_embeded>python triton_test.py\n"
      "cuda_utils.c\n"
      "C:\\Users\\AnY\\AppData\\Local\\Temp\\tmp_z9f6r7d\\cuda_utils.c(12): fatal error C1083: Cannot open include file: 'Python.h': No such file or directory\n");
  specialize(d, nullptr, nullptr);
  ASSERT_EQ(root_id(d), "PYTHON_H_MISSING");
  EXPECT_NE(d.root()->fix.find("embeddable distribution"), std::string::npos) << d.root()->fix;
  Diagnosis plain = diagnose("x.c:1:10: fatal error: Python.h: No such file or directory\n");
  specialize(plain, nullptr, nullptr);
  ASSERT_EQ(root_id(plain), "PYTHON_H_MISSING");
  EXPECT_EQ(plain.root()->fix.find("embeddable"), std::string::npos);
}

}  // namespace
}  // namespace ts::triage::testing

// Golden plans for the five seed scenarios (SCENARIOS.md), from their host fixtures, rendered
// with --explain. Each golden was reviewed by hand against its seed; the checks below pin the
// decisions SCENARIOS.md lists, so a regenerated golden cannot silently lose one.
// Regenerate with TS_UPDATE_GOLDEN=1 (then review the diff, do not accept it blindly).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

struct Scenario {
  std::string name, host, requirement;
  std::map<std::string, std::string> opts;
  std::vector<std::string> must;  // substrings the explained plan must contain
  bool ok = true;
  std::string tweak;  // a change to the facts first ("pip-cmake": the seed's CMake upgrade)
};

void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }

std::vector<Scenario> scenarios() {
  return {
      {"s1", "s1-rtx4090-cuda118", "torch==1.13.0", {},
       {"arch: 8.9 (with fix torch-cpp-extension-arches-sm89-sm90)", "fix: torch-cpp-extension-cuda118-compilers",
        "feature: BUILD_SPLIT_CUDA=1", "libtorch_cuda_cu.so", "libtorch_cuda_cpp.so",
        "fix: torch-setup-stock-install-command", "cannot set permissions on /usr/local/include",
        "CMAKE_PREFIX_PATH=/home/user/miniconda3/envs/torch113", "MAGMA_HOME=/home/user/miniconda3/envs/torch113",
        "magma-cuda118", "library: MKL", "setup.py bdist_wheel", "TORCH_CUDA_ARCH_LIST=8.9",
        "torch-1.13.0+cu118.sm89-cp38-cp38-linux_x86_64.whl"}},
      {"s2", "s2-cuda110-conda", "torch==1.8.0", {{"--arch", "6.1;7.0;7.5;8.0"}, {"--package", "conda,wheel"}},
       {"PACKAGE_TYPE=conda", "DESIRED_CUDA=cu110", "DESIRED_PYTHON=3.8", "PYTORCH_BUILD_VERSION=1.8.0\n",
        "PYTORCH_BUILD_NUMBER=1", "TORCH_CUDA_ARCH_LIST=6.1;7.0;7.5;8.0", "TORCH_NVCC_FLAGS=-Xfatbin -compress-all",
        "USE_STATIC_CUDNN=1", "USE_STATIC_NCCL=1", "NCCL_ROOT_DIR", "MAGMA_HOME=/opt/conda",
        "torch/_C*.so=$ORIGIN:$ORIGIN/lib:$ORIGIN/../../..", "torch/lib/*.so=$ORIGIN:$ORIGIN/../../../..",
        "pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.bz2", "torch-1.8.0-cp38-cp38-linux_x86_64.whl",
        "a tensor moved to cuda:1", "__config__.show() agrees with the plan (CUDA, arch flags, cuDNN, magma)", "driver: 450.102.04"}},
      {"s3", "s3-rtx5090-cmake4", "torch==2.4.1", {},
       {"arch: 12.0 (with fix torch-select-compute-arch-sm120)", "TORCH_CUDA_ARCH_LIST=12.0",
        "CMAKE_POLICY_VERSION_MINIMUM=3.5", "fix: torch-cmake4-policy-version-minimum",
        "CUDNN_LIBRARY_PATH=/home/hc-em/miniforge3/envs/isaacgym/lib/python3.8/site-packages/nvidia/cudnn/lib",
        "CUDNN_INCLUDE_DIR=/home/hc-em/miniforge3/envs/isaacgym/lib/python3.8/site-packages/nvidia/cudnn/include",
        "MAX_JOBS=", "would run out of memory", "numpy: 1.23.5 (kept)", "matches torch-2.4.*-cp38-cp38-linux_x86_64.whl",
        "clean --if-stale", "dtype=torch.float16", "CMAKE_PREFIX_PATH=/home/hc-em/miniforge3/envs/isaacgym"}},
      {"s4", "s4-wsl2-cuda117", "torch==2.0.0",
       {{"--package", "wheel,libtorch"}, {"--build-type", "debug"}, {"--arch", "7.5"},
        {"--without", "nccl,magma,numa,mpi,openmp"}},
       {"-G Ninja", "-DBUILD_SHARED_LIBS=ON", "-DCMAKE_BUILD_TYPE=Debug", "-DBUILD_TEST=OFF", "-DUSE_CUDA=ON",
        "-DUSE_NCCL=OFF", "-DUSE_MAGMA=OFF", "-DUSE_NUMA=OFF", "-DUSE_MPI=OFF", "-DUSE_METAL=OFF", "-DUSE_OPENMP=OFF",
        "-DCMAKE_CUDA_ARCHITECTURES=75-real", "-DCMAKE_CXX_STANDARD=", "/opt/intel/oneapi/mkl/2023.0.0",
        "Unknown option -Wno-unused-variable", "triton", "DEBUG=1"}},
      {"s5", "s5-gtx1660ti-container", "torch==1.12.1", {{"--build-type", "debug"}, {"--jobs", "2"}},
       {"conflict: CMake for torch 1.12.1", "CMake 3.10.2 (/usr/bin/cmake) is older than torch 1.12 needs (>= 3.13)",
        "pip install 'cmake>=3.13,<4'", "7.5 = NVIDIA GeForce GTX 1660 Ti (10de:2182"},
       false},
      {"s5-cmake-upgraded", "s5-gtx1660ti-container", "torch==1.12.1", {{"--build-type", "debug"}, {"--jobs", "2"}},
       {"7.5 = GeForce GTX 1660 Ti (10de:2182, named by kb)", "DEBUG=1", "MAX_JOBS=2", "internal compiler errors", "libtorch_python.so",
        "torch/_C.cpython-39-x86_64-linux-gnu.so", "submodule"},
       true, "pip-cmake lspci-only"},
  };
}

std::string golden_path(const std::string& name) {
  return std::string(TS_SOURCE_DIR) + "/tests/golden/plan/" + name + ".txt";
}

class Golden : public ::testing::TestWithParam<Scenario> {};

TEST_P(Golden, MatchesAndNamesEveryScenarioDecision) {
  const Scenario& s = GetParam();
  HostFacts f = fixture(s.host);
  if (s.tweak.find("pip-cmake") != std::string::npos)  // the seed's fix: a newer CMake
    for (auto& p : f.pythons)
      if (p.env_kind == "conda") p.packages["cmake"] = "3.24.2";
  if (s.tweak.find("lspci-only") != std::string::npos)  // no driver answers: lspci says "Device 2182"
    for (auto& g : f.gpus) {
      g.name = g.identified_by = "";
      g.compute_capability.reset();
    }
  auto r = make_plan(spec_of(s.requirement, s.opts), f, knowledge());
  EXPECT_EQ(r.ok(), s.ok) << render_conflicts(r.conflicts);
  std::string text = render_explain(r);
  for (const auto& m : s.must) EXPECT_NE(text.find(m), std::string::npos) << s.name << " lacks: " << m;
  std::string path = golden_path(s.name);
  if (std::getenv("TS_UPDATE_GOLDEN")) {
    std::ofstream(path) << text;
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " missing (TS_UPDATE_GOLDEN=1 writes it; review it by hand)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(text, want.str()) << "plan for " << s.name << " changed; review, then TS_UPDATE_GOLDEN=1";
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Golden, ::testing::ValuesIn(scenarios()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace ts::plan

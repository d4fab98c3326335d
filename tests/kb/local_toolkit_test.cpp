// Evidence from the toolkit on this machine: CUDA 13.0's nvcc and host_config.h must agree with cuda.toml.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "core/cuda_arch.h"
#include "kb/kb.h"

namespace ts::kb {
namespace {

const char* kCuda = "/usr/local/cuda";

std::string run(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    std::array<char, 256> buf;
    while (fgets(buf.data(), buf.size(), p)) out += buf.data();
    pclose(p);
  }
  return out;
}

const CudaRelease* local_release(Kb& kb, std::string& version) {
  std::vector<KbError> errors;
  kb = load_embedded(errors);
  std::smatch m;
  std::string v = run(std::string(kCuda) + "/bin/nvcc --version");
  if (!std::regex_search(v, m, std::regex("release (\\d+\\.\\d+)"))) return nullptr;
  version = m[1];
  return kb.find_cuda(version);
}

TEST(KbLocalToolkit, NvccListGpuCodeEqualsCudaToml) {
  if (!std::filesystem::exists(std::string(kCuda) + "/bin/nvcc")) GTEST_SKIP() << "no nvcc at " << kCuda;
  Kb kb;
  std::string version;
  const CudaRelease* r = local_release(kb, version);
  ASSERT_NE(r, nullptr) << "cuda.toml has no entry for the local CUDA " << version;
  std::istringstream codes(run(std::string(kCuda) + "/bin/nvcc --list-gpu-code"));
  std::vector<std::string> nvcc, toml;
  for (std::string sm; codes >> sm;) nvcc.push_back(CudaArch::parse(sm)->str());
  // --list-gpu-code prints the base targets; the a/f variants come from nvcc --help.
  for (const auto& a : r->arches)
    if (a.suffix == 0) toml.push_back(a.str());
  std::sort(nvcc.begin(), nvcc.end(), [](auto& x, auto& y) { return *CudaArch::parse(x) < *CudaArch::parse(y); });
  EXPECT_EQ(nvcc, toml) << "CUDA " << version;
}

TEST(KbLocalToolkit, HostConfigGuardsEqualCudaToml) {
  std::string path = std::string(kCuda) + "/include/crt/host_config.h";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  Kb kb;
  std::string version;
  const CudaRelease* r = local_release(kb, version);
  ASSERT_NE(r, nullptr);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string h = ss.str();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(h, m, std::regex("#if __GNUC__ > (\\d+)")));
  EXPECT_EQ(m[1].str(), r->gcc_max.original()) << "CUDA " << version;
  ASSERT_TRUE(std::regex_search(h, m, std::regex("__clang_major__ >= (\\d+)")));
  EXPECT_EQ(std::to_string(std::stoi(m[1]) - 1), r->clang_max.original()) << "CUDA " << version;
}

}  // namespace
}  // namespace ts::kb

// parse_torch_config on real and reconstructed torch.__config__.show() texts
// (tests/fixtures/verify).
#include "verify/config_show.h"

#include <gtest/gtest.h>

#include "util/fs.h"

namespace ts::verify {
namespace {

std::string fixture(const std::string& name) {
  auto t = util::read_file(std::string(TS_SOURCE_DIR) + "/tests/fixtures/verify/" + name);
  EXPECT_TRUE(t) << name;
  return t.value_or("");
}

std::string sms(const std::vector<CudaArch>& v, bool ptx) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + (ptx ? a.compute() : a.sm());
  return s;
}

TEST(ConfigShow, DebianCpuBuild) {
  std::string err;
  auto c = parse_torch_config(fixture("config_show_debian_1.13.1_cpu.txt"), &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->compiler, "GCC 12.2");
  EXPECT_EQ(c->cxx_version, "201402");
  EXPECT_EQ(c->cuda_runtime, "");
  EXPECT_TRUE(c->sass.empty());
  EXPECT_EQ(c->cudnn, "");
  EXPECT_EQ(c->settings.at("USE_CUDA"), "OFF");
  EXPECT_EQ(c->settings.at("USE_CUDNN"), "OFF");
  EXPECT_EQ(c->settings.at("TORCH_VERSION"), "1.13.0");
  EXPECT_EQ(c->settings.at("BUILD_TYPE"), "RelWithDebInfo");
  EXPECT_EQ(c->settings.at("USE_ROCM"), "OFF");  // the last pair, before the trailing ", "
  // CXX_FLAGS holds spaces and '=' (-D_FORTIFY_SOURCE=2, -ffile-prefix-map=...): one value.
  EXPECT_NE(c->settings.at("CXX_FLAGS").find("-ffile-prefix-map=/build/"), std::string::npos);
  EXPECT_EQ(c->settings.count("D_FORTIFY_SOURCE"), 0u);
  EXPECT_EQ(c->settings.size(), 20u);
}

TEST(ConfigShow, Cuda128WithCudnn9Quirk) {
  std::string err;
  auto c = parse_torch_config(fixture("config_show_2.8.0_cu128.txt"), &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->cuda_runtime, "12.8");
  EXPECT_EQ(sms(c->sass, false), "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120");
  EXPECT_EQ(sms(c->ptx, true), "");
  EXPECT_EQ(c->cudnn, "9.10.2");  // printed "91.0.2"
  EXPECT_EQ(c->cudnn_cuda, "12.9");
  EXPECT_EQ(c->cudnn_built_with, "9.8.0");  // printed "90.8"
  EXPECT_EQ(c->settings.at("CUDNN_VERSION"), "9.8.0");
  EXPECT_EQ(c->magma, "2.6.1");
  EXPECT_EQ(c->settings.at("USE_NCCL"), "1");
}

// Captured on the GPU machine (torch 2.11.0+cu130 from /opt/torch/.venv, H200).
TEST(ConfigShow, Cuda130CapturedOnTheGpuMachine) {
  std::string err;
  auto c = parse_torch_config(fixture("config_show_2.11.0_cu130.txt"), &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->cuda_runtime, "13.0");
  // The same list torch.cuda.get_arch_list() gave there: sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.
  EXPECT_EQ(sms(c->sass, false), "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120");
  EXPECT_EQ(sms(c->ptx, true), "");
  EXPECT_EQ(c->cudnn, "9.19.0");  // printed "CuDNN 91.9  (built against CUDA 13.1)"
  EXPECT_EQ(c->cudnn_cuda, "13.1");
  EXPECT_EQ(c->settings.at("CUDNN_VERSION"), "9.19.0");
  EXPECT_NE(c->settings.at("CXX_FLAGS").find("-DC10_NODEPRECATED"), std::string::npos);
  EXPECT_EQ(c->settings.at("COMMIT_SHA"), "70d99e998b4955e0049d13a98d77ae1b14db1f45");
  EXPECT_EQ(c->settings.at("TORCH_VERSION"), "2.11.0");
  EXPECT_EQ(c->settings.at("USE_CUDA"), "ON");
}

TEST(ConfigShow, CommaInsideASettingStaysInIt) {
  std::string err;
  auto c = parse_torch_config(
      "PyTorch built with:\n  - GCC 13.3\n  - Build settings: BUILD_TYPE=Release, CXX_FLAGS= -DX -Wl,--as-needed -O2 "
      "-fPIC, TORCH_VERSION=2.11.0, USE_CUDA=ON, \n",
      &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->settings.at("CXX_FLAGS"), "-DX -Wl,--as-needed -O2 -fPIC");
  EXPECT_EQ(c->settings.at("TORCH_VERSION"), "2.11.0");
  EXPECT_EQ(c->settings.at("USE_CUDA"), "ON");
}

TEST(ConfigShow, WarningBeforeTheHeaderIsSkipped) {
  auto c = parse_torch_config(
      "UserWarning: something\nPyTorch built with:\n  - CUDA Runtime 11.8\n", nullptr);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->cuda_runtime, "11.8");
}

TEST(ConfigShow, GarbageIsAnError) {
  std::string err;
  EXPECT_FALSE(parse_torch_config("hello from a wrapper\n", &err));
  EXPECT_NE(err.find("not torch.__config__.show() output"), std::string::npos) << err;
  EXPECT_NE(err.find("hello from a wrapper"), std::string::npos) << err;
  EXPECT_FALSE(parse_torch_config("", &err));
  // Truncated and odd lines still parse without crashing.
  auto c = parse_torch_config(
      "PyTorch built with:\n  - Build settings: =x, , A=, ,B\n  - CuDNN 9999999.x.\n", &err);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->settings.size(), 0u);
}

TEST(ConfigShow, CudnnVersions) {
  EXPECT_EQ(cudnn_version_text(8500), "8.5.0");
  EXPECT_EQ(cudnn_version_text(8907), "8.9.7");
  EXPECT_EQ(cudnn_version_text(90100), "9.1.0");
  EXPECT_EQ(cudnn_version_text(91002), "9.10.2");
  EXPECT_EQ(cudnn_version_text(0), "");
  EXPECT_EQ(decode_printed_cudnn("8.2.1"), "8.2.1");
  EXPECT_EQ(decode_printed_cudnn("8.5"), "8.5.0");
  EXPECT_EQ(decode_printed_cudnn("90.1"), "9.1.0");
  EXPECT_EQ(decode_printed_cudnn("91.0.2"), "9.10.2");
  EXPECT_FALSE(decode_printed_cudnn("abc"));
  EXPECT_FALSE(decode_printed_cudnn("8..1"));
  EXPECT_FALSE(decode_printed_cudnn("8.12"));
}

TEST(ConfigShow, ArchTokensAndTruth) {
  std::vector<CudaArch> sass, ptx;
  arch_tokens("sm_50 sm_90a compute_90 xsm_70 sm_ compute_120 -gencode;arch=compute_60,code=sm_61",
              sass, ptx);
  EXPECT_EQ(sms(sass, false), "sm_50 sm_61 sm_90a");
  EXPECT_EQ(sms(ptx, true), "compute_90 compute_120");
  EXPECT_EQ(setting_truth("ON"), true);
  EXPECT_EQ(setting_truth("1"), true);
  EXPECT_EQ(setting_truth("True"), true);
  EXPECT_EQ(setting_truth("OFF"), false);
  EXPECT_EQ(setting_truth("0"), false);
  EXPECT_FALSE(setting_truth("mkl"));
}

}  // namespace
}  // namespace ts::verify

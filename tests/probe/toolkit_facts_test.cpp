// Toolkit facts from the toolkit: nvcc's own lists and host_config.h, parsed, cached per nvcc hash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "probe/toolkit_facts.h"
#include "testkit/temp_dir.h"

namespace ts::probe {
namespace {

namespace fs = std::filesystem;

// The guards of CUDA 12.9's crt/host_config.h (nvidia-cuda-nvcc-cu12 12.9.86), lines 141-157.
const char* kHostConfig129 =
    "#if __GNUC__ > 14\n\n"
    "#error -- unsupported GNU version! gcc versions later than 14 are not supported!\n\n"
    "#endif /* __GNUC__ > 14 */\n"
    "#if (__clang_major__ >= 20) || (__clang_major__ < 3) || ((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n"
    "#error -- unsupported HOS clang version! The version must be must be less than 20 and greater than 3.2 .\n"
    "#endif\n"
    "#if (__clang_major__ >= 20) || (__clang_major__ < 3) || ((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n"
    "#error -- unsupported clang version! clang version must be less than 20 and greater than 3.2 .\n";

TEST(ToolkitFacts, ParsesHostConfigGuards) {
  std::string gcc, clang;
  parse_host_config(kHostConfig129, gcc, clang);
  EXPECT_EQ(gcc, "14");
  EXPECT_EQ(clang, "19");
}

TEST(ToolkitFacts, ParsesVersionAndGpuCodes) {
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 13.5, V13.5.37\nBuild cuda_13.5.r13.5/compiler.39125733_0\n"),
            "13.5.37");
  EXPECT_EQ(parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nrelease 10.2"), "10.2");
  EXPECT_EQ(parse_list_gpu_code("sm_75\nsm_80\nsm_107\n"), (std::vector<std::string>{"sm_75", "sm_80", "sm_107"}));
  std::string help =
      "--gpu-architecture <arch>   (-arch)\n        Allowed values for this option:  'compute_75','sm_75'.\n\n"
      "--gpu-code <code>,...       (-code)\n        Allowed values for this option:  'compute_75','lto_90a','sm_100',\n"
      "        'sm_100a','sm_100f','sm_75','sm_90','sm_90a'.\n\n--generate-code <specification>\n 'sm_999'\n";
  EXPECT_EQ(parse_help_gpu_codes(help), (std::vector<std::string>{"sm_100", "sm_100a", "sm_100f", "sm_75", "sm_90", "sm_90a"}));
  ToolkitFacts f;
  f.gpu_codes = parse_help_gpu_codes(help);
  EXPECT_EQ(f.arches(), (std::vector<std::string>{"7.5", "9.0", "9.0a", "10.0", "10.0a", "10.0f"}));
}

// A toolkit laid out like a real one (bin/nvcc, include/crt/host_config.h) whose nvcc is a script
// that counts its runs: the second read must come from the cache.
TEST(ToolkitFacts, ReadsAToolkitOnceAndCachesItByHash) {
  testkit::TempDir d;
  fs::create_directories(d / "cuda/bin");
  fs::create_directories(d / "cuda/include/crt");
  std::ofstream(d / "cuda/include/crt/host_config.h") << kHostConfig129;
  std::string count = d / "runs";
  std::ofstream(d / "cuda/bin/nvcc") << "#!/bin/sh\necho run >> '" << count << "'\n"
                                        "case \"$1\" in\n"
                                        "  --version) echo 'Cuda compilation tools, release 12.9, V12.9.86';;\n"
                                        "  --list-gpu-code) printf 'sm_80\\nsm_90\\n';;\n"
                                        "  --help) printf -- \"--gpu-code <code>\\n 'sm_80','sm_90','sm_90a'.\\n--split-compile <n>\\n\";;\n"
                                        "esac\n";
  fs::permissions(d / "cuda/bin/nvcc", fs::perms::owner_all);
  ToolkitFacts f = read_toolkit_facts(d / "cuda/bin/nvcc", d / "cache");
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.version, "12.9.86");
  EXPECT_EQ(f.minor(), "12.9");
  EXPECT_EQ(f.arches(), (std::vector<std::string>{"8.0", "9.0", "9.0a"}));
  EXPECT_EQ(f.gcc_max, "14");
  EXPECT_EQ(f.clang_max, "19");
  EXPECT_EQ(f.options, std::vector<std::string>{"--split-compile"});
  EXPECT_TRUE(fs::exists(d / ("cache/" + f.hash + ".json")));
  auto runs = [&] { std::ifstream in(count); int n = 0; for (std::string l; std::getline(in, l);) ++n; return n; };
  EXPECT_EQ(runs(), 3);
  ToolkitFacts again = read_toolkit_facts(d / "cuda/bin/nvcc", d / "cache");
  EXPECT_EQ(runs(), 3);  // from the cache
  EXPECT_EQ(again.arches(), f.arches());
  EXPECT_EQ(again.gcc_max, "14");
}

// A recording of a real ptxas (tests/fixtures/toolkits/ptxas-VERSION.txt: the wheel's URL and
// sha256, then `ptxas --version` and `ptxas --help` as that wheel's ptxas printed them).
struct PtxasRecording {
  std::string version, help;
};

PtxasRecording recorded_ptxas(const std::string& version) {
  std::ifstream in(std::string(TS_SOURCE_DIR) + "/tests/fixtures/toolkits/ptxas-" + version + ".txt");
  PtxasRecording r;
  std::string* into = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (line == "# ---- ptxas --version") into = &r.version;
    else if (line == "# ---- ptxas --help") into = &r.help;
    else if (into) *into += line + "\n";
  }
  return r;
}

TEST(ToolkitFacts, ParsesRecordedPtxasOfACu12Wheel) {
  auto r = recorded_ptxas("12.9.86");
  ASSERT_FALSE(r.help.empty());
  EXPECT_EQ(parse_nvcc_version(r.version), "12.9.86");
  ToolkitFacts f;
  f.gpu_codes = parse_ptxas_gpu_names(r.help);
  EXPECT_EQ(f.arches(), (std::vector<std::string>{"5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5",
                                                  "8.0", "8.6", "8.7", "8.9", "9.0", "9.0a", "10.0", "10.0a",
                                                  "10.0f", "10.1", "10.1a", "10.1f", "10.3", "10.3a", "10.3f",
                                                  "12.0", "12.0a", "12.0f", "12.1", "12.1a", "12.1f"}));
  // compute_*/lto_* values and other options' lists are not GPU codes.
  for (const auto& c : f.gpu_codes) EXPECT_EQ(c.rfind("sm_", 0), 0u) << c;
  EXPECT_TRUE(parse_help_gpu_codes(r.help).empty());  // ptxas has no --gpu-code option
}

TEST(ToolkitFacts, ParsesRecordedPtxasOfACu11Wheel) {
  auto r = recorded_ptxas("11.8.89");
  ASSERT_FALSE(r.help.empty());
  EXPECT_EQ(parse_nvcc_version(r.version), "11.8.89");
  ToolkitFacts f;
  f.gpu_codes = parse_ptxas_gpu_names(r.help);
  EXPECT_EQ(f.arches(), (std::vector<std::string>{"3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0",
                                                  "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0"}));
}

// The layout of NVIDIA's cu12 nvcc wheel: bin/ptxas and include/crt/host_config.h, no bin/nvcc. The
// ptxas here replays the recording and counts its runs; the facts are read from it and cached.
TEST(ToolkitFacts, ReadsAToolkitWithoutNvccFromItsPtxas) {
  testkit::TempDir d;
  auto r = recorded_ptxas("12.9.86");
  fs::create_directories(d / "cuda/bin");
  fs::create_directories(d / "cuda/include/crt");
  std::ofstream(d / "cuda/include/crt/host_config.h") << kHostConfig129;
  std::ofstream(d / "version.out") << r.version;
  std::ofstream(d / "help.out") << r.help;
  std::string count = d / "runs";
  std::ofstream(d / "cuda/bin/ptxas") << "#!/bin/sh\necho run >> '" << count << "'\n"
                                         "case \"$1\" in\n"
                                         "  --version) cat '" << std::string(d / "version.out") << "';;\n"
                                         "  --help) cat '" << std::string(d / "help.out") << "';;\n"
                                         "  *) exit 1;;\n"
                                         "esac\n";
  fs::permissions(d / "cuda/bin/ptxas", fs::perms::owner_all);
  EXPECT_EQ(toolkit_reader(d / "cuda"), std::string(d / "cuda/bin/ptxas"));
  EXPECT_EQ(toolkit_reader(d / "nothing"), "");
  ToolkitFacts f = read_toolkit_facts(d / "cuda/bin/nvcc", d / "cache");  // asked for nvcc: ptxas answers
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.tool, "ptxas");
  EXPECT_EQ(f.nvcc, std::string(d / "cuda/bin/ptxas"));
  EXPECT_EQ(f.version, "12.9.86");
  EXPECT_EQ(f.minor(), "12.9");
  EXPECT_EQ(f.arches().size(), 30u);
  EXPECT_EQ(f.list_gpu_code.front(), "sm_100");  // the plain codes, in ptxas's order
  for (const auto& c : f.list_gpu_code) EXPECT_TRUE(c.back() != 'a' && c.back() != 'f') << c;
  EXPECT_EQ(f.gcc_max, "14");
  EXPECT_TRUE(f.options.empty());
  EXPECT_NE(f.source().find("ptxas --help (--gpu-name values)"), std::string::npos) << f.source();
  auto runs = [&] { std::ifstream in(count); int n = 0; for (std::string l; std::getline(in, l);) ++n; return n; };
  EXPECT_EQ(runs(), 2);
  ToolkitFacts again = read_toolkit_facts(d / "cuda/bin/ptxas", d / "cache");
  EXPECT_EQ(runs(), 2);  // from the cache
  EXPECT_EQ(again.tool, "ptxas");
  EXPECT_EQ(again.arches(), f.arches());
}

TEST(ToolkitFacts, APtxasWithoutGpuNamesIsAnError) {
  testkit::TempDir d;
  fs::create_directories(d / "cuda/bin");
  std::ofstream(d / "cuda/bin/ptxas") << "#!/bin/sh\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n";
  fs::permissions(d / "cuda/bin/ptxas", fs::perms::owner_all);
  ToolkitFacts f = read_toolkit_facts(d / "cuda/bin/ptxas", "");
  EXPECT_FALSE(f.ok());
  EXPECT_NE(f.error.find("--gpu-name"), std::string::npos) << f.error;
}

TEST(ToolkitFacts, AMissingNvccIsAnError) {
  ToolkitFacts f = read_toolkit_facts("/nonexistent/bin/nvcc", "");
  EXPECT_FALSE(f.ok());
  EXPECT_NE(f.error.find("cannot be read"), std::string::npos);
}

// The toolkit of this machine, when it has one, reads as cuda.toml says for its release.
TEST(ToolkitFacts, LocalToolkitIfAny) {
  if (!fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no toolkit at /usr/local/cuda";
  ToolkitFacts f = read_toolkit_facts("/usr/local/cuda/bin/nvcc", "");
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_FALSE(f.arches().empty());
  EXPECT_FALSE(f.gcc_max.empty());
}

}  // namespace
}  // namespace ts::probe

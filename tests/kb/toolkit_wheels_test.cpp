// Every CUDA toolkit that NVIDIA ships on PyPI (nvidia-cuda-nvcc-cu11 11.7+, -cu12, nvidia-cuda-nvcc
// 13.x) has its arch list and host-compiler limits read from that wheel's nvcc/ptxas and
// host_config.h, not recalled. The first test checks what cuda.toml claims; the second (network)
// downloads each cited wheel and reads it with probe::read_toolkit_facts, so the claim is checked.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "core/version.h"
#include "kb/kb.h"
#include "probe/toolkit_facts.h"
#include "util/cache_dir.h"
#include "util/process.h"

namespace ts::kb {
namespace {

// "https://pypi.org/project/nvidia-cuda-nvcc-cu12/12.9.86/ (...)" -> {project, version}
std::pair<std::string, std::string> cited_wheel(const std::string& source) {
  static const std::regex r(R"(^https://pypi\.org/project/(nvidia-cuda-nvcc[a-z0-9-]*)/([0-9.]+)/)");
  std::smatch m;
  if (!std::regex_search(source, m, r)) return {};
  return {m[1], m[2]};
}

std::vector<CudaRelease> pypi_toolkits() {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  EXPECT_TRUE(errors.empty());
  std::vector<CudaRelease> out;
  for (const auto& c : kb.cuda)
    if (!(c.version < *Version::parse("11.7")))  // no nvcc wheel before 11.7
      out.push_back(c);
  return out;
}

TEST(KbToolkitWheels, ArchesOfEveryPyPIToolkitWereReadFromItsWheel) {
  int checked = 0;
  for (const auto& c : pypi_toolkits()) {
    const Version* v = &c.version;
    SCOPED_TRACE("CUDA " + c.version.original());
    EXPECT_FALSE(c.is_recalled("arches"));
    EXPECT_FALSE(c.is_recalled("gcc_max"));
    EXPECT_FALSE(c.is_recalled("clang_max"));
    EXPECT_EQ(c.status, "verified");
    std::string project = v->major() == 11 ? "nvidia-cuda-nvcc-cu11" : v->major() == 12 ? "nvidia-cuda-nvcc-cu12" : "nvidia-cuda-nvcc";
    auto [p, w] = cited_wheel(c.source);
    EXPECT_EQ(p, project) << c.source;
    EXPECT_EQ(w.rfind(c.version.original() + ".", 0), 0u) << c.source;
    ++checked;
  }
  EXPECT_GE(checked, 17);  // 11.7, 11.8, 12.0-12.6, 12.8, 12.9, 13.0-13.5
}

// Downloads (into CACHE/toolkit-wheels, sha256 checked against PyPI's metadata; see toolkit_wheel.py)
// the wheel each entry cites and reads it as a user's toolkit is read: nvcc when the wheel has one
// (13.x), else ptxas (cu11/cu12). The KB's arches must equal what the toolkit says, and gcc_max /
// clang_max what its host_config.h says. Every cited wheel is checked, not a sample: cold (17
// wheels, ~0.7 GB unpacked) takes well under the ~5 min where a cheaper CI default would be due
// (see docs/kb-refresh.md for the measured times). Skipped when PyPI cannot be reached.
TEST(KbToolkitWheels, KbArchesEqualWhatEachCitedWheelSays) {
  std::string cache = util::cache_dir();
  if (cache.empty()) GTEST_SKIP() << "no cache directory (set HOME or TORCHSMITH_CACHE) to download the wheels into";
  std::string script = std::string(TS_SOURCE_DIR) + "/tests/kb/toolkit_wheel.py";
  std::vector<std::string> checked;
  for (const auto& c : pypi_toolkits()) {
    SCOPED_TRACE("CUDA " + c.version.original());
    auto [project, version] = cited_wheel(c.source);
    ASSERT_FALSE(project.empty()) << c.source;
    util::RunOptions o;
    o.timeout = std::chrono::seconds(600);
    std::vector<std::string> argv{"python3", script, cache + "/toolkit-wheels", project, version};
    // The 13.x nvcc wheel has no host_config.h: nvidia-cuda-crt of the same version holds it.
    if (project == "nvidia-cuda-nvcc") argv.push_back("nvidia-cuda-crt");
    auto got = util::run(argv, o);
    if (got.exit_code == 3 || got.not_found)
      GTEST_SKIP() << "PyPI (or python3) cannot be reached, so the toolkit wheels were not checked: " << got.err;
    ASSERT_TRUE(got.ok()) << project << " " << version << ": " << got.describe(o.timeout) << "\n" << got.err;
    std::string root = got.out.substr(0, got.out.find('\n'));
    std::string tool = probe::toolkit_reader(root);
    ASSERT_FALSE(tool.empty()) << root;
    probe::ToolkitFacts f = probe::read_toolkit_facts(tool);
    ASSERT_TRUE(f.ok()) << f.error;
    EXPECT_EQ(f.version, version);
    EXPECT_EQ(f.minor(), c.version.original());
    EXPECT_EQ(spelled(c.arches), f.arches()) << "cuda.toml's arches for " << c.version.original() << " differ from " << f.source();
    ASSERT_FALSE(f.host_config.empty()) << root << " has no include/crt/host_config.h";
    EXPECT_EQ(c.gcc_max.original(), f.gcc_max) << f.host_config;
    EXPECT_EQ(c.clang_max.original(), f.clang_max) << f.host_config;
    std::printf("  checked CUDA %-5s %s %s: %s (%zu arches), host_config.h (gcc %s, clang %s)\n", c.version.original().c_str(),
                project.c_str(), version.c_str(), f.tool.c_str(), f.arches().size(), f.gcc_max.c_str(), f.clang_max.c_str());
    checked.push_back(c.version.original());
  }
  EXPECT_GE(checked.size(), 17u);
}

}  // namespace
}  // namespace ts::kb

// The real machine: the probe runs, is fast, and finds what this machine has (skips otherwise).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "probe/probe.h"

using namespace ts;
using namespace ts::probe;

namespace {
HostFacts probe_real(double* seconds, bool import_torch = false) {
  ProbeOptions o;
  o.import_torch = import_torch;
  auto t0 = std::chrono::steady_clock::now();
  auto f = ts::probe::probe(Host::real(), o);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return f;
}
}  // namespace

TEST(RealHost, ProbesThisMachine) {
  double s = 0;
  auto f = probe_real(&s);
  if (std::getenv("TS_PRINT_FACTS")) std::cout << nlohmann::json(f).dump(2) << "\n";
  std::cout << "probe wall time (no torch import): " << s << " s\n";
  EXPECT_EQ(f.root, "/");
  EXPECT_FALSE(f.os.kernel_release.empty());
  EXPECT_FALSE(f.os.glibc.empty());
  EXPECT_FALSE(f.cpu.arch.empty());
  EXPECT_GT(f.cpu.logical_cores, 0);
  EXPECT_GE(f.cpu.online_cores, f.cpu.logical_cores);
  EXPECT_GT(f.memory.total_bytes, 0u);
  EXPECT_GT(f.memory.usable_bytes, 0u);
  EXPECT_EQ(f.disks.size(), 2u);
  EXPECT_LT(s, 5.0);  // generous for a loaded 2-core CI box; typically well under 1 s
}

TEST(RealHost, FindsCuda13AndGcc12WhenPresent) {
  if (::access("/usr/local/cuda-13.0/bin/nvcc", X_OK) != 0) GTEST_SKIP() << "no /usr/local/cuda-13.0";
  double s = 0;
  auto f = probe_real(&s);
  bool found = false;
  for (auto& t : f.cuda_toolkits) {
    if (t.path != "/usr/local/cuda-13.0") continue;
    found = true;
    EXPECT_TRUE(t.version.starts_with("13.0")) << t.version;
    EXPECT_EQ(t.nvcc, "/usr/local/cuda-13.0/bin/nvcc");
    EXPECT_NE(std::find(t.found_via.begin(), t.found_via.end(), "/usr/local/cuda"), t.found_via.end());
    auto names = t.arches.names();
    EXPECT_NE(std::find(names.begin(), names.end(), "sm_90"), names.end());
  }
  EXPECT_TRUE(found);
  if (::access("/usr/bin/gcc-12", X_OK) == 0) {
    bool gcc12 = false;
    for (auto& c : f.compilers) gcc12 |= c.family == "gcc" && c.version.starts_with("12.");
    EXPECT_TRUE(gcc12);
  }
}

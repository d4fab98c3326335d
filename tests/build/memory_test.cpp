#include "build/memory.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace ts::build;
namespace fs = std::filesystem;

namespace {

struct FakeRoot {
  fs::path dir = fs::temp_directory_path() / ("ts_mem_" + std::to_string(getpid()) + "_" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  FakeRoot() { fs::remove_all(dir); }
  ~FakeRoot() { fs::remove_all(dir); }
  void put(const std::string& rel, const std::string& text) {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
  }
};

}  // namespace

TEST(Memory, Parsers) {
  EXPECT_EQ(parse_mem_available("MemTotal: 100 kB\nMemFree: 5 kB\nMemAvailable:   2048 kB\n"), 2048u * 1024);
  EXPECT_FALSE(parse_mem_available("MemTotal: 100 kB\n"));
  EXPECT_DOUBLE_EQ(*parse_psi_some_avg10("some avg10=12.50 avg60=1.00 avg300=0.00 total=5\nfull avg10=3.00 avg60=0 avg300=0 total=1\n"), 12.5);
  EXPECT_FALSE(parse_psi_some_avg10("garbage"));
  EXPECT_EQ(parse_size("500M"), 500u << 20);
  EXPECT_EQ(parse_size("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_size("1.5G"), 3ull << 29);
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_FALSE(parse_size("lots"));
  EXPECT_FALSE(parse_size("5X"));
  EXPECT_EQ(format_mib(512u << 20), "512 MiB");
  EXPECT_EQ(format_mib(3ull << 30), "3.0 GiB");
}

TEST(Memory, CgroupV2LimitBoundsHeadroom) {
  FakeRoot r;
  r.put("proc/meminfo", "MemTotal: 16000000 kB\nMemAvailable: 8000000 kB\n");
  r.put("proc/pressure/memory", "some avg10=7.00 avg60=0 avg300=0 total=1\n");
  r.put("proc/self/cgroup", "0::/build.slice\n");
  r.put("sys/fs/cgroup/build.slice/memory.max", "1073741824\n");
  r.put("sys/fs/cgroup/build.slice/memory.current", "268435456\n");
  MemoryReader m(r.dir.string());
  auto x = m.read();
  EXPECT_EQ(x.available, 8000000ull * 1024);
  ASSERT_TRUE(x.psi_some_avg10);
  EXPECT_DOUBLE_EQ(*x.psi_some_avg10, 7.0);
  ASSERT_TRUE(x.cg_max && x.cg_current);
  EXPECT_EQ(x.headroom(), (1ull << 30) - (256ull << 20));
}

TEST(Memory, UnlimitedCgroupAndNoPsi) {
  FakeRoot r;
  r.put("proc/meminfo", "MemAvailable: 1000 kB\n");
  r.put("proc/self/cgroup", "0::/\n");
  r.put("sys/fs/cgroup/memory.max", "max\n");
  r.put("sys/fs/cgroup/memory.current", "5\n");
  auto x = MemoryReader(r.dir.string()).read();
  EXPECT_FALSE(x.psi_some_avg10);
  EXPECT_FALSE(x.cg_max);
  EXPECT_EQ(x.headroom(), 1000u * 1024);
}

TEST(Memory, CgroupV1Limit) {
  FakeRoot r;
  r.put("proc/meminfo", "MemAvailable: 8000000 kB\n");
  r.put("proc/self/cgroup", "4:memory:/job\n");
  r.put("sys/fs/cgroup/memory/job/memory.limit_in_bytes", "2147483648\n");
  r.put("sys/fs/cgroup/memory/job/memory.usage_in_bytes", "1073741824\n");
  auto x = MemoryReader(r.dir.string()).read();
  EXPECT_EQ(x.headroom(), 1ull << 30);
}

TEST(Memory, RealMachineReads) {
  auto x = MemoryReader().read();
  EXPECT_GT(x.available, 0u);
}

// The installed binary must run on a machine with none of our -dev packages (e.g. Ubuntu 24.04):
// libstdc++/libgcc linked in, only glibc's own libraries needed, nothing NVIDIA linked.
#include <gtest/gtest.h>

#include <set>

#include "formats/elf.h"
#include "formats/mapped_file.h"

namespace {

TEST(Binary, NeedsOnlyGlibc) {
  ts::formats::MappedFile f(TS_BINARY);
  ASSERT_TRUE(f.ok()) << f.error();
  std::string err;
  auto elf = ts::formats::ElfFile::parse(f.bytes(), &err);
  ASSERT_TRUE(elf) << err;
  const std::set<std::string> glibc = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
                                       "librt.so.1", "ld-linux-x86-64.so.2",
                                       "ld-linux-aarch64.so.1"};
  ASSERT_FALSE(elf->dynamic().needed.empty());
  for (const auto& n : elf->dynamic().needed) EXPECT_TRUE(glibc.count(n)) << "links " << n;
  // Statically linked libstdc++ leaves no GLIBCXX/CXXABI version needs behind.
  EXPECT_TRUE(elf->required_versions("GLIBCXX_").empty());
  EXPECT_TRUE(elf->required_versions("CXXABI_").empty());
}

}  // namespace

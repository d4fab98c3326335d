// The packaged files handed over by a run: size, sha256 (checked against a known digest), the
// install line into the plan's Python, the torch an extension wheel names.
#include "run/artifacts.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

TEST(Artifacts, EachFileWithSizeSha256AndInstallLine) {
  testkit::TempDir d;
  const std::string dist = d.path() + "/dist";
  std::filesystem::create_directories(dist + "/sub");
  const std::string wheel = dist + "/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl";
  ASSERT_EQ(util::write_file_atomic(wheel, "abc"), "");
  ASSERT_EQ(util::write_file_atomic(dist + "/hello-ext-0.1.0-py3.11_cpu_0.conda", ""), "");
  plan::Plan p;
  p.python = "/usr/bin/python3";
  auto a = collect_artifacts(d.path(), dist, p);
  ASSERT_EQ(a.size(), 2u);  // the directory is not an artifact
  EXPECT_EQ(a[0].file, "dist/hello-ext-0.1.0-py3.11_cpu_0.conda");
  EXPECT_EQ(a[0].install, "conda install " + dist + "/hello-ext-0.1.0-py3.11_cpu_0.conda");
  EXPECT_EQ(a[1].file, "dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl");
  EXPECT_EQ(a[1].path, wheel);
  EXPECT_EQ(a[1].size, 3u);
  // sha256("abc"), FIPS 180-2's first example.
  EXPECT_EQ(a[1].sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(a[1].install, "/usr/bin/python3 -m pip install " + wheel);
  EXPECT_EQ(a[1].torch, "torch 1.13 (CPU)");
  EXPECT_EQ(install_line("/x/notes.txt", "/usr/bin/python3"), "");
}

}  // namespace
}  // namespace ts::run

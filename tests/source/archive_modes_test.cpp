// Issue 32: an sdist's setuid bit and 0777 modes were kept when unpacked (tar as root keeps them).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "source/fetch.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::source {
namespace {

mode_t mode_of(const std::string& p) {
  struct stat st{};
  return ::lstat(p.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

TEST(ArchiveModes, NoSetuidSetgidOrWorldWriteAfterUnpacking) {
  testkit::TempDir t;
  const std::string tar = t / "pkg-1.0.tar.gz";
  // tarfile writes the modes it is told, whatever the umask.
  auto r = util::run({"/usr/bin/python3", "-c", R"PY(
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as tf:
    def add(name, mode, data=None):
        ti = tarfile.TarInfo(name)
        ti.mode = mode
        if data is None:
            ti.type = tarfile.DIRTYPE
            tf.addfile(ti)
        else:
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))
    add("pkg-1.0", 0o777)
    add("pkg-1.0/setup.py", 0o6777, b"print(1)\n")
    add("pkg-1.0/tool", 0o4755, b"#!/bin/sh\n")
    add("pkg-1.0/data", 0o1777)
)PY", tar});
  ASSERT_TRUE(r.ok()) << r.err;
  std::string err;
  const std::string tree = extract_archive(tar, t / "out", &err);
  ASSERT_FALSE(tree.empty()) << err;
  for (const char* rel : {"", "/setup.py", "/tool", "/data"}) {
    const mode_t m = mode_of(tree + rel);
    SCOPED_TRACE(tree + rel);
    EXPECT_NE(m, 0u);
    EXPECT_EQ(m & (S_ISUID | S_ISGID | S_ISVTX | S_IWOTH), 0u) << std::oct << m;
  }
  EXPECT_TRUE(mode_of(tree + "/tool") & S_IXUSR);  // what a file needs to run stays
}

}  // namespace
}  // namespace ts::source

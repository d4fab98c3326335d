#include "util/held_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/sha256.h"

namespace ts::util {
namespace {

namespace fs = std::filesystem;

TEST(HeldFile, TheCopyIsTheBytesHashedWhateverHappensToTheOriginal) {
  testkit::TempDir t;
  std::ofstream(t / "a.whl") << "the bytes";
  std::string err;
  auto h = hold_file(t / "a.whl", t / "held", &err);
  ASSERT_TRUE(h) << err;
  EXPECT_EQ(h->path, t / "held/a.whl");
  EXPECT_EQ(h->size, 9u);
  EXPECT_EQ(h->sha256, sha256_file(t / "a.whl").value_or(""));
  std::ofstream(t / "a.whl") << "other bytes";  // swapped afterwards
  EXPECT_EQ(read_file(h->path).value_or(""), "the bytes");
  EXPECT_EQ(sha256_file(h->path).value_or(""), h->sha256);
  EXPECT_EQ(fs::status(t / "held").permissions() & fs::perms::all, fs::perms::owner_all);
}

TEST(HeldFile, OnlyARegularFileIntoAPrivateDirectory) {
  testkit::TempDir t;
  ASSERT_EQ(::mkfifo((t / "fifo.whl").c_str(), 0600), 0);
  std::string err;
  EXPECT_FALSE(hold_file(t / "fifo.whl", t / "held", &err));  // never hangs on a FIFO
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
  EXPECT_FALSE(hold_file(t / "missing.whl", t / "held", &err));
  EXPECT_NE(err.find("missing.whl"), std::string::npos) << err;
  std::ofstream(t / "a.whl") << "x";
  fs::create_directory(t / "elsewhere");
  fs::create_directory_symlink(t / "elsewhere", t / "link");
  EXPECT_FALSE(hold_file(t / "a.whl", t / "link", &err));  // the private directory is no link
  EXPECT_FALSE(fs::exists(t / "elsewhere/a.whl"));
}

}  // namespace
}  // namespace ts::util

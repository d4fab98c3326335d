// read_conda_index_bytes is read_conda_index_json without the file: the same index.json from a
// package in memory, the same refusals, and not even a temporary file written (a .conda's
// info-*.tar.zst is read in memory, where it once went through a file in the temp directory).
#include "package/channel.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "conda_testkit.h"
#include "package/conda_package.h"
#include "util/fs.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;
using ts::testing::TempDir;

formats::Bytes bytes_of(const std::string& s) { return {reinterpret_cast<const unsigned char*>(s.data()), s.size()}; }

TEST(CondaIndexJson, FromMemoryAsFromTheFileAndNothingWritten) {
  TempDir t("channel-mem");
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path, "2.4.1");
  CondaOptions o;
  o.out_dir = t.path + "/chan";
  o.formats = {"tar.bz2", "conda"};
  o.timestamp = 1700000000;
  auto made = make_conda_packages(wheel, o);
  ASSERT_EQ(made.exit_code, 0) << made.error;
  ASSERT_EQ(made.outputs.size(), 2u);

  // A temp directory that does not exist: a reader that made a temporary file would fail.
  std::string tmp = t.path + "/no-such-dir";
  const char* old_tmp = std::getenv("TMPDIR");
  std::string saved = old_tmp ? old_tmp : "";
  setenv("TMPDIR", tmp.c_str(), 1);
  for (const auto& path : made.outputs) {
    SCOPED_TRACE(path);
    bool conda = path.size() > 6 && path.compare(path.size() - 6, 6, ".conda") == 0;
    std::string err1, err2;
    auto from_file = read_conda_index_json(path, &err1);
    auto text = util::read_file(path).value();
    auto from_memory = read_conda_index_bytes(bytes_of(text), conda, &err2);
    ASSERT_TRUE(from_file) << err1;
    ASSERT_TRUE(from_memory) << err2;
    EXPECT_EQ(*from_file, *from_memory);
    EXPECT_EQ((*from_memory)["name"], "torch");
    EXPECT_EQ((*from_memory)["version"], "2.4.1");
    // Cut short: refused with a reason, from memory as from the file.
    auto cut = text.substr(0, text.size() / 2);
    std::string err3;
    EXPECT_FALSE(read_conda_index_bytes(bytes_of(cut), conda, &err3));
    EXPECT_FALSE(err3.empty());
  }
  if (old_tmp) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
  EXPECT_FALSE(fs::exists(tmp));
}

}  // namespace
}  // namespace ts::package

// kb/table.h: which table holds a file, a stage's "file:line: message" lines as kb check's errors,
// and kb check choosing a file's own table before a folder's.
#include "kb/table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kb/check.h"
#include "testkit/temp_dir.h"

namespace ts::kb {
namespace {

TEST(KbTable, HoldsItsFileOrTheFilesOfItsFolder) {
  EXPECT_TRUE(table_holds("signatures.toml", "signatures.toml"));
  EXPECT_FALSE(table_holds("signatures.toml", "x/signatures.toml"));
  EXPECT_TRUE(table_holds("packages/", "packages/apex.toml"));
  EXPECT_FALSE(table_holds("packages/", "packages/"));
  EXPECT_FALSE(table_holds("packages/", "fixes/apex.toml"));
  EXPECT_FALSE(table_holds("", "cuda.toml"));  // the core table's files are named by kb's loader
}

TEST(KbTable, LineErrorsKeepTheirLine) {
  std::vector<KbError> out;
  add_line_errors("dir/sources.toml",
                  {"dir/sources.toml:7: source 'x': no repo", "dir/sources.toml: cannot read", "elsewhere: odd"}, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].str(), "dir/sources.toml:7: source 'x': no repo");
  EXPECT_EQ(out[0].origin.line, 7);
  EXPECT_EQ(out[1].origin.line, 0);
  EXPECT_EQ(out[1].message, "cannot read");
  EXPECT_EQ(out[2].message, "elsewhere: odd");  // not this file's prefix: kept whole
}

TEST(KbTable, KbCheckPrefersTheFilesOwnTableToAFolders) {
  testkit::TempDir d;
  std::filesystem::create_directories(d / "extra");
  std::ofstream(d / "extra/special.toml") << "a = 1\n";
  std::ofstream(d / "extra/other.toml") << "a = 1\n";
  Validate folder = [](std::string_view file, std::string_view, std::vector<KbError>& e) {
    e.push_back({{std::string(file), 1}, "folder"});
  };
  Validate own = [](std::string_view file, std::string_view, std::vector<KbError>& e) {
    e.push_back({{std::string(file), 1}, "own"});
  };
  auto errors = check_kb({d.path()}, false, {{"extra", "extra/", folder}, {"special", "extra/special.toml", own}});
  std::string all;
  for (const auto& e : errors) all += e.str() + "\n";
  EXPECT_NE(all.find("special.toml:1: own"), std::string::npos) << all;
  EXPECT_NE(all.find("other.toml:1: folder"), std::string::npos) << all;
  EXPECT_EQ(errors.size(), 2u) << all;
}

}  // namespace
}  // namespace ts::kb

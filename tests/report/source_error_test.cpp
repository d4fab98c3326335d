// The compiler's error in a diagnosis, mapped from the copy in OUT/src back to the user's tree.
#include "report/source_error.h"

#include <gtest/gtest.h>

#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::report {
namespace {

nlohmann::json diagnosis_with(const std::vector<std::string>& evidence) {
  nlohmann::json ev = nlohmann::json::array();
  int n = 1;
  for (const auto& t : evidence) ev.push_back({{"line", n++}, {"text", t}});
  return {{"root_cause", {{"id", "X"}, {"evidence", ev}, {"context", nlohmann::json::array()}}}};
}

TEST(SourceError, GccErrorInTheCopyIsTheUsersFile) {
  auto e = source_error(diagnosis_with({"In file included from /tmp/o/src/a.h:2,",
                                        "/tmp/o/src/csrc/hello.cpp:4:12: error: expected ';' before '}' token"}),
                        "/home/u/ext", "/tmp/o/src");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->in_user_tree());
  EXPECT_EQ(e->file, "/home/u/ext/csrc/hello.cpp");
  EXPECT_EQ(e->compiled, "/tmp/o/src/csrc/hello.cpp");
  EXPECT_EQ(e->where(), "csrc/hello.cpp:4");
  EXPECT_EQ(e->column, 12);
  EXPECT_EQ(e->message, "expected ';' before '}' token");
}

TEST(SourceError, MissingHeaderNvccAndOutsideTheTree) {
  auto e = source_error(diagnosis_with({"/tmp/o/src/x.cpp:2:10: fatal error: cutlass/cutlass.h: No such file or directory"}),
                        "/home/u/ext", "/tmp/o/src");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "cutlass/cutlass.h: No such file or directory");
  EXPECT_EQ(e->where(), "x.cpp:2");
  e = source_error(diagnosis_with({"/tmp/o/src/k.cu(17): error: identifier \"foo\" is undefined"}), "/home/u/ext",
                   "/tmp/o/src");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->file, "/home/u/ext/k.cu");
  EXPECT_EQ(e->line, 17);
  e = source_error(diagnosis_with({"/usr/include/c++/12/bits/x.h:9:1: error: bad"}), "/home/u/ext", "/tmp/o/src");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->in_user_tree());
  EXPECT_EQ(e->where(), "/usr/include/c++/12/bits/x.h:9");
  EXPECT_FALSE(source_error(diagnosis_with({"c++: fatal error: Killed signal terminated program cc1plus"}), "", ""));
  EXPECT_FALSE(source_error(nullptr, "", ""));
}

TEST(SourceError, LinesAroundTheError) {
  testkit::TempDir d;
  ASSERT_EQ(util::write_file_atomic(d.path() + "/f.cpp", "a\nb\nc\nd\ne\nf\n"), "");
  auto lines = source_lines(d.path() + "/f.cpp", 3, 1);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], (std::pair<int, std::string>{2, "b"}));
  EXPECT_EQ(lines[2], (std::pair<int, std::string>{4, "d"}));
  EXPECT_TRUE(source_lines(d.path() + "/none.cpp", 3, 1).empty());
}

}  // namespace
}  // namespace ts::report

// EntryReader's shared loop over an array of tables: each table read once, unknown keys reported per
// table with its line, the table itself handed to readers that need a key's line.
#include "kb/toml_reader.h"

#include <gtest/gtest.h>

#include "kb/toml_parse.h"

namespace ts::kb::detail {
namespace {

TEST(ReadTables, ReadsEachTableAndReportsItsUnknownKeys) {
  toml::table root = parse_toml("[[item]]\nname = \"a\"\n\n[[item]]\nname = \"b\"\ntypo = 1\n", "t.toml");
  std::vector<KbError> errors;
  std::vector<std::string> names;
  read_tables(root["item"].as_array(), "t.toml", "item", errors,
              [&](EntryReader& r) { names.push_back(r.text("name", true, "\"x\"")); });
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].str().find("t.toml:6"), std::string::npos) << errors[0].str();
  EXPECT_NE(errors[0].str().find("typo"), std::string::npos) << errors[0].str();
}

TEST(ReadTables, HandsTheTableToReadersThatAskForIt) {
  toml::table root = parse_toml("[[item]]\nname = \"a\"\n", "t.toml");
  std::vector<KbError> errors;
  int lines = 0;
  read_tables(root["item"].as_array(), "t.toml", "item", errors, [&](EntryReader& r, const toml::table& t) {
    r.text("name", true, "\"x\"");
    lines += line_of(*t.get("name"));
  });
  EXPECT_EQ(lines, 2);
  EXPECT_TRUE(errors.empty());
  read_tables(nullptr, "t.toml", "item", errors, [&](EntryReader&) { ADD_FAILURE() << "no tables: no call"; });
}

}  // namespace
}  // namespace ts::kb::detail

#include "report/command_line.h"

#include <gtest/gtest.h>

namespace ts::report {
namespace {

TEST(CommandLine, QuotesOnlyWhatTheShellNeeds) {
  EXPECT_EQ(shell_word("/o/dist/x-0.1+pt113cpu.whl"), "/o/dist/x-0.1+pt113cpu.whl");
  EXPECT_EQ(shell_word("my dir"), "'my dir'");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word("$HOME"), "'$HOME'");
  EXPECT_EQ(shell_word(""), "''");
  EXPECT_EQ(shell_line({"python3", "-m", "pip", "install", "a b.whl"}), "python3 -m pip install 'a b.whl'");
}

TEST(CommandLine, ResumeIsAddedOnce) {
  EXPECT_EQ(resume_command({"torchsmith", "build", "x", "--out", "o"}),
            (std::vector<std::string>{"torchsmith", "build", "x", "--out", "o", "--resume"}));
  EXPECT_EQ(resume_command({"torchsmith", "build", "--resume", "x"}),
            (std::vector<std::string>{"torchsmith", "build", "--resume", "x"}));
  EXPECT_EQ(resume_command({"torchsmith", "build", "--out", "o", "--", "-odd-dir"}),
            (std::vector<std::string>{"torchsmith", "build", "--out", "o", "--resume", "--", "-odd-dir"}));
  EXPECT_TRUE(resume_command({}).empty());
}

}  // namespace
}  // namespace ts::report

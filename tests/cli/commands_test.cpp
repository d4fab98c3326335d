// add_command (src/cli/commands.h): the one way a subcommand is registered. Its options fill one object;
// only the command chosen runs, and what it returns becomes the exit code.
#include "cli/commands.h"

#include <gtest/gtest.h>

namespace ts::cli {
namespace {

struct Opts {
  std::string name;
};

TEST(AddCommand, RunsTheChosenCommandWithItsOptionsAndKeepsItsExitCode) {
  CLI::App app;
  int exit_code = -1;
  std::string ran;
  auto [a, ao] = add_command<Opts>(app, exit_code, [&](Opts& o) { ran = "a:" + o.name; return 7; }, "a", "A.");
  a->add_option("--name", ao->name);
  auto [b, bo] = add_command<Opts>(app, exit_code, [&](Opts& o) { ran = "b:" + o.name; return 9; }, "b", "B.");
  b->add_option("--name", bo->name);
  EXPECT_EQ(a->get_description(), "A.");
  app.parse(std::vector<std::string>{"x", "--name", "a"});  // CLI11 takes them last to first
  EXPECT_EQ(ran, "a:x");
  EXPECT_EQ(exit_code, 7);
  EXPECT_EQ(bo->name, "");
}

}  // namespace
}  // namespace ts::cli

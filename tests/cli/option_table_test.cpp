// The options of every command (src/cli/option_table.h): an option a command does not take is exit 2
// naming the commands that take it, and numbers parse strictly for every command, not only plan/build.
#include <gtest/gtest.h>

#include "cli/option_table.h"
#include "cli_util.h"

namespace ts {
namespace {

using testing::run_torchsmith;

void expect_refused(const std::vector<std::string>& args, const std::vector<std::string>& said) {
  auto r = run_torchsmith(args);
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  EXPECT_EQ(r.exit_code, 2) << cmd << r.out << r.err;
  for (const auto& s : said) EXPECT_NE(r.err.find(s), std::string::npos) << cmd << "\nwant: " << s << "\n" << r.err;
  EXPECT_EQ(r.out, "") << cmd;
}

TEST(OptionTable, WholeNumbersArePlainDigitsInRange) {
  EXPECT_EQ(cli::whole_number("8", 1, 256), 8);
  EXPECT_EQ(cli::whole_number("010", 1, 256), 10);  // decimal, never octal
  EXPECT_EQ(cli::whole_number("0", 0, 99), 0);
  for (const char* bad : {"", "4x", "0x10", "+4", "-1", "1e3", "4.0", " 4", "4 ", "257", "99999999999999"})
    EXPECT_FALSE(cli::whole_number(bad, 0, 256)) << "'" << bad << "'";
}

// Every command that does not take --mem-budget (plan and build do) refuses it and says who does.
TEST(OptionTable, AnOptionOfAnotherCommandIsRefusedWithWhoTakesIt) {
  const std::vector<std::vector<std::string>> commands = {
      {"doctor"},          {"verify", "x.whl"}, {"diagnose", "build.log"}, {"fix", "--list"},
      {"fetch", "torch==2.4.1"}, {"clean", "build"}, {"repair", "x.whl"}, {"conda", "x.whl"},
      {"index", "channel"}, {"kb", "check"},     {"toolkit", "list"},    {"toolkit", "add", "cuda==12.8"}};
  for (auto args : commands) {
    std::string path = args[0] + (args[0] == "toolkit" || args[0] == "kb" ? " " + args[1] : "");
    args.insert(args.end(), {"--mem-budget", "16G"});
    expect_refused(args, {"--mem-budget is not an option of `torchsmith " + path + "`", "plan, build, matrix (Memory the build may use",
                          "`torchsmith " + path + " --help`"});
  }
  // Grouped by meaning where commands use one name for different things.
  expect_refused({"verify", "x.whl", "--jobs=4"},
                 {"--jobs is not an option of `torchsmith verify`", "fetch (Submodules cloned in parallel",
                  "plan, build, matrix (Parallel compile jobs"});
  expect_refused({"toolkit", "list", "--from", "pip"}, {"toolkit add (pip (PyPI, default), wheelhouse:DIR"});
  expect_refused({"doctor", "--frobnicate"}, {"--frobnicate is not an option of `torchsmith doctor`, nor of any other"});
}

TEST(OptionTable, NumbersParseStrictlyInEveryCommand) {
  for (const char* j : {"4x", "0x10", "0", "-1", "+4", "257"})
    expect_refused({"fetch", "torch==2.4.1", "--jobs", j}, {"--jobs " + std::string(j), "whole number from 1 to 256"});
  for (const char* n : {"-1", "3x", "100"})
    expect_refused({"fetch", "torch==2.4.1", "--retries", n}, {"--retries " + std::string(n), "from 0 to 99"});
  for (const char* t : {"1e3", "0", "30s", "-5"})
    expect_refused({"verify", "x.whl", "--timeout", t}, {"--timeout " + std::string(t), "from 1 to 604800"});
  for (const char* b : {"-1", "2x", "1.5"})
    expect_refused({"conda", "x.whl", "--build-number", b}, {"--build-number " + std::string(b), "from 0 to 999999"});
}

}  // namespace
}  // namespace ts

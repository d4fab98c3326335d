// "Did you mean" (cli/suggest.h) and the help's wrapping (cli/help_format.h) as code: distances,
// the nearest command or option, and text that fits the width it is given.
#include "cli/suggest.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cli/help_format.h"

namespace ts::cli {
namespace {

TEST(Suggest, EditDistanceCountsSwapsAsOne) {
  EXPECT_EQ(edit_distance("doctr", "doctor"), 1u);
  EXPECT_EQ(edit_distance("chekc", "check"), 1u);
  EXPECT_EQ(edit_distance("", "kb"), 2u);
  EXPECT_EQ(edit_distance("build", "build"), 0u);
  EXPECT_EQ(edit_distance("plan", "clean"), 2u);
}

TEST(Suggest, NearestIsATypoOrAUniquePrefixElseNothing) {
  std::vector<std::string> cmds{"doctor", "diagnose", "build", "kb", "fix", "fetch"};
  EXPECT_EQ(nearest("doctr", cmds), "doctor");
  EXPECT_EQ(nearest("biuld", cmds), "build");
  EXPECT_EQ(nearest("diag", cmds), "diagnose");  // a prefix of one
  EXPECT_EQ(nearest("d", cmds), "");             // a prefix of two: no guess
  EXPECT_EQ(nearest("frobnicate", cmds), "");    // too far from all
  EXPECT_EQ(nearest("--resum", {"--resume", "--wait", "--json"}), "--resume");
}

CLI::App& sample(CLI::App& app) {
  app.add_option("--kb");
  app.add_flag("--no-color");
  CLI::App* kb = app.add_subcommand("kb");
  kb->add_subcommand("check");
  kb->add_subcommand("refresh");
  CLI::App* build = app.add_subcommand("build");
  build->add_option("requirement");
  build->add_flag("--resume");
  build->add_option("-j,--jobs");
  return app;
}

TEST(Suggest, UnknownCommandsAreNamedWithTheNearestAtTheirLevel) {
  CLI::App app{"", "torchsmith"};
  sample(app);
  EXPECT_EQ(unknown_command_error(app, {"build", "-j", "2", "x"}), "");  // x is build's requirement
  EXPECT_EQ(unknown_command_error(app, {"--kb", "bild", "build"}), "");  // --kb's value is not a command
  EXPECT_EQ(unknown_command_error(app, {"--no-color", "build", "x"}), "");  // a flag takes no value
  std::string e = unknown_command_error(app, {"buidl", "x"});
  EXPECT_NE(e.find("'buidl' is not a torchsmith command; did you mean `torchsmith build`?"), std::string::npos) << e;
  e = unknown_command_error(app, {"kb", "chek"});
  EXPECT_NE(e.find("did you mean `torchsmith kb check`?"), std::string::npos) << e;
  e = unknown_command_error(app, {"zzzzzz"});
  EXPECT_NE(e.find("the commands are: kb, build"), std::string::npos) << e;
  EXPECT_EQ(nearest_option(app.get_subcommand("build"), "--resum"), "--resume");
  EXPECT_EQ(nearest_option(app.get_subcommand("build"), "--jbos"), "--jobs");
}

TEST(HelpFormat, WrapFitsTheWidthAndKeepsExamplesAndParagraphs) {
  std::string text =
      "Build from one plan: fetch, fix, clean a stale tree, configure and compile (within the machine's\n"
      "memory, with live progress and diagnosis), package, verify, report.\n"
      "Examples:\n"
      "  torchsmith toolkit add cuda==13.0 --from wheelhouse:/media/wheels   # offline\n"
      "\n"
      "Second paragraph.";
  for (std::size_t width : {40u, 60u, 80u}) {
    std::string w = wrap(text, width);
    std::istringstream in(w);
    std::string line;
    while (std::getline(in, line)) EXPECT_LE(line.size(), width) << "'" << line << "'";
    EXPECT_NE(w.find("\n\nSecond paragraph.\n"), std::string::npos) << w;  // the blank line kept
    EXPECT_NE(w.find("\nExamples:\n  torchsmith toolkit add"), std::string::npos) << w;  // its own lines
  }
  // The mid-sentence break of the source is not kept: the sentence re-flows.
  EXPECT_NE(wrap(text, 200).find("(within the machine's memory, with live"), std::string::npos);
}

TEST(HelpFormat, SummaryIsTheFirstSentenceOrItsHeadWhenLong) {
  EXPECT_EQ(summary("Name the root cause of a failed build from its log. More."), "Name the root cause of a failed build from its log.");
  EXPECT_EQ(summary("Look at this machine: GPUs (by PCI id, named from the knowledge base), driver, CUDA\n"
                    "toolkits, cuDNN/NCCL/MAGMA/MKL, compilers, CMake and tools, every Python. Then."),
            "Look at this machine.");
}

}  // namespace
}  // namespace ts::cli

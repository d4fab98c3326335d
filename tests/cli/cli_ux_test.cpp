// The command line as a person meets it (issue 37): every command's --help starts with Usage:, fits
// 80 columns and names the exit codes that command really has; typos of commands and common options
// get a suggestion; bare torchsmith and `help CMD` print help; completions work in bash.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli_util.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

using testing::run_torchsmith;

struct HelpRow {
  std::vector<std::string> command;
  std::set<int> exit_codes;  // what its help must list: each one a return path of that command
};

const std::vector<HelpRow>& help_table() {
  static const std::vector<HelpRow> rows = {
      {{"doctor"}, {0, 2}},          {{"kb"}, {0, 2}},
      {{"kb", "check"}, {0, 2}},     {{"kb", "refresh"}, {0, 1, 2}},
      {{"diagnose"}, {0, 1, 2}},     {{"fix"}, {0, 1, 2}},
      {{"fetch"}, {0, 1, 2}},        {{"plan"}, {0, 1, 2, 3}},
      {{"verify"}, {0, 1, 2}},       {{"build"}, {0, 1, 2, 3, 130}},
      {{"clean"}, {0, 1, 2}},        {{"repair"}, {0, 1, 2}},
      {{"conda"}, {0, 1, 2}},        {{"index"}, {0, 2}},
      {{"toolkit"}, {2}},            {{"toolkit", "list"}, {0, 2}},
      {{"toolkit", "add"}, {0, 1, 2}}, {{"toolkit", "path"}, {0, 1, 2}},
      {{"toolkit", "remove"}, {0, 1, 2}}, {{"matrix"}, {0, 1, 2, 130}},
      {{"help"}, {0, 2}},            {{"completions"}, {0, 2}},
  };
  return rows;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// The numbers an "Exit codes: 0 ok, 1 ..., 2 ..." paragraph lists (each item starts with its code).
std::set<int> listed_codes(const std::string& help) {
  std::set<int> out;
  auto at = help.find("Exit codes:");
  if (at == std::string::npos) return out;
  std::string para = help.substr(at, help.find("\n\n", at) - at);
  for (auto& c : para)
    if (c == '\n') c = ' ';
  std::regex item(R"((?:Exit codes:|,|;)\s+(\d+)\s)");
  for (std::sregex_iterator it(para.begin(), para.end(), item), end; it != end; ++it) out.insert(std::stoi((*it)[1]));
  return out;
}

TEST(CliHelp, EveryCommandsHelpStartsWithUsageFits80ColumnsAndListsItsExitCodes) {
  // The commands the binary has are the table's: a new command must be added to it.
  auto top = run_torchsmith({"--help"});
  ASSERT_EQ(top.exit_code, 0) << top.err;
  for (const auto& row : help_table()) {
    if (row.command.size() == 1) EXPECT_NE(top.out.find("\n  " + row.command[0] + " "), std::string::npos) << row.command[0];
  }
  std::set<std::string> listed;
  std::istringstream in(top.out.substr(top.out.find("Subcommands:")));
  for (std::string line; std::getline(in, line);)
    if (line.size() > 2 && line[0] == ' ' && line[2] != ' ') listed.insert(line.substr(2, line.find(' ', 2) - 2));
  EXPECT_EQ(listed.size(), std::count_if(help_table().begin(), help_table().end(), [](const HelpRow& r) {
              return r.command.size() == 1;
            })) << top.out;

  for (const auto& row : help_table()) {
    SCOPED_TRACE(joined(row.command));
    std::vector<std::string> args = row.command;
    args.push_back("--help");
    auto r = run_torchsmith(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Usage: torchsmith " + joined(row.command), 0), 0u) << r.out;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 80u) << "'" << line << "'";
    EXPECT_EQ(listed_codes(r.out), row.exit_codes) << r.out;
    // 2 is every command's answer to bad usage: check it for real.
    std::vector<std::string> bad = row.command;
    bad.push_back("--no-such-option");
    auto b = run_torchsmith(bad);
    EXPECT_EQ(b.exit_code, 2) << b.err;
    // The option named, or first a missing argument (clean DIR, diagnose LOG), with the way to the help.
    EXPECT_TRUE(b.err.find("--no-such-option") != std::string::npos || b.err.find(" is required") != std::string::npos)
        << b.err;
    EXPECT_NE(b.err.find("--help` lists what it takes"), std::string::npos) << b.err;
  }
  // The global help: Usage first, the same width, and no exit codes that contradict a command's.
  EXPECT_EQ(top.out.rfind("Usage: torchsmith", 0), 0u) << top.out;
  EXPECT_NE(top.out.find("each command's --help lists its own"), std::string::npos) << top.out;
}

TEST(CliHelp, BareTorchsmithAndHelpCommandPrintHelp) {
  auto bare = run_torchsmith({});
  EXPECT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_EQ(bare.out.rfind("Usage: torchsmith", 0), 0u) << bare.out;
  EXPECT_EQ(bare.out, run_torchsmith({"--help"}).out);
  EXPECT_EQ(run_torchsmith({"help"}).out, bare.out);
  for (std::vector<std::string> cmd : {std::vector<std::string>{"build"}, {"kb", "check"}, {"toolkit", "add"}}) {
    std::vector<std::string> help{"help"}, flag = cmd;
    help.insert(help.end(), cmd.begin(), cmd.end());
    flag.push_back("--help");
    auto h = run_torchsmith(help);
    EXPECT_EQ(h.exit_code, 0) << h.err;
    EXPECT_EQ(h.out, run_torchsmith(flag).out) << joined(cmd);
  }
  auto nope = run_torchsmith({"help", "biuld"});
  EXPECT_EQ(nope.exit_code, 2);
  EXPECT_NE(nope.err.find("did you mean `torchsmith build`?"), std::string::npos) << nope.err;
}

// A typo of the name: one letter dropped (or, for a short name, doubled).
std::string typo(const std::string& name) {
  if (name.size() < 4) return name + name.back();
  std::string t = name;
  t.erase(t.size() - 2, 1);
  return t;
}

TEST(CliTypos, EveryCommandsTypoGetsTheCommand) {
  for (const auto& row : help_table()) {
    std::vector<std::string> args = row.command;
    args.back() = typo(args.back());
    SCOPED_TRACE(joined(args));
    auto r = run_torchsmith(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("did you mean `torchsmith " + joined(row.command) + "`?"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("A subcommand is required"), std::string::npos) << r.err;
  }
  auto r = run_torchsmith({"doctr"});
  EXPECT_NE(r.err.find("'doctr' is not a torchsmith command; did you mean `torchsmith doctor`?"), std::string::npos)
      << r.err;
  r = run_torchsmith({"kb", "chek"});
  EXPECT_NE(r.err.find("did you mean `torchsmith kb check`?"), std::string::npos) << r.err;
}

TEST(CliTypos, CommonOptionTyposGetTheOption) {
  struct Case {
    std::vector<std::string> args;
    std::string want;
  };
  for (const auto& c : std::vector<Case>{{{"build", "torch==2.4.1", "--resum"}, "--resume"},
                                         {{"plan", "torch==2.4.1", "--jbos", "2"}, "--jobs"},
                                         {{"doctor", "--jsno"}, "--json"},
                                         {{"plan", "torch==2.4.1", "--arhc", "8.6"}, "--arch"},
                                         {{"fix", "--list", "--dry-rn"}, "--dry-run"},
                                         {{"build", "torch==2.4.1", "--otu", "x"}, "--out"}}) {
    SCOPED_TRACE(joined(c.args));
    auto r = run_torchsmith(c.args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("did you mean " + c.want + "?"), std::string::npos) << r.err;
  }
}

// -j is --jobs, so `build -j 2 x` reads 2 as the jobs and x as the requirement.
TEST(CliOptions, ShortJobsAndTheOneSpellingOfOut) {
  testkit::TempDir t;
  auto r = run_torchsmith({"plan", "-j", "2", t / "no-such-tree"});
  EXPECT_EQ(r.err.find("not expected"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no-such-tree"), std::string::npos) << r.err;
  auto j = run_torchsmith({"plan", "torch==2.4.1", "-j", "4x"});
  EXPECT_EQ(j.exit_code, 2);
  EXPECT_NE(j.err.find("--jobs 4x"), std::string::npos) << j.err;
  // -o/--out is the output everywhere it is one; the old spellings still parse, and are not in --help.
  for (const char* cmd : {"build", "plan", "conda", "repair", "fetch", "matrix"}) {
    auto h = run_torchsmith({cmd, "--help"});
    EXPECT_NE(h.out.find("-o,--out"), std::string::npos) << cmd << "\n" << h.out;
    for (const char* old : {"--output-dir", "--output ", "--dir "}) EXPECT_EQ(h.out.find(old), std::string::npos) << cmd;
  }
  auto old = run_torchsmith({"repair", "/no/such.whl", "--output-dir", t.path()});
  EXPECT_EQ(old.err.find("not expected"), std::string::npos) << old.err;
  auto matrix = run_torchsmith({"matrix", "--help"});
  EXPECT_NE(matrix.out.find("--torch-versions LIST"), std::string::npos) << matrix.out;
  EXPECT_EQ(matrix.out.find("--torch LIST"), std::string::npos) << matrix.out;
  auto conda = run_torchsmith({"conda", "--help"});
  EXPECT_NE(conda.out.find("--python-version X.Y"), std::string::npos) << conda.out;
}

TEST(CliVersion, NamesTheCommitAndTheKnowledgeBasesDate) {
  auto r = run_torchsmith({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(^torchsmith \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n)")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(knowledge base: .*released 20\d\d-\d\d-\d\d)"))) << r.out;
  // The commit is read when the binary is built, not when the tree was configured: it is HEAD's
  // (a build tree configured at an older commit once named that one after a rebuild).
  auto head = util::run({"git", "-C", TS_SOURCE_DIR, "rev-parse", "--short=12", "HEAD"});
  if (!head.ok() || m[1] == "unknown") GTEST_SKIP() << "not a git checkout";
  EXPECT_EQ(m[1].str().substr(0, 12), util::trim(head.out)) << "rebuild torchsmith after committing: " << r.out;
}

TEST(CliCompletions, BashScriptParsesAndCompletesCommandsAndOptions) {
  auto r = run_torchsmith({"completions", "bash"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  testkit::TempDir t;
  std::string script = t / "c.bash";
  ASSERT_EQ(util::write_file_atomic(script, r.out), "");
  util::RunOptions o;
  o.timeout = std::chrono::seconds(30);
  EXPECT_TRUE(util::run({"bash", "-n", script}, o).ok());
  auto complete = [&](const std::string& words, int cword) {
    auto c = util::run({"bash", "-c", "source '" + script + "'; COMP_WORDS=(" + words + "); COMP_CWORD=" +
                                          std::to_string(cword) + "; _torchsmith; echo ${COMPREPLY[@]}"},
                       o);
    return c.out;
  };
  EXPECT_EQ(complete("torchsmith do", 1), "doctor\n");
  EXPECT_EQ(complete("torchsmith kb ch", 2), "check\n");
  EXPECT_EQ(complete("torchsmith build --res", 2), "--resume\n");
  EXPECT_EQ(complete("torchsmith --kb d build -j 2 --wa", 6), "--wait\n");
  for (const char* shell : {"zsh", "fish"}) {
    auto s = run_torchsmith({"completions", shell});
    EXPECT_EQ(s.exit_code, 0);
    EXPECT_NE(s.out.find("doctor"), std::string::npos);
  }
  auto bad = run_torchsmith({"completions", "tcsh"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("write bash, zsh or fish"), std::string::npos) << bad.err;
}

// Findings of issue 37's "Why", each with its way out.
TEST(CliMessages, BadInputIsExit2WithTheWayOut) {
  auto d = run_torchsmith({"doctor", "--python", "/no/such/python3"});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_NE(d.err.find("--python /no/such/python3: no such file"), std::string::npos) << d.err;

  testkit::TempDir t;
  std::filesystem::create_directories(t / "tree");
  auto f = run_torchsmith({"fix", t / "tree"});
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("--for PACKAGE==VERSION"), std::string::npos) << f.err;
  EXPECT_EQ(f.out.find("no fix applies to torch \n"), std::string::npos) << f.out;

  auto p = run_torchsmith({"toolkit", "path", "cuda==12.8", "--cache-dir", t / "cache"});
  EXPECT_EQ(p.exit_code, 1);
  EXPECT_NE(p.err.find("with the same --cache-dir DIR"), std::string::npos) << p.err;
}

}  // namespace
}  // namespace ts

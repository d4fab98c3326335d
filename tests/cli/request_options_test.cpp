// The request options table (src/cli/request_options.h): each option that does not apply to the request's
// kind is exit 2 with the reason, numbers parse strictly, and each command's --help lists the table's rows.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include <nlohmann/json.hpp>

#include "cli/plan_request.h"
#include "cli/request_options.h"
#include "cli_util.h"

namespace ts {
namespace {

using testing::run_torchsmith;

const std::string kSrc = TS_SOURCE_DIR;
const std::string kExt = kSrc + "/examples/hello_ext";

// Exit 2, the option named in the one error line, and the accepted form (or the reason) there too.
void expect_rejected(const std::vector<std::string>& args, const std::string& option, const std::string& why) {
  auto r = run_torchsmith(args);
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  EXPECT_EQ(r.exit_code, 2) << cmd << r.out << r.err;
  EXPECT_NE(r.err.find(option), std::string::npos) << cmd << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << cmd << r.err;
  EXPECT_EQ(r.out, "") << cmd;  // nothing planned
}

TEST(RequestOptions, NumbersParseStrictlyForTorchAndExtensions) {
  for (const std::string& req : {std::string("torch==2.4.1"), kExt})
    for (const char* j : {"4x", "0", "-1", "+4", "4.0", "10000", ""}) {
      SCOPED_TRACE(req + " --jobs '" + j + "'");
      expect_rejected({"plan", req, "--jobs", j}, "--jobs " + std::string(j) + ":", "1 to 9999, or auto");
    }
  for (const std::string& req : {std::string("torch==2.4.1"), kExt})
    for (const char* m : {"3Q", "0", "-1G", "G", "16 G"})
      expect_rejected({"plan", req, "--mem-budget", m}, "--mem-budget " + std::string(m) + ":", "16G");
  for (const char* s : {"0", "257", "4x", "-2", "lots"})
    expect_rejected({"plan", kExt, "--split-compile", s}, "--split-compile " + std::string(s) + ":",
                    "auto, off, or a thread count from 1 to 256");
}

TEST(RequestOptions, BuildsRunOptionsParseStrictly) {
  for (const char* n : {"-1", "2x", "100", ""})
    expect_rejected({"build", "torch==2.4.1", "--max-retries", n}, "--max-retries", "from 0 to 99");
  for (const char* n : {"-1", "x", "1e3"})
    expect_rejected({"build", "torch==2.4.1", "--keep-going-after", n}, "--keep-going-after", "from 0");
  expect_rejected({"build", "torch==2.4.1", "--compile-cache", "bogus"}, "--compile-cache bogus",
                  "auto, ccache, sccache or none");
}

TEST(RequestOptions, TorchOnlyOptionsAreRefusedForAnExtensionWithTheWayOut) {
  struct Case {
    std::vector<std::string> opt;
    std::string way_out;
  };
  for (const auto& c : std::vector<Case>{{{"--spec", "torchsmith.toml"}, "on the command line"},
                                         {{"--with", "cudnn"}, "recipe"},
                                         {{"--python", "3.11"}, "--torch PYTHON"},
                                         {{"--debug"}, "CFLAGS"},
                                         {{"--relwithdebinfo"}, "CFLAGS"},
                                         {{"--package", "conda"}, "torchsmith conda WHEEL"}})
    for (const char* cmd : {"plan", "build"}) {
      std::vector<std::string> args{cmd, kExt};
      args.insert(args.end(), c.opt.begin(), c.opt.end());
      expect_rejected(args, c.opt[0] + " applies to torch builds only; for an extension", c.way_out);
    }
}

TEST(RequestOptions, ExtensionOnlyOptionsAreRefusedForTorch) {
  expect_rejected({"plan", "torch==2.4.1", "--split-compile", "4"},
                  "--split-compile applies to extension builds only; for torch itself", "CMake and ninja");
  expect_rejected({"build", "torch==2.4.1", "--torch", "/usr/bin/python3"},
                  "--torch applies to extension builds only; for torch itself", "give the extension");
}

// --source means a tree or URL@REF for torch, git|sdist for an extension NAME==VERSION; --index is
// where that sdist is looked up (https:// or file://), which torch's own build has no use for.
TEST(RequestOptions, SourceAndIndexAreCheckedForTheRequestKind) {
  for (const char* cmd : {"plan", "build"}) {
    expect_rejected({cmd, kExt, "--source", "git"}, "--source git:", "the requirement itself");
    expect_rejected({cmd, "torch-scatter==2.1.2", "--source", "/tmp"}, "--source /tmp:",
                    "write git (the recipe's tag) or sdist");
    expect_rejected({cmd, "torch-scatter==2.1.2", "--index", "ftp://mirror/"}, "--index ftp://mirror/:",
                    "https:// or file://");
    expect_rejected({cmd, "torch==2.4.1", "--index", "https://pypi.org"},
                    "--index applies to extension builds only; for torch itself", "--source DIR|URL@REF");
  }
  cli::Request r;
  r.requirement = "torch-scatter==2.1.2";
  r.given = {{"--source", "sdist"}, {"--index", "file:///srv/index"}};
  EXPECT_EQ(cli::apply_request_options(r, cli::extension_request), "");
  EXPECT_EQ(r.raw.source.value, "sdist");
  EXPECT_EQ(r.index, "file:///srv/index");
}

TEST(RequestOptions, PlanOptionsAreRefusedWithALock) {
  // Checked before the lock is read: the refusal is about the request's shape, not the file.
  expect_rejected({"build", "--lock", "/no/such/lock.json", "--jobs", "4"}, "--jobs shapes the plan",
                  "torchsmith plan ... -o FILE");
  expect_rejected({"build", "--lock", "/no/such/lock.json", "--with", "cudnn"}, "--with shapes the plan", "--lock");
  auto r = run_torchsmith({"build", "--lock", "/no/such/lock.json", "--max-retries", "1"});
  EXPECT_EQ(r.exit_code, 2);  // the run's options apply to a lock: the error is now the missing file
  EXPECT_NE(r.err.find("--lock"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("shapes the plan"), std::string::npos) << r.err;
}

TEST(RequestOptions, AnOptionThatAppliesIsAccepted) {
  if (!std::filesystem::exists("/usr/lib/python3/dist-packages/torch/version.py"))
    GTEST_SKIP() << "Debian's python3-torch is not installed";
  auto r = run_torchsmith({"plan", kExt, "--torch", "/usr/bin/python3", "--jobs", "3", "--mem-budget", "4G",
                           "--split-compile", "off", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["plan"]["env"]["MAX_JOBS"], "3") << r.out;
}

// --help and parsing read the same table: each row is listed by the commands it belongs to, and only there.
TEST(RequestOptions, EveryOptionInTheTableIsInItsCommandsHelp) {
  auto plan = run_torchsmith({"plan", "--help"});
  auto build = run_torchsmith({"build", "--help"});
  auto matrix = run_torchsmith({"matrix", "--help"});
  // Help is wrapped to 80 columns: a note may break across lines, so spaces and line breaks compare as one.
  auto flat = [](std::string s) { return std::regex_replace(s, std::regex(R"(\s+)"), " "); };
  build.out = flat(build.out);
  ASSERT_EQ(plan.exit_code, 0);
  ASSERT_EQ(build.exit_code, 0);
  ASSERT_EQ(matrix.exit_code, 0);
  ASSERT_GE(cli::request_options().size(), 20u);
  for (const auto& o : cli::request_options()) {
    SCOPED_TRACE(o.name);
    std::string row = o.name + (o.type.empty() ? "" : " " + o.type);
    EXPECT_EQ(plan.out.find(row) != std::string::npos, (o.commands & cli::plan_command) != 0) << plan.out;
    EXPECT_EQ(build.out.find(row) != std::string::npos, (o.commands & cli::build_command) != 0) << build.out;
    if (o.commands & cli::matrix_command) EXPECT_NE(matrix.out.find(row), std::string::npos) << matrix.out;
    // Its help says which builds it is for when not both.
    if ((o.kinds & (cli::torch_request | cli::extension_request)) != (cli::torch_request | cli::extension_request))
      EXPECT_NE(build.out.find("[" + cli::applies_to(o) + "]"), std::string::npos) << build.out;
    // A row that refuses a kind says why, for that kind.
    if (!(o.kinds & cli::extension_request)) EXPECT_FALSE(o.not_for_extension.empty());
    if (!(o.kinds & cli::torch_request)) EXPECT_FALSE(o.not_for_torch.empty());
  }
}

TEST(RequestOptions, ApplyParsesIntoTheRequestInTableOrder) {
  cli::Request r;
  r.given = {{"--split-compile", "off"}, {"--jobs", "AUTO"}, {"--max-retries", "0"}, {"--mem-budget", "1.5G"}};
  EXPECT_EQ(cli::apply_request_options(r, cli::extension_request), "");
  EXPECT_EQ(r.split_compile, 1);
  EXPECT_EQ(r.raw.jobs.value, "AUTO");
  EXPECT_EQ(r.raw.jobs.where, "--jobs");
  EXPECT_EQ(r.max_retries, 0);
  EXPECT_EQ(r.raw.mem_budget.value, "1.5G");
  cli::Request t;
  t.given = {{"--split-compile", "4"}};
  EXPECT_NE(cli::apply_request_options(t, cli::torch_request).find("applies to extension builds only"),
            std::string::npos);
}

}  // namespace
}  // namespace ts

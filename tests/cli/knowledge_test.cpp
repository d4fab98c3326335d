// The command's Knowledge (src/cli/knowledge.h): one overlay list for every command, each table read
// once, and kb check running the validator of every file a table reads.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/knowledge.h"
#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

using testing::run_torchsmith;

util::RunResult run_with_config(const std::string& config_home, const std::vector<std::string>& args) {
  std::vector<std::string> argv{TS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  o.env = std::map<std::string, std::string>{{"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                             {"HOME", TS_BINARY_DIR},
                                             {"XDG_CONFIG_HOME", config_home},
                                             {"NO_COLOR", "1"},
                                             {"LC_ALL", "C"}};
  return util::run(argv, o);
}

TEST(Knowledge, EachTableIsReadOnceAndKept) {
  testkit::TempDir t;
  ASSERT_EQ(util::write_file_atomic(t / "build.toml", "[limits]\nmax_arches = 3\nmax_arches_source = \"https://example.org/limits\"\n"),
            "");
  cli::Knowledge k({t.path()});
  const auto* first = &k.build();
  EXPECT_EQ(first, &k.build());
  EXPECT_EQ(&k.core(), &k.core());
  EXPECT_EQ(k.dirs(), std::vector<std::string>{t.path()});
  EXPECT_FALSE(k.signatures().value.signatures.empty());  // the embedded layer under the overlay
  EXPECT_TRUE(k.core().errors.empty());
  EXPECT_TRUE(k.build().errors.empty()) << k.build().errors.front();
  EXPECT_EQ(k.build().value.max_arches, 3);  // the overlay's layer over the embedded one
  EXPECT_EQ(k.planner().build.max_arches, 3);
}

// The user's overlay (~/.config/torchsmith/kb) reaches every command, also repair, which once read --kb only.
TEST(Knowledge, TheUserOverlayReachesEveryCommand) {
  testkit::TempDir t;
  std::filesystem::create_directories(t / "torchsmith/kb");
  ASSERT_EQ(util::write_file_atomic(t / "torchsmith/kb/build.toml", "[[env]\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "demo-1.0-py3-none-any.whl", "not a wheel"), "");
  for (std::vector<std::string> args : {std::vector<std::string>{"repair", t / "demo-1.0-py3-none-any.whl"},
                                        std::vector<std::string>{"plan", "torch==2.4.1"}}) {
    auto r = run_with_config(t.path(), args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(t / "torchsmith/kb/build.toml:1"), std::string::npos) << args[0] << "\n" << r.err;
  }
}

TEST(Knowledge, KbCheckRunsTheSourcesReader) {
  testkit::TempDir t;
  ASSERT_EQ(util::write_file_atomic(t / "sources.toml",
                                    "[[source]]\npackage = \"x\"\nrepo = \"https://example.org/x\"\n"
                                    "tag = \"main\"\nsource = \"https://example.org\"\n"),
            "");
  auto r = run_torchsmith({"kb", "check", "--only", t.path()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("sources.toml:1: source 'x': tag must contain {version}"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ts

// The command's Knowledge (src/cli/knowledge.h): one overlay list for every command, each table read
// once, and kb check running the validator of every file a table reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "cli/knowledge.h"
#include "probe/sections.h"
#include "kb/embedded.h"
#include "kb/files.h"
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

// build.undeclared-module: the planner's build-time modules come from modules.toml, and each is one the
// Python probe reports, so a missing key in a PythonFacts' packages means the distribution is absent.
TEST(Knowledge, ThePlannersBuildModulesAreModulesTomlsAndProbed) {
  cli::Knowledge k({});
  plan::Knowledge p = k.planner();
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  const plan::BuildModule* m = p.build.build_module("pybind11");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->distribution, "pybind11");
  EXPECT_NE(m->source.find("modules.toml:"), std::string::npos) << m->source;
  ASSERT_NE(p.build.build_module("yaml"), nullptr);
  EXPECT_EQ(p.build.build_module("yaml")->distribution, "pyyaml");
  EXPECT_EQ(p.build.build_module("torch"), nullptr);  // build isolation's cause, never installed
  for (const auto& b : p.build.build_modules) {
    std::string n;
    for (char ch : b.distribution) n += ch == '-' || ch == '.' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT_TRUE(probe::python_probe_lists(n)) << b.distribution << " is not in the probe script's WANT list";
  }
  EXPECT_FALSE(probe::python_probe_lists("tqdm"));
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

// Every file shipped in data/kb is read by a listed table (the core's loader or a stage's), so kb check
// validates each one by its table's rules, never by a TOML syntax check alone.
TEST(Knowledge, EveryShippedKbFileBelongsToAListedTable) {
  for (const auto& f : kb::embedded_files()) {
    std::string_view name(f.path);
    bool held = kb::detail::load_order(name) >= 0;
    for (const auto& t : cli::stage_tables()) held |= kb::table_holds(t.where, name);
    EXPECT_TRUE(held) << name << ": no table in cli::stage_tables() reads it";
  }
  for (const auto& t : cli::stage_tables())
    if (!t.where.empty()) EXPECT_NE(t.validate, nullptr) << t.name << ": kb check has no validator for it";
}

std::vector<std::string> read_nothing(const std::vector<std::string>&, std::vector<std::string>&) { return {}; }

// A table that is not listed would escape kb check; reading it is refused instead of silently working.
TEST(Knowledge, AnUnlistedTableIsRefused) {
  cli::Knowledge k({});
  const kb::TableDef<std::vector<std::string>> unlisted{{"unlisted", "unlisted.toml", nullptr}, &read_nothing};
  EXPECT_THROW(k.get(unlisted), std::logic_error);
  EXPECT_EQ(&k.get(triage::kSignatureTable), &k.signatures());  // a listed one: the same kept table
}

}  // namespace
}  // namespace ts

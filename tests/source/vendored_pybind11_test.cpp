// build.pybind11-torch's CMake half (source/vendored_pybind11.h): an old vendored pybind11 that a CMake
// file adds gets the stand-in as its CMakeLists.txt, journaled so the fix revert restores it byte for
// byte; a copy new enough, one no CMake file adds, and a dry run are left as they are. No compiler runs
// (tests/run/pyshim_cmake_test.cpp builds the fixture with CMake).
#include "source/vendored_pybind11.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "source/apply.h"
#include "source/journal.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::source {
namespace {

namespace fs = std::filesystem;

const std::string kStandIn = "# stand-in\nfind_package(pybind11 CONFIG)\n";

// A vendored pybind11 at tree/dir saying MAJOR.MINOR, with its own CMakeLists.txt.
void vendor(const fs::path& tree, const std::string& dir, int major, int minor) {
  fs::create_directories(tree / dir / "include/pybind11/detail");
  ASSERT_EQ(util::write_file_atomic((tree / dir / "include/pybind11/detail/common.h").string(),
                                    "#define PYBIND11_VERSION_MAJOR " + std::to_string(major) +
                                        "\n#define PYBIND11_VERSION_MINOR " + std::to_string(minor) + "\n"),
            "");
  ASSERT_EQ(util::write_file_atomic((tree / dir / "CMakeLists.txt").string(), "project(pybind11)\n# the original\n"), "");
}

void top(const fs::path& tree, const std::string& text) {
  ASSERT_EQ(util::write_file_atomic((tree / "CMakeLists.txt").string(), text), "");
}

std::string slurp(const fs::path& p) { return util::read_file(p.string()).value_or("<missing>"); }

TEST(Pybind11Needed, ReadsTheTableForThePython) {
  const std::string table = "3.11:2.10 3.12:2.11 3.13:2.13";
  EXPECT_EQ(pybind11_needed(table, "3.12.3"), (std::pair{2, 11}));
  EXPECT_EQ(pybind11_needed(table, "3.11"), (std::pair{2, 10}));
  EXPECT_EQ(pybind11_needed(table, "3.14.0"), (std::pair{2, 13}));
  EXPECT_EQ(pybind11_needed(table, "3.10.12"), (std::pair{0, 0}));  // no entry: nothing is old
  EXPECT_EQ(pybind11_needed("3.12:x nonsense", "3.12"), (std::pair{0, 0}));
}

TEST(VendoredPybind11, ThePlansPythonIsWrittenForTheStandInQuotedAsCmakeReadsIt) {
  testkit::TempDir t("ts-vpb");
  const fs::path tree = t.path();
  vendor(tree, "third_party/pybind11", 2, 3);
  top(tree, "project(p)\nadd_subdirectory(third_party/pybind11)\n");
  auto r = stand_in_vendored_pybind11(tree.string(), {2, 11}, kStandIn, false, "/opt/my env/$x\"/bin/python3");
  ASSERT_TRUE(r.ok) << r.errors.front();
  const std::string now = slurp(tree / "third_party/pybind11/CMakeLists.txt");
  EXPECT_NE(now.find("set(_torchsmith_python \"/opt/my env/\\$x\\\"/bin/python3\")\n"), std::string::npos) << now;
  // Without a plan's Python (a test, a bare call) the stand-in reads the project's variables only.
  testkit::TempDir u("ts-vpb");
  vendor(u.path(), "third_party/pybind11", 2, 3);
  top(u.path(), "project(p)\nadd_subdirectory(third_party/pybind11)\n");
  ASSERT_TRUE(stand_in_vendored_pybind11(u.path(), {2, 11}, kStandIn).ok);
  EXPECT_EQ(slurp(fs::path(u.path()) / "third_party/pybind11/CMakeLists.txt").find("_torchsmith_python "), std::string::npos);
}

TEST(VendoredPybind11, AnOldCopyAddedByCmakeGetsTheStandInAndRevertsByteForByte) {
  testkit::TempDir t("ts-vpb");
  const fs::path tree = t.path();
  vendor(tree, "third_party/pybind11", 2, 3);
  top(tree, "project(p)\nadd_subdirectory( third_party/pybind11 )\nadd_subdirectory(src)\n");
  const std::string original = slurp(tree / "third_party/pybind11/CMakeLists.txt");
  auto r = stand_in_vendored_pybind11(tree.string(), {2, 11}, kStandIn);
  ASSERT_TRUE(r.ok) << r.errors.front();
  ASSERT_EQ(r.found.size(), 1u);
  EXPECT_EQ(r.found[0].dir, "third_party/pybind11");
  EXPECT_EQ(r.found[0].cmake_file, "CMakeLists.txt");
  EXPECT_TRUE(r.found[0].old);
  const std::string now = slurp(tree / "third_party/pybind11/CMakeLists.txt");
  EXPECT_NE(now.find("set(_torchsmith_pybind11_need 2.11)\n"), std::string::npos) << now;
  EXPECT_NE(now.find("set(_torchsmith_pybind11_vendored \"${CMAKE_CURRENT_LIST_DIR}/include\")\n"), std::string::npos);
  EXPECT_NE(now.find("pybind11 (2.3) is older than the target Python needs (2.11)"), std::string::npos) << now;
  EXPECT_EQ(now.substr(now.size() - kStandIn.size()), kStandIn);
  EXPECT_NE(r.diff.find("-# the original"), std::string::npos) << r.diff;
  EXPECT_NE(r.diff.find("+find_package(pybind11 CONFIG)"), std::string::npos) << r.diff;
  // Journaled with the fixes: the fix revert puts the original back, byte for byte.
  Journal j;
  ASSERT_TRUE(read_journal(tree.string(), j, nullptr));
  ASSERT_NE(j.find("third_party/pybind11/CMakeLists.txt"), nullptr);
  EXPECT_EQ(j.find("third_party/pybind11/CMakeLists.txt")->fixes, (std::vector<std::string>{"build.pybind11-torch"}));
  // A resumed build finds it replaced already: nothing changes.
  EXPECT_FALSE(stand_in_vendored_pybind11(tree.string(), {2, 11}, kStandIn).changed());
  RevertOptions o;
  o.force = true;
  auto back = revert_fixes(tree.string(), o);
  ASSERT_TRUE(back.ok);
  EXPECT_EQ(slurp(tree / "third_party/pybind11/CMakeLists.txt"), original);
}

TEST(VendoredPybind11, SourceDirVariablesAndNestedCmakeFilesAreFollowed) {
  testkit::TempDir t("ts-vpb");
  const fs::path tree = t.path();
  vendor(tree, "third_party/pybind11", 2, 4);
  vendor(tree, "ext/deps/pybind11", 2, 2);
  top(tree, "project(p)\nadd_subdirectory(\"${PROJECT_SOURCE_DIR}/third_party/pybind11\")\nadd_subdirectory(ext)\n");
  fs::create_directories(tree / "ext");
  ASSERT_EQ(util::write_file_atomic((tree / "ext/CMakeLists.txt").string(),
                                    "ADD_SUBDIRECTORY(${CMAKE_CURRENT_SOURCE_DIR}/deps/pybind11 pb)\n"), "");
  auto r = stand_in_vendored_pybind11(tree.string(), {2, 10}, kStandIn);
  ASSERT_EQ(r.found.size(), 2u);
  EXPECT_EQ(r.found[0].dir, "third_party/pybind11");
  EXPECT_EQ(r.found[1].dir, "ext/deps/pybind11");
  EXPECT_EQ(r.found[1].cmake_file, "ext/CMakeLists.txt");
  EXPECT_NE(slurp(tree / "ext/deps/pybind11/CMakeLists.txt").find(kStandIn), std::string::npos);
  EXPECT_NE(slurp(tree / "third_party/pybind11/CMakeLists.txt").find(kStandIn), std::string::npos);
}

// Near misses: a vendored copy new enough for the Python, a copy no CMake file adds (a setup.py's
// include dir: the setuptools half's), a path through another variable, and a dry run.
TEST(VendoredPybind11, NewEnoughUnaddedOrDryRunIsLeftAlone) {
  testkit::TempDir t("ts-vpb");
  const fs::path tree = t.path();
  vendor(tree, "third_party/pybind11", 2, 11);
  vendor(tree, "csrc/pybind11", 2, 4);
  vendor(tree, "deps/pybind11", 2, 4);
  top(tree, "project(p)\nadd_subdirectory(third_party/pybind11)\nadd_subdirectory(${DEPS}/pybind11)\n");
  auto r = stand_in_vendored_pybind11(tree.string(), {2, 11}, kStandIn);
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.found.size(), 1u);
  EXPECT_FALSE(r.found[0].old);
  EXPECT_FALSE(r.changed());
  for (const char* d : {"third_party/pybind11", "csrc/pybind11", "deps/pybind11"})
    EXPECT_EQ(slurp(tree / d / "CMakeLists.txt"), "project(pybind11)\n# the original\n") << d;
  EXPECT_FALSE(fs::exists(tree / kJournalRel));

  top(tree, "add_subdirectory(csrc/pybind11)\n");
  auto dry = stand_in_vendored_pybind11(tree.string(), {2, 11}, kStandIn, true);
  EXPECT_TRUE(dry.changed());
  EXPECT_EQ(slurp(tree / "csrc/pybind11/CMakeLists.txt"), "project(pybind11)\n# the original\n");
  EXPECT_FALSE(fs::exists(tree / kJournalRel));
}

}  // namespace
}  // namespace ts::source

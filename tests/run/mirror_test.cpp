#include "run/mirror.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <vector>

#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/printable.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

void put(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(Mirror, CopiesThenPropagatesDeletionsAndKeepsUnchangedFiles) {
  testkit::TempDir d;
  const std::string src = d / "ext", out = d / "out/src";
  put(src + "/setup.py", "setup()\n");
  put(src + "/csrc/a.cpp", "int a;\n");
  put(src + "/csrc/gone.cpp", "int gone;\n");
  put(src + "/old/x.h", "x\n");
  auto m = mirror_tree(src, out, {});
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(m.copied, 4u);
  EXPECT_TRUE(fs::exists(out + "/csrc/gone.cpp"));
  // What the build wrote into its copy stays.
  put(out + "/build/temp/a.o", "obj");
  put(out + "/hello.egg-info/PKG-INFO", "x");
  put(out + "/csrc/__pycache__/x.pyc", "made by the build, not copied");
  auto a_time = fs::last_write_time(out + "/csrc/a.cpp");

  fs::remove(src + "/csrc/gone.cpp");
  fs::remove_all(src + "/old");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  m = mirror_tree(src, out, {});
  ASSERT_EQ(m.error, "");
  EXPECT_FALSE(fs::exists(out + "/csrc/gone.cpp"));  // no longer compiled
  EXPECT_FALSE(fs::exists(out + "/old"));
  EXPECT_EQ(m.copied, 0u);
  EXPECT_EQ(fs::last_write_time(out + "/csrc/a.cpp"), a_time);  // incremental: untouched
  EXPECT_TRUE(fs::exists(out + "/build/temp/a.o"));
  EXPECT_TRUE(fs::exists(out + "/hello.egg-info/PKG-INFO"));
  EXPECT_TRUE(fs::exists(out + "/csrc/__pycache__/x.pyc"));
}

// A copy made before the mirror kept its record (an older torchsmith): compared whole once.
TEST(Mirror, ACopyWithoutARecordIsComparedWhole) {
  testkit::TempDir d;
  put(d / "ext/a.cpp", "int a;\n");
  put(d / "out/a.cpp", "int a;\n");
  put(d / "out/stale.cpp", "int stale;\n");
  put(d / "out/ext-copy/torchsmith-build/src/a.cpp", "nested\n");
  put(d / "out/build/keep.o", "o");
  auto m = mirror_tree(d / "ext", d / "out", {});
  ASSERT_EQ(m.error, "");
  EXPECT_FALSE(fs::exists(d / "out/stale.cpp"));
  EXPECT_FALSE(fs::exists(d / "out/ext-copy"));
  EXPECT_TRUE(fs::exists(d / "out/build/keep.o"));
  EXPECT_TRUE(fs::exists(d / "out/a.cpp"));
}

// A file replaced by an older one of the same size (a checkout of an old commit) is a change.
TEST(Mirror, AnOlderFileOfTheSameSizeIsCopiedAgain) {
  testkit::TempDir d;
  const std::string src = d / "ext", out = d / "out";
  put(src + "/a.cpp", "int a = 1;\n");
  ASSERT_EQ(mirror_tree(src, out, {}).error, "");
  put(src + "/a.cpp", "int a = 2;\n");
  fs::last_write_time(src + "/a.cpp", fs::last_write_time(src + "/a.cpp") - std::chrono::hours(24));
  auto m = mirror_tree(src, out, {});
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(m.copied, 1u);
  EXPECT_EQ(util::read_file(out + "/a.cpp").value_or(""), "int a = 2;\n");
}

// `cd ext && torchsmith build .`: the default --out is inside the tree; it is left out of the
// copy instead of being copied into itself, and so is any other torchsmith output or cache.
TEST(Mirror, AnOutputInsideTheSourceIsLeftOut) {
  testkit::TempDir d;
  const std::string src = d / "ext";
  put(src + "/a.cpp", "int a;\n");
  put(src + "/old-out/" + kOutMarker, "x");
  put(src + "/old-out/src/a.cpp", "int a;\n");
  put(src + "/.cache/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n");
  const std::string out = src + "/torchsmith-build";
  auto m = mirror_tree(src, out + "/src", {out});
  ASSERT_EQ(m.error, "");
  EXPECT_TRUE(fs::exists(out + "/src/a.cpp"));
  EXPECT_FALSE(fs::exists(out + "/src/torchsmith-build"));
  EXPECT_FALSE(fs::exists(out + "/src/old-out"));
  EXPECT_FALSE(fs::exists(out + "/src/.cache"));
  EXPECT_EQ(m.skipped.size(), 3u);
  // Twice: the copy's own directory is still left out.
  m = mirror_tree(src, out + "/src", {out});
  ASSERT_EQ(m.error, "");
  EXPECT_FALSE(fs::exists(out + "/src/torchsmith-build"));
}

TEST(Mirror, RefusesACopyIntoTheTreeItself) {
  testkit::TempDir d;
  put(d / "ext/a.cpp", "int a;\n");
  auto m = mirror_tree(d / "ext", d / "ext/copy", {});
  EXPECT_NE(m.error.find("inside the tree itself"), std::string::npos) << m.error;
  EXPECT_FALSE(fs::exists(d / "ext/copy"));
  m = mirror_tree(d / "ext", d / "ext", {});
  EXPECT_NE(m.error, "");
  m = mirror_tree(d / "ext", d.path(), {});
  EXPECT_NE(m.error.find("inside its copy's directory"), std::string::npos) << m.error;
}

// Links are copied as links and removed as links: a link to outside never leads a deletion there.
TEST(Mirror, LinksAreMirroredAsLinks) {
  testkit::TempDir d;
  put(d / "canary/keep", "keep");
  put(d / "ext/a.cpp", "int a;\n");
  fs::create_directory_symlink(d / "canary", d / "ext/link");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_TRUE(fs::is_symlink(d / "out/link"));
  fs::remove(d / "ext/link");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_FALSE(fs::exists(d / "out/link"));
  EXPECT_EQ(util::read_file(d / "canary/keep").value_or(""), "keep");
}

// warp-rnnt's pytorch_binding (built alone) links its sources from the repository above it
// (core.cu -> ../core.cu): mirrored as links they dangled in the copy ("ninja: error: .../core.cu
// missing and no known rule"). A file out of the tree is copied; a link inside the tree stays a link.
TEST(Mirror, AFileLinkedFromOutsideTheTreeIsCopiedInItsPlace) {
  testkit::TempDir d;
  put(d / "repo/core.cu", "__global__ void k() {}\n");
  put(d / "repo/binding/setup.py", "setup()\n");
  put(d / "repo/binding/src/real.h", "int r;\n");
  fs::create_symlink("../core.cu", d / "repo/binding/core.cu");
  fs::create_symlink("src/real.h", d / "repo/binding/inner.h");
  fs::create_symlink("../missing.cu", d / "repo/binding/gone.cu");  // dangling in the source too
  ASSERT_EQ(mirror_tree(d / "repo/binding", d / "out/src", {}).error, "");
  EXPECT_FALSE(fs::is_symlink(d / "out/src/core.cu"));
  EXPECT_EQ(util::read_file(d / "out/src/core.cu").value_or(""), "__global__ void k() {}\n");
  EXPECT_TRUE(fs::is_symlink(d / "out/src/inner.h"));
  EXPECT_EQ(util::read_file(d / "out/src/inner.h").value_or(""), "int r;\n");
  EXPECT_TRUE(fs::is_symlink(d / "out/src/gone.cu"));
  // The file outside changes: the next mirror copies it again; the original is never written.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  put(d / "repo/core.cu", "__global__ void k2() {}\n");
  ASSERT_EQ(mirror_tree(d / "repo/binding", d / "out/src", {}).error, "");
  EXPECT_EQ(util::read_file(d / "out/src/core.cu").value_or(""), "__global__ void k2() {}\n");
  EXPECT_TRUE(fs::is_symlink(d / "repo/binding/core.cu"));
}

// Issue 32, finding 1: a source file named "x\n0\t0\t.." was written into the record as a second
// entry ".."; the next build with --out PARENT deleted PARENT, the source with it.
TEST(Mirror, ANameWithNewlineAndTabsNeverDeletesTheParent) {
  testkit::TempDir d;
  const std::string parent = d / "parent", src = parent + "/ext";
  put(src + "/setup.py", "setup()\n");
  put(src + std::string("/x\n0\t0\t.."), "payload\n");
  for (int run = 0; run < 2; ++run) {
    auto m = mirror_tree(src, parent + "/src", {parent});
    EXPECT_NE(m.error.find("will not copy"), std::string::npos) << m.error;
    EXPECT_EQ(m.error.find('\n'), std::string::npos) << "the name is printed escaped";
  }
  EXPECT_EQ(util::read_file(src + "/setup.py").value_or(""), "setup()\n");
}

// The same class with other bytes and placements: every control character a name may hold is
// refused with the name shown escaped, and nothing outside the copy is touched.
TEST(Mirror, HostileNamesAreRefusedAndNothingOutsideTheCopyMoves) {
  const std::vector<std::string> names = {"a\rb", "\x1b[31mred", "del\x7f", "tab\tin", "\n..", "x\n0 0 2:..",
                                          "..\n", "\t..\t", std::string("v\x01") + "..", "y\x0b"};
  for (const auto& n : names) {
    testkit::TempDir d;
    put(d / "canary", "keep");
    put(d / "ext/a.cpp", "int a;\n");
    put(d / ("ext/" + n), "x");
    auto m = mirror_tree(d / "ext", d / "out", {});
    EXPECT_NE(m.error, "") << util::printable(n);
    for (char ch : m.error) EXPECT_FALSE(static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) << util::printable(m.error);
    fs::remove(d / ("ext/" + n));
    ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
    EXPECT_EQ(util::read_file(d / "canary").value_or(""), "keep");
    EXPECT_TRUE(fs::exists(d / "ext/a.cpp"));
  }
}

// Names a file system allows that a line-based record would split: counted, they come back whole.
TEST(Mirror, TheRecordRoundTripsEveryNameItAccepts) {
  std::map<std::string, MirrorStamp> m{{"plain.cpp", {1, 2}},
                                       {"with space/and:colon 3 4 5:x", {10, -20}},
                                       {"é/ü.h", {0, 0}},
                                       {"a,b\"c'd$e|f`g;h", {7, 8}}};
  std::string err;
  auto back = parse_mirror_record(render_mirror_record(m), &err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(*back, m);
}

// Whatever a record says, a name read back goes through the path check: a record written by hand
// (or by an older torchsmith, or damaged) naming "..", "/etc" or "a/../b" is refused whole.
TEST(Mirror, ARecordNamingAPathOutsideTheCopyIsRefused) {
  for (const std::string bad : {"..", "/etc", "a/../..", "a//b", ".", "x\x1b", ""}) {
    std::string text = std::string(kMirrorRecordHeader) + "\n1 2 " + std::to_string(bad.size()) + ":" + bad + "\n";
    std::string err;
    EXPECT_FALSE(parse_mirror_record(text, &err)) << util::printable(bad);
    EXPECT_NE(err, "");
  }
  for (const std::string broken : {"1\t2\t..\n", "torchsmith-mirror/2\n1 2 9:..\n", "torchsmith-mirror/2\n1 2 -1:..\n",
                                   "torchsmith-mirror/2\n1 2 2:..", "torchsmith-mirror/2\n99999999999999999999 2 1:a\n"})
    EXPECT_FALSE(parse_mirror_record(broken, nullptr)) << util::printable(broken);

  // In a copy: the hand-made record is not followed; the parent and the source stay.
  testkit::TempDir d;
  const std::string parent = d / "parent";
  put(parent + "/ext/a.cpp", "int a;\n");
  put(parent + "/keep", "keep");
  ASSERT_EQ(mirror_tree(parent + "/ext", parent + "/src", {parent}).error, "");
  put(parent + "/src/.torchsmith/mirror.tsv", std::string(kMirrorRecordHeader) + "\n1 2 2:..\n");
  ASSERT_EQ(mirror_tree(parent + "/ext", parent + "/src", {parent}).error, "");
  put(parent + "/src/.torchsmith/mirror.tsv", "1\t2\t..\n1\t2\t../keep\n");  // the old line format
  ASSERT_EQ(mirror_tree(parent + "/ext", parent + "/src", {parent}).error, "");
  EXPECT_EQ(util::read_file(parent + "/keep").value_or(""), "keep");
  EXPECT_TRUE(fs::exists(parent + "/ext/a.cpp"));
  EXPECT_TRUE(fs::exists(parent + "/src/a.cpp"));
}

// Issue 32: a file replaced by a directory of the same name vanished from the copy for one run
// (the record's old file entry deleted the directory just made).
TEST(Mirror, AFileReplacedByADirectoryIsCopiedAtOnce) {
  testkit::TempDir d;
  put(d / "ext/a", "was a file\n");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  fs::remove(d / "ext/a");
  put(d / "ext/a/b.cpp", "int b;\n");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_EQ(util::read_file(d / "out/a/b.cpp").value_or(""), "int b;\n");
  // And back: the directory replaced by a file.
  fs::remove_all(d / "ext/a");
  put(d / "ext/a", "a file again\n");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_EQ(util::read_file(d / "out/a").value_or(""), "a file again\n");
}

// A directory replaced by a link to elsewhere: the record's entries under it are deleted in the
// copy, never through the link (that once removed the files the link points at).
TEST(Mirror, DeletionsNeverGoThroughALinkInTheCopy) {
  testkit::TempDir d;
  put(d / "victim/x.cpp", "keep");
  put(d / "ext/lib/x.cpp", "int x;\n");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  fs::remove_all(d / "ext/lib");
  fs::create_directory_symlink(d / "victim", d / "ext/lib");
  ASSERT_EQ(mirror_tree(d / "ext", d / "out", {}).error, "");
  EXPECT_TRUE(fs::is_symlink(d / "out/lib"));
  EXPECT_EQ(util::read_file(d / "victim/x.cpp").value_or(""), "keep");
}

}  // namespace
}  // namespace ts::run

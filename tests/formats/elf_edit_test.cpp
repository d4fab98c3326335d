// The in-place search-path editor: hand-built shared objects laid out as a linker lays them
// (segments, .dynsym), every outcome read back through the ELF reader. No compiler runs.
#include "formats/elf_edit.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "testkit/temp_dir.h"
#include "verify/elf_builder.h"
#include "verify/verify_test_util.h"

namespace ts::formats {
namespace {

namespace fs = std::filesystem;
using verify::test::bytes_of;
using verify::test::ElfBuilder;
using verify::test::ElfSpec;

const std::string kBuildDir = "/tmp/w/pkg/build/temp.linux-x86_64-cpython-312/lib:/opt/torch/lib";

ElfSpec extension(const std::string& runpath, const std::string& rpath = "") {
  ElfSpec s;
  s.segments = true;
  s.needed = {"libtorch.so", "libc10.so", "libc.so.6"};
  s.soname = "libcore.so";
  s.runpath = runpath;
  s.rpath = rpath;
  s.verneed_file = "libc.so.6";
  s.verneed_names = {"GLIBC_2.2.5", "GLIBC_2.34"};
  s.symbols = {"PyInit__ext", "core_forward"};
  return s;
}

ElfFile parsed(const std::string& bytes) {
  std::string err;
  auto e = ElfFile::parse(bytes_of(bytes), &err);
  EXPECT_TRUE(e) << err;
  return e ? *e : *ElfFile::parse(bytes_of(ElfBuilder(ElfSpec{}).build()), &err);
}

std::string edited(const std::string& in, const std::string& path, PathTag tag, std::string* err) {
  return edit_search_path(in, path, tag, err).value_or("");
}

TEST(ElfEdit, ShorterRunpathIsWrittenInPlaceAsRpathAndNothingMoves) {
  const std::string in = ElfBuilder(extension(kBuildDir)).build();
  std::string err;
  const std::string out = edited(in, "$ORIGIN", PathTag::rpath, &err);
  ASSERT_FALSE(out.empty()) << err;
  EXPECT_EQ(out.size(), in.size());
  // Dynamic entries and versions survive, the path reads back under DT_RPATH only.
  const ElfFile a = parsed(in), b = parsed(out);
  EXPECT_EQ(b.dynamic().rpath, "$ORIGIN");
  EXPECT_EQ(b.dynamic().runpath, "");
  EXPECT_EQ(b.dynamic().needed, a.dynamic().needed);
  EXPECT_EQ(b.dynamic().soname, "libcore.so");
  EXPECT_EQ(b.dynamic().version_needs, a.dynamic().version_needs);
  EXPECT_EQ(b.dynamic_layout().entries.size(), a.dynamic_layout().entries.size());
  // The build directory is gone from the file (NUL-padded), not merely hidden behind a shorter string.
  EXPECT_EQ(out.find("/tmp/w/pkg"), std::string::npos);
  EXPECT_EQ(out.find("/opt/torch"), std::string::npos);
  // Only the string table's old path and the one tag changed: everything else is byte for byte.
  const auto& L = a.dynamic_layout();
  std::size_t diff = 0;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != out[i]) {
      ++diff;
      const bool in_table = i >= L.strtab_offset && i < L.strtab_offset + L.strtab_size;
      const bool in_dynamic = i >= L.offset && i < L.offset + L.size;
      EXPECT_TRUE(in_table || in_dynamic) << "byte " << i << " changed outside .dynstr and .dynamic";
    }
  EXPECT_GT(diff, 0u);
  // And the same path again is the same bytes (nothing left to change).
  std::string again = edited(out, "$ORIGIN", PathTag::rpath, &err);
  EXPECT_EQ(again, out) << err;
}

TEST(ElfEdit, EqualLengthFitsExactly) {
  const std::string old = "$ORIGIN/../../torch/lib";
  const std::string now = "$ORIGIN/../xx/lib:$ORIG";  // same 23 bytes
  ASSERT_EQ(old.size(), now.size());
  std::string err;
  const std::string out = edited(ElfBuilder(extension(old)).build(), now, PathTag::rpath, &err);
  ASSERT_FALSE(out.empty()) << err;
  EXPECT_EQ(parsed(out).dynamic().rpath, now);
}

TEST(ElfEdit, LongerPathIsRefusedNamingPatchelfAndTheSizes) {
  const std::string in = ElfBuilder(extension("$ORIGIN")).build();
  const std::string want = "$ORIGIN:$ORIGIN/../lib";
  EXPECT_EQ(search_path_refusal(parsed(in), want, PathTag::rpath),
            "the new path '$ORIGIN:$ORIGIN/../lib' (22 bytes) is longer than the old RUNPATH (7 bytes); "
            "growing the string table needs patchelf");
  std::string err;
  EXPECT_FALSE(edit_search_path(in, want, PathTag::rpath, &err));
  EXPECT_NE(err.find("cannot edit in place: the new path"), std::string::npos) << err;
  // One byte shorter than the old fits (the near miss on the other side).
  EXPECT_EQ(search_path_refusal(parsed(in), "$ORIGI/", PathTag::rpath), "");
}

TEST(ElfEdit, RpathTagIsKeptOrConvertedAsAsked) {
  const std::string in = ElfBuilder(extension("", kBuildDir)).build();
  std::string err;
  ElfFile kept = parsed(edited(in, "$ORIGIN/lib", PathTag::keep, &err));
  EXPECT_EQ(kept.dynamic().rpath, "$ORIGIN/lib") << err;
  EXPECT_EQ(kept.dynamic().runpath, "");
  ElfFile conv = parsed(edited(in, "$ORIGIN/lib", PathTag::runpath, &err));
  EXPECT_EQ(conv.dynamic().runpath, "$ORIGIN/lib") << err;
  EXPECT_EQ(conv.dynamic().rpath, "");
  // RUNPATH kept as RUNPATH.
  ElfFile run = parsed(edited(ElfBuilder(extension(kBuildDir)).build(), "$ORIGIN", PathTag::keep, &err));
  EXPECT_EQ(run.dynamic().runpath, "$ORIGIN") << err;
  EXPECT_EQ(run.dynamic().rpath, "");
}

TEST(ElfEdit, BothTagsBecomeOneAndRemovalClosesTheArray) {
  const std::string in = ElfBuilder(extension("/build/a:/build/b", "/build/c")).build();
  std::string err;
  // The RPATH string is too short for the path, the RUNPATH one takes it and becomes DT_RPATH.
  ElfFile one = parsed(edited(in, "$ORIGIN/../lib", PathTag::rpath, &err));
  EXPECT_EQ(one.dynamic().rpath, "$ORIGIN/../lib") << err;
  EXPECT_EQ(one.dynamic().runpath, "");
  const std::size_t before = parsed(in).dynamic_layout().entries.size();
  EXPECT_EQ(one.dynamic_layout().entries.size(), before - 1);
  // "" drops both entries; the array ends in DT_NULL where they were, NEEDED and the rest intact.
  const std::string gone = edited(in, "", PathTag::rpath, &err);
  ASSERT_FALSE(gone.empty()) << err;
  ElfFile none = parsed(gone);
  EXPECT_EQ(none.dynamic().rpath, "");
  EXPECT_EQ(none.dynamic().runpath, "");
  EXPECT_EQ(none.dynamic_layout().entries.size(), before - 2);
  EXPECT_EQ(none.dynamic().needed, parsed(in).dynamic().needed);
  EXPECT_EQ(none.dynamic().soname, "libcore.so");
  EXPECT_EQ(gone.find("/build/"), std::string::npos);
}

TEST(ElfEdit, AStringSharedWithASymbolNameIsNeverOverwritten) {
  ElfSpec s = extension("/build/dir/libfoo");
  s.symbol_into_path = 11;  // a symbol named "libfoo": the linker merged it into the path's tail
  const std::string in = ElfBuilder(s).build();
  EXPECT_EQ(search_path_refusal(parsed(in), "$ORIGIN", PathTag::rpath),
            "its RUNPATH string shares bytes with other names in the string table");
  // Dropping it is still possible; the shared bytes stay.
  std::string err;
  const std::string out = edited(in, "", PathTag::rpath, &err);
  ASSERT_FALSE(out.empty()) << err;
  EXPECT_EQ(parsed(out).dynamic().runpath, "");
  EXPECT_NE(out.find("/build/dir/libfoo"), std::string::npos);
  // A symbol in another run of the table is no reason to refuse (the near miss).
  s.symbol_into_path = -1;
  s.symbols.push_back("libfoo");
  EXPECT_EQ(search_path_refusal(parsed(ElfBuilder(s).build()), "$ORIGIN", PathTag::rpath), "");
}

TEST(ElfEdit, OtherLayoutsAreLeftToPatchelfSayingWhy) {
  ElfSpec s = extension(kBuildDir);
  for (auto [wide, big] : {std::pair{false, false}, std::pair{true, true}, std::pair{false, true}}) {
    s.wide = wide;
    s.big = big;
    EXPECT_NE(search_path_refusal(parsed(ElfBuilder(s).build()), "$ORIGIN", PathTag::rpath)
                  .find("the in-place editor handles ELF64 little-endian files only (this is ELF"),
              std::string::npos);
  }
  // No DT_RPATH / DT_RUNPATH: adding one is patchelf's.
  EXPECT_EQ(search_path_refusal(parsed(ElfBuilder(extension("")).build()), "$ORIGIN", PathTag::rpath),
            "it has no RPATH or RUNPATH whose bytes a new one could take (adding one needs patchelf)");
  // No dynamic section at all (an ELF header alone, as a relocatable object may be).
  std::string header = ElfBuilder(extension(kBuildDir)).build().substr(0, 64);
  for (int i = 24; i < 64; ++i) header[i] = 0;  // no entry, no tables
  header[16] = ET_REL;
  header[52] = 64;  // e_ehsize
  EXPECT_EQ(search_path_refusal(parsed(header), "$ORIGIN", PathTag::rpath), "it has no dynamic section");
  // Segments but no section headers: which names share the table cannot be read.
  std::string bare = ElfBuilder(extension(kBuildDir)).build();
  for (int i = 40; i < 48; ++i) bare[i] = 0;  // e_shoff
  bare[60] = bare[61] = bare[62] = bare[63] = 0;  // e_shnum, e_shstrndx
  EXPECT_EQ(search_path_refusal(parsed(bare), "$ORIGIN", PathTag::rpath),
            "it has no section headers, so the symbol names sharing its string table cannot be read");
}

TEST(ElfEdit, TheCheckAfterTheEditCanFail) {
  const std::string in = ElfBuilder(extension(kBuildDir)).build();
  std::string err;
  const std::string out = edited(in, "$ORIGIN", PathTag::rpath, &err);
  EXPECT_EQ(check_search_path(in, out, "$ORIGIN", PathTag::rpath), "");
  EXPECT_EQ(check_search_path(in, out, "$ORIGIN/lib", PathTag::rpath),
            "read back RPATH '$ORIGIN', planned '$ORIGIN/lib'");
  EXPECT_EQ(check_search_path(in, in, "$ORIGIN", PathTag::rpath),
            "read back RPATH '' and RUNPATH '" + kBuildDir + "', planned '$ORIGIN'");
  // A NEEDED name damaged by a bad edit is caught.
  std::string bad = out;
  bad.replace(bad.find("libc10.so"), 9, "libc11.so");
  EXPECT_EQ(check_search_path(in, bad, "$ORIGIN", PathTag::rpath), "its NEEDED entries changed");
  EXPECT_NE(check_search_path(in, out.substr(0, 100), "$ORIGIN", PathTag::rpath).find("the edited file does not read"),
            std::string::npos);
}

// Random damage to the tables an edit reads: an error or a checked edit, never a crash.
TEST(ElfEdit, CorruptionsAreAnErrorOrACheckedEditNeverACrash) {
  const std::string good = ElfBuilder(extension(kBuildDir)).build();
  std::uint32_t seed = 11;
  int edits = 0;
  for (int round = 0; round < 400; ++round) {
    std::string c = good;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      c[(seed >> 8) % c.size()] = char(seed >> 24);
    }
    std::string err;
    auto out = edit_search_path(c, "$ORIGIN", PathTag::rpath, &err);
    if (out) {
      ++edits;
      EXPECT_EQ(check_search_path(c, *out, "$ORIGIN", PathTag::rpath), "");
    } else {
      EXPECT_FALSE(err.empty());
    }
  }
  EXPECT_GT(edits, 0);
}

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
void spit(const std::string& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

TEST(ElfEditFile, WritesAtomicallyKeepsTheModeAndLeavesNothingBehind) {
  testkit::TempDir t;
  const std::string f = t / "libcore.so";
  spit(f, ElfBuilder(extension(kBuildDir)).build());
  ::chmod(f.c_str(), 0751);
  EXPECT_EQ(set_search_path_in_place(f, "$ORIGIN", PathTag::rpath), "");
  EXPECT_EQ(parsed(slurp(f)).dynamic().rpath, "$ORIGIN");
  struct stat st{};
  ::stat(f.c_str(), &st);
  EXPECT_EQ(st.st_mode & 07777, 0751u);
  EXPECT_EQ(std::distance(fs::directory_iterator(t.path()), fs::directory_iterator()), 1);
}

TEST(ElfEditFile, TruncatedCorruptOrRefusedFilesAreLeftUntouched) {
  testkit::TempDir t;
  const std::string good = ElfBuilder(extension(kBuildDir)).build();
  struct Case { std::string name, bytes, want_error; };
  std::string corrupt = good;
  corrupt[good.size() - 64 * 5 + 24 + 4] = 0x7f;  // a section header's offset far past the end
  const std::vector<Case> cases = {
      {"truncated.so", good.substr(0, good.size() - 70), "past end of file"},
      {"corrupt.so", corrupt, "past end of file"},
      {"text.so", "not an ELF file at all\n", "not an ELF file"},
      {"longer.so", ElfBuilder(extension("$O")).build(), "is longer than the old RUNPATH"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string f = t / c.name;
    spit(f, c.bytes);
    const std::string err = set_search_path_in_place(f, "$ORIGIN", PathTag::rpath);
    EXPECT_NE(err.find(c.want_error), std::string::npos) << err;
    EXPECT_EQ(err.rfind(f, 0), 0u) << "the error names the file: " << err;
    EXPECT_EQ(slurp(f), c.bytes);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(t.path()), fs::directory_iterator()), long(cases.size()));
  EXPECT_NE(set_search_path_in_place(t / "missing.so", "$ORIGIN", PathTag::rpath).find("No such file"),
            std::string::npos);
}

}  // namespace
}  // namespace ts::formats

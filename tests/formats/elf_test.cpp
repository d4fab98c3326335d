// The ELF reader: hand-built files in all four class/byte-order combinations, bad input, and real
// system libraries checked against what readelf prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "verify/elf_builder.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"
#include "verify/verify_test_util.h"

namespace ts::formats {
namespace {

namespace fs = std::filesystem;
using verify::test::bytes_of;

verify::test::ElfSpec sample(bool wide, bool big) {
  verify::test::ElfSpec s;
  s.wide = wide;
  s.big = big;
  s.needed = {"libc10.so", "libc.so.6"};
  s.soname = "libsample.so.1";
  s.runpath = "$ORIGIN:$ORIGIN/lib";
  s.verneed_file = "libc.so.6";
  s.verneed_names = {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17"};
  return s;
}

TEST(Elf, ReadsEveryClassAndByteOrder) {
  for (bool wide : {false, true}) {
    for (bool big : {false, true}) {
      SCOPED_TRACE(std::string(wide ? "ELF64" : "ELF32") + (big ? " MSB" : " LSB"));
      const std::string bytes = verify::test::ElfBuilder(sample(wide, big)).build();
      std::string err;
      auto elf = ElfFile::parse(bytes_of(bytes), &err);
      ASSERT_TRUE(elf) << err;
      EXPECT_EQ(elf->elf_class(), wide ? 64 : 32);
      EXPECT_EQ(elf->big_endian(), big);
      EXPECT_EQ(elf->type(), ET_DYN);
      EXPECT_EQ(elf->machine(), big ? EM_PPC64 : EM_X86_64);
      EXPECT_EQ(elf->dynamic().needed, (std::vector<std::string>{"libc10.so", "libc.so.6"}));
      EXPECT_EQ(elf->dynamic().soname, "libsample.so.1");
      EXPECT_EQ(elf->dynamic().runpath, "$ORIGIN:$ORIGIN/lib");
      EXPECT_EQ(elf->dynamic().rpath, "");
      EXPECT_EQ(elf->required_versions("GLIBC_"),
                (std::vector<std::string>{"GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_2.34"}));
      ASSERT_NE(elf->section(".dynamic"), nullptr);
      EXPECT_EQ(elf->section(".nv_fatbin"), nullptr);
    }
  }
}

TEST(Elf, VersionOrderIsNumeric) {
  EXPECT_TRUE(version_less("GLIBC_2.2.5", "GLIBC_2.17"));
  EXPECT_TRUE(version_less("GLIBCXX_3.4.9", "GLIBCXX_3.4.30"));
  EXPECT_FALSE(version_less("GLIBC_2.34", "GLIBC_2.34"));
  EXPECT_TRUE(version_less("CXXABI_1.3", "CXXABI_1.3.13"));
}

std::string parse_error(const std::string& bytes) {
  std::string err;
  auto elf = ElfFile::parse(bytes_of(bytes), &err);
  return elf ? "" : err;
}

TEST(ElfBadInput, ClearErrors) {
  EXPECT_EQ(parse_error(""), "not an ELF file");
  EXPECT_EQ(parse_error("#!/bin/sh\necho not a library\n"), "not an ELF file");
  const std::string good = verify::test::ElfBuilder(sample(true, false)).build();
  EXPECT_NE(parse_error(good.substr(0, 20)).find("truncated ELF header"), std::string::npos);
  // Cut before the section header table: the table lies past the end.
  EXPECT_NE(parse_error(good.substr(0, good.size() - 70)).find("section header table past end of file"),
            std::string::npos);
  // Section header offset patched far past the end.
  std::string bad = good;
  for (int i = 0; i < 8; ++i) bad[40 + i] = char(i == 4 ? 0x7f : 0);
  EXPECT_NE(parse_error(bad).find("section header table past end of file"), std::string::npos);
  // A section whose data lies past the end of the file.
  bad = good;
  const std::uint64_t shoff = good.size() - 64 * 5;  // sample() has 5 sections: null, dynstr, dynamic, verneed, shstrtab
  bad[shoff + 64 + 32 + 3] = 0x7f;                    // .dynstr's sh_size
  EXPECT_NE(parse_error(bad).find("past end of file"), std::string::npos);
  // Bad class byte.
  bad = good;
  bad[EI_CLASS] = 7;
  EXPECT_EQ(parse_error(bad), "unknown ELF class 7");
}

// Every prefix and many random corruptions of a real library: an error or a result, never a crash.
TEST(ElfBadInput, TruncationsAndCorruptionsNeverCrash) {
  MappedFile m("/lib/x86_64-linux-gnu/libgcc_s.so.1");
  std::string real = m.ok() ? std::string(reinterpret_cast<const char*>(m.bytes().data()), m.bytes().size())
                            : verify::test::ElfBuilder(sample(true, false)).build();
  for (std::size_t n = 0; n < real.size(); n += std::max<std::size_t>(1, real.size() / 997)) {
    std::string err;
    (void)ElfFile::parse(bytes_of(real.substr(0, n)), &err);
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string c = real;
    for (int k = 0; k < 8; ++k) {
      // Corrupt header and table areas most: that is where offsets live.
      std::size_t at = (round % 2) ? rng() % std::min<std::size_t>(c.size(), 256) : rng() % c.size();
      c[at] = char(rng());
    }
    std::string err;
    auto elf = ElfFile::parse(bytes_of(c), &err);
    if (elf) {
      for (const auto& s : elf->sections()) (void)elf->section_bytes(s).size();
      (void)elf->required_versions("GLIBC_");
    } else {
      EXPECT_FALSE(err.empty());
    }
  }
}

// With the section headers gone (as sstrip leaves a library), the same facts come from PT_DYNAMIC,
// DT_STRTAB and DT_VERNEED through the load segments.
TEST(ElfReal, SameFactsWithoutSectionHeaders) {
  MappedFile m("/lib/x86_64-linux-gnu/libstdc++.so.6");
  if (!m.ok()) GTEST_SKIP() << m.error();
  std::string bytes(reinterpret_cast<const char*>(m.bytes().data()), m.bytes().size());
  auto with = ElfFile::parse(m.bytes(), nullptr);
  ASSERT_TRUE(with);
  for (int i = 0; i < 8; ++i) bytes[40 + i] = 0;  // e_shoff
  bytes[60] = bytes[61] = bytes[62] = bytes[63] = 0;  // e_shnum, e_shstrndx
  std::string err;
  auto without = ElfFile::parse(bytes_of(bytes), &err);
  ASSERT_TRUE(without) << err;
  EXPECT_TRUE(without->sections().empty());
  EXPECT_EQ(without->dynamic().needed, with->dynamic().needed);
  EXPECT_EQ(without->dynamic().soname, with->dynamic().soname);
  EXPECT_EQ(without->dynamic().version_needs, with->dynamic().version_needs);
  EXPECT_FALSE(without->dynamic().version_needs.empty());
}

// What readelf says of a file: NEEDED, SONAME, RPATH, RUNPATH, and the version needs per file.
struct ReadelfFacts {
  std::vector<std::string> needed;
  std::string soname, rpath, runpath;
  std::map<std::string, std::set<std::string>> needs;
};

std::string bracketed(const std::string& line) {
  auto a = line.find('['), b = line.rfind(']');
  return a == std::string::npos || b == std::string::npos ? "" : line.substr(a + 1, b - a - 1);
}

std::optional<ReadelfFacts> readelf(const std::string& path) {
  const std::string tool = verify::test::tool("readelf");
  if (tool.empty()) return std::nullopt;
  auto d = verify::test::run({tool, "-dW", path});
  auto v = verify::test::run({tool, "-VW", path});
  if (!d.ok() || !v.ok()) return std::nullopt;
  ReadelfFacts f;
  std::istringstream din(d.out);
  std::string line;
  while (std::getline(din, line)) {
    if (line.find("(NEEDED)") != std::string::npos) f.needed.push_back(bracketed(line));
    if (line.find("(SONAME)") != std::string::npos) f.soname = bracketed(line);
    if (line.find("(RPATH)") != std::string::npos) f.rpath = bracketed(line);
    if (line.find("(RUNPATH)") != std::string::npos) f.runpath = bracketed(line);
  }
  std::istringstream vin(v.out);
  bool in_needs = false;
  std::string file;
  while (std::getline(vin, line)) {
    if (line.starts_with("Version needs section")) { in_needs = true; continue; }
    if (line.starts_with("Version ")) { in_needs = false; continue; }
    if (!in_needs) continue;
    if (auto p = line.find("File: "); p != std::string::npos) {
      file = line.substr(p + 6);
      file = file.substr(0, file.find(' '));
      f.needs[file];
    } else if (auto q = line.find("Name: "); q != std::string::npos) {
      std::string name = line.substr(q + 6);
      f.needs[file].insert(name.substr(0, name.find(' ')));
    }
  }
  return f;
}

void expect_matches_readelf(const std::string& path) {
  SCOPED_TRACE(path);
  auto want = readelf(path);
  if (!want) GTEST_SKIP() << "readelf not available";
  MappedFile m(path);
  ASSERT_TRUE(m.ok()) << m.error();
  std::string err;
  auto elf = ElfFile::parse(m.bytes(), &err);
  ASSERT_TRUE(elf) << err;
  EXPECT_EQ(elf->dynamic().needed, want->needed);
  EXPECT_EQ(elf->dynamic().soname, want->soname);
  EXPECT_EQ(elf->dynamic().rpath, want->rpath);
  EXPECT_EQ(elf->dynamic().runpath, want->runpath);
  std::map<std::string, std::set<std::string>> got;
  for (const auto& [file, versions] : elf->dynamic().version_needs) got[file].insert(versions.begin(), versions.end());
  EXPECT_EQ(got, want->needs);
}

TEST(ElfReal, LibstdcxxMatchesReadelf) {
  const std::string lib = "/lib/x86_64-linux-gnu/libstdc++.so.6";
  if (!fs::exists(lib)) GTEST_SKIP() << lib << " not here";
  expect_matches_readelf(lib);
  MappedFile m(lib);
  auto elf = ElfFile::parse(m.bytes(), nullptr);
  ASSERT_TRUE(elf);
  EXPECT_EQ(elf->dynamic().soname, "libstdc++.so.6");
  EXPECT_FALSE(elf->required_versions("GLIBC_").empty());
}

TEST(ElfReal, DebianTorchLibrariesMatchReadelf) {
  const std::string dir = "/usr/lib/python3/dist-packages/torch";
  if (!fs::exists(dir + "/lib")) GTEST_SKIP() << "python3-torch is not installed";
  int n = 0;
  std::vector<std::string> libs;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    // torch/lib/*.so are symlinks into /usr/lib/x86_64-linux-gnu: read each real file once.
    if (e.is_regular_file() && name.ends_with(".so")) libs.push_back(fs::canonical(e.path()).string());
  }
  std::sort(libs.begin(), libs.end());
  libs.erase(std::unique(libs.begin(), libs.end()), libs.end());
  for (const auto& lib : libs) {
    expect_matches_readelf(lib);
    ++n;
  }
  EXPECT_GT(n, 0);
  RecordProperty("libraries", n);
}

// A library that calls a template specialization no object of it defines (an implicit instantiation
// the defining file's compiler inlined away): the symbol the loader reports is among the undefined
// ones, what it defines itself is not.
TEST(ElfReal, UndefinedDynamicSymbolsOfACompiledLibrary) {
  testkit::TempDir t("ts-elf-undef");
  ASSERT_EQ(util::write_file_atomic(t / "u.cpp", "template <typename T> void reorder(const T* y, int n, T* z);\n"
                                                 "void dct(const float* a, float* b) { reorder(a, 4, b); }\n"), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(2);
  auto built = util::run({"g++", "-shared", "-fPIC", "-o", t / "libu.so", t / "u.cpp"}, o);
  if (built.exit_code == 127 || !built.error.empty()) GTEST_SKIP() << "no g++";
  ASSERT_TRUE(built.ok()) << built.err;
  MappedFile m(t / "libu.so");
  std::string err;
  auto elf = ElfFile::parse(m.bytes(), &err);
  ASSERT_TRUE(elf) << err;
  auto undefined = undefined_dynamic_symbols(*elf);
  EXPECT_NE(std::find(undefined.begin(), undefined.end(), "_Z7reorderIfEvPKT_iPS0_"), undefined.end());
  EXPECT_EQ(std::find(undefined.begin(), undefined.end(), "_Z3dctPKfPf"), undefined.end());
}

// An object that calls a template declared hidden (as nvcc declares the host stub of a __global__
// template in each file launching it) which no object defines: the symbol ld says "isn't defined" is
// read from .symtab; a default-visibility call (resolved at load time) and a definition are not.
TEST(ElfReal, HiddenUndefinedSymbolsOfAnObject) {
  testkit::TempDir t("ts-elf-hidden");
  ASSERT_EQ(util::write_file_atomic(t / "h.cpp", "template <typename T> __attribute__((visibility(\"hidden\"))) void k(T* p, int n);\n"
                                                 "template <typename T> void shown(T* p);\n"
                                                 "void launch(float* p) { k<float>(p, 4); shown<float>(p); }\n"), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(2);
  auto built = util::run({"g++", "-c", "-fPIC", "-o", t / "h.o", t / "h.cpp"}, o);
  if (built.exit_code == 127 || !built.error.empty()) GTEST_SKIP() << "no g++";
  ASSERT_TRUE(built.ok()) << built.err;
  MappedFile m(t / "h.o");
  std::string err;
  auto elf = ElfFile::parse(m.bytes(), &err);
  ASSERT_TRUE(elf) << err;
  EXPECT_EQ(hidden_undefined_symbols(*elf), std::vector<std::string>{"_Z1kIfEvPT_i"});
}

}  // namespace
}  // namespace ts::formats

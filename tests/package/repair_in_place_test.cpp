// Repair on a machine without patchelf: search paths that fit in the old one's bytes are edited in
// place and read back from the output wheel; what does not fit falls to patchelf, or fails naming
// it. The libraries are built by hand (verify/elf_builder.h): no compiler runs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "formats/zip.h"
#include "formats/zip_writer.h"
#include "package/repair.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"
#include "verify/elf_builder.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;
using verify::test::ElfBuilder;
using verify::test::ElfSpec;

const std::string kExt = "fast_rnnt/_fast_rnnt.cpython-312-x86_64-linux-gnu.so";
const std::string kCore = "fast_rnnt/libmutual_information_core.so";

ElfSpec lib(std::vector<std::string> needed, const std::string& soname) {
  ElfSpec s;
  s.segments = true;
  s.needed = std::move(needed);
  s.soname = soname;
  s.verneed_file = "libc.so.6";
  s.verneed_names = {"GLIBC_2.2.5", "GLIBC_2.17"};
  s.symbols = {"PyInit__fast_rnnt"};
  return s;
}

// fast-rnnt's shape: an extension and a core library beside it, both with build-tree paths.
std::string wheel(const testkit::TempDir& t, const std::string& ext_runpath, const std::string& core_rpath) {
  ElfSpec ext = lib({"libmutual_information_core.so", "libtorch.so", "libc10.so", "libc.so.6"}, "");
  ext.runpath = ext_runpath;
  ElfSpec core = lib({"libtorch.so", "libc.so.6"}, "libmutual_information_core.so");
  core.rpath = core_rpath;
  const std::string w = t / "fast_rnnt-1.2-cp312-cp312-linux_x86_64.whl";
  formats::ZipWriter z(w);
  z.add("fast_rnnt/__init__.py", "");
  z.add(kExt, ElfBuilder(ext).build());
  z.add(kCore, ElfBuilder(core).build());
  z.add("fast_rnnt-1.2.dist-info/METADATA", "Metadata-Version: 2.1\nName: fast_rnnt\nVersion: 1.2\n");
  z.add("fast_rnnt-1.2.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp312-cp312-linux_x86_64\n");
  EXPECT_TRUE(testkit::add_record(z, "fast_rnnt-1.2.dist-info"));
  EXPECT_TRUE(z.finish()) << z.error();
  return w;
}

std::string verdicts(const RepairResult& r) {
  std::string s;
  for (const auto& v : r.verdicts)
    s += std::string(verify::outcome_name(v.outcome)) + " " + v.check + " " + v.file + ": " + v.detail + "\n";
  return s + r.error;
}

// The dynamic section of one member of a wheel, read back.
formats::ElfDynamic member_dynamic(const std::string& wheel, const std::string& name, const std::string& dir) {
  formats::MappedFile f(wheel);
  std::string err;
  auto z = formats::ZipArchive::open(f.bytes(), &err);
  EXPECT_TRUE(z) << err;
  for (const auto& m : z->members()) {
    if (m.name != name) continue;
    const std::string out = dir + "/member.so";
    EXPECT_EQ(z->extract(m, out), "");
    formats::MappedFile so(out);
    auto e = formats::ElfFile::parse(so.bytes(), &err);
    EXPECT_TRUE(e) << err;
    return e ? e->dynamic() : formats::ElfDynamic{};
  }
  ADD_FAILURE() << name << " not in " << wheel;
  return {};
}

RepairOptions options(const testkit::TempDir& t, const std::string& w, const std::string& patchelf) {
  RepairOptions o;
  o.wheel = w;
  o.out_dir = t / "out";
  o.patchelf = patchelf;
  o.local_version = "none";
  return o;
}

TEST(RepairInPlace, BuildTreePathsBecomeOriginWithoutPatchelf) {
  testkit::TempDir t;
  const std::string w = wheel(t, "/tmp/w/fast-rnnt/out/src/build/temp.linux-x86_64-cpython-312/lib:/opt/torch/lib",
                              "/lib/intel64:/opt/torch/.venv/lib/python3.12/site-packages/torch/lib:$ORIGIN");
  RepairResult r = repair_wheel(options(t, w, "none"));
  const std::string v = verdicts(r);
  ASSERT_EQ(r.exit_code, 0) << v;
  EXPECT_NE(v.find("pass rpath " + kExt + ": $ORIGIN [in place]"), std::string::npos) << v;
  EXPECT_NE(v.find("pass rpath " + kCore + ": $ORIGIN [in place]"), std::string::npos) << v;
  EXPECT_NE(v.find("note rpath " + kExt + ": dropped '/opt/torch/lib': points outside the wheel"), std::string::npos);
  EXPECT_EQ(v.find("patchelf"), std::string::npos) << v;
  EXPECT_NE(v.find("pass resolve " + kExt), std::string::npos) << v;
  // Read back from the wheel written: DT_RPATH (the official wheels' tag), no RUNPATH, NEEDED kept.
  ASSERT_FALSE(r.output.empty());
  const auto ext = member_dynamic(r.output, kExt, t.path());
  EXPECT_EQ(ext.rpath, "$ORIGIN");
  EXPECT_EQ(ext.runpath, "");
  EXPECT_EQ(ext.needed.front(), "libmutual_information_core.so");
  const auto core = member_dynamic(r.output, kCore, t.path());
  EXPECT_EQ(core.rpath, "$ORIGIN");
  EXPECT_EQ(core.soname, "libmutual_information_core.so");
}

TEST(RepairInPlace, APathThatDoesNotFitFailsNamingPatchelfAndWritesNothing) {
  testkit::TempDir t;
  const std::string w = wheel(t, "/b", "/lib/intel64");
  RepairResult r = repair_wheel(options(t, w, "none"));
  const std::string v = verdicts(r);
  EXPECT_EQ(r.exit_code, 1) << v;
  EXPECT_NE(v.find("fail rpath " + kExt + ": patchelf is not installed; this file needs: RPATH $ORIGIN "
                   "(not editable in place: the new path '$ORIGIN' (7 bytes) is longer than the old RUNPATH "
                   "(2 bytes); growing the string table needs patchelf)"),
            std::string::npos) << v;
  // The core's path is dropped in place all the same; only the extension needs patchelf.
  EXPECT_NE(v.find("pass rpath " + kCore + ": none [in place]"), std::string::npos) << v;
  EXPECT_NE(v.find("fail patchelf : patchelf is not installed; 1 file(s) need edits"), std::string::npos) << v;
  EXPECT_EQ(r.output, "");
  EXPECT_TRUE(fs::is_empty(t / "out"));
}

TEST(RepairInPlace, APathThatDoesNotFitGoesToPatchelfWhenItIsThere) {
  testkit::TempDir t;
  const std::string w = wheel(t, "/b", "/lib/intel64:$ORIGIN");
  // A stand-in patchelf that records what it was asked (and edits nothing).
  const std::string fake = t / "patchelf";
  std::ofstream(fake) << "#!/bin/sh\necho \"$@\" >> '" << (t / "calls") << "'\n";
  ::chmod(fake.c_str(), 0755);
  RepairResult r = repair_wheel(options(t, w, fake));
  const std::string v = verdicts(r);
  EXPECT_NE(v.find("pass rpath " + kExt + ": $ORIGIN [patchelf]"), std::string::npos) << v;
  EXPECT_NE(v.find("pass rpath " + kCore + ": $ORIGIN [in place]"), std::string::npos) << v;
  std::ifstream calls(t / "calls");
  std::string line, all;
  while (std::getline(calls, line)) all += line + "\n";
  EXPECT_NE(all.find("--force-rpath --set-rpath $ORIGIN "), std::string::npos) << all;
  EXPECT_NE(all.find("_fast_rnnt.cpython-312-x86_64-linux-gnu.so"), std::string::npos) << all;
  EXPECT_EQ(all.find("libmutual_information_core.so"), std::string::npos) << "the core was edited in place: " << all;
}

}  // namespace
}  // namespace ts::package

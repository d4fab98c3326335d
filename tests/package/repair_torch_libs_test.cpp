// A NEEDED that import torch has already mapped under that SONAME (torch/lib/libgomp.so.1 of the
// PyPI wheels) is torch's, not vendored: no copy, no rename, so no patchelf. Built here with a fake
// torch whose _C.so NEEDs libtorch_fake.so, which NEEDs libompfake.so.1 (versions OMPF_1.0, OMPF_2.0).
#include <gtest/gtest.h>

#include <filesystem>

#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "formats/zip_writer.h"
#include "package/repair.h"
#include "package/torch_libs.h"
#include "testkit/wheel_record.h"
#include "wheel_testkit.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;
using testkit::run;
using testkit::spit;
using testkit::TempDir;

std::string cc(const fs::path& src, const fs::path& out, std::vector<std::string> extra) {
  fs::create_directories(out.parent_path());
  std::vector<std::string> argv = {"gcc", "-shared", "-fPIC", "-O1", "-o", out, src};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run(argv);
  return r.ok() ? "" : r.err;
}

struct TorchShape {
  bool both_versions = true;   // torch's copy defines OMPF_2.0 too
  bool loaded = true;          // libtorch_fake.so NEEDs it (import torch maps it)
  std::string soname = "libompfake.so.1";  // torch's copy's SONAME (a hashed one: older wheels)
};

struct Fixture {
  TempDir t;
  std::string wheel, error;
  fs::path torch, sys, nothing;

  // The extension asks `version` of libompfake.so.1 (it calls ompf_one, or ompf_two too).
  Fixture(const TorchShape& s, const std::string& version) {
    torch = t / "site/torch";
    sys = t / "sys";
    nothing = t / "no-system-libs";
    fs::create_directories(nothing);
    spit(t / "src/omp.c", "int ompf_one(void) { return 40; }\nint ompf_two(void) { return 2; }\n");
    spit(t / "src/v12.map", "OMPF_1.0 { global: ompf_one; local: *; };\nOMPF_2.0 { global: ompf_two; } OMPF_1.0;\n");
    spit(t / "src/v1.map", "OMPF_1.0 { global: ompf_one; ompf_two; local: *; };\n");
    spit(t / "src/torch_fake.c", "int ompf_one(void);\nint torch_fake(void) { return ompf_one(); }\n");
    spit(t / "src/torch_nothing.c", "int torch_fake(void) { return 0; }\n");
    spit(t / "src/C.c", "int torch_fake(void);\nint torch_c(void) { return torch_fake(); }\n");
    spit(t / "src/ext1.c", "int ompf_one(void);\nint ext_value(void) { return ompf_one() + 2; }\n");
    spit(t / "src/ext2.c", "int ompf_one(void); int ompf_two(void);\nint ext_value(void) { return ompf_one() + ompf_two(); }\n");
    const std::string torch_file = torch / "lib" / s.soname;
    auto step = [&](std::string e) { if (error.empty()) error = std::move(e); };
    step(cc(t / "src/omp.c", sys / "libompfake.so.1", {"-Wl,-soname,libompfake.so.1", "-Wl,--version-script=" + std::string(t / "src/v12.map")}));
    step(cc(t / "src/omp.c", torch_file, {"-Wl,-soname," + s.soname, "-Wl,--version-script=" + std::string(t / (s.both_versions ? "src/v12.map" : "src/v1.map"))}));
    if (s.loaded)
      step(cc(t / "src/torch_fake.c", torch / "lib/libtorch_fake.so",
              {"-Wl,-soname,libtorch_fake.so", "-L" + (torch / "lib").string(), "-l:" + s.soname, "-Wl,-rpath,$ORIGIN"}));
    else
      step(cc(t / "src/torch_nothing.c", torch / "lib/libtorch_fake.so", {"-Wl,-soname,libtorch_fake.so"}));
    step(cc(t / "src/C.c", torch / "_C.cpython-311-x86_64-linux-gnu.so",
            {"-L" + (torch / "lib").string(), "-ltorch_fake", "-Wl,-rpath,$ORIGIN/lib"}));
    step(cc(t / (version == "OMPF_2.0" ? "src/ext2.c" : "src/ext1.c"), t / "build/_ext.so",
            {"-L" + sys.string(), "-l:libompfake.so.1"}));
    wheel = t / "in/demo-1.0-cp311-cp311-linux_x86_64.whl";
    fs::create_directories(t / "in");
    formats::ZipWriter w(wheel);
    w.add("pkg/__init__.py", "");
    w.add_file("pkg/_ext.so", t / "build/_ext.so");
    w.add("demo-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n");
    w.add("demo-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp311-cp311-linux_x86_64\n");
    ::ts::testkit::add_record(w, "demo-1.0.dist-info");
    if (!w.finish()) step(w.error());
  }

  RepairOptions options(const std::string& patchelf) const {
    RepairOptions o;
    o.wheel = wheel;
    o.out_dir = t / "out";
    o.lib_dirs = {sys};
    o.system_dirs = {nothing};  // libompfake is nowhere on the system: only torch or vendoring answer it
    o.patchelf = patchelf;
    o.torch_dir = torch;
    return o;
  }
};

std::string verdicts(const RepairResult& r) {
  std::string s;
  for (const auto& v : r.verdicts)
    s += std::string(verify::outcome_name(v.outcome)) + " " + v.check + " " + v.file + ": " + v.detail + "\n";
  return s + r.error;
}

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

TEST(Repair, ALibraryImportTorchMapsIsTorchsNotVendoredAndNeedsNoPatchelf) {
  Fixture fx({}, "OMPF_2.0");
  ASSERT_EQ(fx.error, "");
  RepairResult r = repair_wheel(fx.options("none"));
  const std::string v = verdicts(r);
  ASSERT_EQ(r.exit_code, 0) << v;
  EXPECT_TRUE(r.vendored.empty()) << v;
  EXPECT_TRUE(has(v, "pass needed pkg/_ext.so: libompfake.so.1: provided by torch (" + (fx.torch / "lib/libompfake.so.1").string())) << v;
  EXPECT_TRUE(has(v, "pass resolve pkg/_ext.so")) << v;

  // The installed extension, loaded after the fake torch as import torch would, binds to torch's copy;
  // loaded alone it cannot find the library at all (so the binding is real, not the system's).
  auto pip = run({"/usr/bin/python3", "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check",
                  "--target", fx.t / "target", r.output}, 300);
  if (pip.not_found || has(pip.err, "No module named pip")) GTEST_SKIP() << "pip missing";
  ASSERT_TRUE(pip.ok()) << pip.out << pip.err;
  const std::string ext = fx.t / "target/pkg/_ext.so";
  auto after = run({"/usr/bin/python3", "-c", "import ctypes,sys; ctypes.CDLL(sys.argv[1]); print(ctypes.CDLL(sys.argv[2]).ext_value())",
                    fx.torch / "_C.cpython-311-x86_64-linux-gnu.so", ext});
  EXPECT_EQ(after.out, "42\n") << after.err;
  auto alone = run({"/usr/bin/python3", "-c", "import ctypes,sys; ctypes.CDLL(sys.argv[1])", ext});
  EXPECT_FALSE(alone.ok());
  EXPECT_TRUE(has(alone.err, "libompfake.so.1")) << alone.err;
}

TEST(Repair, TorchsCopyMissingAVersionTheExtensionNeedsIsNotTorchs) {
  Fixture fx({.both_versions = false}, "OMPF_2.0");
  ASSERT_EQ(fx.error, "");
  RepairResult r = repair_wheel(fx.options("none"));
  const std::string v = verdicts(r);
  EXPECT_EQ(r.exit_code, 1) << v;
  EXPECT_TRUE(has(v, "lacks OMPF_2.0")) << v;
  EXPECT_TRUE(has(v, "fail patchelf : patchelf is not installed")) << v;
  EXPECT_TRUE(r.output.empty());
}

TEST(Repair, ALibraryTorchShipsButImportTorchDoesNotLoadIsNotTorchs) {
  Fixture fx({.loaded = false}, "OMPF_1.0");
  ASSERT_EQ(fx.error, "");
  RepairResult r = repair_wheel(fx.options("none"));
  const std::string v = verdicts(r);
  EXPECT_EQ(r.exit_code, 1) << v;
  EXPECT_TRUE(has(v, "import torch does not load it")) << v;
  if (!testkit::have("patchelf")) return;
  // With patchelf it is vendored as before: a hashed copy, NEEDED renamed.
  RepairResult p = repair_wheel(fx.options(""));
  ASSERT_EQ(p.exit_code, 0) << verdicts(p);
  ASSERT_EQ(p.vendored.size(), 1u);
  EXPECT_TRUE(has(p.vendored[0], "libompfake.so.1 -> demo.libs/libompfake-")) << p.vendored[0];
}

TEST(Repair, TorchsRenamedCopyDoesNotAnswerTheOriginalName) {
  // Older torch wheels shipped libgomp-a34b3233.so.1: its SONAME is not the extension's libgomp.so.1.
  Fixture fx({.soname = "libompfake-a34b3233.so.1"}, "OMPF_1.0");
  ASSERT_EQ(fx.error, "");
  RepairResult r = repair_wheel(fx.options("none"));
  const std::string v = verdicts(r);
  EXPECT_EQ(r.exit_code, 1) << v;
  EXPECT_FALSE(has(v, "provided by torch (")) << v;
  TorchLibs t = read_torch_libs(fx.torch, 64, 62 /* EM_X86_64 */);
  EXPECT_TRUE(t.mapped.count("libompfake-a34b3233.so.1"));
  EXPECT_FALSE(t.mapped.count("libompfake.so.1"));
}

TEST(Repair, WithoutATorchDirNothingIsTorchsByItsLibraries) {
  Fixture fx({}, "OMPF_1.0");
  ASSERT_EQ(fx.error, "");
  RepairOptions o = fx.options("none");
  o.torch_dir = "";
  RepairResult r = repair_wheel(o);
  EXPECT_EQ(r.exit_code, 1) << verdicts(r);
  EXPECT_FALSE(has(verdicts(r), "provided by torch (")) << verdicts(r);
}

TEST(Repair, ElfVersionDefsAreTheVersionsALibraryDefinesWithoutItsBaseName) {
  Fixture fx({}, "OMPF_1.0");
  ASSERT_EQ(fx.error, "");
  formats::MappedFile f((fx.torch / "lib/libompfake.so.1").string());
  std::string err;
  auto e = formats::ElfFile::parse(f.bytes(), &err);
  ASSERT_TRUE(e) << err;
  EXPECT_EQ(e->dynamic().version_defs, (std::vector<std::string>{"OMPF_1.0", "OMPF_2.0"}));
  formats::MappedFile g((fx.torch / "lib/libtorch_fake.so").string());
  auto n = formats::ElfFile::parse(g.bytes(), &err);
  ASSERT_TRUE(n) << err;
  EXPECT_TRUE(n->dynamic().version_defs.empty());
}

}  // namespace
}  // namespace ts::package

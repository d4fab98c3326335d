#include "package/repair.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "package/record.h"
#include "package/tags.h"
#include "package/wheel_policy.h"
#include "formats/zip_writer.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "formats/zip.h"
#include "testkit/wheel_record.h"
#include "wheel_testkit.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;
using testkit::run;
using testkit::slurp;
using testkit::spit;
using testkit::TempDir;

// g++ -shared; "" on success, else the compiler's complaint.
std::string compile(const std::string& src, const std::string& out, std::vector<std::string> extra) {
  std::vector<std::string> argv = {"g++", "-shared", "-fPIC", "-O1", "-o", out, src};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run(argv);
  return r.ok() ? "" : r.err;
}

struct Fixture {
  TempDir t;
  std::string wheel;
  std::string error;

  // demo: pkg/_ext.so NEEDs pkg/libhelper.so (in the wheel), libextdep.so.1 (outside, in ext/)
  // and libz.so.1 (a manylinux system library); it carries an absolute RPATH from the build.
  Fixture() {
    spit(t / "src/helper.cpp", "extern \"C\" int helper() { return 40; }\n");
    spit(t / "src/extdep.cpp", "extern \"C\" int extdep() { return 2; }\n");
    spit(t / "src/ext.cpp",
         "#include <zlib.h>\nextern \"C\" int helper(); extern \"C\" int extdep();\n"
         "extern \"C\" int ext_value() { return helper() + extdep() + (zlibVersion() ? 0 : 1); }\n");
    fs::create_directories(t / "ext");
    fs::create_directories(t / "build/pkg");
    error = compile(t / "src/extdep.cpp", t / "ext/libextdep.so.1", {"-Wl,-soname,libextdep.so.1"});
    if (error.empty())
      error = compile(t / "src/helper.cpp", t / "build/pkg/libhelper.so", {"-Wl,-soname,libhelper.so"});
    if (error.empty())
      error = compile(t / "src/ext.cpp", t / "build/pkg/_ext.so",
                      {"-L" + (t / "build/pkg"), "-L" + (t / "ext"), "-lhelper", "-l:libextdep.so.1",
                       "-lz", "-Wl,--disable-new-dtags,-rpath," + (t / "build/pkg")});
    wheel = t / "in/demo-1.0-cp311-cp311-linux_x86_64.whl";
    fs::create_directories(t / "in");
    formats::ZipWriter w(wheel);
    w.add("pkg/__init__.py", "");
    w.add_file("pkg/_ext.so", t / "build/pkg/_ext.so");
    w.add_file("pkg/libhelper.so", t / "build/pkg/libhelper.so");
    w.add("demo-1.0.dist-info/METADATA",
          "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nSummary: a test wheel\n"
          "Description-Content-Type: text/plain\n\nBody text.\n");
    w.add("demo-1.0.dist-info/WHEEL",
          "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp311-cp311-linux_x86_64\n");
    ::ts::testkit::add_record(w, "demo-1.0.dist-info");
    if (!w.finish()) error = w.error();
  }
};

std::map<std::string, std::string> unzip(const std::string& wheel, const std::string& dir) {
  std::map<std::string, std::string> out;
  formats::MappedFile f(wheel);
  std::string err;
  auto z = formats::ZipArchive::open(f.bytes(), &err);
  EXPECT_TRUE(z) << err;
  if (!z) return out;
  for (const auto& m : z->members()) {
    fs::create_directories(fs::path(dir + "/" + m.name).parent_path());
    EXPECT_EQ(z->extract(m, dir + "/" + m.name), "");
    out[m.name] = dir + "/" + m.name;
  }
  return out;
}

std::optional<formats::ElfDynamic> dynamic_of(const std::string& path) {
  formats::MappedFile f(path);
  auto e = formats::ElfFile::parse(f.bytes(), nullptr);
  if (!e) return std::nullopt;
  return e->dynamic();
}

std::string verdicts(const RepairResult& r) {
  std::string s;
  for (const auto& v : r.verdicts)
    s += std::string(verify::outcome_name(v.outcome)) + " " + v.check + " " + v.file + ": " + v.detail + "\n";
  return s + r.error;
}

TEST(Repair, ExtensionWheelVendorsRetagsAndRecords) {
  Fixture fx;
  ASSERT_EQ(fx.error, "");
  const std::string before = slurp(fx.wheel);
  plan::Plan plan;
  plan.cuda = plan::CudaChoice::from_text("12.8.93");
  plan.arch_list = *ArchList::parse("8.0;12.0");
  RepairOptions o;
  o.wheel = fx.wheel;
  o.out_dir = fx.t / "out";
  o.plan = &plan;
  o.lib_dirs = {fx.t / "ext"};
  RepairResult r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  EXPECT_EQ(slurp(fx.wheel), before);  // the input is never modified
  EXPECT_EQ(r.version, "1.0+cu128.sm80.sm120");
  ASSERT_EQ(r.platform.rfind("manylinux_2_", 0), 0u) << verdicts(r);
  EXPECT_EQ(fs::path(r.output).filename().string(),
            "demo-1.0+cu128.sm80.sm120-cp311-cp311-" + r.platform + ".whl");
  ASSERT_EQ(r.vendored.size(), 1u);
  EXPECT_NE(verdicts(r).find("dropped '" + (fx.t / "build/pkg") + "'"), std::string::npos) << verdicts(r);

  auto files = unzip(r.output, fx.t / "x");
  const std::string di = "demo-1.0+cu128.sm80.sm120.dist-info/";
  ASSERT_TRUE(files.count(di + "RECORD")) << verdicts(r);
  // The vendored library: auditwheel's name, its own SONAME.
  std::string vendored;
  for (const auto& [name, path] : files)
    if (name.rfind("demo.libs/libextdep-", 0) == 0) vendored = name;
  ASSERT_FALSE(vendored.empty());
  EXPECT_EQ(vendored.size(), std::string("demo.libs/libextdep-12345678.so.1").size());
  EXPECT_EQ(dynamic_of(files[vendored])->soname, vendored.substr(10));

  auto ext = dynamic_of(files["pkg/_ext.so"]);
  ASSERT_TRUE(ext);
  EXPECT_EQ(ext->rpath, "$ORIGIN:$ORIGIN/../demo.libs");
  EXPECT_TRUE(std::count(ext->needed.begin(), ext->needed.end(), vendored.substr(10)));
  EXPECT_TRUE(std::count(ext->needed.begin(), ext->needed.end(), "libhelper.so"));
  EXPECT_TRUE(std::count(ext->needed.begin(), ext->needed.end(), "libz.so.1"));
  EXPECT_FALSE(std::count(ext->needed.begin(), ext->needed.end(), "libextdep.so.1"));

  // RECORD: every member once, with its sha256 and size; RECORD itself without.
  auto lines = parse_record(slurp(files[di + "RECORD"]), nullptr);
  ASSERT_TRUE(lines);
  EXPECT_EQ(lines->size(), files.size());
  for (const auto& l : *lines) {
    ASSERT_TRUE(files.count(l.path)) << l.path;
    if (l.path == di + "RECORD") {
      EXPECT_EQ(l.hash, "");
      continue;
    }
    const std::string data = slurp(files[l.path]);
    Sha256 s;
    s.update(data.data(), data.size());
    EXPECT_EQ(l.hash, record_hash(s.digest())) << l.path;
    EXPECT_EQ(l.size, data.size()) << l.path;
  }
  EXPECT_NE(slurp(files[di + "WHEEL"]).find("Tag: cp311-cp311-" + r.platform + "\n"), std::string::npos);
  EXPECT_NE(slurp(files[di + "METADATA"]).find("Version: 1.0+cu128.sm80.sm120\n"), std::string::npos);

  // Installers accept it, and the installed extension loads through its new RPATHs alone.
  auto pip = run({"/usr/bin/python3", "-m", "pip", "install", "--no-deps", "--no-index",
                  "--disable-pip-version-check", "--target", fx.t / "target", r.output}, 300);
  if (pip.not_found || pip.err.find("No module named pip") != std::string::npos) GTEST_SKIP() << "pip missing";
  ASSERT_TRUE(pip.ok()) << pip.out << pip.err;
  auto load = run({"/usr/bin/python3", "-c",
                   "import ctypes,sys; print(ctypes.CDLL(sys.argv[1]).ext_value())",
                   fx.t / "target/pkg/_ext.so"});
  EXPECT_EQ(load.out, "42\n") << load.err;

  auto inst = run({"/usr/bin/python3", "-m", "installer", "--destdir", fx.t / "dest", r.output}, 300);
  if (inst.err.find("No module named installer") == std::string::npos) {
    EXPECT_TRUE(inst.ok()) << inst.out << inst.err;
  }
  auto twine = run({"/usr/bin/python3", "-m", "twine", "check", "--strict", r.output}, 300);
  if (twine.err.find("No module named twine") == std::string::npos) {
    EXPECT_TRUE(twine.ok()) << twine.out << twine.err;
  }
}

// Built against a CUDA torch and a CPU torch: the file name and METADATA say which torch the wheel
// needs (+pt26cu124, +pt113cpu; Requires-Dist torch==X.Y.* by default, as --pin-torch chooses).
TEST(Repair, ExtensionWheelNamesAndPinsTheTorchItWasBuiltAgainst) {
  Fixture fx;
  ASSERT_EQ(fx.error, "");
  plan::Plan plan;
  plan.torch_version = "2.6.0+cu124";
  plan.torch_cuda = "12.4";
  plan.cuda = plan::CudaChoice::from_text("12.8.93");
  plan.arch_list = *ArchList::parse("8.0;12.0");
  plan.import_name = "pkg";
  RepairOptions o;
  o.wheel = fx.wheel;
  o.out_dir = fx.t / "cuda";
  o.plan = &plan;
  o.lib_dirs = {fx.t / "ext"};
  RepairResult r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  EXPECT_EQ(r.version, "1.0+pt26cu124.sm80.sm120");
  EXPECT_EQ(fs::path(r.output).filename().string(), "demo-1.0+pt26cu124.sm80.sm120-cp311-cp311-" + r.platform + ".whl");
  auto files = unzip(r.output, fx.t / "xc");
  std::string meta = slurp(files["demo-1.0+pt26cu124.sm80.sm120.dist-info/METADATA"]);
  EXPECT_NE(meta.find("Requires-Dist: torch==2.6.*\n"), std::string::npos) << meta;
  EXPECT_NE(verdicts(r).find("pass requires : Requires-Dist: torch==2.6.*"), std::string::npos) << verdicts(r);

  plan::Plan cpu;
  cpu.torch_version = "1.13.1";
  cpu.import_name = "pkg";
  o.plan = &cpu;
  o.out_dir = fx.t / "cpu";
  o.pin_torch = "exact";
  r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  EXPECT_EQ(r.version, "1.0+pt113cpu");
  files = unzip(r.output, fx.t / "xp");
  meta = slurp(files["demo-1.0+pt113cpu.dist-info/METADATA"]);
  EXPECT_NE(meta.find("Requires-Dist: torch==1.13.1\n"), std::string::npos) << meta;

  o.out_dir = fx.t / "none";
  o.pin_torch = "none";
  r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  files = unzip(r.output, fx.t / "xn");
  EXPECT_EQ(slurp(files["demo-1.0+pt113cpu.dist-info/METADATA"]).find("Requires-Dist: torch"), std::string::npos);

  // InternImage's DCNv3 reads float(its own version) at import: a plan that found it (plain_version)
  // keeps the version unlabelled; the torch pin, which is Requires-Dist, not the version, stays.
  plan.plain_version = true;
  o.plan = &plan;
  o.pin_torch = "";
  o.out_dir = fx.t / "plain";
  r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  EXPECT_EQ(r.version, "1.0");
  EXPECT_EQ(fs::path(r.output).filename().string(), "demo-1.0-cp311-cp311-" + r.platform + ".whl");
  files = unzip(r.output, fx.t / "xpl");
  EXPECT_NE(slurp(files["demo-1.0.dist-info/METADATA"]).find("Requires-Dist: torch==2.6.*\n"), std::string::npos);
  o.local_version = "auto";  // asked for on the command line: the label, as asked
  o.out_dir = fx.t / "plain-asked";
  r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  EXPECT_EQ(r.version, "1.0+pt26cu124.sm80.sm120");
  o.local_version = "";

  // A pin needs the torch: without an extension's plan it is refused, naming the way out.
  o.plan = nullptr;
  o.pin_torch = "minor";
  o.out_dir = fx.t / "noplan";
  r = repair_wheel(o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("--pin-torch none"), std::string::npos) << r.error;
}

TEST(Repair, WithoutVendoringTheOutsideLibraryIsNamedAndNothingIsWritten) {
  Fixture fx;
  ASSERT_EQ(fx.error, "");
  RepairOptions o;
  o.wheel = fx.wheel;
  o.out_dir = fx.t / "out";
  o.vendor = false;
  RepairResult r = repair_wheel(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(verdicts(r).find("fail needed pkg/_ext.so: libextdep.so.1 is not in the wheel"),
            std::string::npos)
      << verdicts(r);
  EXPECT_EQ(r.output, "");
  EXPECT_TRUE(fs::is_empty(fx.t / "out"));  // no work directory left behind either
}

TEST(Repair, WithoutPatchelfSaysWhichFilesNeedIt) {
  Fixture fx;
  ASSERT_EQ(fx.error, "");
  RepairOptions o;
  o.wheel = fx.wheel;
  o.out_dir = fx.t / "out";
  o.lib_dirs = {fx.t / "ext"};
  o.patchelf = "none";
  RepairResult r = repair_wheel(o);
  EXPECT_EQ(r.exit_code, 1);
  const std::string v = verdicts(r);
  EXPECT_NE(v.find("fail rpath pkg/_ext.so: patchelf is not installed; this file needs: RPATH $ORIGIN"),
            std::string::npos) << v;
  EXPECT_NE(v.find("NEEDED libextdep.so.1 -> libextdep-"), std::string::npos) << v;
  EXPECT_NE(v.find("fail patchelf"), std::string::npos) << v;
  EXPECT_NE(v.find("platform"), std::string::npos) << v;  // the other checks still ran
}

// fast-rnnt's shape, compiled: an extension and its core library, each with build-tree search paths
// (one DT_RUNPATH, one DT_RPATH). Without patchelf both are rewritten in place, read back from the
// output wheel, and the real loader opens the extension through its new $ORIGIN.
TEST(Repair, WithoutPatchelfBuildTreePathsAreRewrittenInPlaceAndTheLoaderFollowsThem) {
  TempDir t;
  spit(t / "src/core.cpp", "extern \"C\" int core_value() { return 41; }\n");
  spit(t / "src/ext.cpp", "extern \"C\" int core_value();\nextern \"C\" int ext_value() { return core_value() + 1; }\n");
  const std::string build = t / "build/temp.linux-x86_64-cpython-312/lib";
  fs::create_directories(build);
  ASSERT_EQ(compile(t / "src/core.cpp", build + "/libcore.so",
                    {"-Wl,-soname,libcore.so", "-Wl,--disable-new-dtags,-rpath,/opt/torch/lib:" + build}), "");
  ASSERT_EQ(compile(t / "src/ext.cpp", build + "/_ext.so",
                    {"-L" + build, "-lcore", "-Wl,--enable-new-dtags,-rpath," + build + ":/opt/torch/lib"}), "");
  const std::string wheel = t / "in/fr-1.2-cp311-cp311-linux_x86_64.whl";
  fs::create_directories(t / "in");
  formats::ZipWriter w(wheel);
  w.add_file("fr/_ext.so", build + "/_ext.so");
  w.add_file("fr/libcore.so", build + "/libcore.so");
  w.add("fr-1.2.dist-info/METADATA", "Metadata-Version: 2.1\nName: fr\nVersion: 1.2\n");
  w.add("fr-1.2.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n");
  ::ts::testkit::add_record(w, "fr-1.2.dist-info");
  ASSERT_TRUE(w.finish()) << w.error();
  ASSERT_EQ(dynamic_of(build + "/_ext.so")->runpath, build + ":/opt/torch/lib");
  ASSERT_EQ(dynamic_of(build + "/libcore.so")->rpath, "/opt/torch/lib:" + build);

  RepairOptions o;
  o.wheel = wheel;
  o.out_dir = t / "out";
  o.patchelf = "none";
  RepairResult r = repair_wheel(o);
  const std::string v = verdicts(r);
  ASSERT_EQ(r.exit_code, 0) << v;
  EXPECT_NE(v.find("pass rpath fr/_ext.so: $ORIGIN [in place]"), std::string::npos) << v;
  EXPECT_NE(v.find("pass rpath fr/libcore.so: none [in place]"), std::string::npos) << v;
  auto files = unzip(r.output, t / "x");
  auto ext = dynamic_of(files["fr/_ext.so"]);
  ASSERT_TRUE(ext);
  EXPECT_EQ(ext->rpath, "$ORIGIN");
  EXPECT_EQ(ext->runpath, "");
  EXPECT_EQ(ext->needed.front(), "libcore.so");
  auto core = dynamic_of(files["fr/libcore.so"]);
  ASSERT_TRUE(core);
  EXPECT_EQ(core->rpath + core->runpath, "");
  EXPECT_EQ(slurp(files["fr/_ext.so"]).find(build), std::string::npos) << "the build directory still ships";
  // The real loader finds libcore.so beside the extension through $ORIGIN alone.
  void* h = ::dlopen(files["fr/_ext.so"].c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << ::dlerror();
  auto fn = reinterpret_cast<int (*)()>(::dlsym(h, "ext_value"));
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn(), 42);
  ::dlclose(h);
}

TEST(Repair, TorchWheelGetsTheOfficialRpathLayoutAndThePlansVersion) {
  TempDir t;
  fs::create_directories(t / "b");
  spit(t / "src/c10.cpp", "extern \"C\" int c10() { return 1; }\n");
  spit(t / "src/c.cpp", "extern \"C\" int c10(); extern \"C\" int init() { return c10(); }\n");
  ASSERT_EQ(compile(t / "src/c10.cpp", t / "b/libc10.so", {"-Wl,-soname,libc10.so"}), "");
  ASSERT_EQ(compile(t / "src/c.cpp", t / "b/_C.so", {"-L" + (t / "b"), "-lc10"}), "");
  const std::string wheel = t / "torch-2.4.0a0+gitee1b680-cp311-cp311-linux_x86_64.whl";
  {
    formats::ZipWriter w(wheel);
    w.add_file("torch/_C.so", t / "b/_C.so");
    w.add_file("torch/lib/libc10.so", t / "b/libc10.so");
    w.add("torch-2.4.0a0+gitee1b680.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0a0+gitee1b680\n");
    w.add("torch-2.4.0a0+gitee1b680.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n");
    ::ts::testkit::add_record(w, "torch-2.4.0a0+gitee1b680.dist-info");
    ASSERT_TRUE(w.finish());
  }
  plan::Plan plan;
  plan.cuda = plan::CudaChoice::from_text("12.8.93");
  plan.arch_list = *ArchList::parse("12.0");
  plan.build_version = "2.4.0a0+cu128.sm120";
  RepairOptions o;
  o.wheel = wheel;
  o.out_dir = t / "out";
  o.plan = &plan;
  RepairResult r = repair_wheel(o);
  ASSERT_EQ(r.exit_code, 0) << verdicts(r);
  EXPECT_EQ(r.version, "2.4.0a0+cu128.sm120");
  auto files = unzip(r.output, t / "x");
  EXPECT_EQ(dynamic_of(files["torch/_C.so"])->rpath, "$ORIGIN:$ORIGIN/lib");
  EXPECT_EQ(dynamic_of(files["torch/lib/libc10.so"])->rpath, "$ORIGIN");
  EXPECT_TRUE(files.count("torch-2.4.0a0+cu128.sm120.dist-info/RECORD"));
}

TEST(Repair, BadInputIsAClearErrorNotACrash) {
  Fixture fx;
  ASSERT_EQ(fx.error, "");
  auto attempt = [&](const std::string& wheel) {
    RepairOptions o;
    o.wheel = wheel;
    o.out_dir = fx.t / "out";
    return repair_wheel(o);
  };
  const std::string whole = slurp(fx.wheel);
  spit(fx.t / "bad/demo-1.0-cp311-cp311-linux_x86_64.whl", whole.substr(0, whole.size() / 2));
  auto r = attempt(fx.t / "bad/demo-1.0-cp311-cp311-linux_x86_64.whl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("truncated"), std::string::npos) << r.error;

  {
    formats::ZipWriter w(fx.t / "bad/evil-1.0-py3-none-any.whl");
    w.add("evil-1.0.dist-info/WHEEL", "Tag: py3-none-any\n");
    w.finish();
  }
  // A '../' name cannot be written by ZipWriter: patch one into the bytes (same length).
  std::string evil = slurp(fx.t / "bad/evil-1.0-py3-none-any.whl");
  for (std::size_t p; (p = evil.find("evil-1.0.dist-info/WHEEL")) != std::string::npos;)
    evil.replace(p, 24, "../../../../../tmp/WHEEL");
  spit(fx.t / "bad/evil-1.0-py3-none-any.whl", evil);
  r = attempt(fx.t / "bad/evil-1.0-py3-none-any.whl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("unsafe member name"), std::string::npos) << r.error;

  {
    formats::ZipWriter w(fx.t / "bad/fake-1.0-cp311-cp311-linux_x86_64.whl");
    w.add("fake/_x.so", "this is text, not ELF");
    w.add("fake-1.0.dist-info/WHEEL", "Tag: cp311-cp311-linux_x86_64\n");
    w.add("fake-1.0.dist-info/METADATA", "Name: fake\nVersion: 1.0\n");
    ::ts::testkit::add_record(w, "fake-1.0.dist-info");
    w.finish();
  }
  r = attempt(fx.t / "bad/fake-1.0-cp311-cp311-linux_x86_64.whl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("fake/_x.so is named like a shared library but is not an ELF file"),
            std::string::npos) << r.error;

  {
    formats::ZipWriter w(fx.t / "bad/nodist-1.0-cp311-cp311-linux_x86_64.whl");
    w.add("nodist/__init__.py", "");
    w.finish();
  }
  r = attempt(fx.t / "bad/nodist-1.0-cp311-cp311-linux_x86_64.whl");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("no .dist-info directory"), std::string::npos) << r.error;

  r = attempt(fx.t / "bad/not-a-wheel.zip");
  EXPECT_EQ(r.exit_code, 2);
  r = attempt(fx.wheel);  // fine wheel, bad local version
  RepairOptions o;
  o.wheel = fx.wheel;
  o.out_dir = fx.t / "out2";
  o.lib_dirs = {fx.t / "ext"};
  o.local_version = "cu128 sm120!";
  r = repair_wheel(o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("not a PEP 440 local version"), std::string::npos) << r.error;
}

TEST(WheelPolicy, EmbeddedPoliciesLoadAndDecideTheTag) {
  std::vector<std::string> errors;
  WheelPolicies w = load_wheel_policies({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  ASSERT_GE(w.policies.size(), 5u);
  EXPECT_EQ(w.policies.front().name, "manylinux_2_12");  // oldest first
  auto tag = [&](std::vector<std::string> versions) {
    return choose_platform(w, "x86_64", {{"x.so", versions}}).tag;
  };
  EXPECT_EQ(tag({"GLIBC_2.2.5", "GLIBC_2.17"}), "manylinux_2_17_x86_64");
  EXPECT_EQ(tag({"GLIBC_2.17", "GLIBCXX_3.4.21"}), "manylinux_2_24_x86_64");  // C++11 ABI strings
  EXPECT_EQ(tag({"GLIBC_2.28", "CXXABI_TM_1"}), "manylinux_2_28_x86_64");
  EXPECT_EQ(tag({"GLIBC_2.34", "GOMP_4.0"}), "manylinux_2_34_x86_64");  // other namespaces: not policed
  EXPECT_EQ(tag({"GLIBC_2.99"}), "linux_x86_64");
  EXPECT_EQ(choose_platform(w, "riscv64", {}).tag, "linux_riscv64");
  EXPECT_TRUE(w.external("libtorch_cuda.so"));
  EXPECT_TRUE(w.external("libc10_cuda.so"));
  EXPECT_TRUE(w.external("libcudart.so.12"));
  EXPECT_TRUE(w.external("libcuda.so.1"));
  // The dynamic loader in NEEDED (GCC 13 links put it there) is never vendored.
  ASSERT_TRUE(w.external("ld-linux-x86-64.so.2"));
  EXPECT_EQ(w.external("ld-linux-aarch64.so.1")->provider, "the system's dynamic loader");
  EXPECT_FALSE(w.external("libz.so.1"));

  std::vector<std::string> bad;
  WheelPolicies x;
  read_wheel_policies(x, "manylinux.toml",
                      "[[policy]]\nname = \"manylinux_2_30\"\nglibc = \"2.28\"\nlibs = []\nsource = \"s\"\n", bad);
  ASSERT_FALSE(bad.empty());
  EXPECT_NE(bad.front().find("manylinux.toml:"), std::string::npos) << bad.front();
}

TEST(WheelName, ParsesAndRejects) {
  std::string err;
  auto n = WheelName::parse("/x/torch-2.4.0+cu128-1-cp311-cp311-linux_x86_64.whl", &err);
  ASSERT_TRUE(n) << err;
  EXPECT_EQ(n->dist, "torch");
  EXPECT_EQ(n->build, "1");
  EXPECT_EQ(n->filename(), "torch-2.4.0+cu128-1-cp311-cp311-linux_x86_64.whl");
  EXPECT_FALSE(WheelName::parse("torch.zip", &err));
  EXPECT_NE(err.find("no .whl suffix"), std::string::npos);
  EXPECT_FALSE(WheelName::parse("torch-cp311-linux.whl", &err));
}

}  // namespace
}  // namespace ts::package

namespace ts::package {
namespace {

// Names and tags become paths: their grammar (PEP 427/440/425) is checked before anything is written.
TEST(WheelName, PartsOutsideTheirGrammarAreRefused) {
  std::string err;
  EXPECT_FALSE(WheelName::parse("mini-..-cp311-cp311-linux_x86_64.whl", &err));
  EXPECT_NE(err.find("version '..'"), std::string::npos) << err;
  EXPECT_FALSE(WheelName::parse("mi;ni-0.1-cp311-cp311-linux_x86_64.whl", &err));
  EXPECT_NE(err.find("holds ';'"), std::string::npos) << err;
  EXPECT_FALSE(WheelName::parse("mini-0.1-cp311-cp311-linux_x86_64;x.whl", &err));
  EXPECT_FALSE(WheelName::parse("mini-0.1-a..b-none-any.whl", &err));
  EXPECT_TRUE(WheelName::parse("flash_attn-2.6.3+cu124torch2.4-cp311-cp311-linux_x86_64.whl", &err)) << err;
  EXPECT_TRUE(WheelName::parse("six-1.16.0-py2.py3-none-any.whl", &err)) << err;
  EXPECT_EQ(check_wheel_tag("cp311-cp311-manylinux_2_28_x86_64"), "");
  EXPECT_NE(check_wheel_tag("x/../../canary/evil-cp311-linux_x86_64"), "");
  EXPECT_NE(check_wheel_tag("cp311-cp311"), "");
  EXPECT_NE(check_wheel_version("1.0;rm"), "");
  EXPECT_EQ(check_wheel_version("2.4.1+cu124"), "");
  EXPECT_NE(check_dist_name("_x"), "");
  EXPECT_EQ(check_dist_name("torch_scatter"), "");
}

}  // namespace
}  // namespace ts::package

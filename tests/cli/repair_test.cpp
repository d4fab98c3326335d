// `torchsmith repair` end to end: the real binary on wheels made here.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "formats/zip_writer.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "formats/zip.h"
#include "verify/elf_builder.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using ts::testing::run_torchsmith;

using Dir = ::ts::testkit::TempDir;

TEST(RepairCli, RepairsAWheelAndReportsJson) {
  Dir d;
  {
    std::ofstream(d.path() + "/m.cpp") << "extern \"C\" int m() { return 1; }\n";
  }
  util::RunOptions ro;
  ro.timeout = std::chrono::seconds(120);
  auto cc = util::run({"g++", "-shared", "-fPIC", "-o", d.path() + "/m.so", d.path() + "/m.cpp"}, ro);
  ASSERT_TRUE(cc.ok()) << cc.err;
  const std::string wheel = d.path() + "/mini-0.1-cp311-cp311-linux_x86_64.whl";
  formats::ZipWriter w(wheel);
  w.add_file("mini/_m.so", d.path() + "/m.so");
  w.add("mini-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: mini\nVersion: 0.1\n");
  w.add("mini-0.1.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n");
  ::ts::testkit::add_record(w, "mini-0.1.dist-info");
  ASSERT_TRUE(w.finish()) << w.error();

  auto r = run_torchsmith({"repair", wheel, "-o", d.path() + "/out", "--local-version", "cpu", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], "0.1+cpu");
  const std::string platform = j["platform"];
  EXPECT_EQ(platform.rfind("manylinux_2_", 0), 0u) << platform;
  EXPECT_EQ(j["output"], d.path() + "/out/mini-0.1+cpu-cp311-cp311-" + platform + ".whl");
  const std::string out = j["output"];
  EXPECT_TRUE(fs::exists(out));
  EXPECT_FALSE(j["verdicts"].empty());
}

// The GPU machine's case: PATH without patchelf, an extension and its core library whose build-tree
// search paths are longer than '$ORIGIN'. The binary rewrites them in place and says so; the
// output's libraries read back with DT_RPATH $ORIGIN. Hand-built libraries: no compiler runs.
TEST(RepairCli, WithoutPatchelfOnPathSearchPathsAreRewrittenInPlace) {
  Dir d;
  auto lib = [](std::vector<std::string> needed, const std::string& soname, const std::string& runpath) {
    verify::test::ElfSpec s;
    s.segments = true;
    s.needed = std::move(needed);
    s.soname = soname;
    s.runpath = runpath;
    s.verneed_file = "libc.so.6";
    s.verneed_names = {"GLIBC_2.2.5"};
    s.symbols = {"PyInit__fr"};
    return verify::test::ElfBuilder(s).build();
  };
  const std::string wheel = d.path() + "/fr-1.2-cp312-cp312-linux_x86_64.whl";
  formats::ZipWriter w(wheel);
  w.add("fr/_fr.so", lib({"libfr_core.so", "libtorch.so", "libc.so.6"}, "", "/tmp/b/fr/build/lib:/opt/torch/lib"));
  w.add("fr/libfr_core.so", lib({"libc10.so", "libc.so.6"}, "libfr_core.so", "$ORIGIN:/opt/torch/lib"));
  w.add("fr-1.2.dist-info/METADATA", "Metadata-Version: 2.1\nName: fr\nVersion: 1.2\n");
  w.add("fr-1.2.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp312-cp312-linux_x86_64\n");
  ::ts::testkit::add_record(w, "fr-1.2.dist-info");
  ASSERT_TRUE(w.finish()) << w.error();

  util::RunOptions ro;
  ro.timeout = std::chrono::seconds(120);
  fs::create_directories(d.path() + "/empty-bin");
  ro.env = std::map<std::string, std::string>{
      {"PATH", d.path() + "/empty-bin"}, {"HOME", TS_BINARY_DIR}, {"NO_COLOR", "1"}, {"LC_ALL", "C"}};
  auto r = util::run({TS_BINARY, "repair", wheel, "-o", d.path() + "/out"}, ro);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rpath     fr/_fr.so: $ORIGIN [in place]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rpath     fr/libfr_core.so: $ORIGIN [in place]"), std::string::npos) << r.out;
  EXPECT_EQ((r.out + r.err).find("patchelf"), std::string::npos) << r.out << r.err;

  std::string out;
  for (const auto& e : fs::directory_iterator(d.path() + "/out")) out = e.path().string();
  formats::MappedFile f(out);
  std::string err;
  auto z = formats::ZipArchive::open(f.bytes(), &err);
  ASSERT_TRUE(z) << out << ": " << err;
  int read_back = 0;
  for (const auto& m : z->members()) {
    if (m.name.size() < 3 || m.name.substr(m.name.size() - 3) != ".so") continue;
    const std::string x = d.path() + "/member.so";
    ASSERT_EQ(z->extract(m, x), "");
    formats::MappedFile so(x);
    auto e = formats::ElfFile::parse(so.bytes(), &err);
    ASSERT_TRUE(e) << m.name << ": " << err;
    EXPECT_EQ(e->dynamic().rpath, "$ORIGIN") << m.name;
    EXPECT_EQ(e->dynamic().runpath, "") << m.name;
    ++read_back;
  }
  EXPECT_EQ(read_back, 2);
}

TEST(RepairCli, BadInputExitsTwoWithTheReason) {
  Dir d;
  auto r = run_torchsmith({"repair", d.path() + "/missing-1.0-py3-none-any.whl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;

  const std::string fake = d.path() + "/fake-1.0-cp311-cp311-linux_x86_64.whl";
  formats::ZipWriter w(fake);
  w.add("fake/_x.so", "not an ELF");
  w.add("fake-1.0.dist-info/WHEEL", "Tag: cp311-cp311-linux_x86_64\n");
  w.add("fake-1.0.dist-info/METADATA", "Name: fake\nVersion: 1.0\n");
  ::ts::testkit::add_record(w, "fake-1.0.dist-info");
  ASSERT_TRUE(w.finish());
  r = run_torchsmith({"repair", fake});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fake/_x.so is named like a shared library but is not an ELF file"),
            std::string::npos) << r.err;

  r = run_torchsmith({"repair", fake, "--plan", d.path() + "/no-lock.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::cli

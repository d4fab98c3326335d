// Wheels: zips made here with Python's zipfile (deflated and stored), their libraries checked in the
// wheel's own layout; truncated wheels and members that climb out with '..' refused clearly.
#include <gtest/gtest.h>

#include "elf_builder.h"
#include "fatbin_builder.h"
#include "formats/mapped_file.h"
#include "verify/verify.h"
#include "formats/zip.h"
#include "verify_test_util.h"

namespace ts::verify {
namespace {

class Wheel : public ::testing::Test {
 protected:
  void SetUp() override {
    python_ = test::tool("python3");
    if (python_.empty()) GTEST_SKIP() << "python3 not found";
    test::ElfSpec gpu;
    gpu.soname = "libgpu.so";
    gpu.needed = {"libdep.so"};
    gpu.runpath = "$ORIGIN/lib";
    gpu.fatbin = test::fatbin_container({test::fatbin_entry(2, 90, 0x8011, "cubin")});
    test::write(tmp_ / "src/libgpu.so", test::ElfBuilder(gpu).build());
    test::ElfSpec dep;
    dep.soname = "libdep.so";
    test::write(tmp_ / "src/libdep.so", test::ElfBuilder(dep).build());
    test::write(tmp_ / "src/__init__.py", "import os\n");
  }

  std::string make(const std::string& name, const std::string& method, std::vector<std::string> members) {
    std::vector<std::string> argv = {python_, "-c", test::kMakeWheel, tmp_ / name, method};
    argv.insert(argv.end(), members.begin(), members.end());
    auto r = test::run(argv);
    EXPECT_TRUE(r.ok()) << r.err;
    return tmp_ / name;
  }

  std::string good(const std::string& method) {
    return make("pkg-1.0-" + method + ".whl", method,
                {"pkg/__init__.py", tmp_ / "src/__init__.py", "pkg/libgpu.so", tmp_ / "src/libgpu.so",
                 "pkg/lib/libdep.so", tmp_ / "src/libdep.so"});
  }

  std::vector<std::string> lines(const VerifyReport& rep) {
    std::vector<std::string> out;
    for (const auto& v : rep.verdicts)
      out.push_back(v.file.substr(v.file.find('!') == std::string::npos ? v.file.size() : v.file.find('!')) + " " +
                    v.check + " " + outcome_name(v.outcome) + ": " + v.detail);
    return out;
  }

  test::TempDir tmp_;
  std::string python_;
};

TEST_F(Wheel, LibrariesCheckedInTheWheelLayout) {
  for (const std::string method : {"deflate", "store"}) {
    SCOPED_TRACE(method);
    VerifyOptions o;
    o.arches = *ArchList::parse("9.0");
    VerifyReport rep = verify_files({good(method)}, o);
    ASSERT_EQ(rep.files.size(), 2u);
    EXPECT_EQ(rep.files[1].runpath, std::vector<std::string>{"$ORIGIN/lib"});  // pkg/libgpu.so (after pkg/lib/), as written
    EXPECT_FALSE(any_failed(rep.verdicts));
    auto l = lines(rep);
    EXPECT_NE(std::find(l.begin(), l.end(), "!pkg/libgpu.so needed pass: 1 direct, 1 libraries in all resolve"), l.end())
        << ::testing::PrintToString(l);
    EXPECT_NE(std::find(l.begin(), l.end(), "!pkg/libgpu.so cuda arches pass: has 9.0 (sm_90)"), l.end())
        << ::testing::PrintToString(l);
  }
}

TEST_F(Wheel, TruncatedWheelFailsClearly) {
  const std::string whole = test::slurp(good("deflate"));
  test::write(tmp_ / "cut.whl", whole.substr(0, whole.size() / 2));
  VerifyReport rep = verify_files({tmp_ / "cut.whl"}, {});
  ASSERT_EQ(rep.verdicts.size(), 1u);
  EXPECT_EQ(rep.verdicts[0].check, "wheel");
  EXPECT_EQ(rep.verdicts[0].outcome, Outcome::fail);
  EXPECT_NE(rep.verdicts[0].detail.find("truncated"), std::string::npos) << rep.verdicts[0].detail;
}

TEST_F(Wheel, MembersClimbingOutAreRefused) {
  const std::string w = make("evil.whl", "deflate", {"../evil.so", tmp_ / "src/libdep.so"});
  formats::MappedFile m(w);
  std::string err;
  EXPECT_FALSE(formats::ZipArchive::open(m.bytes(), &err));
  EXPECT_EQ(err, "unsafe member name '../evil.so' (absolute or with '..')");
  VerifyReport rep = verify_files({w}, {});
  ASSERT_EQ(rep.verdicts.size(), 1u);
  EXPECT_EQ(rep.verdicts[0].outcome, Outcome::fail);
}

TEST_F(Wheel, CorruptDeflateDataIsAnError) {
  std::string bytes = test::slurp(good("deflate"));
  formats::ZipMember first;
  {
    std::string err;
    auto z = formats::ZipArchive::open(test::bytes_of(bytes), &err);
    ASSERT_TRUE(z) << err;
    first = z->members()[0];
  }
  // Damage the first member's compressed data, and only that: the headers still agree.
  for (std::uint64_t i = first.data_offset; i < first.data_offset + first.compressed_size; ++i) bytes[i] = char(0xff);
  test::write(tmp_ / "bad.whl", bytes);
  formats::MappedFile m(tmp_ / "bad.whl");
  std::string err;
  auto z = formats::ZipArchive::open(m.bytes(), &err);
  ASSERT_TRUE(z) << err;
  const std::string e = z->extract(z->members()[0], tmp_ / "out");
  EXPECT_TRUE(e == "pkg/__init__.py: corrupt deflate data" || e == "pkg/__init__.py: CRC mismatch (corrupt archive)") << e;
  // verify reads every member (RECORD's hashes): the damage is a failed wheel verdict.
  VerifyReport rep = verify_files({tmp_ / "bad.whl"}, {});
  ASSERT_EQ(rep.verdicts.size(), 1u);
  EXPECT_EQ(rep.verdicts[0].outcome, Outcome::fail);
}

}  // namespace
}  // namespace ts::verify

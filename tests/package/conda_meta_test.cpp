// The small pieces: build strings (S2), tags, requirement translation, wheel names, METADATA,
// entry points, and the MD5/SHA-256 file digests against known vectors.
#include "package/conda_meta.h"

#include <gtest/gtest.h>

#include "conda_testkit.h"
#include "package/conda_digest.h"
#include "package/conda_wheel.h"

namespace ts::package {
namespace {

TEST(CondaMeta, BuildStrings) {
  EXPECT_EQ(conda_build_string("3.8", "11.0.221", "8.0.5", 0),
            "py3.8_cuda11.0.221_cudnn8.0.5_0");  // seed 001
  EXPECT_EQ(conda_build_string("3.11", "12.8", "9.7.1", 2), "py3.11_cuda12.8_cudnn9.7.1_2");
  EXPECT_EQ(conda_build_string("3.10", "", "", 1), "py3.10_cpu_1");
  EXPECT_EQ(conda_build_string("3.10", "12.8", "", 0), "py3.10_cuda12.8_0");
}

TEST(CondaMeta, TagsAndSubdirs) {
  EXPECT_EQ(python_from_tag("cp38"), "3.8");
  EXPECT_EQ(python_from_tag("cp311"), "3.11");
  EXPECT_EQ(python_from_tag("py3"), "");
  EXPECT_EQ(python_from_tag("py2.py3"), "");
  EXPECT_EQ(subdir_from_platform("linux_x86_64"), "linux-64");
  EXPECT_EQ(subdir_from_platform("manylinux_2_17_x86_64.manylinux2014_x86_64"), "linux-64");
  EXPECT_EQ(subdir_from_platform("manylinux_2_28_aarch64"), "linux-aarch64");
  EXPECT_EQ(subdir_from_platform("win_amd64"), "");
  EXPECT_EQ(subdir_from_platform("macosx_11_0_arm64"), "");
  EXPECT_EQ(major_minor("3.8.5"), "3.8");
  EXPECT_EQ(major_minor("3"), "");
}

TEST(CondaMeta, RequirementsBecomeMatchSpecsOrAreExplained) {
  std::string why;
  EXPECT_EQ(conda_spec_from_requirement("typing-extensions>=4.8.0", &why).value_or(""),
            "typing-extensions >=4.8.0");
  EXPECT_EQ(conda_spec_from_requirement("Jinja2", &why).value_or(""), "jinja2");
  EXPECT_EQ(conda_spec_from_requirement("sympy (>=1.13, <2)", &why).value_or(""),
            "sympy >=1.13,<2");
  EXPECT_EQ(conda_spec_from_requirement("requests[socks]>=2", &why).value_or(""), "requests >=2");
  // conda's torch is "pytorch" (an extension's --pin-torch line becomes a run dependency on it).
  EXPECT_EQ(conda_spec_from_requirement("torch==2.6.*", &why).value_or(""), "pytorch ==2.6.*");
  EXPECT_FALSE(conda_spec_from_requirement("triton==3.1.0; platform_system == \"Linux\"", &why));
  EXPECT_NE(why.find("marker"), std::string::npos);
  EXPECT_FALSE(conda_spec_from_requirement("foo @ https://x/foo.whl", &why));
  EXPECT_EQ(spec_name("numpy >=1.23"), "numpy");
  EXPECT_EQ(spec_name("numpy>=1.23"), "numpy");
}

TEST(CondaMeta, CondaFileNames) {
  auto d = parse_conda_file_name("pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.bz2");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name, "pytorch");
  EXPECT_EQ(d->version, "1.8.0");
  EXPECT_EQ(d->build, "py3.8_cuda11.0.221_cudnn8.0.5_0");
  EXPECT_EQ(d->cudnn, "8.0.5");  // the build string's parts, typed where the name is read
  EXPECT_EQ(d->build_number, 0);
  auto t = parse_conda_file_name("tiny-pkg-0.1-py3.11_cpu_12.conda");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->name, "tiny-pkg");
  EXPECT_EQ(t->cudnn, "");
  EXPECT_EQ(t->build_number, 12);
  // Near misses: a build string that does not end in _N has no build number (not 0, not 7).
  EXPECT_EQ(parse_conda_file_name("a-1-py3.8_cpu_7x.conda")->build_number, std::nullopt);
  EXPECT_EQ(parse_conda_file_name("a-1-py3.8_cpu_.conda")->build_number, std::nullopt);
  EXPECT_EQ(parse_conda_file_name("a-1-h12ab.conda")->build_number, std::nullopt);
  EXPECT_EQ(parse_conda_file_name("a-1-py3.8_cpu_+3.conda")->build_number, std::nullopt);
  EXPECT_FALSE(parse_conda_file_name("x-1.tar.bz2"));
  EXPECT_FALSE(parse_conda_file_name("a-b-c.zip"));
}

TEST(CondaWheel, NamesMetadataAndEntryPoints) {
  std::string err;
  auto w = parse_wheel_name("dist/torch-2.4.0a0+gitee1b680-cp38-cp38-linux_x86_64.whl", &err);
  ASSERT_TRUE(w) << err;
  EXPECT_EQ(w->name, "torch");
  EXPECT_EQ(w->version, "2.4.0a0+gitee1b680");
  EXPECT_EQ(w->platform_tag, "linux_x86_64");
  EXPECT_TRUE(parse_wheel_name("a-1-1build-py3-none-any.whl", &err));
  EXPECT_FALSE(parse_wheel_name("torch-2.4.tar.gz", &err));
  EXPECT_FALSE(parse_wheel_name("torch-2.4-x.whl", &err));
  EXPECT_NE(err.find("5 or 6"), std::string::npos);
  EXPECT_EQ(normalize_name("Tiny_Pkg..x"), "tiny-pkg-x");

  auto m = parse_metadata(
      "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.1\nLicense: BSD-3\n  more\n"
      "Requires-Dist: filelock\nRequires-Dist: sympy\n\nName: body-not-header\n");
  EXPECT_EQ(m.name, "torch");
  EXPECT_EQ(m.license, "BSD-3");
  EXPECT_EQ(m.requires_dist, (std::vector<std::string>{"filelock", "sympy"}));

  auto eps = parse_entry_points(
      "[console_scripts]\ntorchrun = torch.distributed.run:main\n../evil = x:y\n"
      "[other]\nz = a:b\n[gui_scripts]\ng = m.n:run [extra]\n");
  ASSERT_EQ(eps.size(), 2u);
  EXPECT_EQ(eps[0].name, "torchrun");
  EXPECT_EQ(eps[0].module, "torch.distributed.run");
  EXPECT_EQ(eps[0].attr, "main");
  EXPECT_EQ(eps[1].attr, "run");
  EXPECT_TRUE(eps[1].gui);
}

TEST(CondaDigest, KnownVectorsAndChunking) {
  Md5 a;
  EXPECT_EQ(a.hex(), "d41d8cd98f00b204e9800998ecf8427e");
  Md5 b;
  b.update("The quick brown fox jumps over the lazy dog");
  EXPECT_EQ(b.hex(), "9e107d9d372bb6826bd81d3542a419d6");
  ts::testing::TempDir t("digest");
  std::string big;
  for (int i = 0; i < 300000; ++i) big += static_cast<char>(i * 31 % 251);
  util::write_file_atomic(t.path + "/f", big);
  std::string err;
  auto d = digest_file(t.path + "/f", &err);
  ASSERT_TRUE(d) << err;
  auto want = ts::testing::hashlib_digest(t.path + "/f");
  EXPECT_EQ(d->sha256, want[0]);
  EXPECT_EQ(d->md5, want[1]);
  EXPECT_EQ(d->size, big.size());
  EXPECT_FALSE(digest_file(t.path + "/missing", &err));
  EXPECT_NE(err.find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace ts::package

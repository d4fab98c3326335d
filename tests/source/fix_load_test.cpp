#include <gtest/gtest.h>

#include "source/fix.h"
#include "test_tree.h"

using namespace ts::source;
using ts::source::testkit::joined;
using ts::CudaArch;
namespace fs = std::filesystem;

namespace {

bool has_error(const std::vector<std::string>& errors, const std::string& needle) {
  for (const auto& e : errors)
    if (e.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(FixLoad, EmbeddedFixesLoadCleanly) {
  std::vector<std::string> errors;
  FixSet set = load_fixes({}, errors);
  EXPECT_TRUE(errors.empty()) << joined(errors);
  for (const char* id : {"torch-cpp-extension-cuda118-compilers", "torch-cpp-extension-arches-sm89-sm90",
                         "torch-setup-stock-install-command", "torch-cmake4-policy-version-minimum",
                         "torch-select-compute-arch-sm120", "torch-gloo-types-cstdint-gcc15",
                         "torch-cuda-nvtoolsext-nvtx3", "torch-jit-quantization-type-cstdint-gcc13"}) {
    const Fix* f = set.find(id);
    ASSERT_NE(f, nullptr) << id;
    EXPECT_FALSE(f->reason.empty()) << id;
    EXPECT_FALSE(f->source.empty()) << id;
    EXPECT_EQ(f->file.rfind("fixes/", 0), 0u) << f->file;
    EXPECT_GT(f->line, 0);
  }
}

TEST(FixLoad, ReadsEveryField) {
  std::vector<Fix> fixes;
  auto errors = parse_fixes_text("x.toml", R"(
[[fix]]
id = "demo"
reason = "why"
source = "pytorch#1"
checked = "v2.4.1"
cmake = ["-DBUILD_TEST=OFF"]
[fix.when]
version = ">=2.0,<2.7"
cuda = "12.8+"
cmake = ">=4"
gcc = "<13"
arches_any = ["sm_120", "10.0"]
[fix.env]
A = "1"
[[fix.edit]]
file = "a/b.txt"
anchor = "x"
op = "insert_before"
text = "y"
)",
                                 fixes);
  ASSERT_TRUE(errors.empty()) << joined(errors);
  ASSERT_EQ(fixes.size(), 1u);
  const Fix& f = fixes[0];
  EXPECT_EQ(f.id, "demo");
  EXPECT_EQ(f.checked, "v2.4.1");
  EXPECT_EQ(f.when.version->str(), ">=2.0,<2.7");
  ASSERT_EQ(f.when.arches_any.size(), 2u);
  EXPECT_EQ(f.when.arches_any[0], CudaArch::of(12, 0));
  EXPECT_EQ(f.env[0], (std::pair<std::string, std::string>{"A", "1"}));
  EXPECT_EQ(f.cmake_options[0], "-DBUILD_TEST=OFF");
  ASSERT_EQ(f.edits.size(), 1u);
  EXPECT_EQ(f.edits[0].op, EditOp::insert_before);
  EXPECT_EQ(f.edits[0].line, 16);
}

TEST(FixLoad, BadFilesNameTheProblemWithFileAndLine) {
  auto e = check_fixes_text("bad.toml", "[[fix]]\nid = \"x\"\n");
  EXPECT_TRUE(has_error(e, "bad.toml:1: fix 'x': 'reason' is missing")) << joined(e);
  EXPECT_TRUE(has_error(e, "no action")) << joined(e);

  e = check_fixes_text("bad.toml", "[[fix]\n");
  EXPECT_TRUE(has_error(e, "bad.toml:1: not valid TOML")) << joined(e);
  // Inputs that make toml++ 3.3 reach unreachable code are refused before it sees them.
  for (const char* evil : {"[[[fix]]]\n", "\xc3\xa9 = 1\n", "a = 1\x01\n"}) {
    e = check_fixes_text("evil.toml", evil);
    EXPECT_TRUE(has_error(e, "evil.toml:1:")) << joined(e);
  }

  e = check_fixes_text("bad.toml", R"([[fix]]
id = "x"
reason = "r"
source = "s"
[fix.when]
version = "banana"
arches_any = ["sm_12x"]
[[fix.edit]]
file = "../etc/passwd"
anchor = "(unclosed"
regex = true
op = "prepend"
text = "{{nope}}"
template = true
colour = "red"
)");
  EXPECT_TRUE(has_error(e, "bad.toml:6: fix 'x'.when: 'version' is not a version range")) << joined(e);
  EXPECT_TRUE(has_error(e, "arches_any: not an arch")) << joined(e);
  EXPECT_TRUE(has_error(e, "'..' would leave the source tree")) << joined(e);
  EXPECT_TRUE(has_error(e, "anchor is not a valid regex")) << joined(e);
  EXPECT_TRUE(has_error(e, "op 'prepend' is not one of")) << joined(e);
  EXPECT_TRUE(has_error(e, "unknown placeholder {{nope}}")) << joined(e);
  EXPECT_TRUE(has_error(e, "unknown key 'colour'")) << joined(e);

  e = check_fixes_text("empty.toml", "[[fix]]\nid = \"x\"\nreason = \"r\"\nsource = \"s\"\n"
                                     "[[fix.edit]]\nfile = \"a\"\nanchor = \"b\"\nop = \"replace\"\ntext = \"\"\n");
  EXPECT_TRUE(has_error(e, "empty.toml:5: fix 'x' edit 1: text is empty")) << joined(e);
}

TEST(FixLoad, DuplicateIdsAndBadFilesContributeNothing) {
  std::vector<Fix> fixes;
  auto e = parse_fixes_text("d.toml", R"([[fix]]
id = "a"
reason = "r"
source = "s"
[fix.env]
X = "1"
[[fix]]
id = "a"
reason = "r"
source = "s"
[fix.env]
X = "2"
)",
                            fixes);
  EXPECT_TRUE(has_error(e, "defined twice")) << joined(e);
  EXPECT_TRUE(fixes.empty());
}

TEST(FixLoad, OverlayReplacesBuiltInFixById) {
  testkit::ScratchDir dir;
  fs::create_directories(dir / "kb/fixes");
  testkit::spit(dir / "kb/fixes/mine.toml", R"([[fix]]
id = "torch-cmake4-policy-version-minimum"
reason = "site override"
source = "local"
[fix.env]
CMAKE_POLICY_VERSION_MINIMUM = "3.10"
)");
  std::vector<std::string> errors;
  FixSet set = load_fixes({dir / "kb"}, errors);
  ASSERT_TRUE(errors.empty()) << joined(errors);
  const Fix* f = set.find("torch-cmake4-policy-version-minimum");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->env[0].second, "3.10");
  EXPECT_NE(f->file.find("mine.toml"), std::string::npos);

  errors.clear();
  set = load_fixes({dir / "kb/fixes/"}, errors);  // the fixes folder itself, trailing slash and all
  ASSERT_TRUE(errors.empty()) << joined(errors);
  EXPECT_EQ(set.find("torch-cmake4-policy-version-minimum")->env[0].second, "3.10");

  errors.clear();
  load_fixes({dir / "missing"}, errors);
  EXPECT_TRUE(has_error(errors, "not a directory")) << joined(errors);
}

TEST(FixSelect, ConditionsHoldOnlyOnKnownFacts) {
  std::vector<std::string> errors;
  FixSet set = load_fixes({}, errors);
  auto ids = [&](const FixContext& c) {
    std::vector<std::string> out;
    for (const Fix* f : select_fixes(set, c)) out.push_back(f->id);
    return out;
  };
  using V = std::vector<std::string>;
  // S3: torch 2.4.1, CUDA 12.8, sm_120, CMake 4.2.
  FixContext s3{"torch", "2.4.1", "12.8", "4.2.0", "13.3.0", {CudaArch::of(8, 6), CudaArch::of(12, 0)}};
  EXPECT_EQ(ids(s3), (V{"torch-cmake4-policy-version-minimum", "torch-select-compute-arch-sm120"}));
  // S1: torch 1.13.0, CUDA 11.8, sm_89, CMake 3.26.
  FixContext s1{"torch", "1.13.0", "11.8", "3.26.4", "9.4.0", {CudaArch::of(8, 9)}};
  EXPECT_EQ(ids(s1), (V{"torch-cpp-extension-cuda118-compilers", "torch-cpp-extension-arches-sm89-sm90",
                         "torch-setup-stock-install-command"}));
  // Unknown CMake: the CMake 4 fix is not applied on a guess; a new torch needs none of these.
  FixContext unknown{"torch", "2.4.1", "12.8", "", "", {CudaArch::of(12, 0)}};
  EXPECT_EQ(ids(unknown), (V{"torch-select-compute-arch-sm120"}));
  FixContext fresh{"torch", "2.9.0", "12.8", "4.2", "13", {CudaArch::of(12, 0)}};
  EXPECT_TRUE(ids(fresh).empty());
  // A source-tree version ("2.4.0a0+git...") counts as its release.
  FixContext tree{"torch", "2.4.0a0+gitee1b680", "12.8", "4.2", "", {CudaArch::of(12, 0)}};
  EXPECT_EQ(ids(tree).size(), 2u);
  FixContext vision = s3;
  vision.package = "torchvision";
  EXPECT_TRUE(ids(vision).empty());
}

TEST(FixSelect, NvtxAndGcc13FixesHoldOnlyWhereTheirUpstreamFilesNeedThem) {
  std::vector<std::string> errors;
  FixSet set = load_fixes({}, errors);
  ASSERT_TRUE(errors.empty()) << joined(errors);
  auto ids = [&](const FixContext& c) {
    std::vector<std::string> out;
    for (const Fix* f : select_fixes(set, c)) out.push_back(f->id);
    return out;
  };
  using V = std::vector<std::string>;
  // S3 on CUDA 12.9 (libnvToolsExt gone): the NVTX fix joins the CMake 4 and sm_120 fixes.
  FixContext s3_129{"torch", "2.4.1", "12.9", "4.2.0", "13.3.0", {CudaArch::of(8, 6), CudaArch::of(12, 0)}};
  EXPECT_EQ(ids(s3_129), (V{"torch-cmake4-policy-version-minimum", "torch-cuda-nvtoolsext-nvtx3",
                             "torch-select-compute-arch-sm120"}));
  FixContext nvtx{"torch", "2.3.1", "13.0", "3.30", "12.2", {}};
  EXPECT_EQ(ids(nvtx), (V{"torch-cuda-nvtoolsext-nvtx3"}));
  nvtx.cuda = "12.8";  // still ships libnvToolsExt on Linux
  EXPECT_TRUE(ids(nvtx).empty());
  nvtx.cuda = "";  // unknown CUDA: not on a guess
  EXPECT_TRUE(ids(nvtx).empty());
  nvtx.cuda = "12.9";
  for (const char* v : {"2.2.2", "2.5.0", "2.7.1"}) {  // 2.5+ use NVTX3 themselves; 2.2 not checked
    nvtx.version = v;
    EXPECT_TRUE(ids(nvtx).empty()) << v;
  }
  nvtx.version = "2.4.0a0+git1234567";
  EXPECT_EQ(ids(nvtx), (V{"torch-cuda-nvtoolsext-nvtx3"}));

  // GCC 13 on torch < 2.1: quantization_type.h needs <cstdint>.
  FixContext gcc{"torch", "2.0.1", "11.7", "3.26", "13.2.0", {}};
  EXPECT_EQ(ids(gcc), (V{"torch-jit-quantization-type-cstdint-gcc13"}));
  gcc.gcc = "15.1.0";  // GCC 15 needs it too, and gloo's types.h as well
  EXPECT_EQ(ids(gcc), (V{"torch-jit-quantization-type-cstdint-gcc13", "torch-gloo-types-cstdint-gcc15"}));
  gcc.gcc = "12.3.0";
  EXPECT_TRUE(ids(gcc).empty());
  gcc.gcc = "";
  EXPECT_TRUE(ids(gcc).empty());
  gcc.gcc = "13.1";
  gcc.version = "2.1.0";  // has upstream's include
  EXPECT_TRUE(ids(gcc).empty());
  gcc.version = "1.7.1";  // older than the checked forms
  EXPECT_TRUE(ids(gcc).empty());
  FixContext vision = gcc;
  vision.package = "torchvision";
  vision.version = "0.15.2";
  EXPECT_TRUE(ids(vision).empty());
}

TEST(FixHash, StableAndSensitiveToContent) {
  std::vector<std::string> errors;
  FixSet a = load_fixes({}, errors), b = load_fixes({}, errors);
  const Fix* fa = a.find("torch-select-compute-arch-sm120");
  ASSERT_NE(fa, nullptr);
  EXPECT_EQ(fix_hash(*fa), fix_hash(*b.find("torch-select-compute-arch-sm120")));
  EXPECT_EQ(fix_hash(*fa).size(), 64u);
  Fix changed = *fa;
  changed.edits[0].text += " ";
  EXPECT_NE(fix_hash(changed), fix_hash(*fa));
  Fix moved = *fa;
  moved.file = "elsewhere.toml";
  moved.line = 99;
  EXPECT_EQ(fix_hash(moved), fix_hash(*fa));  // origin is not content
}

TEST(FixTemplate, FillsKnownPlaceholders) {
  FixContext c{"torch", "2.4.1", "12.8", "4.2", "13", {CudaArch::of(8, 6), CudaArch::of(12, 0, 0, true)}};
  EXPECT_EQ(expand_template("cuda {{cuda}} torch {{version}} arches {{arch_list}} {{x}}", c),
            "cuda 12.8 torch 2.4.1 arches 8.6;12.0+PTX {{x}}");
}

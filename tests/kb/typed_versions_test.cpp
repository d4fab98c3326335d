// The loader parses version fields once into core::Version: a malformed one is a file:line error
// naming the key (the file is skipped whole), and the typed values compare as versions, not text.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "kb/kb.h"

namespace ts::kb {
namespace {

struct Case {
  const char* file;
  std::vector<std::string> lines;  // one valid entry, one key per line
  const char* key;                 // the typed field whose value is made malformed
};

std::string join(const std::vector<std::string>& lines) {
  std::string t;
  for (const auto& l : lines) t += l + "\n";
  return t;
}

const std::vector<std::string> kCudaRelease{"[[release]]", "version = \"13.9\"", "arches = [\"9.0\"]",
                                            "gcc_max = \"16\"", "clang_max = \"22\"",
                                            "driver_min_linux = \"600.10\"", "driver_min_windows = \"600.20\"",
                                            "source = \"test\""};
const std::vector<std::string> kCudaFamily{"[[family]]", "major = \"14\"", "driver_min_linux = \"600.10\"",
                                           "driver_min_windows = \"600.20\"", "source = \"test\""};
const std::vector<std::string> kArch{"[[arch]]", "arch = \"3.5\"", "first_cuda = \"5.0\"", "source = \"test\""};
const std::vector<std::string> kTorch{"[[release]]", "version = \"9.9\"", "python = \">=3.8,<3.13\"",
                                      "cuda = [\"12.4\"]", "cmake_min = \"3.10\"", "cmake_max_exclusive = \"4\"",
                                      "gcc_min = \"9\"", "cxx_standard = \"17\"", "numpy = \">=1,<2\"",
                                      "torchvision = \"0.99\"", "torchaudio = \"9.9\"", "arch_names = [\"8.0\"]",
                                      "source = \"test\""};
const std::vector<std::string> kJetpack{"[[jetpack]]", "l4t = \"99.1.0\"", "jetpack = \"9.9\"", "cuda = \"12.6\"",
                                        "source = \"test\""};

const std::vector<Case> kCases{
    {"cuda.toml", kCudaRelease, "gcc_max"},          {"cuda.toml", kCudaRelease, "clang_max"},
    {"cuda.toml", kCudaRelease, "driver_min_linux"}, {"cuda.toml", kCudaRelease, "driver_min_windows"},
    {"cuda.toml", kCudaFamily, "driver_min_linux"},  {"cuda.toml", kCudaFamily, "driver_min_windows"},
    {"cuda.toml", kArch, "first_cuda"},              {"torch.toml", kTorch, "cmake_min"},
    {"torch.toml", kTorch, "cmake_max_exclusive"},   {"torch.toml", kTorch, "gcc_min"},
    {"tegra.toml", kJetpack, "cuda"},
};

Kb embedded_kb() {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  EXPECT_TRUE(errors.empty());
  return kb;
}

TEST(KbTypedVersions, EveryValidEntryLoadsTyped) {
  Kb kb = embedded_kb();
  std::vector<KbError> errors;
  load_text(kb, "cuda.toml", join(kCudaRelease) + "\n" + join(kCudaFamily) + "\n" + join(kArch), errors);
  load_text(kb, "torch.toml", join(kTorch), errors);
  load_text(kb, "tegra.toml", join(kJetpack), errors);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  const CudaRelease* r = kb.find_cuda("13.9");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->gcc_max.major(), 16);
  EXPECT_EQ(r->clang_max.major(), 22);
  EXPECT_EQ(r->driver_min_linux.original(), "600.10");
  ASSERT_TRUE(r->driver_min_windows);
  EXPECT_EQ(r->driver_min_windows->original(), "600.20");
  const CudaFamily* f = kb.find_cuda_family("14.0");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->driver_min_linux.original(), "600.10");
  ASSERT_TRUE(f->driver_min_windows);
  const ArchSupport* a = kb.first_support(CudaArch::of(3, 5));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->first_cuda.original(), "5.0");
  const TorchRelease* t = kb.find_torch("9.9");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->cmake_min.original(), "3.10");
  ASSERT_TRUE(t->cmake_max_exclusive && t->gcc_min);
  EXPECT_EQ(t->cmake_max_exclusive->major(), 4);
  EXPECT_EQ(t->gcc_min->major(), 9);
  const JetpackRelease* j = kb.find_jetpack("99.1.0");
  ASSERT_NE(j, nullptr);
  ASSERT_TRUE(j->cuda);
  EXPECT_EQ(j->cuda->original(), "12.6");
}

TEST(KbTypedVersions, AMalformedVersionInEachTypedFieldIsAFileLineError) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.file) + " " + c.lines[0] + " " + c.key);
    std::vector<std::string> lines = c.lines;
    int line = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].rfind(std::string(c.key) + " = ", 0) == 0) {
        lines[i] = std::string(c.key) + " = \"1x.y\"";
        line = static_cast<int>(i) + 1;
      }
    ASSERT_GT(line, 0);
    Kb kb = embedded_kb();
    const std::size_t torch_before = kb.torch.size(), cuda_before = kb.cuda.size();
    std::vector<KbError> errors;
    load_text(kb, c.file, join(lines), errors);
    // "cuda.toml:4: cuda release: gcc_max: '1x.y' is not a version (...); write gcc_max = ..."
    const std::string at = std::string(c.file) + ":" + std::to_string(line) + ": ";
    const std::string what = std::string(" ") + c.key + ": '1x.y' is not a version";
    bool found = false;
    std::string all;
    for (const auto& e : errors) {
      found = found || (e.str().rfind(at, 0) == 0 && e.str().find(what) != std::string::npos);
      all += "\n  " + e.str();
    }
    EXPECT_TRUE(found) << "no error '" << at << "..." << what << "' in:" << all;
    // The file is skipped whole: no entry with a default-constructed version gets in.
    EXPECT_EQ(kb.torch.size(), torch_before);
    EXPECT_EQ(kb.cuda.size(), cuda_before);
    EXPECT_EQ(kb.find_jetpack("99.1.0"), nullptr);
    EXPECT_EQ(kb.find_cuda_family("14.0"), nullptr);
  }
}

TEST(KbTypedVersions, TypedFieldsCompareAsVersionsNotText) {
  Kb kb = embedded_kb();
  std::vector<KbError> errors;
  std::vector<std::string> newer = kCudaRelease, older = kCudaRelease;
  newer[1] = "version = \"13.8\"";
  newer[5] = "driver_min_linux = \"12.10\"";
  older[1] = "version = \"13.7\"";
  older[5] = "driver_min_linux = \"12.9\"";
  std::vector<std::string> torch = kTorch;
  torch[4] = "cmake_min = \"3.10.0\"";
  load_text(kb, "cuda.toml", join(newer) + "\n" + join(older), errors);
  load_text(kb, "torch.toml", join(torch), errors);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  const CudaRelease *a = kb.find_cuda("13.8"), *b = kb.find_cuda("13.7");
  ASSERT_TRUE(a && b);
  EXPECT_GT(a->driver_min_linux, b->driver_min_linux);  // 12.10 > 12.9, though "12.10" < "12.9" as text
  EXPECT_LT(a->driver_min_linux.original(), b->driver_min_linux.original());
  const TorchRelease* t = kb.find_torch("9.9");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->cmake_min, *Version::parse("3.10"));  // trailing zeros do not matter
  EXPECT_GT(t->cmake_min, *Version::parse("3.9"));
  EXPECT_EQ(t->cmake_min.original(), "3.10.0");      // output keeps the file's spelling
}

// Arch lists, a release's official CUDA versions and its C++ standard are typed when the KB loads, so
// the planner compares CudaArch and Version values and never parses KB text again (issue 33).
TEST(KbTypedVersions, ArchListsCudaVersionsAndTheCxxStandardLoadTyped) {
  Kb kb = embedded_kb();
  std::vector<KbError> errors;
  std::vector<std::string> cuda = kCudaRelease, torch = kTorch;
  cuda[2] = "arches = [\"8.0\", \"9.0\", \"9.0a\", \"10.0f\"]";
  torch[3] = "cuda = [\"12.4\", \"12.10\"]";
  torch[11] = "arch_names = [\"8.0\", \"9.0a\"]";
  load_text(kb, "cuda.toml", join(cuda), errors);
  load_text(kb, "cuda.toml", "[[release]]\nversion = \"12.10\"\narches = [\"9.0\"]\ngcc_max = \"16\"\nclang_max = \"22\"\n"
                             "driver_min_linux = \"600.10\"\nsource = \"test\"\n", errors);
  load_text(kb, "torch.toml", join(torch), errors);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  const CudaRelease* r = kb.find_cuda("13.9");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->arches, (std::vector<CudaArch>{CudaArch::of(8, 0), CudaArch::of(9, 0), CudaArch::of(9, 0, 'a'),
                                              CudaArch::of(10, 0, 'f')}));
  EXPECT_EQ(spelled(r->arches), (std::vector<std::string>{"8.0", "9.0", "9.0a", "10.0f"}));  // output keeps the KB's text
  const TorchRelease* t = kb.find_torch("9.9");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->cxx_standard, 17);
  EXPECT_EQ(t->arch_names, (std::vector<CudaArch>{CudaArch::of(8, 0), CudaArch::of(9, 0, 'a')}));
  ASSERT_EQ(t->cuda.size(), 2u);
  EXPECT_GT(t->cuda[1], t->cuda[0]);  // 12.10 > 12.4 as versions
  EXPECT_TRUE(t->official_cuda(Version::parse("12.4.131")));  // a toolkit's full version: its major.minor counts
  EXPECT_TRUE(t->official_cuda(Version::parse("12.10")));
  EXPECT_FALSE(t->official_cuda(Version::parse("12.1")));
  EXPECT_FALSE(t->official_cuda(std::nullopt));
}

TEST(KbTypedVersions, ABadArchOrCxxStandardIsAFileLineErrorAndTheFileIsSkipped) {
  for (auto [key, value, what] : {std::tuple{"arch_names", "[\"8.0\", \"sm_90\"]", "arch_names: 'sm_90' is spelled 9.0"},
                                  std::tuple{"cxx_standard", "\"18\"", "cxx_standard: '18' is not a C++ standard"},
                                  std::tuple{"cuda", "[\"12\"]", "cuda: '12' is not a CUDA major.minor"}}) {
    SCOPED_TRACE(key);
    std::vector<std::string> torch = kTorch;
    int line = 0;
    for (std::size_t i = 0; i < torch.size(); ++i)
      if (torch[i].rfind(std::string(key) + " = ", 0) == 0) torch[i] = std::string(key) + " = " + value, line = int(i) + 1;
    Kb kb = embedded_kb();
    std::vector<KbError> errors;
    load_text(kb, "torch.toml", join(torch), errors);
    bool found = false;
    for (const auto& e : errors)
      found = found || (e.str().rfind("torch.toml:" + std::to_string(line) + ": ", 0) == 0 && e.str().find(what) != std::string::npos);
    EXPECT_TRUE(found) << (errors.empty() ? std::string("no error") : errors.front().str());
    EXPECT_EQ(kb.find_torch("9.9"), nullptr);
  }
}

// gpus.toml's and tegra.toml's arches (and the SoC's CUDA ranges) are typed when they load: identify
// and the arch rules read CudaArch and VersionRange, never the text.
TEST(KbTypedVersions, GpuAndSocArchesLoadTyped) {
  Kb kb = embedded_kb();
  std::vector<KbError> errors;
  load_text(kb, "gpus.toml", "[[gpu]]\npci_id = \"fff1\"\nname = \"Test\"\narch = \"9.0\"\nfamily = \"Hopper\"\n"
                             "source = \"test\"\n", errors);
  load_text(kb, "tegra.toml", "[[soc]]\ncompatible = \"tegra999\"\nname = \"Test SoC\"\narch = \"8.7\"\nsource = \"test\"\n"
                              "  [[soc.arch_by_cuda]]\n  cuda = \">=13.0\"\n  arch = \"11.0\"\n", errors);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  ASSERT_NE(kb.find_gpu("fff1"), nullptr);
  EXPECT_EQ(kb.find_gpu("fff1")->arch, CudaArch::of(9, 0));
  const TegraSoc* s = kb.find_tegra("tegra999");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->arch, CudaArch::of(8, 7));
  ASSERT_EQ(s->arch_by_cuda.size(), 1u);
  EXPECT_EQ(s->arch_by_cuda[0].cuda.str(), ">=13.0");
  EXPECT_EQ(s->arch_for_cuda(*Version::parse("13.1")), CudaArch::of(11, 0));
  EXPECT_EQ(s->arch_for_cuda(*Version::parse("12.9")), CudaArch::of(8, 7));  // outside every range: its own arch
}

// Near misses: a GPU arch in another spelling, with +PTX or of no toolkit is a file:line error and the
// file is skipped (no entry with a made-up 0.0 arch survives).
TEST(KbTypedVersions, ABadGpuArchIsAFileLineErrorAndTheFileIsSkipped) {
  for (auto [value, what] : {std::pair{"\"sm_90\"", "'sm_90' is spelled 9.0"},
                             std::pair{"\"9.0+PTX\"", "carries +PTX"},
                             std::pair{"\"9.7\"", "is a target of no CUDA toolkit"},
                             std::pair{"\"\"", "arch"}}) {
    SCOPED_TRACE(value);
    Kb kb = embedded_kb();
    std::vector<KbError> errors;
    load_text(kb, "gpus.toml", std::string("[[gpu]]\npci_id = \"fff1\"\nname = \"Test\"\narch = ") + value +
                                   "\nfamily = \"Hopper\"\nsource = \"test\"\n", errors);
    bool found = false;
    for (const auto& e : errors) found = found || (e.str().rfind("gpus.toml:", 0) == 0 && e.str().find(what) != std::string::npos);
    EXPECT_TRUE(found) << (errors.empty() ? std::string("no error") : errors.front().str());
    EXPECT_EQ(kb.find_gpu("fff1"), nullptr);
  }
}

}  // namespace
}  // namespace ts::kb

// The fatbin reader: hand-built containers, garbage, and libraries compiled here by nvcc, checked
// against the -gencode flags they were built with and, where cuobjdump exists, against its listing.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "fatbin_builder.h"
#include "verify/cuda_code.h"
#include "verify/fatbin.h"
#include "formats/mapped_file.h"
#include "verify_test_util.h"

namespace ts::verify {
namespace {

using test::bytes_of;

using test::le;
std::string entry(int kind, int arch, std::uint64_t flags, const std::string& payload, int extra = 0) {
  return test::fatbin_entry(kind, arch, flags, payload, extra);
}
std::string container(const std::vector<std::string>& entries) { return test::fatbin_container(entries); }

TEST(Fatbin, ReadsHandBuiltContainers) {
  const std::string sec = container({entry(2, 80, 0x11, "cubin80"), entry(1, 90, 0x8011, "ptx", 16)}) +
                          std::string(8, '\0') +  // padding between containers
                          container({entry(2, 90, 0x100011, "cubin90a"), entry(2, 100, 0x1200011, "c", 48)});
  std::string err;
  auto es = read_fatbins(bytes_of(sec), &err);
  ASSERT_TRUE(es) << err;
  ASSERT_EQ(es->size(), 4u);
  EXPECT_EQ((*es)[0].kind, FatbinKind::sass);
  EXPECT_EQ((*es)[0].cuda_arch().sm(), "sm_80");
  EXPECT_FALSE((*es)[0].compressed);
  EXPECT_EQ((*es)[1].kind, FatbinKind::ptx);
  EXPECT_EQ((*es)[1].cuda_arch().compute(), "compute_90");
  EXPECT_TRUE((*es)[1].compressed);
  EXPECT_EQ((*es)[2].cuda_arch().sm(), "sm_90a");
  EXPECT_EQ((*es)[3].cuda_arch().sm(), "sm_100f");
  EXPECT_EQ((*es)[3].header_size, 112u);
}

std::string fatbin_error(const std::string& sec) {
  std::string err;
  auto es = read_fatbins(bytes_of(sec), &err);
  return es ? "" : err;
}

TEST(FatbinBadInput, ClearErrors) {
  EXPECT_EQ(fatbin_error("garbage!garbage!garbage!"), "fatbin at 0x0: bad magic 0x62726167");
  EXPECT_EQ(fatbin_error(le(kFatbinMagic, 4) + "xx"), "fatbin at 0x0: truncated header");
  const std::string good = container({entry(2, 80, 0x11, "cubin80")});
  EXPECT_NE(fatbin_error(good.substr(0, good.size() - 4)).find("past end of section"), std::string::npos);
  // The container's size covers only half of the entry header.
  std::string bad = le(kFatbinMagic, 4) + le(1, 2) + le(16, 2) + le(32, 8) + good.substr(16);
  EXPECT_NE(fatbin_error(bad).find("fatbin entry at 0x10 past end of its container"), std::string::npos);
  // Entry header size below 64: would loop forever if trusted.
  bad = good;
  bad[16 + 4] = 0;
  EXPECT_NE(fatbin_error(bad).find("past end of its container"), std::string::npos);
  // Payload size larger than the container.
  bad = good;
  bad[16 + 8 + 5] = 0x7f;
  EXPECT_NE(fatbin_error(bad).find("past end of its container"), std::string::npos);
  // Garbage after a good container.
  EXPECT_NE(fatbin_error(good + "\x01\x02\x03").find("fatbin at 0x"), std::string::npos);
}

TEST(FatbinBadInput, RandomCorruptionsNeverCrash) {
  const std::string good = container({entry(2, 80, 0x11, std::string(200, 'x')), entry(1, 90, 0x8011, "ptx", 16)});
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::string c = good.substr(0, rng() % (good.size() + 1));
    for (int k = 0; k < 4 && !c.empty(); ++k) c[rng() % c.size()] = char(rng());
    std::string err;
    auto es = read_fatbins(bytes_of(c), &err);
    if (!es) {
      EXPECT_FALSE(err.empty());
    }
  }
}

// --- libraries compiled here ---------------------------------------------------------------------

struct Built {
  std::string plain, compressed, suffixed, error;
};

class FatbinNvcc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::TempDir>();
    built_ = std::make_unique<Built>();
    const std::string nvcc = test::tool("nvcc");
    if (nvcc.empty()) { built_->error = "nvcc not found"; return; }
    const std::string cu = *dir_ / "k.cu";
    test::write(cu, "__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n"
                    "void launch(float* x) { k<<<1, 32>>>(x); }\n");
    const auto compile = [&](const std::string& out, std::vector<std::string> flags) {
      std::vector<std::string> argv = {nvcc, "-O0", "-shared", "-Xcompiler", "-fPIC", cu, "-o", out};
      argv.insert(argv.end(), flags.begin(), flags.end());
      auto r = test::run(argv);
      if (!r.ok()) built_->error = "nvcc failed: " + r.err;
      return out;
    };
    const std::vector<std::string> two = {"-gencode", "arch=compute_80,code=sm_80", "-gencode",
                                          "arch=compute_90,code=[sm_90,compute_90]"};
    built_->plain = compile(*dir_ / "plain.so", two);
    auto comp = two;
    comp.insert(comp.end(), {"-Xfatbin", "-compress-all"});
    built_->compressed = compile(*dir_ / "compressed.so", comp);
    built_->suffixed = compile(*dir_ / "suffixed.so", {"-gencode", "arch=compute_90a,code=sm_90a", "-gencode",
                                                        "arch=compute_100f,code=[sm_100f,compute_100f]"});
  }
  static void TearDownTestSuite() {
    built_.reset();
    dir_.reset();
  }
  void SetUp() override {
    if (!built_->error.empty()) GTEST_SKIP() << built_->error;
  }

  static CudaCode code_of(const std::string& path) {
    formats::MappedFile m(path);
    EXPECT_TRUE(m.ok()) << m.error();
    std::string err;
    auto elf = formats::ElfFile::parse(m.bytes(), &err);
    EXPECT_TRUE(elf) << err;
    if (!elf) return {};
    auto code = cuda_code_of(*elf, &err);
    EXPECT_TRUE(code) << err;
    return code ? *code : CudaCode{};
  }

  static std::unique_ptr<test::TempDir> dir_;
  static std::unique_ptr<Built> built_;
};
std::unique_ptr<test::TempDir> FatbinNvcc::dir_;
std::unique_ptr<Built> FatbinNvcc::built_;

// cuobjdump --list-elf --list-ptx: "ELF file    1: plain.1.sm_80.cubin", "PTX file    1: plain.1.sm_90.ptx".
std::optional<std::pair<std::set<std::string>, std::set<std::string>>> cuobjdump_lists(const std::string& lib) {
  const std::string tool = test::tool("cuobjdump");
  if (tool.empty()) return std::nullopt;
  auto r = test::run({tool, "--list-elf", "--list-ptx", lib});
  EXPECT_TRUE(r.ok()) << r.err;
  std::set<std::string> sass, ptx;
  static const std::regex line(R"((ELF|PTX) file\s+\d+:.*\.sm_([0-9]+[af]?)\.(cubin|ptx))");
  std::istringstream in(r.out);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    if (m[1] == "ELF") sass.insert("sm_" + m[2].str());
    else ptx.insert("compute_" + m[2].str());
  }
  return std::make_pair(sass, ptx);
}

std::set<std::string> as_set(const std::string& space_separated) {
  std::istringstream in(space_separated);
  std::set<std::string> s;
  for (std::string w; in >> w;) s.insert(w);
  return s;
}

void expect_matches_cuobjdump(const std::string& lib, const CudaCode& c) {
  auto want = cuobjdump_lists(lib);
  if (!want) {
    std::printf("[  NOTE    ] cuobjdump not found: %s not cross-checked with it\n", lib.c_str());
    return;
  }
  // cuobjdump 13.0.85 names a family cubin by its ELF arch: an sm_100f entry lists as
  // "....sm_100.cubin" (seen on the H200 machine), while its PTX keeps "sm_100f". Compare so.
  std::set<std::string> sass;
  for (std::string a : as_set(c.sass_text())) {
    if (!a.empty() && a.back() == 'f') a.pop_back();
    sass.insert(a);
  }
  EXPECT_EQ(sass, want->first) << "SASS of " << lib;
  EXPECT_EQ(as_set(c.ptx_text()), want->second) << "PTX of " << lib;
}

TEST_F(FatbinNvcc, PlainLibraryHasTheGencodeArches) {
  CudaCode c = code_of(built_->plain);
  EXPECT_TRUE(c.present);
  EXPECT_EQ(c.sass_text(), "sm_80 sm_90");
  EXPECT_EQ(c.ptx_text(), "compute_90");
  EXPECT_LT(c.compressed, c.entries);  // only the PTX is compressed by default
  expect_matches_cuobjdump(built_->plain, c);
}

TEST_F(FatbinNvcc, CompressedLibraryHasTheGencodeArches) {
  CudaCode c = code_of(built_->compressed);
  EXPECT_EQ(c.sass_text(), "sm_80 sm_90");
  EXPECT_EQ(c.ptx_text(), "compute_90");
  EXPECT_GT(c.entries, 0);
  EXPECT_EQ(c.compressed, c.entries);  // -compress-all
  expect_matches_cuobjdump(built_->compressed, c);
}

TEST_F(FatbinNvcc, ArchSpecificAndFamilySuffixes) {
  CudaCode c = code_of(built_->suffixed);
  EXPECT_EQ(c.sass_text(), "sm_90a sm_100f");
  EXPECT_EQ(c.ptx_text(), "compute_100f");
  expect_matches_cuobjdump(built_->suffixed, c);
}

}  // namespace
}  // namespace ts::verify

namespace ts::verify {
namespace {

// A big real library from the toolkit (thousands of compressed containers): reads whole, and agrees
// with cuobjdump where it exists.
TEST(FatbinReal, ToolkitCublasReadsWhole) {
  std::string lib;
  for (const char* p : {"/usr/local/cuda/lib64/libcublas.so", "/usr/local/cuda/lib/libcublas.so"})
    if (std::filesystem::exists(p)) { lib = p; break; }
  if (lib.empty()) GTEST_SKIP() << "no libcublas.so in /usr/local/cuda";
  formats::MappedFile m(lib);
  ASSERT_TRUE(m.ok()) << m.error();
  std::string err;
  auto elf = formats::ElfFile::parse(m.bytes(), &err);
  ASSERT_TRUE(elf) << err;
  auto code = cuda_code_of(*elf, &err);
  ASSERT_TRUE(code) << err;
  EXPECT_GT(code->entries, 100);
  EXPECT_FALSE(code->sass.empty());
  expect_matches_cuobjdump(lib, *code);
}

}  // namespace
}  // namespace ts::verify

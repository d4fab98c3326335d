// Overlays: a later file's entry with the same key replaces the earlier one; kb check reports
// overlay problems and runs registered validators for other stages' files.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "kb/check.h"
#include "kb/kb.h"

namespace ts::kb {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("ts_kb_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path / name).parent_path());
    std::ofstream(path / name) << text;
  }
};

TEST(KbOverlay, ReplacesEntryWithSameKey) {
  TempDir d;
  d.write("gpus.toml", "[[gpu]]\npci_id = \"2182\"\nname = \"My renamed 1660 Ti\"\narch = \"7.5\"\n"
                       "family = \"Turing\"\nsource = \"local test\"\n\n"
                       "[[gpu]]\npci_id = \"FFF0\"\nname = \"Prototype\"\narch = \"8.9\"\nfamily = \"ada\"\nsource = \"local\"\n");
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  Kb kb = load({d.path.string()}, errors);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  ASSERT_NE(kb.find_gpu("2182"), nullptr);
  EXPECT_EQ(kb.find_gpu("2182")->name, "My renamed 1660 Ti");
  EXPECT_EQ(kb.find_gpu("2182")->origin.file, (d.path / "gpus.toml").string());
  EXPECT_EQ(kb.find_gpu("2182")->origin.line, 1);
  EXPECT_EQ(kb.gpus.size(), base.gpus.size() + 1);  // one replaced, one added
  EXPECT_EQ(kb.find_gpu("fff0")->arch, CudaArch::of(8, 9));
  EXPECT_EQ(kb.files.back(), (d.path / "gpus.toml").string());
}

TEST(KbOverlay, CudaOverlayMakesNewArchesLegal) {
  TempDir d;
  d.write("cuda.toml", "[[release]]\nversion = \"14.0\"\narches = [\"13.0\"]\ngcc_max = \"16\"\nclang_max = \"22\"\n"
                       "driver_min_linux = \"600.10\"\nsource = \"https://docs.nvidia.com/cuda/\"\n\n"
                       "[[family]]\nmajor = \"14\"\ndriver_min_linux = \"600.10\"\nsource = \"https://docs.nvidia.com/cuda/\"\n");
  d.write("families.toml", "[[family]]\nname = \"Rubin\"\narches = [\"13.0\"]\nsource = \"developer.nvidia.com/cuda-gpus\"\n"
                           "  [[family.chip]]\n  prefix = \"GR1\"\n  arch = \"13.0\"\n");
  d.write("gpus.toml", "[[gpu]]\npci_id = \"3001\"\nname = \"Next\"\narch = \"13.0\"\nfamily = \"Rubin\"\nsource = \"developer.nvidia.com/cuda-gpus\"\n");
  auto errors = check_kb({d.path.string()}, true);
  for (const auto& e : errors) ADD_FAILURE() << e.str();
  std::vector<KbError> le;
  Kb kb = load({d.path.string()}, le);
  EXPECT_EQ(kb.find_gpu("3001")->arch, CudaArch::of(13, 0));
  EXPECT_EQ(kb.family_of_chip("GR100")->name, "Rubin");
}

TEST(KbOverlay, CheckReportsEveryBadEntryAndSkipsTheFile) {
  TempDir d;
  d.write("gpus.toml", "[[gpu]]\npci_id = \"2182\"\nname = \"x\"\narch = \"7.5\"\nfamily = \"Turing\"\n\n"
                       "[[gpu]]\npci_id = \"2183\"\nname = \"y\"\narch = \"7.5\"\nfamily = \"Turing\"\nsource = \"s\"\nbogus = 1\n");
  auto errors = check_kb({d.path.string()}, false);
  std::string f = (d.path / "gpus.toml").string();
  int at1 = 0, at13 = 0;
  for (const auto& e : errors) {
    at1 += e.origin.file == f && e.origin.line == 1;
    at13 += e.origin.file == f && e.origin.line == 13;
  }
  EXPECT_EQ(at1, 1);   // missing source
  EXPECT_EQ(at13, 1);  // unknown key
  std::vector<KbError> le;
  Kb kb = load({d.path.string()}, le);
  EXPECT_EQ(kb.find_gpu("2182")->name, "GeForce GTX 1660 Ti");  // the bad overlay did not replace it
}

TEST(KbOverlay, AmbiguousFamilyAliasIsReported) {
  TempDir d;
  d.write("families.toml", "[[family]]\nname = \"Testfam\"\naliases = [\"Ampere\"]\narches = [\"8.7\"]\nsource = \"developer.nvidia.com/cuda-gpus\"\n");
  auto errors = check_kb({d.path.string()}, false);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].str().find("alias 'ampere' is also used by family"), std::string::npos) << errors[0].str();
}

TEST(KbOverlay, MissingDirIsAnError) {
  std::vector<KbError> errors;
  load({"/nonexistent/torchsmith-kb"}, errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].str().find("not a directory"), std::string::npos);
}

TEST(KbOverlay, ValidatorHookForOtherFiles) {
  TempDir d;
  d.write("signatures.toml", "[[signature]]\nid = \"X\"\n");
  d.write("packages/apex.toml", "name = \"apex\"\n");
  d.write("fixes/broken.toml", "x = [\n");
  Validate signatures = [](std::string_view file, std::string_view, std::vector<KbError>& e) {
    e.push_back({{std::string(file), 2}, "signature X: no pattern"});
  };
  Validate packages = [](std::string_view file, std::string_view, std::vector<KbError>& e) {
    e.push_back({{std::string(file), 1}, "package: checked"});
  };
  auto errors = check_kb({d.path.string()}, false,
                         {{"signatures", "signatures.toml", signatures}, {"packages", "packages/", packages}});
  std::string all;
  for (const auto& e : errors) all += e.str() + "\n";
  EXPECT_NE(all.find("signatures.toml:2: signature X: no pattern"), std::string::npos) << all;
  EXPECT_NE(all.find("apex.toml:1: package: checked"), std::string::npos) << all;
  EXPECT_NE(all.find("broken.toml:1: TOML syntax error"), std::string::npos) << all;  // no validator: syntax only
  EXPECT_EQ(errors.size(), 3u) << all;
}

}  // namespace
}  // namespace ts::kb

namespace ts::kb {
namespace {

// Issue 21: a directory named cuda.toml was skipped in silence, so the overlay the user meant
// was never read. It is reported, by kb check and by every command that loads the overlay.
TEST(KbOverlay, ADirectoryNamedLikeAKbFileIsReported) {
  TempDir d;
  fs::create_directories(d.path / "cuda.toml");
  std::vector<KbError> errors;
  load({d.path.string()}, errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].str().find("cuda.toml: named like a KB file but not a regular file (a directory)"),
            std::string::npos)
      << errors[0].str();
  auto checked = check_kb({d.path.string()}, false);
  ASSERT_FALSE(checked.empty());
  EXPECT_NE(checked[0].str().find("cuda.toml"), std::string::npos) << checked[0].str();
}

}  // namespace
}  // namespace ts::kb

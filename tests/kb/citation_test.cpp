// kb check's citation grammar: every source names something a user can open, and nothing in
// src/ or data/ points at notes only the project's authors had.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "kb/check.h"
#include "kb/citation.h"
#include "testkit/temp_dir.h"

namespace ts::kb {
namespace {

void write(const testkit::TempDir& d, const std::string& rel, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(d / rel).parent_path());
  std::ofstream(d / rel) << text;
}

TEST(Citation, AcceptsWhatAUserCanOpen) {
  for (const char* s : {
           "https://github.com/pytorch/pytorch/issues/150167",
           "pytorch/pytorch@v2.6.0:tools/setup_helpers/cmake.py (CMake reads MAGMA_HOME)",
           "pytorch/builder@release/2.4:manywheel/build_cuda.sh; pytorch/pytorch#48588",
           "pytorch/pytorch#49078",
           "developer.nvidia.com/cuda-gpus (compute capability table)",
           "Kitware/CMake @031593d Modules/Internal/CMakeCUDAArchitecturesAll.cmake",
           "Dao-AILab/flash-attention setup.py@0029136: FLASH_ATTENTION_FORCE_BUILD",
           "https://pypi.org/project/nvidia-cuda-nvcc/13.3.73/ (read 2026-11-26)",
       })
    EXPECT_EQ(citation_problem(s), std::nullopt) << s;
}

TEST(Citation, RejectsPrivateNotesAndBareProse) {
  struct Case { const char* source; const char* says; };
  for (const auto& c : std::initializer_list<Case>{
           {"seed 001 (S2)", "'seed' names a note users do not have"},
           {"pytorch/pytorch#1; (S3)", "'S3' names a note"},
           {"PBM §5.1 (USE_STATIC_NCCL=1 in official wheels)", "'PBM' names a note"},
           {"shared/knowledge/compat-facts.md section 5", "'shared/' names a note"},
           {"knowledge/anchors.md §1.5 (auditwheel#580)", "'knowledge/' names a note"},
           {"test", "'test' cites nothing a user can open"},
           {"CMake compiler identification message", "cites nothing a user can open"},
           {"torch/utils/cpp_extension.py (_run_ninja_build)", "cites nothing"},  // a path, but of which repository?
           {"for id/name only", "cites nothing"},
       }) {
    auto p = citation_problem(c.source);
    ASSERT_TRUE(p) << c.source;
    EXPECT_NE(p->find(c.says), std::string::npos) << *p;
    EXPECT_NE(p->find("owner/repo@commit:path"), std::string::npos) << *p;  // the way out
  }
}

TEST(Citation, KbCheckReportsEachBadSourceAtItsLine) {
  testkit::TempDir d;
  write(d, "gpus.toml", "[[gpu]]\npci_id = \"fff1\"\nname = \"A\"\narch = \"8.6\"\nfamily = \"Ampere\"\n"
                       "source = \"seed 002 (S3)\"\n\n"
                       "[[gpu]]\npci_id = \"fff2\"\nname = \"B\"\narch = \"8.6\"\nfamily = \"Ampere\"\n"
                       "source = \"developer.nvidia.com/cuda-gpus\"\n");
  write(d, "fixes/x.toml", "[[fix]]\nid = \"x\"\n[[fix.edit]]\nfile = \"a\"\nsource = \"my notes\"\n");
  write(d, "build.toml", "[limits]\nmax_arches_source = \"recalled\"\n");
  auto errors = check_kb({d.path()}, false);
  std::string all;
  for (const auto& e : errors) all += e.str() + "\n";
  EXPECT_NE(all.find("gpus.toml:6: source: 'seed'"), std::string::npos) << all;
  EXPECT_EQ(all.find("gpus.toml:12"), std::string::npos) << all;
  EXPECT_NE(all.find("x.toml:5: source: 'my notes' cites nothing"), std::string::npos) << all;
  EXPECT_NE(all.find("build.toml:2: max_arches_source:"), std::string::npos) << all;
}

TEST(Citation, ShippedKbCitesOnlyOpenableReferences) {
  for (const auto& e : check_kb({}, true))
    if (e.message.find("cite what a user can open") != std::string::npos) ADD_FAILURE() << e.str();
}

// Users get src/ (its reasons and sources are printed) and data/ (shipped in the binary):
// neither may point at the project's private notes or scenario names.
TEST(Citation, NoPrivateNotesInSrcOrData) {
  const std::regex bad(
      R"(\b[Ss]eeds?\b|\bS[1-5]\b|\bPBM\b|shared/knowledge|knowledge/|anchors\.md|pytorch-build-machinery|)"
      R"(extension-packages\.md|failure-signatures\.(md|json)|compat-facts)");
  int files = 0;
  for (const char* tree : {"src", "data"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(TS_SOURCE_DIR) + "/" + tree)) {
      if (!e.is_regular_file()) continue;
      if (e.path().filename().string().rfind("citation.", 0) == 0) continue;  // the rule names what it forbids
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        std::smatch m;
        if (std::regex_search(line, m, bad))
          ADD_FAILURE() << e.path().string() << ":" << n << ": '" << m.str(0) << "': " << line.substr(0, 160);
      }
    }
  }
  EXPECT_GT(files, 100);
}

}  // namespace
}  // namespace ts::kb

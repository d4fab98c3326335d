// Broken KB files: each problem is reported as file:line with what to write instead, and the file
// is skipped whole; nothing throws.
#include <gtest/gtest.h>

#include "kb/kb.h"
#include "kb/toml_parse.h"

namespace ts::kb {
namespace {

// Loads `text` as `file` on top of the embedded KB and returns the errors.
std::vector<KbError> load_bad(const std::string& file, const std::string& text, Kb* out = nullptr) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  EXPECT_TRUE(errors.empty());
  load_text(kb, file, text, errors);
  if (out) *out = kb;
  return errors;
}

bool has(const std::vector<KbError>& errors, const std::string& file, int line, const std::string& part) {
  for (const auto& e : errors)
    if (e.origin.file == file && e.origin.line == line && e.message.find(part) != std::string::npos) return true;
  std::string all;
  for (const auto& e : errors) all += "\n  " + e.str();
  ADD_FAILURE() << "no error " << file << ":" << line << " containing '" << part << "' in:" << all;
  return false;
}

const std::string kGpu = "[[gpu]]\npci_id = \"abcd\"\nname = \"Test GPU\"\narch = \"8.6\"\nfamily = \"Ampere\"\n";

TEST(KbBadInput, SyntaxErrorHasItsLine) {
  auto errors = load_bad("gpus.toml", kGpu + "source = \"x\"\n\n[[gpu]]\npci_id = 2182x\n");
  EXPECT_TRUE(has(errors, "gpus.toml", 9, "TOML syntax error"));
  EXPECT_EQ(errors.back().str().rfind("gpus.toml: file skipped", 0), 0u) << errors.back().str();
}

TEST(KbBadInput, BadRange) {
  std::string t = R"([[release]]
version = "9.9"
python = "3.8-"
cuda = ["12.4"]
cmake_min = "3.18"
cxx_standard = "17"
numpy = ">=1"
torchvision = "0.99"
torchaudio = "9.9"
arch_names = ["8.0"]
source = "test"
)";
  Kb kb;
  auto errors = load_bad("torch.toml", t, &kb);
  EXPECT_TRUE(has(errors, "torch.toml", 3, "python: '3.8-' is not a version range"));
  EXPECT_TRUE(has(errors, "torch.toml", 3, "write python = \">=3.8,<3.13\""));
  EXPECT_EQ(kb.find_torch("9.9"), nullptr);  // the file was skipped whole
}

TEST(KbBadInput, UnknownKeySuggestsTheRightOne) {
  auto errors = load_bad("gpus.toml", kGpu + "source = \"x\"\nfamliy = \"Ampere\"\n");
  EXPECT_TRUE(has(errors, "gpus.toml", 7, "unknown key 'famliy'; did you mean 'family'?"));
}

TEST(KbBadInput, MissingSource) {
  auto errors = load_bad("gpus.toml", "\n" + kGpu);
  EXPECT_TRUE(has(errors, "gpus.toml", 2, "missing required key 'source'"));
}

TEST(KbBadInput, ArchNvccCouldNotHave) {
  auto e1 = load_bad("gpus.toml", "[[gpu]]\npci_id = \"abcd\"\nname = \"x\"\narch = \"8.12\"\nfamily = \"Ampere\"\nsource = \"x\"\n");
  EXPECT_TRUE(has(e1, "gpus.toml", 4, "arch"));
  auto e2 = load_bad("gpus.toml", "[[gpu]]\npci_id = \"abcd\"\nname = \"x\"\narch = \"8.5\"\nfamily = \"Ampere\"\nsource = \"x\"\n");
  EXPECT_TRUE(has(e2, "gpus.toml", 4, "target of no CUDA toolkit"));
  auto e3 = load_bad("gpus.toml", "[[gpu]]\npci_id = \"abcd\"\nname = \"x\"\narch = \"86\"\nfamily = \"Ampere\"\nsource = \"x\"\n");
  EXPECT_TRUE(has(e3, "gpus.toml", 4, "write \"8.6\""));
}

TEST(KbBadInput, DuplicatePciIdInOneFile) {
  auto errors = load_bad("gpus.toml", kGpu + "source = \"x\"\n\n" + kGpu + "source = \"y\"\n");
  EXPECT_TRUE(has(errors, "gpus.toml", 8, "duplicate pci_id 'abcd' (first at line 1)"));
}

TEST(KbBadInput, UnknownFamilyAndBadPciId) {
  auto errors = load_bad("gpus.toml", "[[gpu]]\npci_id = \"21G2\"\nname = \"x\"\narch = \"8.6\"\nfamily = \"Amprere\"\nsource = \"x\"\n");
  EXPECT_TRUE(has(errors, "gpus.toml", 2, "not a 4-digit hex device id"));
  EXPECT_TRUE(has(errors, "gpus.toml", 5, "family: 'Amprere' is not in families.toml"));
}

TEST(KbBadInput, BadVersionAndStatus) {
  std::string t = "[[release]]\nversion = \"13.9\"\narches = [\"9.0\"]\ngcc_max = \"1x\"\nclang_max = \"20\"\n"
                  "driver_min_linux = \"600.1\"\nstatus = \"sure\"\nsource = \"x\"\n";
  auto errors = load_bad("cuda.toml", t);
  EXPECT_TRUE(has(errors, "cuda.toml", 4, "gcc_max: '1x' is not a version"));
  EXPECT_TRUE(has(errors, "cuda.toml", 7, "status: 'sure' is unknown"));
}

TEST(KbBadInput, WrongTopLevelTable) {
  auto errors = load_bad("gpus.toml", "[[gpus]]\npci_id = \"abcd\"\n");
  EXPECT_TRUE(has(errors, "gpus.toml", 1, "unknown top-level key 'gpus'; this file holds [[gpu]] entries"));
}

TEST(KbBadInput, ForeignFilesAreNotRead) {
  std::vector<KbError> errors;
  Kb kb;
  load_text(kb, "signatures.toml", "this is not toml [", errors);
  EXPECT_TRUE(errors.empty());  // triage reads signatures.toml; kb check validates it through a hook
}

// toml++ 3.3.0 reached __builtin_unreachable on a non-whitespace code point where it looks for
// whitespace (marzer/tomlplusplus#190; our kb_toml fuzzer found three such inputs): now a parse
// error or a value, never undefined behaviour (the fuzz ctest reruns the inputs under UBSan).
TEST(KbBadInput, NonAsciiWhereWhitespaceIsLookedForIsAnErrorNotUndefinedBehaviour) {
  // After a line-ending backslash the next non-whitespace character starts the text (TOML 1.0).
  auto t = parse_toml("s = \"\"\"\\\n\xc2\xa7\"\"\"\n", "x.toml");
  EXPECT_EQ(t["s"].value_or(std::string()), "\xc2\xa7");
  for (std::string text : {std::string("a = 1\xc9\x8d\n"), std::string("a = [1,\xc2\xa7]\n")}) {
    bool threw = false;
    try {
      parse_toml(text, "x.toml");
    } catch (const toml::parse_error&) {
      threw = true;
    }
    EXPECT_TRUE(threw) << text;
  }
}

}  // namespace
}  // namespace ts::kb

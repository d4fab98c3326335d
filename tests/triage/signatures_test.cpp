// Signature loading: the shipped file is clean; every kind of mistake is reported with file:line.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

std::string entry(const std::string& id, const std::string& extra = "", const std::string& pattern = "'boom happened'") {
  return "[[signature]]\nid = \"" + id + "\"\nphase = \"compile\"\nseverity = \"error\"\npatterns = [" + pattern +
         "]\ncause = \"c\"\nfix = \"f\"\nremedy = { kind = \"none\" }\nsource = \"x/y#1\"\n" + extra + "\n";
}

bool has(const std::vector<std::string>& errors, const std::string& needle) {
  for (const auto& e : errors)
    if (e.find(needle) != std::string::npos) return true;
  return false;
}

TEST(Signatures, ShippedFileIsClean) {
  std::string text = read_file(std::filesystem::path(TS_SOURCE_DIR) / "data/kb/signatures.toml");
  EXPECT_TRUE(check_signatures_text("signatures.toml", text).empty());
  SignatureSet set;
  load_signatures_text("signatures.toml", text, set);
  EXPECT_GE(set.signatures.size(), 100u);
  EXPECT_EQ(set.log_facts.size(), 6u);  // cuda_version, cxx_compiler, arch_list, build_step, torch_preload, cuda_compiler_absent
}

TEST(Signatures, KeepsTheKnowledgeFileIds) {
  for (const char* id : {"OOM_CC1PLUS_KILLED", "CMAKE4_POLICY_VERSION_MINIMUM", "NVCC_HOST_GCC_TOO_NEW",
                         "RELOC_TRUNCATED_FATBIN_TOO_LARGE", "MSVC_LNK1161_INVALID_EXPORT", "GENERIC_BUILD_WRAPPER"})
    EXPECT_NE(engine().set().find(id), nullptr) << id;
  const Signature* s = engine().set().find("CMAKE4_POLICY_VERSION_MINIMUM");
  EXPECT_EQ(s->remedy.kind, RemedyKind::set_env);
  EXPECT_EQ(s->remedy.env.at("CMAKE_POLICY_VERSION_MINIMUM"), "3.5");
}

TEST(Signatures, StopsBuildDefaultsToTrueAndMustBeABoolean) {
  SignatureSet set;
  EXPECT_TRUE(load_signatures_text("s.toml", entry("A") + entry("B", "stops_build = false"), set).empty());
  ASSERT_EQ(set.signatures.size(), 2u);
  EXPECT_TRUE(set.find("A")->stops_build);
  EXPECT_FALSE(set.find("B")->stops_build);
  EXPECT_TRUE(has(check_signatures_text("s.toml", entry("C", "stops_build = \"no\"")), "stops_build must be true or false"));
  // The shipped wording pip prints before its legacy fallback must not stop a live build.
  EXPECT_FALSE(engine().set().find("PYTHON_BUILD_DEPS_MISSING")->stops_build);
  EXPECT_TRUE(engine().set().find("OOM_CC1PLUS_KILLED")->stops_build);
}

TEST(Signatures, ExplainsNamesAGrammarPhaseOfAWarning) {
  std::string warning = entry("W", "explains = \"resolve\"");
  warning.replace(warning.find("severity = \"error\""), 18, "severity = \"warning\"");
  EXPECT_TRUE(check_signatures_text("x.toml", warning).empty());
  EXPECT_TRUE(has(check_signatures_text("x.toml", entry("E", "explains = \"resolve\"")), "explains is for a warning"));
  std::string bad = entry("B", "explains = \"resolving\"");
  bad.replace(bad.find("severity = \"error\""), 18, "severity = \"warning\"");
  EXPECT_TRUE(has(check_signatures_text("x.toml", bad), "unknown explains 'resolving'"));
}

TEST(Signatures, BadPatternNamesFileAndLine) {
  std::string text = entry("A") + entry("B", "", "'unclosed (group'");
  auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(text.find("unclosed")), '\n');
  auto e = check_signatures_text("x.toml", text);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].rfind("x.toml:" + std::to_string(line) + ": pattern does not compile", 0), 0u) << e[0];
}

TEST(Signatures, EveryMistakeIsReported) {
  EXPECT_TRUE(has(check_signatures_text("x.toml", entry("A") + entry("A")), "duplicate id 'A'"));
  EXPECT_TRUE(has(check_signatures_text("x.toml", entry("A", "supersedes = [\"NOPE\"]")), "supersedes unknown id 'NOPE'"));
  std::string bad_phase = entry("A");
  bad_phase.replace(bad_phase.find("compile"), 7, "compyle");
  EXPECT_TRUE(has(check_signatures_text("x.toml", bad_phase), "unknown phase 'compyle'"));
  std::string bad_sev = entry("A");
  bad_sev.replace(bad_sev.find("\"error\""), 7, "\"fatal\"");
  EXPECT_TRUE(has(check_signatures_text("x.toml", bad_sev), "unknown severity 'fatal'"));
  std::string bad_remedy = entry("A");
  bad_remedy.replace(bad_remedy.find("\"none\""), 6, "\"reboot\"");
  EXPECT_TRUE(has(check_signatures_text("x.toml", bad_remedy), "unknown remedy kind 'reboot'"));
  std::string env_missing = entry("A");
  env_missing.replace(env_missing.find("\"none\""), 6, "\"set_env\"");
  EXPECT_TRUE(has(check_signatures_text("x.toml", env_missing), "set_env needs env"));
  std::string no_cause = entry("A");
  no_cause.erase(no_cause.find("cause = \"c\"\n"), 12);
  EXPECT_TRUE(has(check_signatures_text("x.toml", no_cause), "missing 'cause'"));
  EXPECT_TRUE(has(check_signatures_text("x.toml", "[[signature]\nid=1"), "x.toml:1:"));
  EXPECT_TRUE(has(check_signatures_text("x.toml", "[[log_fact]]\nname = \"cuda_version\"\npatterns = ['no group']\n"), "capture group"));
}

TEST(Signatures, FuzzerFindingsAreErrorsNotCrashes) {
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(TS_SOURCE_DIR) / "tests/fuzz/regressions")) {
    auto e = check_signatures_text("r.toml", read_file(f.path()));
    EXPECT_FALSE(e.empty()) << f.path();
    for (const auto& m : e) EXPECT_EQ(m.rfind("r.toml:", 0), 0u) << m;
  }
}

// A former id was merged away: no live signature may keep it, and one signature owns it.
TEST(Signatures, FormerIdsAreNotLiveAndBelongToOneSignature) {
  EXPECT_TRUE(check_signatures_text("a.toml", entry("A", "formerly = [\"OLD\"]") + entry("B")).empty());
  EXPECT_TRUE(has(check_signatures_text("a.toml", entry("A", "formerly = [\"B\"]") + entry("B")),
                  "lists 'B' as a former id"));
  EXPECT_TRUE(has(check_signatures_text("a.toml", entry("A", "formerly = [\"OLD\"]") + entry("B", "formerly = [\"OLD\"]")),
                  "claimed by two signatures"));
  EXPECT_FALSE(check_signatures_text("a.toml", entry("A", "formerly = \"OLD\"")).empty());
  SignatureSet set;
  load_signatures_text("a.toml", entry("A", "formerly = [\"OLD\"]"), set);
  ASSERT_EQ(set.signatures.size(), 1u);
  EXPECT_TRUE(answers(set.signatures[0], "A"));
  EXPECT_TRUE(answers(set.signatures[0], "OLD"));
  EXPECT_FALSE(answers(set.signatures[0], "B"));
}

TEST(Signatures, OverlayReplacesById) {
  SignatureSet set;
  load_signatures_text("a.toml", entry("A") + entry("B"), set);
  load_signatures_text("b.toml", entry("A", "", "'other'"), set);
  ASSERT_EQ(set.signatures.size(), 2u);
  EXPECT_EQ(set.find("A")->patterns[0], "other");
}

}  // namespace
}  // namespace ts::triage::testing

namespace ts::triage::testing {
namespace {

// A forgotten <cstdint> in every compiler's wording: GCC, nvcc's front end (EDG), clang, MSVC.
TEST(Signatures, MissingCstdintInEveryWordingIsOneRootCauseWithItsRemedy) {
  for (std::string line : {
           "cuda_rasterizer/rasterizer_impl.h(24): error: namespace \"std\" has no member \"uintptr_t\"",
           "cuda_rasterizer/rasterizer_impl.h(37): error: identifier \"uint32_t\" is undefined",
           "widths.h:4:13: error: \xe2\x80\x98uint32_t\xe2\x80\x99 in namespace \xe2\x80\x98std\xe2\x80\x99 does not name a type",
           "widths.h:4:13: error: no type named 'uint32_t' in namespace 'std'",
           "src\\widths.h(4): error C2039: 'uint32_t': is not a member of 'std'",
       }) {
    Diagnosis d = diagnose("[3/5] Building CUDA object x.o\nFAILED: x.o\n" + line + "\nninja: build stopped\n");
    EXPECT_EQ(root_id(d), "MISSING_CSTDINT_NEW_GCC") << line;
    ASSERT_TRUE(d.root()) << line;
    EXPECT_EQ(d.root()->remedy.kind, RemedyKind::force_include);
    EXPECT_EQ(expand_captures(d.root()->remedy.header, d.root()->captures), "cstdint");
  }
}

// GCC names the header itself: the generic signature takes it from the log line.
TEST(Signatures, MissingStdHeaderTakesTheHeaderGccNames) {
  Diagnosis d = diagnose(
      "a.cpp:88:17: error: \xe2\x80\x98numeric_limits\xe2\x80\x99 is not a member of \xe2\x80\x98std\xe2\x80\x99\n"
      "a.cpp:4:1: note: \xe2\x80\x98std::numeric_limits\xe2\x80\x99 is defined in header \xe2\x80\x98<limits>\xe2\x80\x99; "
      "did you forget to \xe2\x80\x98#include <limits>\xe2\x80\x99?\n");
  ASSERT_EQ(root_id(d), "MISSING_STD_HEADER");
  EXPECT_EQ(expand_captures(d.root()->remedy.header, d.root()->captures), "limits");
}

TEST(Signatures, ForceIncludeNeedsAHeaderOrACaptureGroup) {
  SignatureSet set;
  auto errors = load_signatures_text("s.toml", entry("A").replace(entry("A").find("kind = \"none\""), 13,
                                                                   "kind = \"force_include\", header = \"../x\""), set);
  EXPECT_TRUE(has(errors, "s.toml:")) << (errors.empty() ? "" : errors[0]);
  EXPECT_TRUE(has(errors, "force_include needs header"));
  EXPECT_TRUE(set.signatures.empty());
  EXPECT_FALSE(valid_header_name("a b"));
  EXPECT_TRUE(valid_header_name("c10/util/Half.h"));
  EXPECT_EQ(expand_captures("$2-$1-$3", {"a", "b"}), "b-a-");
}

}  // namespace
}  // namespace ts::triage::testing

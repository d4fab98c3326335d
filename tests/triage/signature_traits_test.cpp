// Signature traits (signatures.toml `tool`, `specialize`): read and checked by the loader, and what
// specialize asks, never the id's spelling.
#include "test_util.h"
#include "triage/specialize.h"

#include "kb/kb.h"

namespace ts::triage::testing {
namespace {

// Two out-of-memory signatures whose ids say the opposite of their tools.
constexpr const char* kTraits = R"(
[[signature]]
id = "DEVICE_COMPILER_KILLED"
tool = "nvcc"
phase = "compile"
severity = "error"
patterns = ['device compiler killed']
cause = "c"
fix = "f"
remedy = { kind = "halve_jobs" }
source = "https://example.org/1"

[[signature]]
id = "NVCC_NAMED_HOST_COMPILER_KILLED"
tool = "c++"
phase = "compile"
severity = "error"
patterns = ['host compiler killed']
cause = "c"
fix = "f"
remedy = { kind = "halve_jobs" }
source = "https://example.org/2"

[[signature]]
id = "HEADER_UNDER_A_BUNDLED_PYTHON"
specialize = "embedded_python"
phase = "compile"
severity = "error"
patterns = ['bundled python header missing']
cause = "c"
fix = "f"
source = "https://example.org/3"
)";

const Engine& traits_engine() {
  static const Engine e = [] {
    SignatureSet set;
    for (const auto& m : load_signatures_text("traits.toml", kTraits, set)) ADD_FAILURE() << m;
    return Engine(std::move(set));
  }();
  return e;
}

Diagnosis oom(std::string_view line) {
  Diagnosis d = diagnose_text(traits_engine(), std::string("FAILED: a.o\n") + std::string(line) + "\n");
  HostFacts f;
  f.memory.usable_bytes = 16ull << 30;
  specialize(d, &f, &the_kb());
  return d;
}

TEST(SignatureTraits, TheLoaderReadsToolAndSpecialize) {
  SignatureSet set;
  ASSERT_TRUE(load_signatures_text("traits.toml", kTraits, set).empty());
  ASSERT_EQ(set.signatures.size(), 3u);
  EXPECT_EQ(set.find("DEVICE_COMPILER_KILLED")->tool, Tool::nvcc);
  EXPECT_EQ(set.find("NVCC_NAMED_HOST_COMPILER_KILLED")->tool, Tool::cxx);
  EXPECT_EQ(set.find("HEADER_UNDER_A_BUNDLED_PYTHON")->tool, Tool::unknown);
  EXPECT_EQ(set.find("HEADER_UNDER_A_BUNDLED_PYTHON")->specialize, Specializer::embedded_python);
  EXPECT_EQ(set.find("DEVICE_COMPILER_KILLED")->specialize, Specializer::none);
}

TEST(SignatureTraits, AnUnknownToolOrSpecializerIsAnErrorNamingTheChoices) {
  const std::string entry = "[[signature]]\nid = \"X\"\nphase = \"compile\"\nseverity = \"error\"\npatterns = ['x']\n"
                            "cause = \"c\"\nfix = \"f\"\nsource = \"s\"\n";
  SignatureSet set;
  auto errors = check_signatures_text("bad.toml", entry + "tool = \"nvc\"\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("bad.toml:9: unknown tool 'nvc' (nvcc, ptxas,"), std::string::npos) << errors[0];
  errors = check_signatures_text("bad.toml", entry + "specialize = \"gcc\"\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("unknown specialize 'gcc' (nvcc_gcc_max,"), std::string::npos) << errors[0];
  errors = check_signatures_text("bad.toml", entry + "tool = 3\n");
  EXPECT_EQ(errors.size(), 1u);
}

// A cause no single line names (a rule reaches it) may have no patterns, and only when it says so.
TEST(SignatureTraits, OnlyARuleReachedSignatureMayHaveNoPatterns) {
  const std::string entry = "[[signature]]\nid = \"X\"\nphase = \"package\"\nseverity = \"error\"\npatterns = []\n"
                            "cause = \"c\"\nfix = \"f\"\nsource = \"s\"\n";
  EXPECT_TRUE(check_signatures_text("ok.toml", entry + "reached_by = \"rule\"\n").empty());
  auto errors = check_signatures_text("bad.toml", entry);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("'patterns' is empty"), std::string::npos) << errors[0];
  errors = check_signatures_text("bad.toml", entry + "reached_by = \"luck\"\n");
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("unknown reached_by 'luck' (rule)"), std::string::npos) << errors[0];
}

// The job count for an out-of-memory failure is sized by the tool's per-job memory: nvcc's for a
// signature whose tool is nvcc whatever its id, the C++ compiler's for one whose id says NVCC.
TEST(SignatureTraits, AnNvccToolIsSizedAsAnNvccJobWhateverTheIdSays) {
  const Diagnosis nvcc = oom("device compiler killed");
  ASSERT_EQ(root_id(nvcc), "DEVICE_COMPILER_KILLED");
  EXPECT_NE(nvcc.root()->fix.find("per nvcc job"), std::string::npos) << nvcc.root()->fix;
  EXPECT_NE(nvcc.root()->fix.find("NVCC_THREADS=1"), std::string::npos) << nvcc.root()->fix;

  const Diagnosis host = oom("host compiler killed");
  ASSERT_EQ(root_id(host), "NVCC_NAMED_HOST_COMPILER_KILLED");
  EXPECT_NE(host.root()->fix.find("per C++ compile job"), std::string::npos) << host.root()->fix;
  EXPECT_EQ(host.root()->fix.find("NVCC_THREADS"), std::string::npos) << host.root()->fix;
  EXPECT_NE(nvcc.root()->remedy.env.at("MAX_JOBS"), host.root()->remedy.env.at("MAX_JOBS"))
      << "an nvcc job and a C++ job cost the same in resources.toml?";
}

TEST(SignatureTraits, TheSpecializerIsTheTraitsNotTheIds) {
  Diagnosis d = diagnose_text(traits_engine(), "H:\\ComfyUI\\python_embeded\\x.c: bundled python header missing\n");
  specialize(d, nullptr, nullptr);
  ASSERT_EQ(root_id(d), "HEADER_UNDER_A_BUNDLED_PYTHON");
  EXPECT_NE(d.root()->fix.find("embeddable distribution"), std::string::npos) << d.root()->fix;
}

// The shipped signatures that size jobs: the ones whose fix said nvcc before the traits still do.
TEST(SignatureTraits, ShippedOutOfMemorySignaturesKeepTheirJobKind) {
  SignatureSet set;
  std::vector<std::string> errors;
  set = load_signatures({}, errors);
  ASSERT_TRUE(errors.empty());
  for (const char* id : {"OOM_NVCC_SUBPROCESS_KILLED", "NVCC_TOOL_SEGFAULT", "PTXAS_MEMORY_ALLOCATION_FAILURE"})
    EXPECT_TRUE(runs_in_nvcc_job(set.find(id)->tool)) << id;
  for (const char* id : {"OOM_CC1PLUS_KILLED", "OOM_GENERIC_KILLED", "BUILD_STALL_HIGH_JOBS", "OOM_LINKER_KILLED"})
    EXPECT_FALSE(runs_in_nvcc_job(set.find(id)->tool)) << id;
  EXPECT_EQ(set.find("NVCC_HOST_GCC_TOO_NEW")->specialize, Specializer::nvcc_gcc_max);
  EXPECT_EQ(set.find("CPP_EXT_COMPILER_VERSION_BOUNDS")->specialize, Specializer::compiler_bounds);
  EXPECT_EQ(set.find("PYTHON_H_MISSING")->specialize, Specializer::embedded_python);
  EXPECT_EQ(set.find("NVCC_FLAGS_IN_HIP_BUILD")->tool, Tool::cxx);  // clang's error, NVCC in its id
}

}  // namespace
}  // namespace ts::triage::testing

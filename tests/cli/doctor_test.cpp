// `torchsmith doctor` end to end on the host fixtures: golden reports, the verdicts each seed
// scenario implies, JSON, and bad input.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"

namespace ts::testing {
namespace {

const std::string kHosts = std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/";

struct Case {
  std::string host;
  std::string target;  // --for
};

// --root for a fixture; bad-python's interpreter hangs by design, so its probe waits 3 s, not 15.
std::vector<std::string> root_of(const std::string& host) {
  std::vector<std::string> a{"--root", kHosts + host};
  if (host == "bad-python") a.insert(a.end(), {"--python-timeout", "3"});
  return a;
}

std::string doctor_text(const Case& c) {
  std::vector<std::string> args{"doctor"};
  for (auto& a : root_of(c.host)) args.push_back(a);
  if (!c.target.empty()) args.insert(args.end(), {"--for", c.target});
  auto r = run_torchsmith(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return replace_all(r.out, TS_SOURCE_DIR, "<src>");
}

bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

// Test names in ctest show the host, not the bytes of the struct.
void PrintTo(const Case& c, std::ostream* os) { *os << c.host << (c.target.empty() ? "" : " " + c.target); }

class DoctorGolden : public ::testing::TestWithParam<Case> {};

TEST_P(DoctorGolden, MatchesReviewedReport) {
  const Case& c = GetParam();
  std::string out = doctor_text(c);
  EXPECT_TRUE(matches_golden("doctor/" + c.host + ".txt", out));
}

INSTANTIATE_TEST_SUITE_P(
    Hosts, DoctorGolden,
    ::testing::Values(Case{"s1-rtx4090-cuda118", "torch==1.13.0"},
                      Case{"s2-cuda110-conda", "torch==1.8.0"},
                      Case{"s3-rtx5090-cmake4", "torch==2.4.1"},
                      Case{"s4-wsl2-cuda117", "torch==2.0.1"},
                      Case{"s5-gtx1660ti-container", "torch==1.12.1"}, Case{"no-gpu", ""},
                      Case{"gpu-no-driver", ""}, Case{"two-toolkits", ""}, Case{"unknown-gpu", ""},
                      Case{"jetson-orin", ""}, Case{"jetson-orin-nano-smi", ""},
                      Case{"jetson-orin-nx-nosmi", ""}, Case{"pascal-cuda13", ""},
                      Case{"ada-cuda117", "torch==2.4.1"}, Case{"venv-py313", "torch==2.4.1"}),
    [](const auto& info) {
      std::string n = info.param.host;
      for (auto& ch : n)
        if (ch == '-') ch = '_';
      return n;
    });

// The verdicts SCENARIOS.md implies, asserted on their own so a golden update cannot lose them.
TEST(DoctorScenario, S5NamesDevice2182AndRefusesCmake3102) {
  std::string out = doctor_text({"s5-gtx1660ti-container", "torch==1.12.1"});
  EXPECT_TRUE(has(out, "10de:2182 -> NVIDIA GeForce GTX 1660 Ti, compute 7.5"));
  EXPECT_TRUE(has(out, "FAIL CMake 3.10.2"));
  EXPECT_TRUE(has(out, "older than torch 1.12 needs (>= 3.13)"));
}

TEST(DoctorScenario, WithoutDriverTheKbNamesTheGpu) {
  // No nvidia-smi, no NVML: only the KB can turn the PCI id into a name and a capability.
  std::string out = doctor_text({"gpu-no-driver", ""});
  EXPECT_TRUE(has(out, "10de:2204 -> GeForce RTX 3090, compute 8.6 (kb)")) << out;
  EXPECT_TRUE(has(out, "warn NVIDIA driver"));
}

TEST(DoctorScenario, S3Sm120MetByCuda128AndCmake4BreaksTorch24) {
  std::string out = doctor_text({"s3-rtx5090-cmake4", "torch==2.4.1"});
  EXPECT_TRUE(has(out, "compute 12.0 with CUDA 12.8"));
  EXPECT_TRUE(has(out, "nvcc 12.8 compiles for sm_120 (since CUDA 12.8)"));
  EXPECT_TRUE(has(out, "CMake 4.2.0 breaks torch 2.4"));
  EXPECT_TRUE(has(out, "CMAKE_POLICY_VERSION_MINIMUM=3.5"));
  EXPECT_TRUE(has(out, "NumPy 1.23.5 fits torch 2.4"));
  EXPECT_TRUE(has(out, "site-packages/nvidia/cudnn"));
}

TEST(DoctorScenario, S1Cuda118TakesGccUpTo11) {
  std::string out = doctor_text({"s1-rtx4090-cuda118", "torch==1.13.0"});
  EXPECT_TRUE(has(out, "CUDA 11.8 accepts gcc <= 11"));
  EXPECT_TRUE(has(out, "compute 8.9 with CUDA 11.8"));
}

TEST(DoctorScenario, UnknownGpuIsReportedById) {
  std::string out = doctor_text({"unknown-gpu", ""});
  EXPECT_TRUE(has(out, "unknown to the knowledge base"));
  EXPECT_TRUE(has(out, "is not in the knowledge base, so its compute capability is unknown"));
}

TEST(DoctorScenario, JetsonOrinIs87) {
  std::string out = doctor_text({"jetson-orin", ""});
  EXPECT_TRUE(has(out, "Jetson AGX Orin"));
  EXPECT_TRUE(has(out, "compute 8.7 (tegra)"));
}

TEST(DoctorScenario, TwoToolkitsAreBothJudged) {
  std::string out = doctor_text({"two-toolkits", ""});
  EXPECT_TRUE(has(out, "/usr/local/cuda-11.8"));
  EXPECT_TRUE(has(out, "/usr/local/cuda-12.4"));
  EXPECT_TRUE(has(out, "as nvcc 11.8's host compiler"));
  EXPECT_TRUE(has(out, "as nvcc 12.4's host compiler"));
}

// doctor --json on a fixture: the facts and the verdicts, by field.
nlohmann::json doctor_json(const std::string& host, const std::string& target = "") {
  std::vector<std::string> args{"doctor", "--json"};
  for (auto& a : root_of(host)) args.push_back(a);
  if (!target.empty()) args.insert(args.end(), {"--for", target});
  auto r = run_torchsmith(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

std::vector<nlohmann::json> verdicts(const nlohmann::json& j, const std::string& rule) {
  std::vector<nlohmann::json> out;
  for (const auto& v : j["verdicts"])
    if (v.value("rule", "") == rule) out.push_back(v);
  return out;
}

// Every verdict says which rule judged it, in --json and after its line in the text report.
TEST(DoctorRules, EveryVerdictOnEveryFixtureCarriesItsRuleId) {
  for (const auto& e : std::filesystem::directory_iterator(kHosts)) {
    if (!e.is_directory()) continue;
    std::string host = e.path().filename().string();
    SCOPED_TRACE(host);
    auto j = doctor_json(host, "torch==2.4.1");
    ASSERT_TRUE(j.contains("verdicts"));
    std::string text = doctor_text({host, "torch==2.4.1"});
    for (const auto& v : j["verdicts"]) {
      std::string rule = v.value("rule", "");
      EXPECT_NE(rule.find('.'), std::string::npos) << v.dump();
      EXPECT_NE(text.find(v.value("subject", "") + " [" + rule + "]"), std::string::npos) << rule;
    }
  }
}

TEST(DoctorMachines, JetpackNvidiaSmiDoesNotAddAPhantomGpu) {
  auto j = doctor_json("jetson-orin-nano-smi");
  ASSERT_EQ(j["facts"]["gpus"].size(), 1u) << j["facts"]["gpus"].dump();
  EXPECT_TRUE(j["facts"]["gpus"][0]["integrated"].get<bool>());
  EXPECT_EQ(j["facts"]["gpus"][0]["compute_capability"], "8.7");
  EXPECT_EQ(j["facts"]["driver"]["version"], "540.4.0");
  EXPECT_EQ(j["facts"]["jetson"]["l4t_version"], "36.4.3");
  EXPECT_EQ(j["facts"]["jetson"]["jetpack"], "6.2");
  auto d = verdicts(j, "driver.tegra");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]["subject"].get<std::string>().find("JetPack 6.2"), std::string::npos);
  EXPECT_NE(d[0]["source"].get<std::string>().find("developer.nvidia.com/embedded/jetpack"), std::string::npos);
  EXPECT_EQ(verdicts(j, "gpu.toolkit").size(), 1u);  // one GPU x one toolkit
}

TEST(DoctorMachines, JetsonWithoutSmiShowsL4tWithItsJetpack) {
  auto j = doctor_json("jetson-orin-nx-nosmi");
  EXPECT_FALSE(j["facts"]["driver"]["present"].get<bool>());
  EXPECT_EQ(j["facts"]["jetson"]["jetpack"], "6.0");
  auto d = verdicts(j, "driver.tegra");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]["reason"].get<std::string>().find("JetPack 6.0: CUDA 12.2"), std::string::npos) << d[0].dump();
  std::string text = doctor_text({"jetson-orin-nx-nosmi", ""});
  EXPECT_TRUE(has(text, "L4T 36.3.0 (JetPack 6.0)")) << text;
  EXPECT_FALSE(has(text, "no driver")) << text;
}

TEST(DoctorMachines, SinceNamesWhereTheArchStartsNotWhereTheKbStarts) {
  // sm_75 came with CUDA 10.0 (cuda.toml [[arch]]), older than the KB's first toolkit (10.2).
  auto j = doctor_json("s5-gtx1660ti-container", "torch==1.12.1");
  auto g = verdicts(j, "gpu.toolkit");
  ASSERT_FALSE(g.empty());
  EXPECT_NE(g[0]["reason"].get<std::string>().find("(since CUDA 10.0)"), std::string::npos) << g[0].dump();
  EXPECT_NE(g[0]["source"].get<std::string>().find("docs.nvidia.com/cuda/archive/10.0"), std::string::npos);
  // A dropped arch names both ends: sm_61 from CUDA 8.0 to 12.9.
  auto p = verdicts(doctor_json("pascal-cuda13"), "gpu.toolkit");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]["level"], "fail");
  EXPECT_NE(p[0]["reason"].get<std::string>().find("the last toolkit with it is CUDA 12.9"), std::string::npos);
}

TEST(DoctorMachines, AdaOnCuda117OffersSm86AndTheToolkitIsNotTorchs) {
  auto j = doctor_json("ada-cuda117", "torch==2.4.1");
  auto g = verdicts(j, "gpu.toolkit");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0]["level"], "fail");
  EXPECT_NE(g[0]["fix"].get<std::string>().find("--arch 8.6"), std::string::npos) << g[0].dump();
  auto t = verdicts(j, "cuda.target");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]["level"], "warn");
  EXPECT_NE(t[0]["reason"].get<std::string>().find("the only toolkit here, CUDA 11.7, is not among torch 2.4's CUDA "
                                                   "versions (11.8, 12.1, 12.4)"),
            std::string::npos)
      << t[0].dump();
  // A release that was built with 11.7 gets no such verdict.
  EXPECT_TRUE(verdicts(doctor_json("ada-cuda117", "torch==2.0.1"), "cuda.target").empty());
}

TEST(DoctorMachines, CmakeTooOldForNewestIsInfoWithoutForAndWarnOnlyWithIt) {
  auto j = doctor_json("jetson-orin");
  auto c = verdicts(j, "cmake.releases");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0]["level"], "info");
  EXPECT_EQ(j["summary"]["warn"], 0) << j["verdicts"].dump();
  auto t = verdicts(doctor_json("jetson-orin", "torch==2.9.0"), "cmake.target");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]["level"], "fail");
}

TEST(DoctorMachines, VenvThatDoesNotFitAndExperimentalPython) {
  auto j = doctor_json("venv-py313", "torch==2.4.1");
  bool venv_fails = false;
  for (const auto& v : verdicts(j, "python.target"))
    venv_fails |= v["level"] == "fail" && v["subject"].get<std::string>().find(".venvs/py313") != std::string::npos;
  EXPECT_TRUE(venv_fails) << j["verdicts"].dump();
  for (const auto& py : j["facts"]["pythons"])
    EXPECT_EQ(py["externally_managed"].get<bool>(), py["path"] == "/usr/bin/python3") << py.dump();
  auto e = verdicts(doctor_json("venv-py313", "torch==2.5.1"), "python.experimental");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0]["level"], "warn");
  EXPECT_NE(e[0]["reason"].get<std::string>().find("3.13 only experimentally"), std::string::npos);
}

TEST(DoctorJson, CompleteAndConsistent) {
  auto r = run_torchsmith({"doctor", "--json", "--root", kHosts + "s3-rtx5090-cmake4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "torchsmith-doctor/1");
  EXPECT_EQ(j["facts"]["gpus"][0]["device_id"], "2b85");
  EXPECT_EQ(j["facts"]["gpus"][0]["compute_capability"], "12.0");
  EXPECT_EQ(j["facts"]["driver"]["version"], "580.95.05");
  int fails = 0;
  for (const auto& v : j["verdicts"]) {
    EXPECT_TRUE(v.contains("reason") && v.contains("fix") && v.contains("source"));
    fails += v["level"] == "fail";
  }
  EXPECT_EQ(j["summary"]["fail"], fails);
}

TEST(DoctorBadInput, MissingRootIsOneLineError) {
  auto r = run_torchsmith({"doctor", "--root", "/nonexistent/torchsmith-root"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "/nonexistent/torchsmith-root")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(DoctorBadInput, BadTargetSpec) {
  auto r = run_torchsmith({"doctor", "--root", kHosts + "no-gpu", "--for", "torch>>1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--for")) << r.err;
}

TEST(DoctorBadInput, BrokenKbOverlayNamesFileAndLine) {
  std::string dir = std::string(TS_BINARY_DIR) + "/test-bad-kb";
  std::system(("mkdir -p " + dir).c_str());
  ASSERT_EQ(util::write_file_atomic(dir + "/cuda.toml", "[[release]]\nversion = \"12.x\"\n"), "");
  auto r = run_torchsmith({"doctor", "--root", kHosts + "no-gpu", "--kb", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "cuda.toml:2")) << r.err;
}

TEST(DoctorBadInput, HangingAndCrashingPythonsBecomeVerdicts) {
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_torchsmith({"doctor", "--root", kHosts + "bad-python", "--python-timeout", "3"});
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "timed out after 3 s")) << r.out;  // the interpreter sleeps 60 s
  EXPECT_TRUE(has(r.out, "signal 11")) << r.out;
  EXPECT_LT(s, 14.0);  // bounded by --python-timeout, not by the hanging interpreter nor the 15 s default
  auto bad = run_torchsmith({"doctor", "--root", kHosts + "bad-python", "--python-timeout", "0"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out;  // a timeout of no time is refused, not a probe that never waits
}

TEST(KbCheck, BuiltInIsClean) {
  auto r = run_torchsmith({"kb", "check"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(KbCheck, ReportsEveryBadEntryWithFileLine) {
  std::string dir = std::string(TS_BINARY_DIR) + "/test-bad-kb2";
  std::system(("mkdir -p " + dir).c_str());
  ASSERT_EQ(util::write_file_atomic(dir + "/torch.toml",
                                    "[[release]]\nversion = \"2.4\"\npython = \"3.8-\"\n"
                                    "source = \"x\"\n"),
            "");
  ASSERT_EQ(util::write_file_atomic(dir + "/gpus.toml", "[[gpu]\n"), "");
  auto r = run_torchsmith({"kb", "check", "--only", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.out, "torch.toml:3")) << r.out;
  EXPECT_TRUE(has(r.out, "gpus.toml:1")) << r.out;
}

TEST(KbCheck, ValidatesSignaturesAndFixesThroughTheirStages) {
  std::string dir = std::string(TS_BINARY_DIR) + "/test-bad-kb3";
  std::system(("mkdir -p " + dir + "/fixes").c_str());
  ASSERT_EQ(util::write_file_atomic(dir + "/signatures.toml",
                                    "[[signature]]\nid = \"X\"\npatterns = [\"(unclosed\"]\n"),
            "");
  ASSERT_EQ(util::write_file_atomic(dir + "/fixes/a.toml", "[[fix]]\nid = \"y\"\n"), "");
  auto r = run_torchsmith({"kb", "check", "--only", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.out, "signatures.toml:3: pattern does not compile")) << r.out;
  EXPECT_TRUE(has(r.out, "fixes/a.toml:1: fix 'y': 'source' is missing")) << r.out;
}

TEST(Cli, HelpTeachesAndExitsZero) {
  auto r = run_torchsmith({"doctor", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r.out, "--root"));
  EXPECT_TRUE(has(r.out, "--for"));
  auto bad = run_torchsmith({"frobnicate"});
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace
}  // namespace ts::testing

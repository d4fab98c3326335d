// Plans on machines the seeds never showed: Jetson Orin with and without JetPack's nvidia-smi, a
// Pascal GPU with only CUDA 13, an Ada GPU with only CUDA 11.7, an active venv whose Python does
// not fit, an externally managed (PEP 668) system Python. Decisions and conflicts asserted by field.
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/render.h"
#include "plan_fixtures.h"

namespace ts::plan {
namespace {

using testing::find_conflict;
using testing::fixture;
using testing::has_decision;
using testing::knowledge;
using testing::spec_of;

bool any_fix_mentions(const Conflict& c, const std::string& s) {
  return std::any_of(c.fixes.begin(), c.fixes.end(), [&](const std::string& f) { return f.find(s) != std::string::npos; });
}

const Step* step(const Plan& p, const std::string& name) {
  for (const auto& s : p.steps)
    if (s.name == name) return &s;
  return nullptr;
}

bool argv_has(const Step& s, const std::string& a) { return std::find(s.argv.begin(), s.argv.end(), a) != s.argv.end(); }

const Decision* decision(const PlanResult& r, const std::string& topic, const std::string& value_part) {
  for (const auto& d : r.plan.decisions)
    if (d.topic == topic && d.value.find(value_part) != std::string::npos) return &d;
  return nullptr;
}

PlanResult plan_on(const std::string& host, const std::string& req, const std::map<std::string, std::string>& opts = {}) {
  return make_plan(spec_of(req, opts), fixture(host), knowledge());
}

// --- Jetson -----------------------------------------------------------------------------------

TEST(Jetson, NcclIsOffWithTheTegraSourceAndItsDependentsFollow) {
  for (const char* host : {"jetson-orin-nano-smi", "jetson-orin-nx-nosmi", "jetson-orin"}) {
    auto r = plan_on(host, "torch==2.7.1");
    SCOPED_TRACE(host);
    EXPECT_FALSE(r.plan.features.at("nccl"));
    EXPECT_EQ(r.plan.cmake_options.at("USE_NCCL"), "OFF");
    EXPECT_FALSE(r.plan.features.at("static-nccl"));
    const Decision* d = decision(r, "feature", "USE_NCCL=0");
    ASSERT_NE(d, nullptr) << render_explain(r);
    EXPECT_NE(d->reason.find("NCCL does not support Tegra"), std::string::npos) << d->reason;
    EXPECT_NE(d->source.find("tegra.toml"), std::string::npos) << d->source;
    EXPECT_FALSE(has_decision(r, "library", "NCCL from third_party"));
  }
  // A desktop machine keeps NCCL: the rule is Tegra's, not everyone's.
  auto desk = plan_on("two-toolkits", "torch==2.4.1");
  EXPECT_TRUE(desk.plan.features.at("nccl"));
}

TEST(Jetson, AskingForNcclThereIsAConflict) {
  auto r = plan_on("jetson-orin-nano-smi", "torch==2.7.1", {{"--with", "nccl"}});
  const Conflict* c = find_conflict(r, "--with nccl");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->why.find("NCCL does not support Tegra"), std::string::npos);
}

TEST(Jetson, WithoutNvidiaSmiTheGpuIsStillTestedThroughTorchCuda) {
  const HostFacts& f = fixture("jetson-orin-nx-nosmi");
  EXPECT_FALSE(f.driver.present);
  auto r = plan_on("jetson-orin-nx-nosmi", "torch==2.7.1");
  ASSERT_TRUE(r.conflicts.empty()) << render_explain(r);
  const Step* v = step(r.plan, "verify");
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(argv_has(*v, "--gpu"));
  EXPECT_NE(v->note.find("through torch.cuda, not NVML"), std::string::npos) << v->note;
  EXPECT_EQ(v->note.find("no GPU test"), std::string::npos) << v->note;
  EXPECT_EQ(v->note.find("cuda:1"), std::string::npos);
  // No desktop driver talk: L4T's driver decision names JetPack, not Error 35/804.
  const Decision* d = decision(r, "driver", "Jetson driver");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_NE(d->value.find("JetPack 6.0"), std::string::npos) << d->value;
  EXPECT_NE(d->reason.find("CUDA 12.2"), std::string::npos) << d->reason;
  for (const auto& x : r.plan.decisions) {
    EXPECT_EQ(x.reason.find("Error 35"), std::string::npos) << x.topic << ": " << x.reason;
    EXPECT_EQ(x.reason.find("no driver"), std::string::npos) << x.topic << ": " << x.reason;
  }
}

TEST(Jetson, JetpackNvidiaSmiRowIsTheSocGpuNotASecondOne) {
  const HostFacts& raw = fixture("jetson-orin-nano-smi");
  EXPECT_TRUE(raw.driver.present);  // nvidia-smi answered: 540.4.0, CUDA 12.6
  EXPECT_EQ(raw.driver.version, "540.4.0");
  auto r = plan_on("jetson-orin-nano-smi", "torch==2.7.1");
  ASSERT_TRUE(r.conflicts.empty()) << render_explain(r);
  EXPECT_EQ(r.plan.arch_list.torch_cuda_arch_list(), "8.7");
  const Step* v = step(r.plan, "verify");
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(argv_has(*v, "--gpu"));
  EXPECT_EQ(v->note.find("cuda:1"), std::string::npos) << v->note;
}

TEST(Jetson, Aarch64GetsNoX86LibraryAdvice) {
  auto r = plan_on("jetson-orin-nano-smi", "torch==2.7.1");
  std::string all;
  for (const auto& d : r.plan.decisions) all += d.value + " " + d.reason + "\n";
  EXPECT_EQ(all.find("conda install mkl"), std::string::npos) << all;
  EXPECT_EQ(all.find("mkl-devel"), std::string::npos) << all;
  EXPECT_EQ(all.find("conda install -c pytorch magma"), std::string::npos) << all;
  const Decision* mkl = decision(r, "library", "no MKL");
  ASSERT_NE(mkl, nullptr) << render_explain(r);
  EXPECT_FALSE(mkl->warning);  // no MKL exists for aarch64: a fact, not a problem
  EXPECT_NE(mkl->reason.find("OpenBLAS"), std::string::npos);
  const Decision* magma = decision(r, "feature", "USE_MAGMA=0");
  ASSERT_NE(magma, nullptr);
  EXPECT_NE(magma->reason.find("linux-64 only"), std::string::npos) << magma->reason;
  // x86-64 keeps its advice.
  auto x86 = plan_on("s5-gtx1660ti-container", "torch==1.12.1");
  const Decision* m = decision(x86, "feature", "USE_MAGMA=0");
  ASSERT_NE(m, nullptr) << render_explain(x86);
  EXPECT_NE(m->reason.find("magma-cuda117"), std::string::npos);
  EXPECT_TRUE(m->warning);
}

// --- Old GPU, new toolkit; new GPU, old toolkit ----------------------------------------------

TEST(ArchWaysOut, PascalWithOnlyCuda13NamesTorchsOwnToolkits) {
  auto r = plan_on("pascal-cuda13", "torch==2.9.0");
  const Conflict* c = find_conflict(r, "arch 6.1 with CUDA 13.0");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->why.find("dropped after CUDA 12.9"), std::string::npos) << c->why;
  // torch 2.9 was released for 12.6, 12.8 and 13.0; the first two still build sm_61.
  EXPECT_TRUE(any_fix_mentions(*c, "torch 2.9's own CUDA versions with sm_61: 12.6, 12.8")) << c->fixes.front();
}

TEST(ArchWaysOut, DroppingTheOnlyGpusArchIsAConflictWithTheWayOut) {
  auto r = plan_on("pascal-cuda13", "torch==2.9.0", {{"--arch", "7.5"}});
  const Conflict* c = find_conflict(r, "no GPU here is covered");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->why.find("compute 6.1"), std::string::npos);
  EXPECT_TRUE(any_fix_mentions(*c, "install CUDA 12.9 or older")) << c->fixes.front();
  EXPECT_TRUE(any_fix_mentions(*c, "--arch 6.1"));
  EXPECT_TRUE(any_fix_mentions(*c, "--facts"));
  // Building for another machine on purpose stays possible: a portable package is not judged here.
  auto two = plan_on("two-toolkits", "torch==2.4.1", {{"--arch", "8.6;9.0"}});
  EXPECT_EQ(find_conflict(two, "no GPU here is covered"), nullptr);
}

TEST(ArchWaysOut, AdaOnCuda117OffersSm86Sass) {
  auto r = plan_on("ada-cuda117", "torch==2.0.1");
  const Conflict* c = find_conflict(r, "arch 8.9 with CUDA 11.7");
  ASSERT_NE(c, nullptr) << render_explain(r);
  EXPECT_NE(c->why.find("needs CUDA >= 11.8"), std::string::npos);
  EXPECT_TRUE(any_fix_mentions(*c, "--arch 8.6")) << render_explain(r);
  EXPECT_TRUE(any_fix_mentions(*c, "torch 2.0's own CUDA versions with sm_89: 11.8"));
  // Taking that way out plans: 8.6 SASS runs on the 8.9 GPU, so no "no kernel image" conflict.
  auto ok = plan_on("ada-cuda117", "torch==2.0.1", {{"--arch", "8.6"}});
  EXPECT_TRUE(ok.conflicts.empty()) << render_explain(ok);
}

// --- Pythons ------------------------------------------------------------------------------------

TEST(Pythons, AVenvThatDoesNotFitIsSaidWithWhy) {
  auto r = plan_on("venv-py313", "torch==2.4.1");
  EXPECT_EQ(r.plan.python, "/usr/bin/python3");
  const Decision* d = decision(r, "python", "skipped /home/lab/.venvs/py313/bin/python3");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->reason.find("not 3.13"), std::string::npos) << d->reason;
}

// A pyenv shim first on PATH without NumPy and /usr/bin/python3 with it (issue 37): the one that has
// the build's packages is planned, and the reason names the other and how to build with it; asked
// for by path, the shim is kept and the plan names the interpreter that has them.
TEST(Pythons, OneWithTheBuildsPackagesIsPreferredAndTheOtherNamed) {
  HostFacts f = fixture("s3-rtx5090-cmake4");
  auto fitting = std::find_if(f.pythons.begin(), f.pythons.end(), [](const PythonFacts& p) { return p.error.empty(); });
  ASSERT_NE(fitting, f.pythons.end());
  PythonFacts sys = *fitting;
  sys.path = "/usr/bin/python3";
  sys.env_kind = "system";
  sys.packages = {{"numpy", "1.26.4"}, {"pyyaml", "6.0.1"}, {"setuptools", "69.0.0"}, {"typing_extensions", "4.9.0"}};
  PythonFacts shim = sys;
  shim.path = "/home/u/.pyenv/shims/python3";
  shim.prefix = "/home/u/.pyenv/versions/" + sys.version;
  shim.packages = {{"setuptools", "69.0.0"}};
  f.pythons = {shim, sys};

  auto r = make_plan(spec_of("torch==2.4.1"), f, knowledge());
  EXPECT_EQ(r.plan.python, "/usr/bin/python3") << render_explain(r);
  const Decision* d = decision(r, "python", "/usr/bin/python3");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_NE(d->reason.find("/home/u/.pyenv/shims/python3 lacks numpy"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("--python /home/u/.pyenv/shims/python3"), std::string::npos) << d->reason;

  auto asked = make_plan(spec_of("torch==2.4.1", {{"--python", shim.path}}), f, knowledge());
  EXPECT_EQ(asked.plan.python, shim.path) << render_explain(asked);
  const Decision* w = decision(asked, "python", "/usr/bin/python3 has the build's packages");
  ASSERT_NE(w, nullptr) << render_explain(asked);
  EXPECT_TRUE(w->warning);
  EXPECT_NE(w->reason.find("--python /usr/bin/python3"), std::string::npos) << w->reason;
}

TEST(Pythons, ExternallyManagedPythonGetsVenvAdviceNeverBreakSystemPackages) {
  const HostFacts& f = fixture("venv-py313");
  for (const auto& py : f.pythons) EXPECT_EQ(py.externally_managed, py.path == "/usr/bin/python3") << py.path;
  for (const char* host : {"venv-py313", "pascal-cuda13"}) {
    auto r = plan_on(host, host == std::string("venv-py313") ? "torch==2.4.1" : "torch==2.9.0");
    const Conflict* c = find_conflict(r, "NumPy is not installed");
    ASSERT_NE(c, nullptr) << host << render_explain(r);
    EXPECT_TRUE(any_fix_mentions(*c, "-m venv")) << c->fixes.front();
    EXPECT_TRUE(any_fix_mentions(*c, "PEP 668"));
    EXPECT_FALSE(any_fix_mentions(*c, "break-system-packages"));
  }
  // A Python without the marker keeps the plain pip line.
  HostFacts g = fixture("two-toolkits");
  g.pythons.front().packages.erase("numpy");
  auto r = make_plan(spec_of("torch==2.4.1"), g, knowledge());
  const Conflict* c = find_conflict(r, "NumPy is not installed");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(any_fix_mentions(*c, "/usr/bin/python3 -m pip install 'numpy"));
}

TEST(Pythons, ExperimentalPythonIsAWarningFromTheKb) {
  auto r = plan_on("venv-py313", "torch==2.5.1");  // 3.13 is experimental in torch 2.5
  EXPECT_EQ(r.plan.python, "/home/lab/.venvs/py313/bin/python3");
  const Decision* d = decision(r, "python", "3.13.1");
  ASSERT_NE(d, nullptr) << render_explain(r);
  EXPECT_TRUE(d->warning);
  EXPECT_NE(d->reason.find("only experimentally"), std::string::npos);
  auto full = plan_on("venv-py313", "torch==2.6.0");  // 3.13 (not 3.13t) is supported in 2.6
  const Decision* e = decision(full, "python", "3.13.1");
  ASSERT_NE(e, nullptr) << render_explain(full);
  EXPECT_FALSE(e->warning);
}

}  // namespace
}  // namespace ts::plan

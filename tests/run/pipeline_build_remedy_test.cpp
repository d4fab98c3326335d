// Live triggers of the build helper's remedies in run_build, through a scripted StepRunner whose
// failed build carries what triage makes of a real log line (the embedded signatures): a build
// that fails on a class a remedy fixes retries once with it, recorded with the line that
// triggered it; a remedy that did not help is not tried again; an unrelated failure is not retried.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "fake_step_runner.h"
#include "run/pipeline.h"
#include "source/port.h"
#include "testkit/temp_dir.h"
#include "triage/scanner.h"
#include "triage/signature.h"
#include "triage/test_util.h"
#include "util/fs.h"

namespace ts::run {
namespace {

using testing::FakeStepRunner;

using triage::testing::engine;  // one Engine over the embedded signatures (tests/triage/test_util.h)

triage::Diagnosis diagnosed(const std::string& log) { return triage::diagnose_text(engine(), log); }

plan::Plan build_plan() {
  plan::Plan p;
  p.steps = {{"build", {"python3", "-m", "pip", "wheel", "--no-build-isolation", "."}, "{src}", ""}};
  p.arch_list = *ArchList::parse("8.6");  // typed, and written into the env as the planner does
  p.env = {{"TORCH_CUDA_ARCH_LIST", "8.6"}, {"PATH", "/usr/bin"}};
  return p;
}

struct Fixture {
  testkit::TempDir dir{"ts-pipeline-build-remedy"};
  FakeStepRunner fake;
  std::vector<std::string> said;
  BuildOptions opts() {
    BuildOptions o = scripted_build_options(dir / "out", &fake, &said);
    o.early_verify = false;
    return o;
  }
  std::string env_of(std::size_t call, const std::string& k) const {
    const auto& e = fake.calls.at(call).env;
    auto it = e.find(k);
    return it == e.end() ? "<unset>" : it->second;
  }
};

const char* kCxx20 =
    "/opt/venv/lib/python3.12/site-packages/torch/include/c10/macros/Macros.h:5:2: error: #error C++20 or later "
    "compatible compiler is required to use PyTorch.\n";

TEST(PipelineBuildRemedy, TheStdSignatureRaisesTheStandardAndRetriesOnce) {
  Fixture f;
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosed(kCxx20)});
  BuildOutcome r = run_build(build_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(f.env_of(0, "TORCHSMITH_CXX_STD"), "<unset>");
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_CXX_STD"), "20");
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_CMAKE_STD"), "20");
  // The helper is on the retry's PYTHONPATH (written to the run's pyshim directory).
  EXPECT_NE(f.env_of(1, "PYTHONPATH").find("pyshim"), std::string::npos) << f.env_of(1, "PYTHONPATH");
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].remedy, "build_remedy");
  const std::string& why = r.record.retries[0].reason;
  EXPECT_EQ(why.rfind("CXX17_REQUIRED: [build.cxx-std] -std raised to C++20", 0), 0u) << why;
  EXPECT_NE(why.find("the log: " + std::string(kCxx20).substr(0, 60)), std::string::npos) << why;
}

// Bounded: the same failure after the remedy is not retried with it again.
TEST(PipelineBuildRemedy, ARemedyThatDidNotHelpIsNotRepeated) {
  Fixture f;
  f.fake.script["build"] = {{.exit_code = 1, .diagnosis = diagnosed(kCxx20)},
                            {.exit_code = 1, .diagnosis = diagnosed(kCxx20)}};
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(r.record.retries.size(), 1u);
  ASSERT_FALSE(r.record.steps.empty());
  EXPECT_NE(r.record.steps.back().note.find("already raised to C++20: the remedy did not help"), std::string::npos)
      << r.record.steps.back().note;
}

// The standard the plan already raised to is the plan's typed value: a C++20 failure on a plan
// that raises to C++20 is not retried with it, and a plan that raises to C++17 is raised to 20.
TEST(PipelineBuildRemedy, TheStandardThePlanRaisedToIsReadTyped) {
  for (int planned : {20, 17}) {
    Fixture f;
    plan::Plan p = build_plan();
    p.cxx_std = planned;
    p.env["TORCHSMITH_CXX_STD"] = std::to_string(planned);
    f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosed(kCxx20)});
    BuildOutcome r = run_build(p, f.opts());
    SCOPED_TRACE(planned);
    if (planned == 20) {
      EXPECT_EQ(r.exit_code, 1);
      EXPECT_EQ(f.fake.calls.size(), 1u);
      ASSERT_FALSE(r.record.steps.empty());
      EXPECT_NE(r.record.steps.back().note.find("already raised to C++20"), std::string::npos) << r.record.steps.back().note;
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.error;
      ASSERT_EQ(f.fake.calls.size(), 2u);
      EXPECT_EQ(f.env_of(1, "TORCHSMITH_CXX_STD"), "20");
    }
  }
}

TEST(PipelineBuildRemedy, ASetupPyGpuCheckGetsThePlannedTarget) {
  Fixture f;
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosed(
      "  File \"setup.py\", line 47, in get_extensions\nNotImplementedError: Cuda is not availabel\n")});
  BuildOutcome r = run_build(build_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_GPU_TARGET"), "8.6");
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("BUILD_NEEDS_A_GPU: [build.gpu-target]"), std::string::npos)
      << r.record.retries[0].reason;
}

// spconv's vendored 2019 pybind11 under Python 3.12 (the GPU run's log line): the retry carries the
// signature's pybind11-per-Python table to the build helper, once; the same failure after it is not
// retried again.
TEST(PipelineBuildRemedy, AnOldVendoredPybind11IsSetAsideOnce) {
  const char* line =
      "/src/spconv/third_party/pybind11/include/pybind11/detail/type_caster_base.h:482:26: error: invalid use of "
      "incomplete type 'PyFrameObject' {aka 'struct _frame'}\n";
  Fixture f;
  f.fake.script["build"] = {{.exit_code = 1, .diagnosis = diagnosed(line)}, {.exit_code = 1, .diagnosis = diagnosed(line)}};
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(f.env_of(0, "TORCHSMITH_PYBIND11_FOR"), "<unset>");
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_PYBIND11_FOR"), "3.11:2.10 3.12:2.11 3.13:2.13");
  EXPECT_NE(f.env_of(1, "PYTHONPATH").find("pyshim"), std::string::npos);
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].reason.rfind("PYBIND11_TOO_OLD_FOR_PYTHON: [build.pybind11-torch]", 0), 0u)
      << r.record.retries[0].reason;
  ASSERT_FALSE(r.record.steps.empty());
  EXPECT_NE(r.record.steps.back().note.find("already set aside: the remedy did not help"), std::string::npos)
      << r.record.steps.back().note;
}

// The same signature on a CMake project that add_subdirectory()s its vendored pybind11 (spconv's shape),
// in the build's own copy (OUT/src): before the retry, that directory's CMakeLists.txt becomes the
// stand-in, the diff is in the retry's record and pybind11.diff. Near miss: for a Python that needs no
// newer pybind11 (3.10) the tree is not touched.
TEST(PipelineBuildRemedy, AnOldVendoredPybind11AddedByCmakeGetsTheStandIn) {
  const char* line =
      "/src/spconv/third_party/pybind11/include/pybind11/cast.h:442:36: error: invalid use of incomplete type "
      "'PyFrameObject' {aka 'struct _frame'}\n";
  for (const char* python : {"3.12.3", "3.10.12"}) {
    SCOPED_TRACE(python);
    Fixture f;
    const std::filesystem::path src = f.dir / "out/src";
    std::filesystem::create_directories(src / "third_party/pybind11/include/pybind11/detail");
    ASSERT_EQ(util::write_file_atomic((f.dir / "out/.torchsmith-out"), ""), "");  // an output directory of torchsmith's
    ASSERT_EQ(util::write_file_atomic((src / "CMakeLists.txt").string(), "add_subdirectory(third_party/pybind11)\n"), "");
    ASSERT_EQ(util::write_file_atomic((src / "third_party/pybind11/CMakeLists.txt").string(), "project(pybind11)\n"), "");
    ASSERT_EQ(util::write_file_atomic((src / "third_party/pybind11/include/pybind11/detail/common.h").string(),
                                      "#define PYBIND11_VERSION_MAJOR 2\n#define PYBIND11_VERSION_MINOR 3\n"), "");
    f.fake.script["build"] = {{.exit_code = 1, .diagnosis = diagnosed(line)}, {.exit_code = 0}};
    plan::Plan p = build_plan();
    p.python_version = FactVersion(python);
    BuildOutcome r = run_build(p, f.opts());
    ASSERT_EQ(r.exit_code, 0) << r.error;
    ASSERT_EQ(r.record.retries.size(), 1u);
    const std::string now = util::read_file((src / "third_party/pybind11/CMakeLists.txt").string()).value_or("");
    if (std::string(python) == "3.10.12") {
      EXPECT_EQ(now, "project(pybind11)\n");
      EXPECT_EQ(r.record.retries[0].diff, "");
      continue;
    }
    EXPECT_EQ(now.rfind("# torchsmith [build.pybind11-torch]: this directory's pybind11 (2.3) is older than the target "
                        "Python needs (2.11)", 0), 0u) << now;
    EXPECT_NE(r.record.retries[0].reason.find("third_party/pybind11 (pybind11 2.3, added by CMakeLists.txt): its "
                                              "CMakeLists.txt replaced by torchsmith's stand-in"), std::string::npos)
        << r.record.retries[0].reason;
    EXPECT_NE(r.record.retries[0].diff.find("-project(pybind11)"), std::string::npos) << r.record.retries[0].diff;
  }
}

// spconv's order on 2 cores: the ported build gets past the ported file and stops on a later cause a
// remedy fixes (maxpool.cu's c10::Half operators): the ports stay for that retry, which builds. Near miss
// (pipeline_ports_test): with nothing left to try, a ported build that still fails gets its files back.
TEST(PipelineBuildRemedy, PortsStayForTheRemedyOfALaterCause) {
  static const source::PortSet ports = [] {
    std::vector<std::string> errors;
    return source::load_ports({}, errors);
  }();
  Fixture f;
  const std::filesystem::path src = f.dir / "out/src";
  std::filesystem::create_directories(src / "src");
  ASSERT_EQ(util::write_file_atomic((f.dir / "out/.torchsmith-out"), ""), "");
  ASSERT_EQ(util::write_file_atomic((src / "src/all.cc").string(),
                                    "static auto r = torch::jit::RegisterOperators(\"spconv::a\", &a);\n"), "");
  const char* half = "/src/spconv/src/spconv/maxpool.cu(187): error: more than one operator \"==\" matches these operands:\n"
                     "            operand types are: const c10::Half == const c10::Half\n";
  f.fake.script["build"] = {{.exit_code = 1}, {.exit_code = 1, .diagnosis = diagnosed(half)}, {.exit_code = 0}};
  BuildOptions o = f.opts();
  o.ports = &ports;
  BuildOutcome r = run_build(build_plan(), o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(f.fake.calls.size(), 3u);
  ASSERT_EQ(r.record.retries.size(), 2u);
  EXPECT_EQ(r.record.retries[0].remedy, "source-port");
  EXPECT_EQ(r.record.retries[1].reason.rfind("CUDA_HALF_OPERATOR_AMBIGUOUS: [build.cuda-half-operators]", 0), 0u)
      << r.record.retries[1].reason;
  EXPECT_NE(f.env_of(2, "NVCC_APPEND_FLAGS").find("-D__CUDA_NO_HALF_OPERATORS__"), std::string::npos);
  EXPECT_EQ(util::read_file((src / "src/all.cc").string()).value_or(""),
            "static auto r = torch::RegisterOperators(\"spconv::a\", &a);\n");
  EXPECT_TRUE(std::any_of(f.said.begin(), f.said.end(), [](const std::string& s) {
    return s.find("the source ports stay for the next retry: the build now stops on CUDA_HALF_OPERATOR_AMBIGUOUS") !=
           std::string::npos;
  }));
}

// fairseq's lightconv under nvcc 13.0: the log names the member, not the header; the retry
// force-includes the one stdlib.toml gives, for the host compiler and nvcc.
TEST(PipelineBuildRemedy, AStdMemberWithoutItsHeaderIsForceIncluded) {
  Fixture f;
  f.fake.script["build"].push_back(
      {.exit_code = 1, .diagnosis = diagnosed("/src/fairseq/modules/lightconv_layer/../cuda_utils.cu(29): error: "
                                              "namespace \"std\" has no member \"cout\"\n")});
  BuildOutcome r = run_build(build_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_FORCE_INCLUDE"), "iostream");
  EXPECT_EQ(f.env_of(1, "NVCC_APPEND_FLAGS"), "-include iostream");
  EXPECT_EQ(f.env_of(1, "CXXFLAGS"), "-include iostream");
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].remedy, "force_include");
}

// nvcc refusing an arch the plan's list lacks: the package's own list, made to lose to the plan's.
TEST(PipelineBuildRemedy, AnArchThePlanDoesNotHaveIsThePackagesOwn) {
  Fixture f;
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosed(
      "nvcc fatal   : Unsupported gpu architecture 'compute_35'\n")});
  BuildOutcome r = run_build(build_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_ARCH_LIST"), "8.6");
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_CMAKE_ARCHES"), "86-real");
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("[build.arch-list]"), std::string::npos) << r.record.retries[0].reason;
}

// Near miss: an arch in the plan's own list that nvcc refuses is the plan's problem (shortening it
// needs --allow-arch-shrink), not the package's.
TEST(PipelineBuildRemedy, AnArchOfThePlansOwnListIsNotForced) {
  Fixture f;
  plan::Plan p = build_plan();
  p.arch_list = *ArchList::parse("3.5;8.6");
  p.env["TORCH_CUDA_ARCH_LIST"] = "3.5;8.6";
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosed(
      "nvcc fatal   : Unsupported gpu architecture 'compute_35'\n")});
  BuildOutcome r = run_build(p, f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 1u);
  EXPECT_TRUE(r.record.retries.empty());
}

std::string lines_of(const std::vector<std::string>& said) {
  std::string all;
  for (const auto& l : said) all += l + "\n";
  return all;
}

void put(const std::string& path) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  ASSERT_EQ(util::write_file_atomic(path, "#pragma once\n"), "");
}

// Near miss: a failure whose build remedy does not apply here is not retried with one.
TEST(PipelineBuildRemedy, AnUnrelatedFailureIsNotRetried) {
  Fixture f;
  triage::Diagnosis d = diagnosed("/src/csrc/ball_query.cpp:3:10: fatal error: cuda_utils.h: No such file or directory\n");
  ASSERT_NE(d.root(), nullptr);  // triage names it: a real failure, whose remedy (build.own-header-dir) needs
  EXPECT_EQ(d.root()->id, "MISSING_HEADER_GENERIC");  // the header in the package's source, which has none
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = d});
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 1u);
  EXPECT_TRUE(r.record.retries.empty());
  EXPECT_TRUE(std::any_of(f.said.begin(), f.said.end(), [](const std::string& l) {
    return l.find("no retry: build.own-header-dir: the package's source has no cuda_utils.h") != std::string::npos;
  })) << lines_of(f.said);
}

// cond-norm's xcn_cuda: its .cu files include <DeviceSqrt.cuh>, which sits beside them and on no include
// path. The one directory of the build's source holding it goes first on the retry's CPATH, once;
// near miss: two directories hold it, and which one is meant is not known (no retry).
const char* kOwnHeader = "/w/out/src/xcn_cuda_kernel.cu:16:10: fatal error: DeviceSqrt.cuh: No such file or directory\n";

TEST(PipelineBuildRemedy, APackagesOwnHeaderBesideItsSourcesGoesOnCpath) {
  Fixture f;
  put(f.dir / "out/src/csrc/DeviceSqrt.cuh");
  ASSERT_EQ(util::write_file_atomic(f.dir / "out/.torchsmith-out", ""), "");  // OUT is torchsmith's
  put(f.dir / "out/src/build/temp.x/DeviceSqrt.cuh");  // an output
  f.fake.script["build"] = {{.exit_code = 1, .diagnosis = diagnosed(kOwnHeader)}, {.exit_code = 1, .diagnosis = diagnosed(kOwnHeader)}};
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(f.fake.calls.size(), 2u);
  EXPECT_EQ(f.env_of(0, "CPATH"), "<unset>");
  EXPECT_EQ(f.env_of(1, "CPATH"), f.dir / "out/src/csrc");
  EXPECT_EQ(f.env_of(1, "TORCHSMITH_OWN_HEADERS"), "DeviceSqrt.cuh");
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].reason.rfind("MISSING_HEADER_GENERIC: [build.own-header-dir] DeviceSqrt.cuh", 0), 0u)
      << r.record.retries[0].reason;
}

TEST(PipelineBuildRemedy, AnOwnHeaderInTwoDirectoriesIsNotGuessed) {
  Fixture f;
  put(f.dir / "out/src/a/DeviceSqrt.cuh");
  ASSERT_EQ(util::write_file_atomic(f.dir / "out/.torchsmith-out", ""), "");  // OUT is torchsmith's
  put(f.dir / "out/src/b/DeviceSqrt.cuh");
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosed(kOwnHeader)});
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 1u);
  EXPECT_TRUE(r.record.retries.empty());
  EXPECT_TRUE(std::any_of(f.said.begin(), f.said.end(), [](const std::string& l) {
    return l.find("2 directories of the source hold DeviceSqrt.cuh") != std::string::npos;
  })) << lines_of(f.said);
}

}  // namespace
}  // namespace ts::run

// The source ports in run_build, through a scripted StepRunner: a failed build of the build's own
// copy (OUT/src) is ported once and retried, the diff recorded; a build that still fails gets its
// files back byte for byte; an extension's directory is ported in its copy only; a tree built in
// place and --no-port are never ported.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "fake_step_runner.h"
#include "run/mirror.h"
#include "run/pipeline.h"
#include "source/journal.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"

namespace ts::run {
namespace {

using testing::FakeStepRunner;
using testing::Scripted;

const std::string kKernel = "#include <torch/extension.h>\nvoid f(at::Tensor x) {\n  AT_CHECK(x.is_cuda(), \"x\");\n}\n";

const source::PortSet& ports() {
  static const source::PortSet s = [] {
    std::vector<std::string> errors;
    return source::load_ports({}, errors);
  }();
  return s;
}

plan::Plan build_plan(const std::string& source_dir = "") {
  plan::Plan p;
  p.source_dir = source_dir;
  p.steps = {{"build", {"python3", "setup.py", "bdist_wheel"}, "{src}", ""}};
  return p;
}

struct Fixture {
  testkit::TempDir dir{"ts-pipeline-ports"};
  FakeStepRunner fake;
  std::vector<std::string> said;
  BuildOptions opts() {
    BuildOptions o = scripted_build_options(dir / "out", &fake, &said);
    o.early_verify = false;
    o.ports = &ports();
    return o;
  }
  std::string tree(const std::string& rel) {
    std::filesystem::create_directories(dir / rel + "/csrc");
    // OUT/src stands for a tree an earlier run of this output fetched: OUT is torchsmith's own.
    if (rel.rfind("out/", 0) == 0) {
      EXPECT_EQ(write_out_marker(dir / "out"), "");
    }
    EXPECT_EQ(util::write_file_atomic(dir / rel + "/csrc/k.cu", kKernel), "");
    return dir / rel;
  }
  bool said_has(const std::string& what) const {
    return std::any_of(said.begin(), said.end(), [&](const std::string& s) { return s.find(what) != std::string::npos; });
  }
};

TEST(PipelinePorts, AFailedBuildOfTheOwnCopyIsPortedAndRetriedOnce) {
  Fixture f;
  std::string src = f.tree("out/src");
  f.fake.script["build"].push_back({.exit_code = 1});
  BuildOutcome r = run_build(build_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.calls.size(), 2u);
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].remedy, "source-port");
  EXPECT_NE(r.record.retries[0].reason.find("port.at-check"), std::string::npos);
  EXPECT_NE(r.record.retries[0].diff.find("+  TORCH_CHECK(x.is_cuda(), \"x\");"), std::string::npos);
  EXPECT_EQ(util::read_file(src + "/csrc/k.cu").value_or(""), 
            "#include <torch/extension.h>\nvoid f(at::Tensor x) {\n  TORCH_CHECK(x.is_cuda(), \"x\");\n}\n");
  EXPECT_EQ(util::read_file(r.run_dir + "/ports.diff").value_or(""), r.record.retries[0].diff);
}

TEST(PipelinePorts, APortThatDoesNotHelpIsRevertedByteForByte) {
  Fixture f;
  std::string src = f.tree("out/src");
  f.fake.script["build"] = {{.exit_code = 1}, {.exit_code = 1}};
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 2u);  // retried once, not again
  EXPECT_EQ(util::read_file(src + "/csrc/k.cu"), kKernel);
  EXPECT_FALSE(std::filesystem::exists(src + "/" + source::kPortJournalRel));
  EXPECT_TRUE(f.said_has("reverted byte for byte"));
}

// An extension's directory is built from its copy in OUT/src (run_state.cpp): the copy is ported,
// the user's tree is not touched.
TEST(PipelinePorts, AnExtensionsDirectoryIsPortedInItsCopyOnly) {
  Fixture f;
  std::string mine = f.tree("mine");
  plan::Plan p = build_plan(mine);
  p.import_name = "k";  // an extension: built from OUT/src
  f.fake.script["build"].push_back({.exit_code = 1});
  BuildOutcome r = run_build(p, f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.calls.size(), 2u);
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].remedy, "source-port");
  EXPECT_EQ(util::read_file(mine + "/csrc/k.cu"), kKernel);
  EXPECT_NE(util::read_file(f.dir / "out/src/csrc/k.cu").value_or("").find("TORCH_CHECK(x.is_cuda()"), std::string::npos);
}

// A tree built in place (a torch source tree: no import name) is the user's own: named, never ported.
TEST(PipelinePorts, AUsersDirectoryIsNeverPorted) {
  Fixture f;
  std::string mine = f.tree("mine");
  f.fake.script["build"].push_back({.exit_code = 1});
  BuildOutcome r = run_build(build_plan(mine), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 1u);
  EXPECT_EQ(util::read_file(mine + "/csrc/k.cu"), kKernel);
  EXPECT_TRUE(f.said_has("port.at-check match 1 file(s) of your tree; not applied to it"));
}

// seamseg: its setup_requires fetch failed before any compile; the port matched its sources but
// could not change that cause, so no retry was spent (a compile-phase cause still gets one).
TEST(PipelinePorts, ACauseBeforeAnyCompileIsNotRetriedWithPorts) {
  static triage::Signature sig;
  sig.id = "SETUP_REQUIRES_FETCH_FAILED";
  sig.phase = "package";
  auto diagnosis = [](const std::string& phase) {
    triage::Diagnosis d;
    triage::Finding f;
    f.id = sig.id;
    f.sig = &sig;
    f.phase = phase;
    d.findings.push_back(f);
    d.root_count = 1;
    return d;
  };
  Fixture f;
  std::string src = f.tree("out/src");
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosis("package")});
  BuildOutcome r = run_build(build_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 1u);
  EXPECT_EQ(util::read_file(src + "/csrc/k.cu"), kKernel);
  EXPECT_TRUE(f.said_has("source ports not tried: the failure is SETUP_REQUIRES_FETCH_FAILED (package phase)"));

  Fixture g;  // near miss: the same finding in the compile phase is ported and retried
  g.tree("out/src");
  g.fake.script["build"].push_back({.exit_code = 1, .diagnosis = diagnosis("compile")});
  r = run_build(build_plan(), g.opts());
  EXPECT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(g.fake.calls.size(), 2u);
}

// DCNv2_latest: setup.py holds committed conflict blocks whose sides are the same code, and Python
// refuses it before anything compiles (SOURCE_MERGE_CONFLICT_MARKERS, package phase). A port answers
// that cause by name (port.merge-conflict-same-code): the ports' round runs, setup.py is resolved in the
// copy and the build retried. Near misses: sides that differ in code get no retry (the answer says the
// port found nothing), and the same conflict under another package-phase cause none either.
TEST(PipelinePorts, ACommittedConflictOfTheSameCodeIsResolvedAndRetried) {
  static triage::Signature sig;
  sig.id = "SOURCE_MERGE_CONFLICT_MARKERS";
  sig.phase = "package";
  triage::Diagnosis d;
  triage::Finding found;
  found.id = sig.id;
  found.sig = &sig;
  found.phase = "package";
  d.findings.push_back(found);
  d.root_count = 1;
  const std::string same = "import os\n<<<<<<< HEAD\nx = f(a,\n      b)\n=======\nx = f(a, b,)  # b\n>>>>>>> 977dfd3\n";
  const std::string differ = "import os\n<<<<<<< HEAD\nx = f(a)\n=======\nx = f(b)\n>>>>>>> 977dfd3\n";

  Fixture f;
  std::string src = f.tree("out/src");
  ASSERT_EQ(util::write_file_atomic(src + "/setup.py", same), "");
  f.fake.script["build"].push_back({.exit_code = 1, .diagnosis = d});
  BuildOutcome r = run_build(build_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.calls.size(), 2u);
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("port.merge-conflict-same-code"), std::string::npos) << r.record.retries[0].reason;
  EXPECT_EQ(util::read_file(src + "/setup.py").value_or(""), "import os\nx = f(a,\n      b)\n");

  Fixture g;
  src = g.tree("out/src");
  ASSERT_EQ(util::write_file_atomic(src + "/setup.py", differ), "");
  g.fake.script["build"].push_back({.exit_code = 1, .diagnosis = d});
  r = run_build(build_plan(), g.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(g.fake.calls.size(), 1u);
  EXPECT_EQ(util::read_file(src + "/setup.py").value_or(""), differ);
  EXPECT_EQ(util::read_file(src + "/csrc/k.cu"), kKernel);
  EXPECT_TRUE(g.said_has("source ports not tried: the failure is SOURCE_MERGE_CONFLICT_MARKERS (package phase), which "
                         "port.merge-conflict-same-code finds nothing in the source to change"));

  static triage::Signature other;
  other.id = "SETUP_REQUIRES_FETCH_FAILED";
  other.phase = "package";
  d.findings[0].id = other.id;
  d.findings[0].sig = &other;
  Fixture h;
  src = h.tree("out/src");
  ASSERT_EQ(util::write_file_atomic(src + "/setup.py", same), "");
  h.fake.script["build"].push_back({.exit_code = 1, .diagnosis = d});
  r = run_build(build_plan(), h.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(h.fake.calls.size(), 1u);
  EXPECT_EQ(util::read_file(src + "/setup.py").value_or(""), same);
}

// pytorch-edit-distance's __init__.py reads its version through pkg_resources, gone from setuptools
// 82: the build is clean and verify's import fails. The Python ports, once, then build and verify
// again; a verify that still fails gets the files back byte for byte.
const std::string kInit = "import torch\nfrom pkg_resources import get_distribution\n\n__version__ = get_distribution('pkg').version\n";

// verify's report: the smoke failed with `detail`.
Scripted verify_failed(const std::string& detail) {
  nlohmann::json report = {{"verdicts", {{{"check", "smoke"}, {"outcome", "fail"}, {"detail", detail}}}}};
  return {.exit_code = 1, .report_json = report.dump()};
}
const std::string kNoPkgResources = "ModuleNotFoundError: No module named 'pkg_resources'";

plan::Plan verified_plan() {
  plan::Plan p;
  p.steps = {{"build", {"python3", "setup.py", "bdist_wheel"}, "{src}", ""},
             {"verify", {"torchsmith", "verify", "x.whl"}, "", ""}};
  return p;
}

std::string python_tree(Fixture& f, const std::string& init) {
  std::filesystem::create_directories(f.dir / "out/src/pkg");
  EXPECT_EQ(write_out_marker(f.dir / "out"), "");
  EXPECT_EQ(util::write_file_atomic(f.dir / "out/src/pkg/__init__.py", init), "");
  return f.dir / "out/src";
}

TEST(PipelinePorts, AVerifyFailureOnThePackagesPythonIsPortedThenBuiltAndVerifiedAgain) {
  Fixture f;
  std::string src = python_tree(f, kInit);
  f.fake.script["verify"].push_back(verify_failed(kNoPkgResources));
  BuildOutcome r = run_build(verified_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify", "build", "verify"}));
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].remedy, "source-port");
  EXPECT_NE(r.record.retries[0].reason.find("port.pkg-resources-get-distribution"), std::string::npos);
  EXPECT_EQ(util::read_file(src + "/pkg/__init__.py").value_or(""),
            "import torch\nfrom importlib.metadata import distribution as get_distribution\n\n"
            "__version__ = get_distribution('pkg').version\n");
  EXPECT_TRUE(r.record.diagnosis.is_null());
  EXPECT_TRUE(std::filesystem::exists(r.run_dir + "/logs/01-build.ported.log"));
  EXPECT_TRUE(std::filesystem::exists(r.run_dir + "/logs/02-verify.log"));
}

TEST(PipelinePorts, AVerifyFailureWithNoPythonPortToMakeIsNotRebuilt) {
  for (const std::string init : {std::string("import pkg_resources\n__version__ = pkg_resources.get_distribution('pkg').version\n"),
                                 std::string("from pkg_resources import get_distribution, require\n")}) {
    Fixture f;
    std::string src = python_tree(f, init);
    f.fake.script["verify"].push_back(verify_failed(kNoPkgResources));
    BuildOutcome r = run_build(verified_plan(), f.opts());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify"})) << init;
    EXPECT_TRUE(r.record.retries.empty());
    EXPECT_EQ(util::read_file(src + "/pkg/__init__.py"), init);
  }
  // A port that matches, but verify failed for another reason than an import: no rebuild for it.
  Fixture f;
  std::string src = python_tree(f, kInit);
  f.fake.script["verify"].push_back(verify_failed("cuda arches: the wheel has no sm_86"));
  BuildOutcome r = run_build(verified_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify"}));
  EXPECT_EQ(util::read_file(src + "/pkg/__init__.py"), kInit);
}

TEST(PipelinePorts, APythonPortThatDoesNotMakeItVerifyIsRevertedByteForByte) {
  Fixture f;
  std::string src = python_tree(f, kInit);
  f.fake.script["verify"] = {verify_failed(kNoPkgResources), verify_failed("AttributeError: 'PathDistribution' object has no attribute 'location'")};
  BuildOutcome r = run_build(verified_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify", "build", "verify"}));  // once, not again
  EXPECT_EQ(util::read_file(src + "/pkg/__init__.py"), kInit);
  EXPECT_FALSE(std::filesystem::exists(src + "/" + source::kPortJournalRel));
  EXPECT_TRUE(f.said_has("the Python ports did not make it verify: reverted byte for byte"));
}

// dct_cuda's dct_cpp: the build is clean, and the import cannot find a specialization of the
// package's own template that one file defines and another only declares. The instantiation is added
// where the template is defined, once, then build and verify again; still failing, it goes back.
const std::string kDefines = "#include \"reorder.h\"\ntemplate <typename T>\nvoid reorder(const T* y, int n, T* z) {\n"
                             "  for (int i = 0; i < n; ++i) z[i] = y[n - 1 - i];\n}\n"
                             "void dct(const float* a, float* b) { reorder(a, 4, b); }\n";
const std::string kUndefined = "ImportError: /tmp/venv/lib/python3.11/site-packages/dct_cpp.cpython-311-x86_64-linux-gnu.so: "
                               "undefined symbol: _Z7reorderIfEvPKT_iPS0_";

std::string template_tree(Fixture& f) {
  std::filesystem::create_directories(f.dir / "out/src");
  EXPECT_EQ(write_out_marker(f.dir / "out"), "");
  EXPECT_EQ(util::write_file_atomic(f.dir / "out/src/dct.cpp", kDefines), "");
  EXPECT_EQ(util::write_file_atomic(f.dir / "out/src/dxt.cpp", "#include \"reorder.h\"\n"
                                    "void dxt(const float* a, float* b) { reorder(a, 4, b); }\n"), "");
  EXPECT_EQ(util::write_file_atomic(f.dir / "out/src/reorder.h", "template <typename T> void reorder(const T* y, int n, T* z);\n"), "");
  return f.dir / "out/src";
}

TEST(PipelinePorts, AnImportMissingTheTemplatesOwnSpecializationIsInstantiatedThenBuiltAgain) {
  Fixture f;
  std::string src = template_tree(f);
  f.fake.script["verify"].push_back(verify_failed(kUndefined));
  BuildOutcome r = run_build(verified_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify", "build", "verify"}));
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("port.template-instantiation"), std::string::npos);
  std::string dct = util::read_file(src + "/dct.cpp").value_or("");
  EXPECT_EQ(dct.substr(0, kDefines.size()), kDefines);
  EXPECT_NE(dct.find("\ntemplate void reorder<float>(float const*, int, float*);\n"), std::string::npos) << dct;
  EXPECT_EQ(util::read_file(src + "/reorder.h").value_or(""), "template <typename T> void reorder(const T* y, int n, T* z);\n");
  EXPECT_TRUE(std::filesystem::exists(r.run_dir + "/logs/01-build.ported.log"));

  Fixture g;  // still failing: back byte for byte, and not tried again
  src = template_tree(g);
  g.fake.script["verify"] = {verify_failed(kUndefined), verify_failed(kUndefined)};
  r = run_build(verified_plan(), g.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(g.fake.names(), (std::vector<std::string>{"build", "verify", "build", "verify"}));
  EXPECT_EQ(util::read_file(src + "/dct.cpp"), kDefines);
  EXPECT_FALSE(std::filesystem::exists(src + "/" + source::kPortJournalRel));
  EXPECT_TRUE(g.said_has("the ports did not make it verify: reverted byte for byte"));

  Fixture h;  // near miss: a symbol of torch's, whose template the package does not define
  src = template_tree(h);
  h.fake.script["verify"].push_back(verify_failed("ImportError: /x/dct_cpp.so: undefined symbol: _ZN2at4_ops10to_dtype_4callEv"));
  r = run_build(verified_plan(), h.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(h.fake.names(), (std::vector<std::string>{"build", "verify"}));
  EXPECT_EQ(util::read_file(src + "/dct.cpp"), kDefines);
}

TEST(PipelinePorts, NoPortMeansNoPort) {
  Fixture f;
  std::string src = f.tree("out/src");
  f.fake.script["build"].push_back({.exit_code = 1});
  BuildOptions o = f.opts();
  o.ports = nullptr;  // build --no-port
  BuildOutcome r = run_build(build_plan(), o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.calls.size(), 1u);
  EXPECT_EQ(util::read_file(src + "/csrc/k.cu"), kKernel);
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// X-Temporal: its import failed with TabError (a Python 2 file mixing tabs and spaces). A clean build,
// verify failing so: port.python2-tabs once, then build and verify again. Where the build itself
// failed first (X-Temporal's THC calls), the one port round takes the tabs too. A near miss: verify
// failing on something other than an import is not ported.
const std::string kTabbed = "def f(x):\n\tif x:\n\t\treturn 1\n        return 2\n";
const std::string kExpanded = "def f(x):\n        if x:\n                return 1\n        return 2\n";
const std::string kTabError = "TabError: inconsistent use of tabs and spaces in indentation";

TEST(PipelinePorts, ATabErrorAtVerifyIsPortedThenBuiltAndVerifiedAgain) {
  Fixture f;
  std::string src = python_tree(f, kTabbed);
  f.fake.script["verify"].push_back(verify_failed(kTabError));
  BuildOutcome r = run_build(verified_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify", "build", "verify"}));
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("port.python2-tabs"), std::string::npos) << r.record.retries[0].reason;
  EXPECT_EQ(util::read_file(src + "/pkg/__init__.py").value_or(""), kExpanded);
}

TEST(PipelinePorts, ABuildsOwnPortRoundTakesTheTabsToo) {
  Fixture f;
  std::string src = f.tree("out/src");
  std::filesystem::create_directories(src + "/pkg");
  ASSERT_EQ(util::write_file_atomic(src + "/pkg/helper.py", kTabbed), "");
  f.fake.script["build"].push_back({.exit_code = 1});
  BuildOutcome r = run_build(verified_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "build", "verify"}));
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("port.at-check port.python2-tabs"), std::string::npos) << r.record.retries[0].reason;
  EXPECT_EQ(util::read_file(src + "/pkg/helper.py").value_or(""), kExpanded);
}

// neuralnet-pytorch: its CUDA sources need the THC ports, and its Python imports torch._six, gone in
// torch 2.0. The build's one port round takes every port of the catalogue that matches, the Python
// ones too, so the import verify makes is already ported: no second round is needed (or spent).
TEST(PipelinePorts, ABuildsOwnPortRoundTakesTheTorchSixImportsToo) {
  Fixture f;
  std::string src = f.tree("out/src");
  std::filesystem::create_directories(src + "/pkg");
  const std::string six = "import torch as T\nfrom torch._six import container_abcs\nS = T._six.string_classes\n";
  ASSERT_EQ(util::write_file_atomic(src + "/pkg/layers.py", six), "");
  f.fake.script["build"].push_back({.exit_code = 1});
  BuildOutcome r = run_build(verified_plan(), f.opts());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "build", "verify"}));
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_NE(r.record.retries[0].reason.find("port.at-check port.torch-six-container-abcs port.torch-six-string-classes-attr"),
            std::string::npos) << r.record.retries[0].reason;
  EXPECT_EQ(util::read_file(src + "/pkg/layers.py").value_or(""),
            "import torch as T\nimport collections.abc as container_abcs\nS = (str, bytes)\n");
}

TEST(PipelinePorts, ATabbedFileIsNotPortedForAVerifyFailureThatIsNoImport) {
  Fixture f;
  std::string src = python_tree(f, kTabbed);
  f.fake.script["verify"].push_back(verify_failed("cuda arches: the wheel has no sm_86"));
  BuildOutcome r = run_build(verified_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify"}));
  EXPECT_EQ(util::read_file(src + "/pkg/__init__.py"), kTabbed);
}

}  // namespace
}  // namespace ts::run

namespace ts::run {
namespace {

// gauenk/dnls: setup.py lists packages=["dnls"], its __init__ imports dnls.utils, which the README's
// `pip install -e` finds in the tree and the wheel lacks. verify's import stops there: the build runs
// once more with build.subpackages (the helper adds the listed packages' subpackages), then verify.
const std::string kNoSubpackage = "ModuleNotFoundError: No module named 'dnls.utils'";

std::string subpackage_tree(Fixture& f, bool with_utils) {
  std::filesystem::create_directories(f.dir / "out/src/lib/dnls/utils");
  EXPECT_EQ(write_out_marker(f.dir / "out"), "");
  EXPECT_EQ(util::write_file_atomic(f.dir / "out/src/lib/dnls/__init__.py", "from . import utils\n"), "");
  if (with_utils) {
    EXPECT_EQ(util::write_file_atomic(f.dir / "out/src/lib/dnls/utils/__init__.py", ""), "");
  }
  return f.dir / "out/src";
}

TEST(PipelineSubpackages, AnImportMissingASubpackageOfTheSourceIsBuiltOnceMoreWithItsSubpackages) {
  Fixture f;
  subpackage_tree(f, true);
  f.fake.script["verify"] = {verify_failed(kNoSubpackage), verify_failed(kNoSubpackage)};
  BuildOutcome r = run_build(verified_plan(), f.opts());
  EXPECT_EQ(r.exit_code, 1);  // the second verify fails too: not a third time
  EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify", "build", "verify"}));
  ASSERT_EQ(f.fake.calls.size(), 4u);
  EXPECT_EQ(f.fake.calls[0].env.count("TORCHSMITH_SUBPACKAGES"), 0u);
  EXPECT_EQ(f.fake.calls[2].env.at("TORCHSMITH_SUBPACKAGES"), "1");
  ASSERT_EQ(f.fake.calls[2].env.count("PYTHONPATH"), 1u);
  EXPECT_EQ(f.fake.calls[2].env.at("PYTHONPATH").find("{pyshim}"), std::string::npos);  // the helper's real folder
  EXPECT_FALSE(f.fake.calls[2].env.at("PYTHONPATH").empty());
  ASSERT_EQ(r.record.retries.size(), 1u);
  EXPECT_EQ(r.record.retries[0].remedy, "build_remedy");
  EXPECT_NE(r.record.retries[0].reason.find("[build.subpackages] the wheel's import could not find dnls.utils"),
            std::string::npos) << r.record.retries[0].reason;
}

// Near misses: the source has no such package directory (a module nobody wrote, a dependency's
// submodule), or the missing module is a top-level one: verify's failure stands, nothing is rebuilt.
TEST(PipelineSubpackages, AMissingModuleTheSourceDoesNotHaveIsNotRebuilt) {
  for (const std::string& detail : {kNoSubpackage, std::string("ModuleNotFoundError: No module named 'yaml'"),
                                    std::string("ModuleNotFoundError: No module named 'mmcv._ext'")}) {
    Fixture f;
    subpackage_tree(f, detail != kNoSubpackage);
    f.fake.script["verify"].push_back(verify_failed(detail));
    BuildOutcome r = run_build(verified_plan(), f.opts());
    EXPECT_EQ(r.exit_code, 1) << detail;
    EXPECT_EQ(f.fake.names(), (std::vector<std::string>{"build", "verify"})) << detail;
    EXPECT_TRUE(r.record.retries.empty()) << detail;
  }
}

}  // namespace
}  // namespace ts::run

// verify_python_install against the real Debian torch here, fake Pythons that hang, crash or print
// garbage, fake Pythons that emulate a GPU machine's answers, and a tiny wheel installed and
// imported.
#include "verify/python_check.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <thread>
#include <nlohmann/json.hpp>

#include "util/fs.h"
#include "verify/early_check.h"
#include "verify/install_wheel.h"
#include "verify/python_compare.h"
#include "verify/python_run.h"
#include "verify/python_script.h"
#include "verify_test_util.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
const char* kPy = "/usr/bin/python3";

bool debian_torch() { return test::run({kPy, "-c", "import torch"}).exit_code == 0; }

const Verdict* find(const std::vector<Verdict>& vs, const std::string& check, Outcome o) {
  for (const auto& v : vs)
    if (v.check == check && v.outcome == o) return &v;
  return nullptr;
}

const Verdict* find(const std::vector<Verdict>& vs, const std::string& check) {
  for (const auto& v : vs)
    if (v.check == check) return &v;
  return nullptr;
}

std::string dump(const std::vector<Verdict>& vs) {
  std::string s;
  for (const auto& v : vs)
    s += std::string(outcome_name(v.outcome)) + "  " + v.check + "  " + v.detail + "\n";
  return s;
}

plan::Plan cpu_113_plan() {
  plan::Plan p;
  p.torch_version = "1.13";
  p.features = {{"cuda", false}, {"cudnn", false}};
  p.cmake_options = {
      {"USE_CUDA", "OFF"}, {"USE_CUDNN", "OFF"}, {"USE_MKLDNN", "ON"}, {"USE_OPENMP", "ON"}};
  return p;
}

TEST(PythonCheck, DebianTorchMatchesACpuPlan) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  PythonCheckOptions o;
  o.python = kPy;
  o.plan = cpu_113_plan();
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "import torch", Outcome::pass)) << dump(r.verdicts);
  EXPECT_NE(find(r.verdicts, "import torch", Outcome::pass)->detail.find("torch 1.13"),
            std::string::npos);
  EXPECT_TRUE(find(r.verdicts, "torch version", Outcome::pass)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "cuda", Outcome::pass)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "cudnn", Outcome::pass)) << dump(r.verdicts);
  auto* bs = find(r.verdicts, "build settings", Outcome::pass);
  ASSERT_TRUE(bs) << dump(r.verdicts);
  EXPECT_EQ(bs->detail, "4 of the plan's options recorded by torch, all as planned");
  EXPECT_TRUE(r.steps.contains("torch facts"));
}

TEST(PythonCheck, PlanAskingCudaFailsOnCpuTorch) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  PythonCheckOptions o;
  o.python = kPy;
  o.plan = cpu_113_plan();
  o.plan->cuda = plan::CudaChoice::from_text("12.8.93");
  o.plan->arch_list = *ArchList::parse("9.0");
  o.plan->features["cudnn"] = true;
  o.plan->cmake_options["USE_CUDA"] = "ON";
  o.plan->build_version = "1.13.1+cu128";
  auto r = verify_python_install(o);
  auto* c = find(r.verdicts, "cuda", Outcome::fail);
  ASSERT_TRUE(c) << dump(r.verdicts);
  EXPECT_EQ(c->detail, "plan says CUDA 12.8, torch reports none");
  EXPECT_TRUE(find(r.verdicts, "arch list", Outcome::fail)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "cudnn", Outcome::fail)) << dump(r.verdicts);
  auto* v = find(r.verdicts, "torch version", Outcome::fail);
  ASSERT_TRUE(v) << dump(r.verdicts);
  EXPECT_EQ(v->detail, "plan says 1.13.1+cu128, torch reports 1.13.0a0");
  auto* bs = find(r.verdicts, "build settings", Outcome::fail);
  ASSERT_TRUE(bs) << dump(r.verdicts);
  EXPECT_EQ(bs->detail, "plan sets USE_CUDA=ON, torch was built with USE_CUDA=OFF");
}

TEST(PythonCheck, GpuWithoutGpuSkipsForCpuPlanAndFailsForCudaPlan) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  PythonCheckOptions o;
  o.python = kPy;
  o.gpu = true;
  o.plan = cpu_113_plan();
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* d = find(r.verdicts, "gpu devices", Outcome::note);
  ASSERT_TRUE(d && is_skip(*d)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "gpu matmul", Outcome::note)) << dump(r.verdicts);
  o.plan->cuda = plan::CudaChoice::from_text("12.8");
  r = verify_python_install(o);
  auto* f = find(r.verdicts, "gpu devices", Outcome::fail);
  ASSERT_TRUE(f) << dump(r.verdicts);
  EXPECT_NE(f->detail.find("no GPU visible"), std::string::npos);
}

// A fake interpreter: a shell script run in place of python.
std::string fake(const test::TempDir& t, const std::string& name, const std::string& body) {
  std::string path = t / name;
  test::write(path, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
  return path;
}

std::string bad_python(const std::string& name) {
  return std::string(TS_SOURCE_DIR) + "/tests/fixtures/hosts/bad-python/usr/bin/" + name;
}

TEST(PythonCheck, HangingCrashingAndGarbagePythonsAreFailVerdicts) {
  PythonCheckOptions o;
  o.timeout = std::chrono::seconds(2);
  o.python = bad_python("python3");  // sleeps 60 s
  auto r = verify_python_install(o);
  auto* v = find(r.verdicts, "python", Outcome::fail);
  ASSERT_TRUE(v) << dump(r.verdicts);
  EXPECT_EQ(v->detail, "timed out after 2 s");

  o.python = bad_python("python3.10");  // prints a line that is not ours
  r = verify_python_install(o);
  v = find(r.verdicts, "python", Outcome::fail);
  ASSERT_TRUE(v) << dump(r.verdicts);
  EXPECT_EQ(v->detail, "printed no result (it printed 'hello from a wrapper')");

  o.python = bad_python("python3.11");  // exit 1 with a traceback
  r = verify_python_install(o);
  v = find(r.verdicts, "python", Outcome::fail);
  ASSERT_TRUE(v) << dump(r.verdicts);
  EXPECT_NE(v->detail.find("ModuleNotFoundError: No module named 'encodings'"), std::string::npos)
      << v->detail;

  o.python = bad_python("python3.9");  // SIGSEGV
  r = verify_python_install(o);
  v = find(r.verdicts, "python", Outcome::fail);
  ASSERT_TRUE(v) << dump(r.verdicts);
  EXPECT_NE(v->detail.find("signal 11"), std::string::npos) << v->detail;

  o.python = "/nonexistent/python3";
  r = verify_python_install(o);
  ASSERT_TRUE(find(r.verdicts, "python", Outcome::fail)) << dump(r.verdicts);
}

// Marker lines the real script prints, for fakes that emulate a machine.
std::string marker(const json& j) { return kMarker + j.dump() + "\n"; }
std::string step_ok(const std::string& step, const json& value) {
  return marker({{"kind", "begin"}, {"step", step}}) +
         marker({{"kind", "end"}, {"step", step}, {"ok", true}, {"value", value}});
}

// What torch 2.11+cu130 on a machine with `gpus` H100s answers (config text: the reconstructed
// fixture).
std::string gpu_machine(int gpus, bool finish = true) {
  auto config = util::read_file(std::string(TS_SOURCE_DIR) +
                                "/tests/fixtures/verify/config_show_2.11.0_cu130.txt");
  std::string out = step_ok(
      "import torch", {{"version", "2.11.0+cu130"},
                       {"file", "/opt/torch/.venv/lib/python3.12/site-packages/torch/__init__.py"},
                       {"cuda", "13.0"},
                       {"python", "3.12.3"}});
  out += step_ok("torch facts",
                 {{"cudnn", 91300},
                  {"arch_flags", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_110 sm_120 compute_120"},
                  {"cxx11_abi", true},
                  {"config", config.value_or("")},
                  {"errors", json::object()}});
  json names = json::array(), caps = json::array();
  for (int i = 0; i < gpus; ++i) names.push_back("NVIDIA H100 80GB HBM3"), caps.push_back("9.0");
  out += step_ok("gpu devices",
                 {{"available", gpus > 0},
                  {"count", gpus},
                  {"names", names},
                  {"capabilities", caps},
                  {"warnings", gpus ? json::array()
                                    : json::array({"Found no NVIDIA driver on your system."})}});
  if (gpus > 0) {
    out += step_ok("gpu randn", {{"shape", {2, 64, 512}},
                                 {"dtype", "torch.float16"},
                                 {"device", "cuda:0"},
                                 {"finite", true}});
    if (!finish) return out + marker({{"kind", "begin"}, {"step", "gpu matmul"}});
    out += step_ok("gpu matmul", {{"max_abs_diff", 1.9e-5}, {"close", true}});
    for (int i = 0; i < gpus; ++i)
      out += step_ok("gpu cuda:" + std::to_string(i),
                     {{"device", "cuda:" + std::to_string(i)}, {"equal", true}});
  }
  return out + marker({{"kind", "done"}});
}

std::string cat_script(const std::string& text) { return "cat <<'TS_EOF'\n" + text + "TS_EOF\n"; }

plan::Plan cu130_plan() {
  plan::Plan p;
  p.build_version = "2.11.0+cu130";
  p.cuda = plan::CudaChoice::from_text("13.0.88");
  p.arch_list = *ArchList::parse("9.0;10.0;12.0+PTX");
  p.features = {{"cuda", true}, {"cudnn", true}};
  p.cmake_options = {{"USE_CUDA", "ON"}, {"USE_CUDNN", "ON"}, {"USE_NCCL", "ON"}};
  return p;
}

TEST(PythonCheck, EmulatedTwoGpuMachinePasses) {
  test::TempDir t;
  PythonCheckOptions o;
  o.python = fake(t, "python", cat_script(gpu_machine(2)));
  o.gpu = true;
  o.plan = cu130_plan();
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  for (const char* c :
       {"import torch", "torch version", "config", "cuda", "cudnn", "arch list", "build settings",
        "gpu devices", "gpu randn", "gpu matmul", "gpu cuda:0", "gpu cuda:1"})
    EXPECT_TRUE(find(r.verdicts, c, Outcome::pass)) << c << "\n" << dump(r.verdicts);
  EXPECT_EQ(find(r.verdicts, "cudnn", Outcome::pass)->detail, "cuDNN 9.13.0");
  EXPECT_NE(find(r.verdicts, "gpu devices", Outcome::pass)
                ->detail.find("2 GPUs: cuda:0 NVIDIA H100 80GB HBM3 (9.0)"),
            std::string::npos);
  // sm_75 ... sm_110 were not asked for: a note, not a failure.
  EXPECT_TRUE(find(r.verdicts, "arch list", Outcome::note)) << dump(r.verdicts);

  o.plan->arch_list = *ArchList::parse("8.0;8.9");  // 8.9 is not compiled in
  r = verify_python_install(o);
  auto* a = find(r.verdicts, "arch list", Outcome::fail);
  ASSERT_TRUE(a) << dump(r.verdicts);
  EXPECT_EQ(a->detail, "missing sm_89");
}

TEST(PythonCheck, EmulatedCrashDuringMatmulNamesTheStep) {
  test::TempDir t;
  PythonCheckOptions o;
  o.python = fake(t, "python", cat_script(gpu_machine(1, false)) + "kill -SEGV $$\n");
  o.gpu = true;
  o.plan = cu130_plan();
  auto r = verify_python_install(o);
  EXPECT_TRUE(find(r.verdicts, "gpu randn", Outcome::pass)) << dump(r.verdicts);
  auto* m = find(r.verdicts, "gpu matmul", Outcome::fail);
  ASSERT_TRUE(m) << dump(r.verdicts);
  EXPECT_NE(m->detail.find("signal 11"), std::string::npos) << m->detail;
  EXPECT_NE(m->detail.find("during this step"), std::string::npos) << m->detail;
}

TEST(PythonCheck, EmulatedCudaTorchWithoutDriver) {
  test::TempDir t;
  PythonCheckOptions o;
  o.python = fake(t, "python", cat_script(gpu_machine(0)));
  o.gpu = true;
  auto r =
      verify_python_install(o);  // no plan: torch itself is a CUDA build, so --gpu expects a GPU
  auto* d = find(r.verdicts, "gpu devices", Outcome::fail);
  ASSERT_TRUE(d) << dump(r.verdicts);
  EXPECT_NE(d->detail.find("Found no NVIDIA driver"), std::string::npos) << d->detail;
  auto* s = find(r.verdicts, "gpu randn", Outcome::note);
  ASSERT_TRUE(s && is_skip(*s)) << dump(r.verdicts);
  EXPECT_EQ(s->detail, "skipped: no GPU");
}

// An extension built for the CPU (torchsmith matrix --cuda cpu against PyPI's CUDA torches) is
// judged by its import and smoke; torch itself planned for the CPU must report no CUDA.
TEST(PythonCheck, CpuExtensionAgainstACudaTorchIsNotACudaMismatch) {
  test::TempDir t;
  PythonCheckOptions o;
  o.python = fake(t, "python", cat_script(gpu_machine(0)));
  o.plan = plan::Plan{};
  o.plan->import_name = "tinypkg";
  auto r = verify_python_install(o);
  auto* c = find(r.verdicts, "cuda", Outcome::pass);
  ASSERT_TRUE(c) << dump(r.verdicts);
  EXPECT_NE(c->detail.find("extension built for the CPU; torch has CUDA"), std::string::npos) << c->detail;
  o.plan = plan::Plan{};  // torch's own CPU plan
  r = verify_python_install(o);
  ASSERT_TRUE(find(r.verdicts, "cuda", Outcome::fail)) << dump(r.verdicts);
}

TEST(PythonCheck, WrongShapedJsonIsAFailNotACrash) {
  test::TempDir t;
  std::string text = step_ok("import torch", {{"version", 3}, {"file", json::array()}}) +
                     step_ok("torch facts", {{"cudnn", "x"}, {"config", 7}}) +
                     step_ok("gpu devices", {{"count", 1}, {"names", 5}, {"capabilities", "9.0"}}) +
                     "@@torchsmith {nope\n";
  PythonCheckOptions o;
  o.python = fake(t, "python", cat_script(text));
  o.gpu = true;
  auto r = verify_python_install(o);
  EXPECT_TRUE(any_failed(r.verdicts)) << dump(r.verdicts);
}

// A pure-Python package "tinypkg" as a wheel, written by Python's zipfile (RECORD included).
// init: its __init__.py; tinypkg/_ops.py always has add().
std::string tiny_wheel(const test::TempDir& t,
                       const std::string& init = "__version__ = '0.1'\ndef add(t, x):\n    return t + x\n",
                       bool with_script = false) {
  std::string whl = t / "tinypkg-0.1-py3-none-any.whl";
  const char* script = R"PY(
import sys, zipfile, hashlib, base64
files = {
  "tinypkg/__init__.py": sys.argv[2],
  "tinypkg/_ops.py": "def add(t, x):\n    return t + x\n",
  "tinypkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinypkg\nVersion: 0.1\n",
  "tinypkg-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
if len(sys.argv) > 3:  # a script: pip must place it (bin/), so torchsmith does not extract this one
    files["tinypkg-0.1.data/scripts/tinytool"] = "#!python\nprint('tiny')\n"
rec = []
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for n, s in files.items():
        b = s.encode()
        z.writestr(n, b)
        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
        rec.append("%s,sha256=%s,%d" % (n, h, len(b)))
    rec.append("tinypkg-0.1.dist-info/RECORD,,")
    z.writestr("tinypkg-0.1.dist-info/RECORD", "\n".join(rec) + "\n")
)PY";
  std::vector<std::string> argv{kPy, "-c", script, whl, init};
  if (with_script) argv.push_back("script");
  auto r = test::run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return whl;
}

plan::Plan tiny_plan() {
  plan::Plan p;
  p.import_name = "tinypkg";
  p.smoke =
      "import tinypkg\nassert tinypkg.add(torch.ones(2, device=device), 1).sum().item() == 4\n";
  return p;
}

TEST(PythonCheck, TinyWheelInstalledIntoAFreshTargetAndImported) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t);
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* i = find(r.verdicts, "install", Outcome::pass);
  ASSERT_TRUE(i) << dump(r.verdicts);
  // Only site-packages files: unzipped by torchsmith, no pip start-up in the way.
  EXPECT_NE(i->detail.find("extracted into " + (t / "work/install/target") + " by torchsmith"), std::string::npos)
      << i->detail;
  auto* imp = find(r.verdicts, "import tinypkg", Outcome::pass);
  ASSERT_TRUE(imp) << dump(r.verdicts);
  EXPECT_NE(imp->detail.find(t / "work/install/target/"), std::string::npos) << imp->detail;
  // torch came from the interpreter's own site, not from the target.
  EXPECT_NE(find(r.verdicts, "import torch", Outcome::pass)
                ->detail.find("/usr/lib/python3/dist-packages/torch"),
            std::string::npos);
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);

  o.plan->smoke =
      "raise RuntimeError('op not built for ' + device)";  // a smoke that fails says why
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  auto* s = find(r.verdicts, "smoke", Outcome::fail);
  ASSERT_TRUE(s) << dump(r.verdicts);
  EXPECT_EQ(s->detail, "RuntimeError: op not built for cpu");
}

// detectron2 imports fvcore, mmcv addict: a missing runtime dependency is a warning, and the smoke
// code (loading the compiled module by path, as those recipes do) still decides.
TEST(PythonCheck, AMissingRuntimeDependencyWarnsAndTheSmokeDecides) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t, "import fvcore_not_installed_here\n");
  o.plan = tiny_plan();
  o.plan->smoke =
      "import importlib.util, os, sys\n"
      "d = [p for p in sys.path if os.path.isfile(os.path.join(p, 'tinypkg', '_ops.py'))][0]\n"
      "s = importlib.util.spec_from_file_location('tinypkg_ops', os.path.join(d, 'tinypkg', '_ops.py'))\n"
      "m = importlib.util.module_from_spec(s)\ns.loader.exec_module(m)\n"
      "assert m.add(torch.ones(2, device=device), 1).sum().item() == 4\n";
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* w = find(r.verdicts, "import tinypkg", Outcome::warn);
  ASSERT_TRUE(w) << dump(r.verdicts);
  EXPECT_NE(w->detail.find("needs fvcore_not_installed_here, which is not installed here"), std::string::npos)
      << w->detail;
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);

  // Its own module missing is the build's fault: that still fails.
  o.wheel = tiny_wheel(t, "from tinypkg import _C\n");
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  auto* f = find(r.verdicts, "import tinypkg", Outcome::fail);
  ASSERT_TRUE(f) << dump(r.verdicts);
}

// bottom-up-attention: its Python and its smoke import detectron2, which the repository's submodule
// builds with a setup.py of its own; the plan warned, naming that build. Verify's warning and the
// smoke's FAIL carry the plan's reason instead of "pip install detectron2"; near miss: a module the
// plan did not warn about keeps the plain wording.
TEST(PythonCheck, AMissingSiblingExtensionNamesTheBuildThePlanWarnedOf) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t, "import sibling_not_built_here\n");
  o.plan = tiny_plan();
  plan::Decision d;
  d.topic = "extension";
  d.value = "imports sibling_not_built_here, which this build does not make";
  d.reason = "the package's Python imports sibling_not_built_here, an extension that detectron2/setup.py of the "
             "same tree builds as a package of its own: build and install it first (torchsmith build SRC/detectron2)";
  d.warning = true;
  o.plan->decisions.push_back(d);
  o.plan->smoke = "import sibling_not_built_here.layers\n";
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  auto* w = find(r.verdicts, "import tinypkg", Outcome::warn);
  ASSERT_TRUE(w) << dump(r.verdicts);
  EXPECT_NE(w->detail.find("the plan warned: the package's Python imports sibling_not_built_here"), std::string::npos)
      << w->detail;
  EXPECT_EQ(w->detail.find("pip install"), std::string::npos) << w->detail;
  // The smoke stopped at that import: skipped, and the module it needs is the failure, with the plan's word.
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::note)) << dump(r.verdicts);
  auto* f = find(r.verdicts, "needs sibling_not_built_here", Outcome::fail);
  ASSERT_TRUE(f) << dump(r.verdicts);
  EXPECT_NE(f->detail.find("No module named 'sibling_not_built_here'"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("(torchsmith build SRC/detectron2)"), std::string::npos) << f->detail;

  o.plan->decisions.clear();
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  w = find(r.verdicts, "import tinypkg", Outcome::warn);
  ASSERT_TRUE(w) << dump(r.verdicts);
  EXPECT_NE(w->detail.find("pip install sibling_not_built_here"), std::string::npos) << w->detail;
  f = find(r.verdicts, "needs sibling_not_built_here", Outcome::fail);
  ASSERT_TRUE(f) << dump(r.verdicts);
  EXPECT_EQ(f->detail.find("the plan warned"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("a runtime dependency, not something the build made"), std::string::npos) << f->detail;
}

// VoGE: its __init__ imports pytorch3d, which no wheel gives, and its smoke is the generic import.
// verify says exactly that (needs pytorch3d: a FAIL of its own, the smoke skipped, never a pass), and
// loads the wheel's compiled module by its file, without the __init__, as a check of its own. A
// compiled module here is a copy of one of this Python's own (lib-dynload), so no compiler runs.
// Near misses: the package imports (no load step, the smoke passes); the package's own module
// missing is no dependency (the smoke FAILs as before).
std::string wheel_with_compiled(const test::TempDir& t, const std::string& init, const std::string& so) {
  std::string whl = t / "tinypkg-0.1-cp311-cp311-linux_x86_64.whl";
  const char* script = R"PY(
import sys, os, zipfile, hashlib, base64, sysconfig
name = "tinypkg/_queue" + sysconfig.get_config_var("EXT_SUFFIX")
files = {
  "tinypkg/__init__.py": sys.argv[2].encode(),
  name: open(sys.argv[3], "rb").read(),
  "tinypkg-0.1.dist-info/METADATA": b"Metadata-Version: 2.1\nName: tinypkg\nVersion: 0.1\n",
  "tinypkg-0.1.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp311-cp311-linux_x86_64\n",
}
rec = []
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for n, b in files.items():
        z.writestr(n, b)
        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
        rec.append("%s,sha256=%s,%d" % (n, h, len(b)))
    rec.append("tinypkg-0.1.dist-info/RECORD,,")
    z.writestr("tinypkg-0.1.dist-info/RECORD", "\n".join(rec) + "\n")
)PY";
  auto r = test::run({kPy, "-c", script, whl, init, so});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return whl;
}

TEST(PythonCheck, AnUndeclaredDependencyNoWheelGivesFailsAsItselfAndTheCompiledModuleLoadsByItsFile) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  auto so = test::run({kPy, "-c", "import _queue; print(_queue.__file__)"});
  if (so.exit_code != 0 || so.out.find(".so") == std::string::npos) GTEST_SKIP() << "no _queue extension module: " << so.out;
  std::string so_path = so.out.substr(0, so.out.find('\n'));
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = wheel_with_compiled(t, "import pytorch3d_not_installed_here\nfrom . import _queue\n", so_path);
  o.plan = tiny_plan();
  o.plan->smoke = "import tinypkg\n";
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_TRUE(any_failed(r.verdicts)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "import tinypkg", Outcome::warn)) << dump(r.verdicts);
  auto* l = find(r.verdicts, "load tinypkg._queue", Outcome::pass);
  ASSERT_TRUE(l) << dump(r.verdicts);
  EXPECT_NE(l->detail.find("by its file alone (its package's __init__ not run)"), std::string::npos) << l->detail;
  EXPECT_NE(l->detail.find(t / "work/install/target/tinypkg/_queue"), std::string::npos) << l->detail;
  auto* n = find(r.verdicts, "needs pytorch3d_not_installed_here", Outcome::fail);
  ASSERT_TRUE(n) << dump(r.verdicts);
  EXPECT_NE(n->detail.find("the smoke code (import tinypkg) needs pytorch3d_not_installed_here, which is not installed here"),
            std::string::npos) << n->detail;
  EXPECT_NE(n->detail.find("its compiled code loads by itself (load tinypkg._queue)"), std::string::npos) << n->detail;
  auto* s = find(r.verdicts, "smoke", Outcome::note);
  ASSERT_TRUE(s) << dump(r.verdicts);
  EXPECT_TRUE(is_skip(*s)) << s->detail;
  EXPECT_FALSE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);

  // Near miss: the package imports; its compiled module is imported, not loaded apart; the smoke passes.
  o.wheel = wheel_with_compiled(t, "from . import _queue\n", so_path);
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "load tinypkg._queue")) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);

  // Near miss: the package's own module missing is the build's, not a dependency: the smoke FAILs.
  o.wheel = wheel_with_compiled(t, "from tinypkg import _C\n", so_path);
  o.work_dir = t / "work3";
  r = verify_python_install(o);
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::fail)) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "needs tinypkg")) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "load tinypkg._queue", Outcome::pass)) << dump(r.verdicts);
}

// The long-tail bench verifies torchsmith's wheel with its plan and pip's wheel of the same source with
// none; the two must be asked the same question. A wheel with two top-level packages, each with a
// compiled module (TadTR's roi_align and temporal_deform_attn), a Requires-Dist the wheelhouse lacks,
// and one package whose __init__ imports what nothing installed: with the plan's generic smoke and
// with no plan alike, the dependency FAILs, `needs` FAILs (never a warned pass), and each compiled
// module is imported or loaded. Near miss: the same wheel without the missing import verifies both ways.
std::string two_package_wheel(const test::TempDir& t, const std::string& init_b, const std::string& so) {
  std::string whl = t / "tinypkg-0.1-cp311-cp311-linux_x86_64.whl";
  const char* script = R"PY(
import sys, zipfile, hashlib, base64, sysconfig
ext = sysconfig.get_config_var("EXT_SUFFIX")
so = open(sys.argv[3], "rb").read()
files = {
  "aaa_ops/__init__.py": b"from . import _queue\n",
  "aaa_ops/_queue" + ext: so,
  "tinypkg/__init__.py": sys.argv[2].encode(),
  "tinypkg/_queue" + ext: so,
  "tinypkg-0.1.dist-info/METADATA": b"Metadata-Version: 2.1\nName: tinypkg\nVersion: 0.1\nRequires-Dist: dep_nowhere_to_be_had\n",
  "tinypkg-0.1.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp311-cp311-linux_x86_64\n",
  "tinypkg-0.1.dist-info/top_level.txt": b"aaa_ops\ntinypkg\n",
}
rec = []
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for n, b in files.items():
        z.writestr(n, b)
        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
        rec.append("%s,sha256=%s,%d" % (n, h, len(b)))
    rec.append("tinypkg-0.1.dist-info/RECORD,,")
    z.writestr("tinypkg-0.1.dist-info/RECORD", "\n".join(rec) + "\n")
)PY";
  auto r = test::run({kPy, "-c", script, whl, init_b, so});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return whl;
}

TEST(PythonCheck, WithAPlanOrWithoutTheSameWheelIsAskedTheSameQuestion) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  auto so = test::run({kPy, "-c", "import _queue; print(_queue.__file__)"});
  if (so.exit_code != 0 || so.out.find(".so") == std::string::npos) GTEST_SKIP() << "no _queue extension module: " << so.out;
  std::string so_path = so.out.substr(0, so.out.find('\n'));
  test::TempDir t;
  fs::create_directories(t / "wh");  // a wheelhouse without the declared dependency
  PythonCheckOptions o;
  o.python = kPy;
  o.wheelhouse = t / "wh";
  o.wheel = two_package_wheel(t, "import pytorch3d_not_installed_here\nfrom . import _queue\n", so_path);
  plan::Plan generic;  // what the plan of a package with no recipe says (plan/recipe.cpp)
  generic.import_name = "tinypkg";
  generic.smoke = "import tinypkg";
  int n = 0;
  for (bool with_plan : {true, false}) {
    SCOPED_TRACE(with_plan ? "with the plan" : "without a plan");
    o.plan = with_plan ? std::optional<plan::Plan>(generic) : std::nullopt;
    o.work_dir = t / ("work" + std::to_string(n++));
    auto r = verify_python_install(o);
    EXPECT_TRUE(find(r.verdicts, "dependency dep_nowhere_to_be_had", Outcome::fail)) << dump(r.verdicts);
    auto* f = find(r.verdicts, "needs pytorch3d_not_installed_here", Outcome::fail);
    ASSERT_TRUE(f) << dump(r.verdicts);
    EXPECT_NE(f->detail.find("its compiled code loads by itself (load tinypkg._queue)"), std::string::npos) << f->detail;
    // The package spelled as the distribution first (as the plan names it), not top_level.txt's first line.
    EXPECT_NE(f->detail.find("the smoke code (import tinypkg ...)"), std::string::npos) << f->detail;
    EXPECT_TRUE(find(r.verdicts, "load tinypkg._queue", Outcome::pass)) << dump(r.verdicts);
    EXPECT_TRUE(find(r.verdicts, "import aaa_ops._queue", Outcome::pass)) << dump(r.verdicts);
    EXPECT_FALSE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  }

  // Near miss (with no plan; with one, TinyWheelInstalledIntoAFreshTargetAndImported): everything
  // imports, the smoke passes, and the declared dependency is the only FAIL.
  o.wheel = two_package_wheel(t, "from . import _queue\n", so_path);
  o.plan.reset();
  o.work_dir = t / "work-near";
  auto r = verify_python_install(o);
  EXPECT_TRUE(find(r.verdicts, "dependency dep_nowhere_to_be_had", Outcome::fail)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "load tinypkg._queue")) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "needs pytorch3d_not_installed_here")) << dump(r.verdicts);
}

// A torch module the torch under test lacks (neuralnet-pytorch's `from torch._six import ...`, gone
// since torch 2.0) is no runtime dependency: the import FAILs as the package's, naming torch, and is
// never a `needs` (the bench's built-needs-deps). Near miss: another distribution's module stays a `needs`.
TEST(PythonCheck, AMissingTorchModuleIsNoDependency) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t, "from torch._six_not_in_this_torch import inf\n");
  o.plan = tiny_plan();
  o.plan->smoke = "import tinypkg";
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  auto* f = find(r.verdicts, "import tinypkg", Outcome::fail);
  ASSERT_TRUE(f) << dump(r.verdicts);
  EXPECT_NE(f->detail.find("a module of torch that this torch (1.13"), std::string::npos) << f->detail;
  EXPECT_FALSE(find(r.verdicts, "needs torch._six_not_in_this_torch")) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::fail)) << dump(r.verdicts);

  o.wheel = tiny_wheel(t, "from torchsix_not_installed_here import inf\n");
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  EXPECT_TRUE(find(r.verdicts, "needs torchsix_not_installed_here", Outcome::fail)) << dump(r.verdicts);
}

// Deformable-DETR's models/ops wheel: find_packages() in the subdirectory installs `functions` and
// `modules` top-level, and modules/ does `from ..functions import`: by its own name it cannot import.
TEST(PythonCheck, APackageWrittenAsASubpackageImportsAsOne) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  auto wheel = [&](const std::string& modules_init) {
    std::string whl = t / "tinypkg-0.1-py3-none-any.whl";
    const char* script = R"PY(
import sys, zipfile, hashlib, base64
files = {
  "tinypkg/__init__.py": "def add(t, x):\n    return t + x\n",
  "functions/__init__.py": "from .func import twice\n",
  "functions/func.py": "def twice(x):\n    return 2 * x\n",
  "modules/__init__.py": sys.argv[2],
  "tinypkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinypkg\nVersion: 0.1\n",
  "tinypkg-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
  "tinypkg-0.1.dist-info/top_level.txt": "functions\nmodules\ntinypkg\n",
}
rec = []
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for n, s in files.items():
        b = s.encode()
        z.writestr(n, b)
        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
        rec.append("%s,sha256=%s,%d\n" % (n, h, len(b)))
    z.writestr("tinypkg-0.1.dist-info/RECORD", "".join(rec) + "tinypkg-0.1.dist-info/RECORD,,\n")
)PY";
    auto r = test::run({kPy, "-c", script, whl, modules_init});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return whl;
  };
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = wheel("from ..functions import twice\nassert twice(2) == 4\n");
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* w = find(r.verdicts, "import modules", Outcome::warn);
  ASSERT_TRUE(w) << dump(r.verdicts);
  EXPECT_NE(w->detail.find("as part of a package only"), std::string::npos) << w->detail;
  EXPECT_NE(w->detail.find("attempted relative import beyond top-level package"), std::string::npos) << w->detail;
  EXPECT_TRUE(find(r.verdicts, "import functions", Outcome::pass)) << dump(r.verdicts);

  // Near miss: the same package broken as a subpackage too (its sibling lacks the name) still fails.
  o.wheel = wheel("from ..functions import thrice\n");
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  EXPECT_TRUE(find(r.verdicts, "import modules", Outcome::fail)) << dump(r.verdicts);
}

// AANet's deform_conv: setup.py's name= is the plan's guess, the wheel installs deform_conv_cuda. The
// generic smoke (an import of the guessed name) imports what the wheel installs; a recipe's smoke does not.
TEST(PythonCheck, TheGenericSmokeImportsTheModuleTheWheelInstalls) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t);
  o.plan = tiny_plan();
  o.plan->import_name = "tiny_guess";
  o.plan->smoke = "import tiny_guess";
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "import tinypkg", Outcome::pass)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  auto* n = find(r.verdicts, "modules", Outcome::note);
  ASSERT_TRUE(n) << dump(r.verdicts);
  EXPECT_NE(n->detail.find("the wheel has no module tiny_guess"), std::string::npos) << n->detail;
  EXPECT_NE(n->detail.find("(the smoke imports tinypkg)"), std::string::npos) << n->detail;

  // Near miss: a smoke that is more than the guessed import is the recipe's test and still fails.
  o.plan->smoke = "import tiny_guess\nassert tiny_guess.add(torch.ones(1, device=device), 1).sum().item() == 2\n";
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  auto* f = find(r.verdicts, "smoke", Outcome::fail);
  ASSERT_TRUE(f) << dump(r.verdicts);
  EXPECT_NE(f->detail.find("No module named 'tiny_guess'"), std::string::npos) << f->detail;
}

// The plan's module is itself an op library: SRNN's CUDAExtension('srnn') is a top-level srnn.so
// with no PyInit_srnn (torch::RegisterOperators; its code loads it with
// cpp_extension.load(is_python_module=False)), so `import srnn` can only fail ("dynamic module does
// not define module export function"); verify loads it with torch.ops.load_library instead, and so
// does the generic smoke. Near miss: an op library beside the plan's Python module is still not loaded.
TEST(PythonCheck, ThePlansModuleThatIsAnOpLibraryIsLoadedNotImported) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  test::write(t / "s.c", "int srnn_roll_sum_relu(void) { return 1; }\n");
  auto cc = test::run({"cc", "-shared", "-fPIC", "-o", t / "srnn.so", t / "s.c"});
  if (cc.not_found) GTEST_SKIP() << "no cc";
  ASSERT_EQ(cc.exit_code, 0) << cc.err;
  auto wheel = [&](const std::string& whl, const std::string& extra_py) {
    auto r = test::run({kPy, "-c",
                        "import sys, zipfile, hashlib, base64\n"
                        "files = {'srnn-0.0.0.dist-info/METADATA': b'Metadata-Version: 2.1\\nName: srnn\\nVersion: 0.0.0\\n',\n"
                        " 'srnn-0.0.0.dist-info/WHEEL': b'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: false\\nTag: cp3-none-any\\n',\n"
                        " 'srnn-0.0.0.dist-info/top_level.txt': ('srnn\\n' + (sys.argv[3] + '\\n' if sys.argv[3] else '')).encode(),\n"
                        " 'srnn.so': open(sys.argv[2], 'rb').read()}\n"
                        "if sys.argv[3]: files[sys.argv[3] + '/__init__.py'] = b'X = 1\\n'\n"
                        "rec = []\n"
                        "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                        "    for n, b in files.items():\n"
                        "        z.writestr(n, b)\n"
                        "        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()\n"
                        "        rec.append('%s,sha256=%s,%d' % (n, h, len(b)))\n"
                        "    rec.append('srnn-0.0.0.dist-info/RECORD,,')\n"
                        "    z.writestr('srnn-0.0.0.dist-info/RECORD', '\\n'.join(rec) + '\\n')\n",
                        whl, t / "srnn.so", extra_py});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return whl;
  };
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = wheel(t / "srnn-0.0.0-py3-none-any.whl", "");
  plan::Plan p;
  p.import_name = "srnn";
  p.smoke = "import srnn";
  o.plan = p;
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* i = find(r.verdicts, "import srnn", Outcome::pass);
  ASSERT_TRUE(i) << dump(r.verdicts);
  EXPECT_NE(i->detail.find("loaded by torch.ops.load_library from " + (t / "work/install/target/srnn.so")),
            std::string::npos) << i->detail;
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "library srnn")) << dump(r.verdicts);

  // Near miss: the plan's module is a Python package; the op library beside it stays unloaded.
  fs::create_directories(t / "w2");
  o.wheel = wheel(t / "w2/srnn-0.0.0-py3-none-any.whl", "srnnpy");
  o.plan->import_name = "srnnpy";
  o.plan->smoke = "import srnnpy\nassert srnnpy.X == 1\n";
  o.work_dir = t / "work2";
  r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "import srnnpy", Outcome::pass)) << dump(r.verdicts);
  auto* n = find(r.verdicts, "library srnn", Outcome::note);
  ASSERT_TRUE(n) << dump(r.verdicts);
  EXPECT_NE(n->detail.find("not imported here"), std::string::npos) << n->detail;
}

TEST(PythonCheck, TorchPlanWheelMustProvideTorch) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t);  // a torch plan, but the wheel is not torch: torch comes from elsewhere
  o.plan = cpu_113_plan();
  auto r = verify_python_install(o);
  auto* v = find(r.verdicts, "import torch", Outcome::fail);
  ASSERT_TRUE(v) << dump(r.verdicts);
  EXPECT_NE(v->detail.find("not from the installed wheel"), std::string::npos) << v->detail;
}

TEST(PythonCheck, InstallWithoutPipExtractsTheWheel) {
  test::TempDir t;
  // A venv without pip and without the system site: `python -m pip` fails there.
  auto v = test::run({kPy, "-m", "venv", "--without-pip", t / "nopip"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  InstallOptions io;
  io.python = t / "nopip/bin/python";
  io.wheel = tiny_wheel(t);
  io.dir = t / "inst";
  io.prefer_pip = true;  // the fallback when pip is asked for and missing
  auto in = install_wheel(io);
  ASSERT_TRUE(in.ok) << in.detail;
  EXPECT_NE(in.detail.find("this Python has no pip"), std::string::npos) << in.detail;
  EXPECT_TRUE(fs::exists(in.site + "/tinypkg/__init__.py"));
  auto r = test::run({io.python, "-c", "import tinypkg; print(tinypkg.__file__)"},
                     {{"PYTHONPATH", in.pythonpath}});
  EXPECT_EQ(util::trim(r.out), in.site + "/tinypkg/__init__.py") << r.err;

  test::write(t / "broken.whl", "PK\x03\x04 not really a zip");
  io.wheel = t / "broken.whl";
  io.dir = t / "inst2";
  in = install_wheel(io);
  EXPECT_FALSE(in.ok);
  EXPECT_NE(in.detail.find("extracting the wheel failed"), std::string::npos) << in.detail;
}

}  // namespace
}  // namespace ts::verify

namespace ts::verify {
namespace {

// Issue 21: `verify --python PY ext.whl` without --plan judged the wheel as torch ("import torch:
// not from the installed wheel"). The wheel's own name says it is not torch; its module is imported.
TEST(PythonCheck, WithoutAPlanAnExtensionWheelIsJudgedAsItself) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t);
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  EXPECT_TRUE(find(r.verdicts, "import torch", Outcome::pass)) << dump(r.verdicts);
  auto* imp = find(r.verdicts, "import tinypkg", Outcome::pass);
  ASSERT_TRUE(imp) << dump(r.verdicts);
  EXPECT_NE(imp->detail.find(t / "work/install/target/"), std::string::npos) << imp->detail;
}

}  // namespace
}  // namespace ts::verify

namespace ts::verify {
namespace {

// A Python that logs when each of its runs starts and ends, around the real one.
std::string logging_python(test::TempDir& t, const std::string& log, const std::string& pip_extra = "",
                           const std::string& every_pip = "") {
  std::string py = t / "logpy";
  test::write(py,
              "#!/bin/bash\n"
              "s=\"$*\"; s=${s//$'\\n'/ }; what=${s:0:40}\n"
              "echo \"start $what\" >> " + log + "\n"
              "if [ \"$1 $2 $3\" = '-m pip install' ]; then sleep 1; " + pip_extra + " fi\n"
              "if [ \"$1 $2\" = '-m pip' ]; then :; " + every_pip + " fi\n"
              "/usr/bin/python3 \"$@\"; rc=$?\n"
              "echo \"end $what\" >> " + log + "\n"
              "exit $rc\n");
  ::chmod(py.c_str(), 0755);
  return py;
}

// The extension's checker imports torch while pip installs the wheel (issue 19: verify's cost in a
// build is its longest part, not the sum); it imports the module only once the install is done.
TEST(PythonCheck, TheCheckerImportsTorchWhilePipInstalls) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  std::string log = t / "runs.log";
  PythonCheckOptions o;
  o.python = logging_python(t, log);
  o.wheel = tiny_wheel(t);
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  o.prefer_pip = true;  // pip's install is the slow one the checker overlaps
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "import tinypkg", Outcome::pass)) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  std::string l = util::read_file(log).value_or("");
  const std::string script = "-c  import sys, os, json, traceback";  // the checker's first line
  auto checker = l.find("start " + script);
  auto installed = l.find("end -m pip install");
  ASSERT_NE(checker, std::string::npos) << l;
  ASSERT_NE(installed, std::string::npos) << l;
  EXPECT_LT(checker, installed) << "the checker should start before pip has installed the wheel:\n" << l;
  // One checker only: the early one did the work.
  std::size_t n = 0;
  for (auto p = l.find("end " + script); p != std::string::npos; p = l.find("end " + script, p + 1)) ++n;
  EXPECT_EQ(n, 1u) << l;
}

// An install slower than the checker's timeout altogether (runtime dependencies from the index on a
// loaded machine: detectron2's took over 300 s), each pip call within it: the early checker's time
// ran out while it waited, which is no check failing; the checks run afresh and pass.
TEST(PythonCheck, AnInstallLongerThanTheTimeoutIsNotACheckTimingOut) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  std::string log = t / "runs.log";
  PythonCheckOptions o;
  // pip --version, then pip install: 2 x 7 s, longer than the 12 s timeout together, each within it;
  // the checks afresh still have 12 s for torch's import (2-3 s here).
  o.python = logging_python(t, log, "", "sleep 7;");
  o.wheel = tiny_wheel(t);
  o.prefer_pip = true;  // the install must be pip (a tiny wheel is otherwise unzipped at once)
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  o.timeout = std::chrono::seconds(12);
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  std::string l = util::read_file(log).value_or("");
  const std::string script = "start -c  import sys, os, json, traceback";
  std::size_t n = 0;
  for (auto p = l.find(script); p != std::string::npos; p = l.find(script, p + 1)) ++n;
  EXPECT_EQ(n, 2u) << "the early checker, then the checks afresh:\n" << l;
}

TEST(PythonCheck, TimedOutWaitingForGoOnlyWhenNothingBeganAfterTorchFacts) {
  auto parsed = [](const std::string& out, bool timed_out) {
    ScriptRun r = parse_script_output(out);
    r.proc.timed_out = timed_out;
    return r;
  };
  const std::string facts =
      "@@torchsmith {\"kind\": \"begin\", \"step\": \"import torch\"}\n"
      "@@torchsmith {\"kind\": \"end\", \"step\": \"import torch\", \"ok\": true, \"value\": {}}\n"
      "@@torchsmith {\"kind\": \"begin\", \"step\": \"torch facts\"}\n"
      "@@torchsmith {\"kind\": \"end\", \"step\": \"torch facts\", \"ok\": true, \"value\": {}}\n";
  EXPECT_TRUE(timed_out_waiting_for_go(parsed(facts, true)));
  EXPECT_FALSE(timed_out_waiting_for_go(parsed(facts, false)));
  // A check that hangs after the go is a check timing out.
  EXPECT_FALSE(timed_out_waiting_for_go(
      parsed(facts + "@@torchsmith {\"kind\": \"begin\", \"step\": \"import tinypkg\"}\n", true)));
  // So is an import of torch that never ends.
  EXPECT_FALSE(timed_out_waiting_for_go(parsed("@@torchsmith {\"kind\": \"begin\", \"step\": \"torch facts\"}\n", true)));
}

// A failed install tells the waiting checker there is nothing to import: it ends at once.
TEST(PythonCheck, AFailedInstallReleasesTheWaitingChecker) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  std::string log = t / "runs.log";
  PythonCheckOptions o;
  o.python = logging_python(t, log, "exit 1;");
  o.wheel = tiny_wheel(t);
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  o.prefer_pip = true;  // the logging Python's pip fails
  o.timeout = std::chrono::seconds(60);
  auto start = std::chrono::steady_clock::now();
  auto r = verify_python_install(o);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(find(r.verdicts, "install", Outcome::fail)) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "import tinypkg", Outcome::pass)) << dump(r.verdicts);
  EXPECT_LT(s, 30.0) << "the checker waited for its timeout";
  EXPECT_NE(util::read_file(log).value_or("").find("end -c"), std::string::npos) << util::read_file(log).value_or("");
}

// A wheel with a script (or headers, data) goes through pip, which places them; the module still
// lands in the target.
TEST(PythonCheck, AWheelWithScriptsIsInstalledByPip) {
  test::TempDir t;
  InstallOptions io;
  io.python = kPy;
  io.wheel = tiny_wheel(t, "__version__ = '0.1'\n", true);
  io.dir = t / "inst";
  auto in = install_wheel(io);
  ASSERT_TRUE(in.ok) << in.detail;
  EXPECT_NE(in.detail.find("installed it into " + in.site), std::string::npos) << in.detail;
  EXPECT_TRUE(fs::exists(in.site + "/tinypkg/__init__.py"));
  EXPECT_TRUE(fs::exists(in.site + "/bin/tinytool"));
}

// The build run's checker (early_check.h), started before the wheel exists: verify installs into
// its target and says go; no second checker starts, and the module comes from that target.
TEST(PythonCheck, TheBuildRunsEarlyCheckerDoesTheChecks) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  std::string log = t / "runs.log";
  EarlyCheck e{t / "early", logging_python(t, log), false, {}};
  ASSERT_EQ(prepare_early_check(e), "");
  std::thread starter([&] { EXPECT_EQ(run_early_check(e), ""); });
  PythonCheckOptions o;
  o.python = e.python;
  o.wheel = tiny_wheel(t);
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  o.early_dir = e.dir;
  auto r = verify_python_install(o);
  starter.join();
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* imp = find(r.verdicts, "import tinypkg", Outcome::pass);
  ASSERT_TRUE(imp) << dump(r.verdicts);
  EXPECT_NE(imp->detail.find(t / "early/install/target/"), std::string::npos) << imp->detail;
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);
  std::string l = util::read_file(log).value_or("");
  const std::string script = "start -c  import sys, os, json, traceback";  // the checker's first line
  std::size_t n = 0;
  for (auto p = l.find(script); p != std::string::npos; p = l.find(script, p + 1)) ++n;
  EXPECT_EQ(n, 1u) << "one checker, the early one:\n" << l;
  EXPECT_EQ(l.find("-m pip"), std::string::npos) << "only site-packages files: no pip\n" << l;
  EXPECT_FALSE(early_check_usable(e.dir, e.python, false)) << "it has had its word";
}

// Started for another setting (--gpu here), the early checker is told to end and verify runs its
// own; a starter whose verify never comes ends it with "no go".
TEST(PythonCheck, AnEarlyCheckerForOtherSettingsIsReleased) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  EarlyCheck e{t / "early", kPy, true, {}};
  ASSERT_EQ(prepare_early_check(e), "");
  std::thread starter([&] { EXPECT_EQ(run_early_check(e), ""); });
  EXPECT_FALSE(early_check_usable(e.dir, kPy, false));
  EXPECT_TRUE(early_check_usable(e.dir, kPy, true));
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = tiny_wheel(t);
  o.plan = tiny_plan();
  o.work_dir = t / "work";
  o.early_dir = e.dir;
  auto r = verify_python_install(o);
  starter.join();  // released: it ended without its checks
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* imp = find(r.verdicts, "import tinypkg", Outcome::pass);
  ASSERT_TRUE(imp) << dump(r.verdicts);
  EXPECT_NE(imp->detail.find(t / "work/install/target/"), std::string::npos) << imp->detail;
  ScriptRun ended = wait_early_check(e.dir, std::chrono::seconds(5));
  EXPECT_FALSE(ended.find("import tinypkg")) << "the released checker imported nothing";
  EXPECT_EQ(ended.proc.exit_code, 0) << ended.proc.err;

  EarlyCheck e2{t / "early2", kPy, false, {}};
  ASSERT_EQ(prepare_early_check(e2), "");
  std::thread s2([&] { EXPECT_EQ(run_early_check(e2), ""); });
  release_early_check(e2.dir);
  s2.join();
  EXPECT_FALSE(early_check_usable(e2.dir, kPy, false));
}

}  // namespace
}  // namespace ts::verify

namespace ts::verify {
namespace {

// Issue 37 (6): an extension wheel names the torch it was built against (+pt113cpu); the torch
// here is compared with it before anything is imported, a warning when it is another one.
TEST(PythonCheck, TheWheelsTorchTagIsComparedWithTheTorchHere) {
  std::string text = step_ok("import torch", {{"version", "2.6.0+cu124"}, {"cuda", "12.4"},
                                              {"file", "/env/torch/__init__.py"}, {"python", "3.11.2"}});
  ScriptRun run = parse_script_output(text);
  JudgeOptions o;
  o.import_name = "hello_ext";
  o.wheel_version = "0.1.0+pt113cpu";
  auto vs = judge_python_run(run, o);
  auto* w = find(vs, "torch of wheel", Outcome::warn);
  ASSERT_TRUE(w) << dump(vs);
  EXPECT_NE(w->detail.find("built for torch 1.13 (CPU), this environment has torch 2.6.0+cu124 (CUDA 12.4)"),
            std::string::npos) << w->detail;
  EXPECT_NE(w->detail.find("pip install 'torch==1.13.*'"), std::string::npos) << w->detail;
  o.wheel_version = "2.1.2+pt26cu124.sm80";
  vs = judge_python_run(run, o);
  ASSERT_TRUE(find(vs, "torch of wheel", Outcome::pass)) << dump(vs);
  o.wheel_version = "0.1.0+cu128";  // no torch tag: nothing said
  vs = judge_python_run(run, o);
  for (const auto& v : vs) EXPECT_NE(v.check, "torch of wheel");
}

}  // namespace
}  // namespace ts::verify

namespace ts::verify {
namespace {

// The long-tail run's fastseq and fast-transformers: the wheel ships a top-level `tests` package and
// verify ran from a checkout with its own tests/, so `import tests` found the caller's. Every verify
// spawn runs in its scratch home with PYTHONSAFEPATH: the wheel's module is imported, whatever the cwd.
TEST(PythonCheck, AWheelsTestsPackageIsNotShadowedByTheCallersCwd) {
  if (!debian_torch()) GTEST_SKIP() << "no python3-torch here";
  test::TempDir t;
  std::string whl = t / "tinypkg-0.1-py3-none-any.whl";
  const char* script = R"PY(
import base64, hashlib, sys, zipfile
files = {
  "tinypkg/__init__.py": "def add(t, x):\n    return t + x\n",
  "tests/__init__.py": "WHEEL = True\n",
  "tinypkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinypkg\nVersion: 0.1\n",
  "tinypkg-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
  "tinypkg-0.1.dist-info/top_level.txt": "tests\ntinypkg\n",
}
rec = []
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for n, s in files.items():
        b = s.encode()
        z.writestr(n, b)
        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
        rec.append("%s,sha256=%s,%d\n" % (n, h, len(b)))
    z.writestr("tinypkg-0.1.dist-info/RECORD", "".join(rec) + "tinypkg-0.1.dist-info/RECORD,,\n")
)PY";
  ASSERT_EQ(test::run({kPy, "-c", script, whl}).exit_code, 0);
  // The caller's cwd: a checkout with its own tests package (and a module only it has).
  test::write(t / "checkout/tests/__init__.py", "raise RuntimeError('the checkout tests package')\n");
  test::write(t / "checkout/cwd_only.py", "X = 1\n");
  auto before = fs::current_path();
  fs::current_path(t / "checkout");
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = whl;
  o.plan = tiny_plan();
  o.plan->smoke = "import tests\nassert tests.WHEEL\ntry:\n    import cwd_only\nexcept ImportError:\n    pass\n"
                  "else:\n    raise AssertionError('the cwd is on sys.path')\n";
  o.work_dir = t / "work";
  auto r = verify_python_install(o);
  fs::current_path(before);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* imp = find(r.verdicts, "import tests", Outcome::pass);
  ASSERT_TRUE(imp) << dump(r.verdicts);
  EXPECT_NE(imp->detail.find(t / "work/install/target/tests/__init__.py"), std::string::npos) << imp->detail;
  EXPECT_TRUE(find(r.verdicts, "smoke", Outcome::pass)) << dump(r.verdicts);

  // Near miss: the environment the checks get still names PYTHONPATH and the scratch home as given.
  auto env = check_env(kPy, t / "home", t / "site");
  EXPECT_EQ(env.at("PYTHONSAFEPATH"), "1");
  EXPECT_EQ(env.at("PYTHONPATH"), t / "site");
  EXPECT_EQ(neutral_cwd(env), t / "home");
}

}  // namespace
}  // namespace ts::verify

// Runtime dependencies installed from a local wheelhouse into verify's own venv: dependencies of
// dependencies too, torch never, extras and other platforms left out, a dependency that cannot be
// had its own failure, and the interpreter's environment untouched.
#include "verify/install_deps.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "verify/python_check.h"
#include "util/process.h"
#include "verify/python_compare.h"
#include "verify_test_util.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;
const char* kPy = "/usr/bin/python3";

// A pure wheel NAME-VER in dir: NAME/__init__.py holds `init`, METADATA lists requires.
std::string wheel(const std::string& dir, const std::string& name, const std::string& init,
                  const std::vector<std::string>& reqs, const std::string& version = "1.0") {
  std::string meta = "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n";
  for (const auto& r : reqs) meta += "Requires-Dist: " + r + "\n";
  std::string whl = dir + "/" + name + "-" + version + "-py3-none-any.whl";
  auto r = test::run({kPy, "-c",
                      "import sys, zipfile, hashlib, base64\n"
                      "n, whl, init, meta, v = sys.argv[1:6]\n"
                      "di = '%s-%s.dist-info/' % (n, v)\n"
                      "files = {n + '/__init__.py': init, di + 'METADATA': meta,\n"
                      "  di + 'WHEEL': 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}\n"
                      "rec = []\n"
                      "with zipfile.ZipFile(whl, 'w', zipfile.ZIP_DEFLATED) as z:\n"
                      "    for f, s in files.items():\n"
                      "        b = s.encode(); z.writestr(f, b)\n"
                      "        h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()\n"
                      "        rec.append('%s,sha256=%s,%d' % (f, h, len(b)))\n"
                      "    rec.append(di + 'RECORD,,')\n"
                      "    z.writestr(di + 'RECORD', '\\n'.join(rec) + '\\n')\n",
                      name, whl, init, meta, version});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return whl;
}

bool has_pip() { return test::run({kPy, "-m", "pip", "--version"}).exit_code == 0; }
bool debian_torch() { return test::run({kPy, "-c", "import torch"}).exit_code == 0; }

const Verdict* find(const std::vector<Verdict>& vs, const std::string& check) {
  for (const auto& v : vs)
    if (v.check == check) return &v;
  return nullptr;
}

std::string dump(const std::vector<Verdict>& vs) {
  std::string s;
  for (const auto& v : vs) s += std::string(outcome_name(v.outcome)) + "  " + v.check + "  " + v.detail + "\n";
  return s;
}

TEST(InstallDeps, InstalledVersionFromPipsLastLine) {
  std::string out = "Collecting x\nSuccessfully installed addict-2.4.0 py_yaml-6.0 termcolor-2.4.0\n";
  EXPECT_EQ(installed_version(out, "addict"), "2.4.0");
  EXPECT_EQ(installed_version(out, "py-yaml"), "6.0");
  EXPECT_EQ(installed_version(out, "yapf"), "");
}

TEST(InstallDeps, FromAWheelhouseWithTheirOwnDependenciesNeverTorch) {
  if (!has_pip()) GTEST_SKIP() << "no pip for " << kPy << " (apt-get install python3-pip)";
  test::TempDir t;
  fs::create_directories(t / "wh");
  wheel(t / "wh", "tsdepa", "import tsdepb\n", {"tsdepb>=1.0"});
  wheel(t / "wh", "tsdepb", "", {});
  wheel(t / "wh", "tswantsnewtorch", "", {"torch>=99"});
  DepsOptions o;
  o.python = kPy;
  o.dir = t / "work";
  o.wheelhouse = t / "wh";
  o.requires_dist = {"tsdepa>=1.0", "torch>=1.0", "tsnowhere==2.0", "tswantsnewtorch",
                     "pytest; extra == 'test'", "tswinonly; sys_platform == 'win32'"};
  auto r = install_dependencies(o);
  auto* a = find(r.verdicts, "dependency tsdepa");
  ASSERT_TRUE(a) << dump(r.verdicts);
  EXPECT_EQ(a->outcome, Outcome::pass) << a->detail;
  EXPECT_NE(a->detail.find("installed 1.0 from " + o.wheelhouse), std::string::npos) << a->detail;
  auto* torch = find(r.verdicts, "dependency torch");
  ASSERT_TRUE(torch) << dump(r.verdicts);
  EXPECT_EQ(torch->outcome, Outcome::pass);
  EXPECT_NE(torch->detail.find("the torch under test"), std::string::npos) << torch->detail;
  auto* none = find(r.verdicts, "dependency tsnowhere");
  ASSERT_TRUE(none) << dump(r.verdicts);
  EXPECT_EQ(none->outcome, Outcome::fail);
  EXPECT_NE(none->detail.find("not installable from " + o.wheelhouse), std::string::npos) << none->detail;
  EXPECT_NE(none->detail.find("tsnowhere==2.0"), std::string::npos) << none->detail;
  if (debian_torch()) {  // the pin to the torch here makes torch>=99 unresolvable, not a download
    auto* nt = find(r.verdicts, "dependency tswantsnewtorch");
    ASSERT_TRUE(nt) << dump(r.verdicts);
    EXPECT_EQ(nt->outcome, Outcome::fail) << nt->detail;
  }
  EXPECT_FALSE(find(r.verdicts, "dependency pytest")) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "dependency tswinonly")) << dump(r.verdicts);
  EXPECT_EQ(r.wanted, (std::vector<std::string>{"tsdepa>=1.0", "tsnowhere==2.0", "tswantsnewtorch"}));

  // Installed beside verify's venv, with their own dependency; torch was never copied there.
  ASSERT_FALSE(r.pythonpath.empty());
  const std::string& site = r.pythonpath.front();
  EXPECT_TRUE(fs::exists(site + "/tsdepa/__init__.py"));
  EXPECT_TRUE(fs::exists(site + "/tsdepb/__init__.py"));
  EXPECT_FALSE(fs::exists(site + "/torch"));
  auto imp = test::run({kPy, "-c", "import tsdepa"}, {{"PYTHONPATH", site}});
  EXPECT_EQ(imp.exit_code, 0) << imp.err;
  // The user's interpreter does not see them.
  EXPECT_NE(test::run({kPy, "-c", "import tsdepa"}).exit_code, 0);
}

TEST(InstallDeps, TorchConstraintsKeepTheKbsNumpyRange) {
  std::vector<kb::KbError> errors;
  kb::Kb kb = kb::load_embedded(errors);
  ASSERT_TRUE(errors.empty());
  const kb::TorchRelease* rel = kb.find_torch("1.13");
  ASSERT_TRUE(rel);
  EXPECT_EQ(torch_constraints("1.13.0a0+gitunknown", &kb),
            (std::vector<std::string>{"torch==1.13.0a0+gitunknown", "numpy" + rel->numpy.str()}));
  EXPECT_EQ(torch_constraints("1.13.1", nullptr), (std::vector<std::string>{"torch==1.13.1"}));
  EXPECT_EQ(torch_constraints("0.1.2", &kb), (std::vector<std::string>{"torch==0.1.2"}));  // a release the KB lacks
  EXPECT_EQ(torch_constraints("", &kb), (std::vector<std::string>{"torch===0+the-torch-under-test"}));
}

// A dependency that would pull a NumPy outside the torch's range (opencv-python >= 4.12 wants
// NumPy 2; Debian's torch 1.13 runs with NumPy 1) gets an older release of itself, or none.
TEST(InstallDeps, NumpyStaysInTheRangeOfTheTorchUnderTest) {
  if (!has_pip() || !debian_torch()) GTEST_SKIP() << "needs pip and python3-torch for " << kPy;
  std::vector<kb::KbError> errors;
  kb::Kb kb = kb::load_embedded(errors);
  auto torch_minor = test::run({kPy, "-c", "import torch; print('.'.join(torch.__version__.split('.')[:2]))"});
  const kb::TorchRelease* rel = kb.find_torch(torch_minor.out.substr(0, torch_minor.out.find('\n')));
  if (!rel || rel->numpy.str().find("<2") == std::string::npos) GTEST_SKIP() << "this torch is not a NumPy-1 build";
  test::TempDir t;
  fs::create_directories(t / "wh");
  wheel(t / "wh", "numpy", "", {}, "2.0");  // a stand-in: the only NumPy in the wheelhouse is a 2.x
  wheel(t / "wh", "tscv", "", {"numpy>=2"}, "2.0");
  wheel(t / "wh", "tscv", "", {"numpy>=1"}, "1.0");
  DepsOptions o;
  o.python = kPy;
  o.wheelhouse = t / "wh";
  o.requires_dist = {"tscv"};
  o.kb = &kb;
  o.dir = t / "kept";
  auto r = install_dependencies(o);
  auto* cv = find(r.verdicts, "dependency tscv");
  ASSERT_TRUE(cv) << dump(r.verdicts);
  EXPECT_EQ(cv->outcome, Outcome::pass) << cv->detail;
  EXPECT_NE(cv->detail.find("installed 1.0"), std::string::npos) << cv->detail;
  auto* note = find(r.verdicts, "dependency constraints");
  ASSERT_TRUE(note) << dump(r.verdicts);
  EXPECT_NE(note->detail.find("numpy" + rel->numpy.str()), std::string::npos) << note->detail;
  ASSERT_FALSE(r.pythonpath.empty());
  EXPECT_FALSE(fs::exists(r.pythonpath.front() + "/numpy")) << "NumPy 2 was installed beside a NumPy-1 torch";

  // Without the KB nothing holds NumPy back: the stand-in 2.0 lands in verify's venv.
  o.kb = nullptr;
  o.dir = t / "free";
  r = install_dependencies(o);
  ASSERT_FALSE(r.pythonpath.empty()) << dump(r.verdicts);
  EXPECT_TRUE(fs::exists(r.pythonpath.front() + "/numpy/__init__.py")) << dump(r.verdicts);
  EXPECT_FALSE(find(r.verdicts, "dependency constraints"));
}

// The whole verify: the wheel's Requires-Dist installed, so its import works; a dependency that
// cannot be had is its own failure, apart from the package's.
TEST(InstallDeps, VerifyImportsThePackageWithItsDependencies) {
  if (!has_pip() || !debian_torch()) GTEST_SKIP() << "needs pip and python3-torch for " << kPy;
  test::TempDir t;
  fs::create_directories(t / "wh");
  fs::create_directories(t / "dist");
  wheel(t / "wh", "tsdepa", "VALUE = 3\n", {});
  PythonCheckOptions o;
  o.python = kPy;
  o.wheelhouse = t / "wh";
  o.wheel = wheel(t / "dist", "tspkg", "import tsdepa\n", {"tsdepa", "torch"});
  o.plan = plan::Plan{};
  o.plan->import_name = "tspkg";
  o.plan->smoke = "import tspkg, tsdepa\nassert tsdepa.VALUE == 3\n";
  o.work_dir = t / "w1";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "import tspkg")) << dump(r.verdicts);
  EXPECT_EQ(find(r.verdicts, "import tspkg")->outcome, Outcome::pass) << dump(r.verdicts);
  EXPECT_EQ(r.requires_dist, (std::vector<std::string>{"tsdepa", "torch"}));

  o.wheel = wheel(t / "dist", "tspkg2", "import tsyapf\n", {"tsyapf"});
  o.plan->import_name = "tspkg2";
  o.plan->smoke = "";
  o.work_dir = t / "w2";
  r = verify_python_install(o);
  auto* d = find(r.verdicts, "dependency tsyapf");
  ASSERT_TRUE(d) << dump(r.verdicts);
  EXPECT_EQ(d->outcome, Outcome::fail);
  EXPECT_EQ(d->detail.rfind("not installable", 0), 0u) << d->detail;
  auto* i = find(r.verdicts, "import tspkg2");
  ASSERT_TRUE(i) << dump(r.verdicts);
  EXPECT_EQ(i->outcome, Outcome::warn) << i->detail;  // the package's own part is not blamed

  o.runtime_deps = false;
  o.work_dir = t / "w3";
  r = verify_python_install(o);
  EXPECT_FALSE(find(r.verdicts, "dependency tsyapf")) << dump(r.verdicts);
  auto* s = find(r.verdicts, "dependencies");
  ASSERT_TRUE(s) << dump(r.verdicts);
  EXPECT_TRUE(is_skip(*s));
}

// The recipe's runtime_requires (what the package imports but does not declare) are installed like
// Requires-Dist, each said to come from the recipe; one the interpreter under test already has is
// used from there, never installed again (Debian's torchvision for Debian's torch: a PyPI one would
// want PyPI's torch).
TEST(InstallDeps, UndeclaredRequirementsAlreadyThereAreUsedNotInstalled) {
  if (!has_pip() || test::run({kPy, "-c", "import numpy"}).exit_code != 0)
    GTEST_SKIP() << "needs pip and NumPy for " << kPy << " (python3-pip, python3-numpy)";
  test::TempDir t;
  fs::create_directories(t / "wh");
  wheel(t / "wh", "tsdepa", "", {});
  wheel(t / "wh", "tsundeclared", "", {});
  DepsOptions o;
  o.python = kPy;
  o.dir = t / "work";
  o.wheelhouse = t / "wh";  // has no NumPy: only the interpreter's own can satisfy it
  o.requires_dist = {"tsdepa"};
  o.undeclared = {"numpy", "tsdepa>=0.5", "tsundeclared"};
  auto r = install_dependencies(o);
  EXPECT_EQ(r.wanted, (std::vector<std::string>{"tsdepa", "numpy", "tsundeclared"})) << dump(r.verdicts);
  auto* np = find(r.verdicts, "dependency numpy");
  ASSERT_TRUE(np) << dump(r.verdicts);
  EXPECT_EQ(np->outcome, Outcome::pass) << np->detail;
  EXPECT_NE(np->detail.find("already satisfied by " + std::string(kPy)), std::string::npos) << np->detail;
  EXPECT_NE(np->detail.find("the recipe's runtime_requires"), std::string::npos) << np->detail;
  auto* u = find(r.verdicts, "dependency tsundeclared");
  ASSERT_TRUE(u) << dump(r.verdicts);
  EXPECT_EQ(u->outcome, Outcome::pass) << u->detail;
  EXPECT_NE(u->detail.find("installed 1.0 from " + o.wheelhouse), std::string::npos) << u->detail;
  EXPECT_NE(u->detail.find("the recipe's runtime_requires"), std::string::npos) << u->detail;
  auto* a = find(r.verdicts, "dependency tsdepa");
  ASSERT_TRUE(a) << dump(r.verdicts);
  EXPECT_EQ(a->detail.find("runtime_requires"), std::string::npos) << a->detail;  // the wheel declares it
  ASSERT_FALSE(r.pythonpath.empty());
  EXPECT_TRUE(fs::exists(r.pythonpath.front() + "/tsundeclared/__init__.py"));
  EXPECT_FALSE(fs::exists(r.pythonpath.front() + "/numpy")) << "NumPy was installed again beside the interpreter's own";

  // Not to be had at all: its own failure, still said to be the recipe's. The wheel's line for
  // another platform does not stand in for the recipe's.
  o.requires_dist = {"tsundeclared; sys_platform == 'win32'"};
  o.undeclared = {"tsnowhere", "tsundeclared"};
  o.dir = t / "work2";
  r = install_dependencies(o);
  auto* n = find(r.verdicts, "dependency tsnowhere");
  ASSERT_TRUE(n) << dump(r.verdicts);
  EXPECT_EQ(n->outcome, Outcome::fail);
  EXPECT_NE(n->detail.find("the recipe's runtime_requires"), std::string::npos) << n->detail;
  u = find(r.verdicts, "dependency tsundeclared");
  ASSERT_TRUE(u) << dump(r.verdicts);
  EXPECT_EQ(u->outcome, Outcome::pass) << u->detail;
  EXPECT_NE(u->detail.find("the recipe's runtime_requires"), std::string::npos) << u->detail;
}

// Through verify: a wheel that imports what it does not declare imports once the plan names it.
TEST(InstallDeps, VerifyInstallsThePlansRuntimeRequires) {
  if (!has_pip() || !debian_torch()) GTEST_SKIP() << "needs pip and python3-torch for " << kPy;
  test::TempDir t;
  fs::create_directories(t / "wh");
  fs::create_directories(t / "dist");
  wheel(t / "wh", "tshidden", "VALUE = 5\n", {});
  PythonCheckOptions o;
  o.python = kPy;
  o.wheelhouse = t / "wh";
  o.wheel = wheel(t / "dist", "tsquiet", "import tshidden\n", {});
  o.plan = plan::Plan{};
  o.plan->import_name = "tsquiet";
  o.work_dir = t / "without";
  auto r = verify_python_install(o);
  auto* w = find(r.verdicts, "import tsquiet");
  ASSERT_TRUE(w) << dump(r.verdicts);
  EXPECT_EQ(w->outcome, Outcome::warn) << dump(r.verdicts);  // a missing dependency, not the build's fault
  EXPECT_NE(w->detail.find("needs tshidden"), std::string::npos) << w->detail;

  o.plan->runtime_requires = {"tshidden"};
  o.work_dir = t / "with";
  r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "dependency tshidden")) << dump(r.verdicts);
  EXPECT_EQ(find(r.verdicts, "import tsquiet")->outcome, Outcome::pass) << dump(r.verdicts);
}

// No recipe: the guessed module gives way to the wheel's own top-level modules.
TEST(InstallDeps, AGuessedModuleGivesWayToTheWheelsOwn) {
  if (!debian_torch()) GTEST_SKIP() << "needs python3-torch for " << kPy;
  test::TempDir t;
  fs::create_directories(t / "dist");
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = wheel(t / "dist", "tsreal", "X = 1\n", {});
  o.plan = plan::Plan{};
  o.plan->import_name = "ts_guessed_name";
  o.work_dir = t / "w";
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  auto* n = find(r.verdicts, "modules");
  ASSERT_TRUE(n) << dump(r.verdicts);
  EXPECT_NE(n->detail.find("no module ts_guessed_name"), std::string::npos) << n->detail;
  ASSERT_TRUE(find(r.verdicts, "import tsreal")) << dump(r.verdicts);
  EXPECT_EQ(find(r.verdicts, "import tsreal")->outcome, Outcome::pass);
}

// A real package from PyPI with real runtime dependencies: fvcore (detectron2's), its wheel built
// here, verified with yacs, iopath, termcolor ... installed from PyPI beside it and the smoke using
// yacs through fvcore. Skipped when PyPI cannot be reached.
TEST(InstallDeps, LiveFvcoreVerifiesWithItsRealDependenciesFromPypi) {
  if (!has_pip() || !debian_torch()) GTEST_SKIP() << "needs pip and python3-torch for " << kPy;
  test::TempDir t;
  util::RunOptions ro;
  ro.timeout = std::chrono::seconds(180);
  auto w = util::run({kPy, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
                      "-w", t / "dist", "fvcore==0.1.5.post20221221"},
                     ro);
  if (!w.ok()) GTEST_SKIP() << "cannot get fvcore from PyPI (offline?): " << w.err.substr(0, 400);
  std::string wheel;
  for (const auto& e : fs::directory_iterator(t / "dist")) wheel = e.path().string();
  PythonCheckOptions o;
  o.python = kPy;
  o.wheel = wheel;
  o.plan = plan::Plan{};
  o.plan->import_name = "fvcore";
  o.plan->smoke = "from fvcore.common.config import CfgNode\nassert CfgNode({'a': 1}).a == 1\n";
  o.work_dir = t / "w";
  o.timeout = std::chrono::minutes(5);
  auto r = verify_python_install(o);
  EXPECT_FALSE(any_failed(r.verdicts)) << dump(r.verdicts);
  for (const char* dep : {"dependency yacs", "dependency iopath", "dependency tabulate", "dependency numpy"}) {
    auto* d = find(r.verdicts, dep);
    ASSERT_TRUE(d) << dep << "\n" << dump(r.verdicts);
    EXPECT_EQ(d->outcome, Outcome::pass) << d->detail;
  }
  EXPECT_FALSE(find(r.verdicts, "dependency shapely")) << "an extra was installed";
  ASSERT_TRUE(find(r.verdicts, "import fvcore")) << dump(r.verdicts);
  EXPECT_EQ(find(r.verdicts, "import fvcore")->outcome, Outcome::pass) << dump(r.verdicts);
  ASSERT_TRUE(find(r.verdicts, "smoke")) << dump(r.verdicts);
  EXPECT_EQ(find(r.verdicts, "smoke")->outcome, Outcome::pass) << dump(r.verdicts);
  // The user's interpreter still has no yacs.
  EXPECT_NE(test::run({kPy, "-c", "import yacs"}).exit_code, 0);
}

}  // namespace
}  // namespace ts::verify

// The torch <-> extension contract, one rule at a time, on fake facts and the shipped KB.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "plan/contract.h"

#include "extension_fakes.h"

namespace ts::plan {
namespace {

using namespace testing;

const LegacyBackend* legacy() { return &test_build_kb().legacy_backend; }

bool has_text(const std::vector<std::string>& v, const std::string& needle) {
  for (const auto& s : v)
    if (s.find(needle) != std::string::npos) return true;
  return false;
}

TEST(Contract, NvccOfTorchsMajorPassesAndAnotherMinorOnlyWarns) {
  auto py = fake_python("2.7.1+cu128", "12.8");
  ContractOut same;
  check_cuda_major(py, fake_toolkit("12.8.93"), same);
  EXPECT_TRUE(same.conflicts.empty());
  ASSERT_EQ(same.decisions.size(), 1u);
  EXPECT_FALSE(same.decisions[0].warning);

  ContractOut minor;
  check_cuda_major(py, fake_toolkit("12.6.85"), minor);
  EXPECT_TRUE(minor.conflicts.empty());
  ASSERT_EQ(minor.decisions.size(), 1u);
  EXPECT_TRUE(minor.decisions[0].warning);
  EXPECT_NE(minor.decisions[0].reason.find("minor"), std::string::npos);
}

TEST(Contract, NvccOfAnotherMajorIsRefusedWithTheWayOut) {
  auto py = fake_python("2.7.1+cu128", "12.8");
  ContractOut out;
  check_cuda_major(py, fake_toolkit("13.0"), out);
  ASSERT_EQ(out.conflicts.size(), 1u);
  const auto& c = out.conflicts[0];
  EXPECT_NE(c.why.find("mismatches the version that was used to compile PyTorch"), std::string::npos);
  EXPECT_TRUE(has_text(c.fixes, "install CUDA 12.8"));
  EXPECT_TRUE(has_text(c.fixes, "--cuda 12.8"));
  EXPECT_NE(c.source.find("_check_cuda_version"), std::string::npos);
}

TEST(Contract, CudaCodeAgainstACpuTorchIsRefusedOrFallsBackToCpu) {
  auto py = fake_python("1.13.1", "");
  Recipe generic = recipe_generic("demo");
  ContractOut only;
  EXPECT_FALSE(decide_cuda(py, /*cuda_only=*/true, true, false, false, generic, only));
  ASSERT_EQ(only.conflicts.size(), 1u);
  EXPECT_NE(only.conflicts[0].why.find("torch 1.13.1 at " + py.torch.path + " was built without CUDA"),
            std::string::npos);
  EXPECT_TRUE(has_text(only.conflicts[0].fixes, "built with CUDA"));

  ContractOut both;  // the package has a CPU path: a CPU build, said with a warning
  EXPECT_FALSE(decide_cuda(py, false, true, false, false, generic, both));
  EXPECT_TRUE(both.conflicts.empty());
  ASSERT_EQ(both.decisions.size(), 1u);
  EXPECT_TRUE(both.decisions[0].warning);

  ContractOut asked;  // --cuda against a CPU torch
  EXPECT_FALSE(decide_cuda(py, false, true, /*asked_cuda=*/true, false, generic, asked));
  ASSERT_EQ(asked.conflicts.size(), 1u);
  EXPECT_TRUE(has_text(asked.conflicts[0].fixes, "CPU part only"));

  ContractOut cuda;
  EXPECT_TRUE(decide_cuda(fake_python("2.7.1+cu128", "12.8"), true, true, false, false, generic, cuda));
  EXPECT_TRUE(cuda.conflicts.empty());
}

TEST(Contract, HostCompilerNewerThanNvccAcceptsIsRefused) {
  auto f = fake_host(fake_python("2.1.2+cu118", "11.8"), {"11.8"}, {"8.6"});
  CompilerFacts gcc12{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "12.2.0", "x86_64-linux-gnu"};
  ContractOut out;
  check_host_compiler(f, test_kb(), gcc12, &f.cuda_toolkits[0], out);
  ASSERT_EQ(out.conflicts.size(), 1u);
  EXPECT_NE(out.conflicts[0].why.find("unsupported GNU version"), std::string::npos);

  CompilerFacts gcc11{"gcc", "/usr/bin/gcc-11", "/usr/bin/g++-11", "11.4.0", "x86_64-linux-gnu"};
  ContractOut ok;
  check_host_compiler(f, test_kb(), gcc11, &f.cuda_toolkits[0], ok);
  EXPECT_TRUE(ok.conflicts.empty());
}

TEST(Contract, AbiMismatchIsCaught) {
  CompilerFacts gcc{"gcc", "/usr/bin/gcc", "/usr/bin/g++", "12.2.0", "x86_64-linux-gnu"};
  Recipe r = recipe_generic("flash-attn");
  // A knob forcing the C++11 ABI against a pre-C++11-ABI torch (pip wheels before 2.7).
  ContractOut forced;
  check_abi(fake_python("2.4.1+cu124", "12.4", /*abi=*/false), gcc, r, {{"FLASH_ATTENTION_FORCE_CXX11_ABI", "TRUE"}},
            forced);
  ASSERT_EQ(forced.conflicts.size(), 1u);
  EXPECT_NE(forced.conflicts[0].why.find("_GLIBCXX_USE_CXX11_ABI=1 but torch uses 0"), std::string::npos);

  ContractOut flags;
  check_abi(fake_python("2.8.0+cu128", "12.8", true), gcc, r, {{"CXXFLAGS", "-O2 -D_GLIBCXX_USE_CXX11_ABI=0"}}, flags);
  ASSERT_EQ(flags.conflicts.size(), 1u);

  ContractOut old_gcc;
  CompilerFacts gcc48{"gcc", "/usr/bin/gcc-4.8", "/usr/bin/g++-4.8", "4.8.5", "x86_64-linux-gnu"};
  check_abi(fake_python("2.8.0+cu128", "12.8", true), gcc48, r, {}, old_gcc);
  ASSERT_EQ(old_gcc.conflicts.size(), 1u);

  ContractOut fine;
  check_abi(fake_python("2.8.0+cu128", "12.8", true), gcc, r, {{"FLASH_ATTENTION_FORCE_CXX11_ABI", "TRUE"}}, fine);
  EXPECT_TRUE(fine.conflicts.empty());
  ASSERT_FALSE(fine.decisions.empty());
  EXPECT_EQ(fine.decisions.back().value, "_GLIBCXX_USE_CXX11_ABI=1");
}

TEST(Contract, ArchTorchDoesNotKnowNeedsTheCppExtensionFix) {
  auto py = fake_python("1.13.0", "11.8");
  auto tk = fake_toolkit("11.8");
  CompilerFacts gcc11{"gcc", "/usr/bin/gcc-11", "/usr/bin/g++-11", "11.4.0", "x86_64-linux-gnu"};
  Recipe r = recipe_generic("demo");
  ArchList ada({CudaArch::of(8, 9)});
  ContractOut without;
  check_arches(py, test_kb(), tk, &gcc11, ada, r, nullptr, without);
  ASSERT_EQ(without.conflicts.size(), 1u);
  EXPECT_NE(without.conflicts[0].why.find("Unknown CUDA arch (8.9)"), std::string::npos);
  EXPECT_TRUE(has_text(without.conflicts[0].fixes, "--arch 8.6+PTX"));

  ContractOut with;
  check_arches(py, test_kb(), tk, &gcc11, ada, r, &test_fixes(), with);
  EXPECT_TRUE(with.conflicts.empty());
  std::vector<std::string> ids;
  for (const auto& f : with.fixes) ids.push_back(f.id);
  EXPECT_TRUE(has_text(ids, "torch-cpp-extension-arches-sm89-sm90"));
  EXPECT_TRUE(has_text(ids, "torch-cpp-extension-cuda118-compilers"));  // 1.13 + nvcc 11.8: the compiler table too

  // A package with its own arch knob bypasses torch's arch check.
  Recipe own = r;
  own.arch_env = "FLASH_ATTN_CUDA_ARCHS";
  ContractOut bypass;
  check_arches(py, test_kb(), tk, &gcc11, ada, own, nullptr, bypass);
  EXPECT_TRUE(bypass.conflicts.empty());
}

TEST(Contract, ArchNvccCannotCompileIsRefused) {
  auto py = fake_python("2.4.1+cu118", "11.8");
  ContractOut out;
  check_arches(py, test_kb(), fake_toolkit("11.8"), nullptr, ArchList({CudaArch::of(12, 0)}), recipe_generic("d"),
               nullptr, out);
  ASSERT_FALSE(out.conflicts.empty());
  EXPECT_NE(out.conflicts[0].why.find("Unsupported gpu architecture compute_120"), std::string::npos);
}

TEST(Contract, PackageTorchPin) {
  Recipe r = recipe_generic("torch-scatter");
  auto range = [](const char* t) { return *VersionRange::parse(t); };
  r.compat = {{range(">=2.1.0,<2.1.2"), range(">=1.13,<2.1"), "test"}, {range(">=2.1.2"), range(">=2.1"), "test"}};
  ContractOut bad;
  check_torch_pin(fake_python("2.4.1+cu124", "12.4"), r, "2.1.0", {}, bad);
  ASSERT_EQ(bad.conflicts.size(), 1u);
  EXPECT_TRUE(has_text(bad.conflicts[0].fixes, "torch-scatter >=2.1.2 goes with torch 2.4.1"));

  ContractOut debian;  // Debian's 1.13.0a0 is torch 1.13.0 for pins
  check_torch_pin(fake_python("1.13.0a0", ""), r, "2.1.0", {"setuptools", "torch>=1.13"}, debian);
  EXPECT_TRUE(debian.conflicts.empty());

  ContractOut pyproject;
  check_torch_pin(fake_python("1.13.0a0", ""), recipe_generic("xformers"), "", {"torch >= 2.10"}, pyproject);
  ASSERT_EQ(pyproject.conflicts.size(), 1u);

  Recipe any = recipe_generic("x");
  any.torch = *VersionRange::parse(">=2.0");
  ContractOut old;
  check_torch_pin(fake_python("1.13.1", ""), any, "", {}, old);
  EXPECT_EQ(old.conflicts.size(), 1u);
}

// A [build-system] pin on the torch the package was written for (lutingwang's pytorch_cpp_extensions:
// torch==1.8.1+cu101) is no refusal against a newer torch: no isolation installs it; ported instead.
TEST(Contract, PyprojectPinOnAnOlderTorchOnlyWarns) {
  auto pin = [](const char* req) {
    ContractOut out;
    check_torch_pin(fake_python("2.15.0+cu132", "13.2"), recipe_generic("x"), "", {"setuptools", req}, out);
    return out;
  };
  for (const char* req : {"torch==1.8.1+cu101", "torch<2.0", "torch<=2.14", "torch==1.13.*", "torch~=1.8"}) {
    ContractOut out = pin(req);
    EXPECT_TRUE(out.conflicts.empty()) << req;
    bool warned = false;
    for (const auto& d : out.decisions)
      if (d.warning && d.value == req && d.reason.find("older than the target torch 2.15.0") != std::string::npos)
        warned = true;
    EXPECT_TRUE(warned) << req;
  }
  // Near misses: a floor above the target, or an exclusion of the target, still refuse.
  for (const char* req : {"torch>=2.16", "torch!=2.15.0", "torch>=1.8,!=2.15.0"})
    EXPECT_EQ(pin(req).conflicts.size(), 1u) << req;
}

TEST(Contract, BuildNeverUsesIsolation) {
  auto py = fake_python("2.7.1+cu128", "12.8");
  // setuptools with the legacy backend: torchsmith's own frontend, in the target Python.
  py.packages["setuptools"] = "69.5.1";
  ContractOut direct;
  auto argv = build_command(py, true, true, legacy(), direct);
  EXPECT_EQ(argv, (std::vector<std::string>{py.path, "-m", "torchsmith_pep517", "-w", "dist", "."}));
  // Run by hand it is the same build through pip, with no helper to find.
  EXPECT_EQ(by_hand(argv), (std::vector<std::string>{py.path, "-m", "pip", "wheel", "-v", "--no-build-isolation",
                                                     "--no-deps", "-w", "dist", "."}));
  py.packages["setuptools"] = "40.7.3";  // before build_meta:__legacy__ (build.toml's setuptools_min)
  ContractOut pip;
  argv = build_command(py, true, true, legacy(), pip);
  ASSERT_GE(argv.size(), 6u);
  EXPECT_EQ(argv[0], py.path);
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--no-build-isolation"), argv.end());
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--no-deps"), argv.end());
  EXPECT_EQ(by_hand(argv), argv);
  EXPECT_EQ(by_hand_note(argv, "x"), "x");

  // The script's note quotes the pip form it runs, never the helper it does not write.
  const auto fe = frontend_argv(py.path);
  EXPECT_EQ(by_hand_note(fe, py.path + " -m torchsmith_pep517 -w dist .: why"),
            py.path + " -m pip wheel -v --no-build-isolation --no-deps -w dist .: why");
  EXPECT_EQ(by_hand_note(fe, "a note naming no argv"), "a note naming no argv");

  py.packages.erase("pip");
  ContractOut setup;
  argv = build_command(py, true, false, legacy(), setup);
  ASSERT_EQ(argv.size(), 5u);
  EXPECT_EQ(argv[1], "setup.py");
  EXPECT_EQ(argv[2], "bdist_wheel");

  ContractOut none;  // a pyproject-only tree without pip cannot be built without isolation here
  EXPECT_TRUE(build_command(py, false, true, legacy(), none).empty());
  EXPECT_EQ(none.conflicts.size(), 1u);
}

// The legacy backend's setuptools is build.toml's fact, not the code's: its entry names the module the
// frontend calls and an upstream source; the threshold moves with the KB (an overlay's 41.0 makes 40.9
// go through pip), and with no [legacy_backend] known the frontend is not taken.
TEST(Contract, TheLegacyBackendVersionComesFromTheBuildKb) {
  const LegacyBackend& kb = *legacy();
  ASSERT_TRUE(kb.setuptools_min.has_value());
  EXPECT_EQ(kb.setuptools_min->original(), "40.8.0");
  EXPECT_EQ(kb.module, "setuptools.build_meta:__legacy__");
  EXPECT_NE(kb.source.find("setuptools.pypa.io"), std::string::npos) << kb.source;
  EXPECT_EQ(kb.origin.file, "build.toml");
  auto frontend = [](const PythonFacts& py, const LegacyBackend* l) {
    ContractOut out;
    auto argv = build_command(py, true, true, l, out);
    return argv.size() > 2 && argv[2] == "torchsmith_pep517";
  };
  auto py = fake_python("2.7.1+cu128", "12.8");
  py.packages["setuptools"] = "40.8.0";  // the first with it: taken
  EXPECT_TRUE(frontend(py, &kb));
  py.packages["setuptools"] = "40.7.9";  // near miss: one before
  EXPECT_FALSE(frontend(py, &kb));
  LegacyBackend later = kb;
  later.setuptools_min = Version::parse("41.0");
  py.packages["setuptools"] = "40.9.0";
  EXPECT_TRUE(frontend(py, &kb));
  EXPECT_FALSE(frontend(py, &later));
  EXPECT_FALSE(frontend(py, nullptr));  // no build KB: the build goes through pip
  LegacyBackend unknown = kb;
  unknown.setuptools_min.reset();
  EXPECT_FALSE(frontend(py, &unknown));
  // The decision cites the KB entry (file:line), where a user finds the upstream page.
  ContractOut out;
  py.packages["setuptools"] = "69.5.1";
  build_command(py, true, true, &kb, out);
  ASSERT_FALSE(out.decisions.empty());
  EXPECT_NE(out.decisions.back().source.find("(build.toml:" + std::to_string(kb.origin.line) + ")"), std::string::npos)
      << out.decisions.back().source;
}

// The module build.toml names is the one the frontend calls.
TEST(Contract, TheLegacyBackendModuleIsTheFrontendsOwn) {
  std::ifstream f(std::string(TS_SOURCE_DIR) + "/src/run/pyshim/torchsmith_pep517.py");
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("\"" + legacy()->module + "\""), std::string::npos);
}

}  // namespace
}  // namespace ts::plan

// The minitorch fixture (tests/fixtures/projects/minitorch) builds the way PyTorch does:
// setup.py → CMake → Ninja → torch/lib + torch/_C, a wheel named by PYTORCH_BUILD_VERSION, RPATHs
// as in the official wheels, device code for exactly TORCH_CUDA_ARCH_LIST, MAX_JOBS honoured,
// `clean` removing build/. Every build runs on a copy in a temp dir, never in the repository.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "source/apply.h"
#include "source/fix.h"
#include "util/process.h"
#include "verify/cuda_code.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "testkit/temp_dir.h"


namespace {

namespace fs = std::filesystem;
using Env = std::map<std::string, std::string>;

const std::string kPython = "/usr/bin/python3";
// A build on 2 shared cores can be slow; the cap only stops a hung build.
constexpr std::chrono::seconds kBuildTimeout{1200};

using Scratch = ::ts::testkit::TempDir;  // TS_KEEP_TEST_DIRS=1 keeps the build to look at

std::string fixture_dir() {
  return std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/minitorch";
}
std::string overlay_dir() { return std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/kb"; }

// A copy of the fixture at DIR/minitorch, without anything a by-hand run may have left in the repo.
std::string copy_fixture(const Scratch& dir) {
  std::string dst = dir.path() + "/minitorch";
  fs::copy(fixture_dir(), dst, fs::copy_options::recursive);
  for (const char* junk : {"build", "dist", "torch/lib", "torch/version.py"})
    fs::remove_all(dst + "/" + junk);
  return dst;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Exactly the variables a plan would give, plus what the tools need to run; nothing else leaks in.
Env build_env(const Env& extra) {
  const char* path = std::getenv("PATH");
  Env env{{"PATH", path ? path : "/usr/bin:/bin"},
          {"HOME", fs::temp_directory_path().string()},
          {"LANG", "C.UTF-8"},
          {"PYTHONDONTWRITEBYTECODE", "1"},
          {"NINJA_STATUS", "[%f/%t %r] "},
          {"CC", "/usr/bin/gcc"},
          {"CXX", "/usr/bin/g++"},
          {"USE_NINJA", "1"}};
  for (const auto& [k, v] : extra) env[k] = v;
  return env;
}

ts::util::RunResult run_in(const std::string& cwd, const std::vector<std::string>& argv,
                           const Env& env, std::chrono::milliseconds timeout = kBuildTimeout) {
  ts::util::RunOptions o;
  o.cwd = cwd;
  o.env = env;
  o.timeout = timeout;
  o.max_output = 16u << 20;
  return ts::util::run(argv, o);
}

std::string tail(const ts::util::RunResult& r) {
  std::string all = r.out + "\n" + r.err;
  return all.size() > 4000 ? all.substr(all.size() - 4000) : all;
}

std::string python_value(const std::string& expr) {
  auto r = ts::util::run({kPython, "-c", "import sysconfig; print(" + expr + ")"});
  std::string v = r.out;
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  return v;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Unpacks the one wheel in dist/ into DIR/unpacked and returns that directory.
std::string unpack_wheel(const std::string& wheel, const std::string& into) {
  auto r = ts::util::run({kPython, "-m", "zipfile", "-e", wheel, into});
  EXPECT_TRUE(r.ok()) << tail(r);
  return into;
}

struct Elf {
  ts::formats::MappedFile file;
  std::optional<ts::formats::ElfFile> elf;
  std::string error;
  explicit Elf(const std::string& path) : file(path) {
    if (!file.ok()) {
      error = file.error();
      return;
    }
    elf = ts::formats::ElfFile::parse(file.bytes(), &error);
  }
  const ts::formats::ElfDynamic& dyn() const { return elf->dynamic(); }
  // What the loader searches: RUNPATH when the linker wrote new dtags, else RPATH.
  std::string search_path() const { return dyn().runpath.empty() ? dyn().rpath : dyn().runpath; }
  bool needs(const std::string& prefix) const {
    return std::any_of(dyn().needed.begin(), dyn().needed.end(),
                       [&](const std::string& n) { return n.rfind(prefix, 0) == 0; });
  }
};

// The highest running-job count ninja reported ("[f/t r] ..." from NINJA_STATUS above).
int max_running(const std::string& log) {
  static const std::regex status(R"(^ *\[\d+/\d+ (\d+)\] )", std::regex::multiline);
  int best = 0;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), status); it != std::sregex_iterator();
       ++it)
    best = std::max(best, std::stoi((*it)[1].str()));
  return best;
}
int compile_lines(const std::string& log) {
  static const std::regex compile(R"(^ *\[\d+/\d+ \d+\] Building CXX object)",
                                  std::regex::multiline);
  return static_cast<int>(
      std::distance(std::sregex_iterator(log.begin(), log.end(), compile), std::sregex_iterator()));
}

std::string nvcc_path() {
  const char* home = std::getenv("CUDA_HOME");
  std::string nvcc = std::string(home ? home : "/usr/local/cuda") + "/bin/nvcc";
  return ::access(nvcc.c_str(), X_OK) == 0 ? nvcc : "";
}
// "13.0" from `nvcc --version`.
std::string nvcc_release(const std::string& nvcc) {
  auto r = ts::util::run({nvcc, "--version"});
  std::smatch m;
  return std::regex_search(r.out, m, std::regex(R"(release (\d+\.\d+))")) ? m[1].str() : "";
}

// The fixes torchsmith would apply for torch==2.4.1 with this CUDA and arch list, the overlay
// included.
ts::source::ApplyResult apply_fixes_for(const std::string& tree, const std::string& cuda,
                                        const std::vector<std::string>& arches) {
  std::vector<std::string> errors;
  static ts::source::FixSet set = ts::source::load_fixes({overlay_dir()}, errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  ts::source::FixContext ctx;
  ctx.version = "2.4.1";
  ctx.cuda = ts::FactVersion(cuda);
  for (const auto& a : arches) ctx.arches.push_back(*ts::CudaArch::parse(a));
  return ts::source::apply_fixes(tree, ts::source::select_fixes(set, ctx), ctx);
}

TEST(FixtureProject, CpuWheelLayoutRpathsImportRebuildWithMaxJobsAndClean) {
  Scratch dir;
  std::string root = copy_fixture(dir);
  Env env = build_env({{"USE_CUDA", "0"},
                       {"USE_CUDNN", "0"},
                       {"BUILD_TEST", "1"},
                       {"MAX_JOBS", "2"},
                       {"PYTORCH_BUILD_VERSION", "2.4.1+cpu"},
                       {"PYTORCH_BUILD_NUMBER", "1"}});
  auto r = run_in(root, {kPython, "setup.py", "bdist_wheel", "-d", "dist"}, env);
  ASSERT_TRUE(r.ok()) << r.describe(kBuildTimeout) << "\n" << tail(r);
  std::cout << "[ fixture  ] CPU build (bdist_wheel, MAX_JOBS=2): " << r.seconds << " s\n";
  EXPECT_NE(r.out.find("******** Summary ********"), std::string::npos);
  EXPECT_NE(r.out.find("cmake --build . --target install --config Release -- -j 2"),
            std::string::npos);
  EXPECT_GE(compile_lines(r.out), 20) << "ninja's progress lines reach the log";

  // The wheel: named by PYTORCH_BUILD_VERSION, platform-tagged.
  std::string abi = python_value("sysconfig.get_config_var('SOABI').split('-')[1]");  // "311"
  auto dist = files_in(root + "/dist");
  ASSERT_EQ(dist.size(), 1u);
  EXPECT_EQ(dist[0], "torch-2.4.1+cpu-cp" + abi + "-cp" + abi + "-linux_x86_64.whl");
  std::string un = unpack_wheel(root + "/dist/" + dist[0], dir.path() + "/unpacked");

  // The libraries at torch/lib, _C at torch/, RPATHs as in the official wheels.
  std::string ext = python_value("sysconfig.get_config_var('EXT_SUFFIX')");
  EXPECT_EQ(files_in(un + "/torch/lib"),
            (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));
  Elf c10(un + "/torch/lib/libc10.so"), cpu(un + "/torch/lib/libtorch_cpu.so"),
      c(un + "/torch/_C" + ext);
  ASSERT_TRUE(c10.elf && cpu.elf && c.elf) << c10.error << cpu.error << c.error;
  EXPECT_EQ(c10.search_path(), "$ORIGIN");
  EXPECT_EQ(cpu.search_path(), "$ORIGIN");
  EXPECT_TRUE(cpu.needs("libc10.so"));
  EXPECT_EQ(c.search_path(), "$ORIGIN/lib");
  EXPECT_TRUE(c.needs("libtorch_cpu.so"));

  // Importable from the unpacked wheel, reporting what was configured.
  auto py = run_in(un,
                   {kPython, "-c",
                    "import torch; print(torch.__version__); print(torch.version.cuda); "
                    "print(torch.call('add', [1, 2], [3])); print(torch.__config__.show())"},
                   build_env({}), std::chrono::seconds(60));
  ASSERT_TRUE(py.ok()) << tail(py);
  EXPECT_EQ(py.out.substr(0, py.out.find('\n')), "2.4.1+cpu");
  EXPECT_NE(py.out.find("\nNone\n[4.0, 5.0]\nPyTorch built with:\n"), std::string::npos) << py.out;
  EXPECT_NE(py.out.find("BUILD_TYPE=Release, "), std::string::npos);
  EXPECT_NE(py.out.find("USE_CUDA=OFF, "), std::string::npos);
  EXPECT_NE(py.out.find("TORCH_VERSION=2.4.1+cpu, "), std::string::npos);

  // build/CMakeCache.txt stays, with what a stale-tree check reads; BUILD_TEST=1 built the test.
  std::string cache = slurp(root + "/build/CMakeCache.txt");
  EXPECT_NE(cache.find("\nCMAKE_CXX_COMPILER:"), std::string::npos);
  EXPECT_NE(cache.find("\nUSE_CUDA:BOOL=0\n"), std::string::npos);
  auto t =
      run_in(root + "/build", {root + "/build/c10_test"}, build_env({}), std::chrono::seconds(30));
  EXPECT_TRUE(t.ok()) << tail(t);
  EXPECT_NE(t.out.find("16 ops registered, add ok"), std::string::npos) << t.out;

  // MAX_JOBS=1 reaches ninja: a header three objects include is touched, the rebuild runs one at a
  // time.
  { std::ofstream(root + "/c10/util/StringUtil.h", std::ios::app) << "// touched\n"; }
  env["MAX_JOBS"] = "1";
  auto again = run_in(root, {kPython, "setup.py", "build"}, env);
  ASSERT_TRUE(again.ok()) << tail(again);
  EXPECT_NE(again.out.find("cmake --build . --target install --config Release -- -j 1"),
            std::string::npos);
  EXPECT_EQ(again.out.find("******** Summary ********"), std::string::npos)
      << "the cache is reused";
  EXPECT_GE(compile_lines(again.out), 3) << again.out;
  EXPECT_EQ(max_running(again.out), 1) << again.out;

  // clean removes what the build made, keeps the sources and what is below NOT-CLEAN-FILES.
  fs::create_directories(root + "/.torchsmith");
  { std::ofstream(root + "/.torchsmith/journal.json") << "{}\n"; }
  auto cl = run_in(root, {kPython, "setup.py", "clean"}, env, std::chrono::seconds(60));
  ASSERT_TRUE(cl.ok()) << tail(cl);
  EXPECT_FALSE(fs::exists(root + "/build"));
  EXPECT_FALSE(fs::exists(root + "/dist"));
  EXPECT_FALSE(fs::exists(root + "/torch/lib"));
  EXPECT_FALSE(fs::exists(root + "/torch/version.py"));
  EXPECT_FALSE(fs::exists(root + "/torch/_C" + ext));
  EXPECT_TRUE(fs::exists(root + "/torch/__init__.py"));
  EXPECT_TRUE(fs::exists(root + "/setup.py"));
  EXPECT_TRUE(fs::exists(root + "/.torchsmith/journal.json"));
}

// torch >= 2.9's invocation: PEP 517 through setuptools' legacy backend, one build, ninja's lines
// in pip -v.
TEST(FixtureProject, PipWheelBuildsThroughPep517) {
  Scratch dir;
  std::string root = copy_fixture(dir);
  Env env = build_env({{"USE_CUDA", "0"},
                       {"BUILD_TEST", "0"},
                       {"MAX_JOBS", "2"},
                       {"PYTORCH_BUILD_VERSION", "2.9.0+cpu"},
                       {"PYTORCH_BUILD_NUMBER", "2"}});
  auto r = run_in(root,
                  {kPython, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                   "-v", "-w", "dist", "."},
                  env);
  ASSERT_TRUE(r.ok()) << r.describe(kBuildTimeout) << "\n" << tail(r);
  std::cout << "[ fixture  ] CPU build (pip wheel, MAX_JOBS=2): " << r.seconds << " s\n";
  std::string log = r.out + r.err;
  EXPECT_NE(log.find("Building wheel for torch (pyproject.toml)"), std::string::npos)
      << "PEP 517, not setup.py";
  EXPECT_GE(compile_lines(log), 20);
  std::string abi = python_value("sysconfig.get_config_var('SOABI').split('-')[1]");
  EXPECT_EQ(files_in(root + "/dist"),
            (std::vector<std::string>{"torch-2.9.0+cpu.post2-cp" + abi + "-cp" + abi +
                                      "-linux_x86_64.whl"}));
}

TEST(FixtureProject, OverlayFixPatchesTheCppExtensionTables) {
  Scratch dir;
  std::string root = copy_fixture(dir);
  const std::string probe =
      "import importlib.util as u, sys\n"
      "s = u.spec_from_file_location('ce', 'torch/utils/cpp_extension.py'); m = "
      "u.module_from_spec(s)\n"
      "s.loader.exec_module(m)\n"
      "print(m.check_compiler_bounds('13.0', (12, 2, 0)))\n"
      "try:\n    print(m._get_cuda_arch_flags())\nexcept ValueError as e:\n    print(e)\n";
  Env env = build_env({{"TORCH_CUDA_ARCH_LIST", "9.0;12.0"}});
  auto before = run_in(root, {kPython, "-c", probe}, env, std::chrono::seconds(30));
  ASSERT_TRUE(before.ok()) << tail(before);
  EXPECT_EQ(before.out,
            "There are no g++ version bounds defined for CUDA version 13.0\n"
            "Unknown CUDA arch (12.0) or GPU not supported\n");

  auto applied = apply_fixes_for(root, "", {});
  ASSERT_TRUE(applied.ok) << (applied.errors.empty() ? "" : applied.errors.front());
  ASSERT_EQ(applied.fixes.size(), 1u)
      << "only the overlay's fix holds for a CPU plan of torch 2.4.1";
  EXPECT_EQ(applied.fixes[0].id, "minitorch-cpp-extension-cuda13-sm120");

  auto after = run_in(root, {kPython, "-c", probe}, env, std::chrono::seconds(30));
  ASSERT_TRUE(after.ok()) << tail(after);
  EXPECT_EQ(
      after.out,
      "None\n['-gencode=arch=compute_120,code=sm_120', '-gencode=arch=compute_90,code=sm_90']\n");
}

TEST(FixtureProject, CudaConfigureStopsWithoutNvToolsExtLikeTorch24) {
  std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc at $CUDA_HOME/bin or /usr/local/cuda/bin";
  std::string cuda_home = fs::path(nvcc).parent_path().parent_path().string();
  if (fs::exists(cuda_home + "/lib64/libnvToolsExt.so"))
    GTEST_SKIP() << "this CUDA (" << nvcc_release(nvcc) << ") still ships libnvToolsExt";
  Scratch dir;
  std::string root = copy_fixture(dir);
  Env env =
      build_env({{"USE_CUDA", "1"}, {"CUDA_HOME", cuda_home}, {"TORCH_CUDA_ARCH_LIST", "8.6"}});
  auto r = run_in(root, {kPython, "setup.py", "build", "--cmake-only"}, env);
  EXPECT_FALSE(r.ok());
  EXPECT_NE((r.out + r.err).find("Failed to find nvToolsExt"), std::string::npos) << tail(r);
  EXPECT_TRUE(fs::exists(root + "/build/CMakeCache.txt"));
}

TEST(FixtureProject, CudaBuildCarriesExactlyTheAskedArches) {
  std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc at $CUDA_HOME/bin or /usr/local/cuda/bin";
  std::string cuda_home = fs::path(nvcc).parent_path().parent_path().string();
  std::string release = nvcc_release(nvcc);
  ASSERT_FALSE(release.empty());
  Scratch dir;
  std::string root = copy_fixture(dir);
  auto applied = apply_fixes_for(root, release, {"8.6", "9.0"});
  ASSERT_TRUE(applied.ok) << (applied.errors.empty() ? "" : applied.errors.front());

  Env env = build_env({{"USE_CUDA", "1"},
                       {"USE_CUDNN", "0"},
                       {"BUILD_TEST", "0"},
                       {"MAX_JOBS", "2"},
                       {"CUDA_HOME", cuda_home},
                       {"TORCH_CUDA_ARCH_LIST", "8.6;9.0"},
                       {"PYTORCH_BUILD_VERSION", "2.4.1"},
                       {"PYTORCH_BUILD_NUMBER", "1"}});
  auto r = run_in(root, {kPython, "setup.py", "bdist_wheel", "-d", "dist"}, env);
  ASSERT_TRUE(r.ok()) << r.describe(kBuildTimeout) << "\n" << tail(r);
  std::cout << "[ fixture  ] CUDA " << release << " build (bdist_wheel, MAX_JOBS=2): " << r.seconds
            << " s\n";
  EXPECT_NE(r.out.find("Added CUDA NVCC flags for: "
                       "-gencode;arch=compute_86,code=sm_86;-gencode;arch=compute_90,code=sm_90"),
            std::string::npos);

  auto dist = files_in(root + "/dist");
  ASSERT_EQ(dist.size(), 1u);
  std::string un = unpack_wheel(root + "/dist/" + dist[0], dir.path() + "/unpacked");
  EXPECT_EQ(files_in(un + "/torch/lib"),
            (std::vector<std::string>{"libc10.so", "libc10_cuda.so", "libtorch_cpu.so",
                                      "libtorch_cuda.so"}));

  Elf cuda(un + "/torch/lib/libtorch_cuda.so");
  ASSERT_TRUE(cuda.elf) << cuda.error;
  std::string error;
  auto code = ts::verify::cuda_code_of(*cuda.elf, &error);
  ASSERT_TRUE(code) << error;
  EXPECT_EQ(code->sass_text(), "sm_86 sm_90");
  EXPECT_EQ(code->ptx_text(), "");
  EXPECT_TRUE(cuda.needs("libcudart.so"));
  EXPECT_TRUE(cuda.needs("libtorch_cpu.so"));
  EXPECT_TRUE(cuda.needs("libc10_cuda.so"));
  EXPECT_EQ(cuda.search_path(), "$ORIGIN");
  Elf c10_cuda(un + "/torch/lib/libc10_cuda.so");
  ASSERT_TRUE(c10_cuda.elf) << c10_cuda.error;
  EXPECT_TRUE(c10_cuda.needs("libcudart.so"));

  std::string version_py = slurp(un + "/torch/version.py");
  EXPECT_NE(version_py.find("__version__ = '2.4.1'"), std::string::npos) << version_py;
  EXPECT_NE(version_py.find("cuda: Optional[str] = '" + release + "'"), std::string::npos)
      << version_py;

  // Importable where libcudart resolves (the package stage bundles it; here the toolkit's copy).
  Env run_env = build_env({{"LD_LIBRARY_PATH", cuda_home + "/lib64"}});
  auto py =
      run_in(un,
             {kPython, "-c",
              "import torch; print(torch._C._cuda_getArchFlags()); print(torch.__config__.show())"},
             run_env, std::chrono::seconds(60));
  ASSERT_TRUE(py.ok()) << tail(py);
  EXPECT_EQ(py.out.substr(0, py.out.find('\n')), "sm_86 sm_90");
  EXPECT_NE(py.out.find("  - CUDA Runtime " + release + "\n"), std::string::npos) << py.out;
  EXPECT_NE(
      py.out.find("  - NVCC architecture flags: "
                  "-gencode;arch=compute_86,code=sm_86;-gencode;arch=compute_90,code=sm_90\n"),
      std::string::npos)
      << py.out;
  EXPECT_NE(py.out.find("USE_CUDA=ON, "), std::string::npos);
}

}  // namespace

// Torch facts read from files instead of `import torch`: the readers on real file shapes, the
// fixtures' fake torch installs, and the real torch here (if any) read both ways.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "fixture_util.h"
#include "probe/sections.h"
#include "probe/torch_files.h"
#include "util/fs.h"
#include "util/process.h"
#include "testkit/temp_dir.h"

using namespace ts;
using namespace ts::probe;
using namespace ts::probe::testing;

using Archs = std::vector<std::string>;

TEST(TorchVersionPy, ReleasesFrom1xTo2x) {
  // 1.x: plain assignments, `cuda = None` on CPU builds (Debian's python3-torch 1.13.1).
  auto a = parse_torch_version_py("__version__ = '1.13.0a0'\ndebug = False\ncuda = None\n"
                                  "git_version = 'Unknown'\nhip = None\n");
  EXPECT_TRUE(a.found);
  EXPECT_EQ(a.version, "1.13.0a0");
  EXPECT_EQ(a.cuda, "");
  EXPECT_EQ(a.git_version, "Unknown");
  EXPECT_FALSE(a.debug);
  // 2.x: annotated, with __all__ and xpu lines that must not be taken for cuda.
  auto b = parse_torch_version_py(
      "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
      "__version__ = '2.11.0+cu130'\ndebug = True\ncuda: Optional[str] = '13.0'\n"
      "git_version = 'e67e3d95f3ab863c8b44a6b16ce9f25d40b0d517'\nhip: Optional[str] = None\nxpu: Optional[str] = None\n");
  EXPECT_EQ(b.version, "2.11.0+cu130");
  EXPECT_EQ(b.cuda, "13.0");
  EXPECT_EQ(b.git_version, "e67e3d95f3ab863c8b44a6b16ce9f25d40b0d517");
  EXPECT_TRUE(b.debug);
  // Bazel's template uses double quotes; `cuda_x = ...` is another name.
  auto c = parse_torch_version_py("__version__ = \"2.1.0\"\ncuda_x = '1'\ncuda = \"12.1\"\n");
  EXPECT_EQ(c.cuda, "12.1");
  EXPECT_FALSE(parse_torch_version_py("# empty\n").found);
}

TEST(TorchAbi, FromCMakeConfig) {
  EXPECT_EQ(abi_from_cmake("  set(TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=0\")\n"), false);
  EXPECT_EQ(abi_from_cmake("  set(TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=1\")\n"), true);
  // Some Jetson wheels ship the flag with no value (pytorch#45323): unknown, not false.
  EXPECT_EQ(abi_from_cmake("  set(TORCH_CXX_FLAGS \"-D_GLIBCXX_USE_CXX11_ABI=\")\n"), std::nullopt);
  EXPECT_EQ(abi_from_cmake("set(TORCH_INCLUDE_DIRS ...)\n"), std::nullopt);
}

TEST(TorchAbi, FromElfDynamicSymbols) {
  const char* lib = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6";
  if (::access(lib, R_OK) != 0) GTEST_SKIP() << "no " << lib;
  auto bytes = util::read_file_prefix(lib, 64u << 20);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(abi_from_elf(*bytes), true);  // libstdc++ exports both ABIs, the new one named __cxx11
  EXPECT_EQ(abi_from_elf("not an ELF"), std::nullopt);
  EXPECT_EQ(abi_from_elf(bytes->substr(0, 64)), std::nullopt);  // headers past the end
}

TEST(TorchArchList, FoundAmongJunk) {
  using namespace std::string_literals;
  std::string so = "\x7f" "ELF junk\0sm_\0use sm_80 or newer\0sm_9x\0sm_86\0"s +
                   "\0sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120\0more junk sm_"s;
  EXPECT_EQ(find_arch_list(so), (Archs{"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"}));
  EXPECT_EQ(find_arch_list("\0sm_90a sm_100f compute_100f\0"s), (Archs{"sm_90a", "sm_100f", "compute_100f"}));
  EXPECT_TRUE(find_arch_list("\0sm_80  sm_86\0"s).empty());  // stringized flags have single spaces
  EXPECT_TRUE(find_arch_list("no arch strings at all").empty());
}

TEST(TorchCudnn, WheelVersion) {
  EXPECT_EQ(cudnn_from_wheel("9.19.0.56"), "9.19.0");
  EXPECT_EQ(cudnn_from_wheel("8.5.0.96"), "8.5.0");
  EXPECT_EQ(cudnn_from_wheel("9"), "");
}

// The torch-installs fixture's Pythons, probed with or without the import (its stubs print
// either shape), so the two modes can be compared.
namespace {
std::vector<PythonFacts> torch_pythons(bool import, Notes* notes) {
  std::string err;
  auto h = Host::at(fixture_dir("torch-installs"), &err);
  EXPECT_TRUE(h) << err;
  ProbeOptions o;
  o.import_torch = import;
  Notes ignored;
  return h ? probe_pythons(*h, o, notes ? *notes : ignored) : std::vector<PythonFacts>{};
}
const TorchFacts* torch_of(const std::vector<PythonFacts>& ps, const std::string& path) {
  auto* p = find_if(ps, [&](auto& q) { return q.path == path; });
  return p ? &p->torch : nullptr;
}
void expect_same(const TorchFacts& a, const TorchFacts& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.cuda, b.cuda);
  EXPECT_EQ(a.cudnn, b.cudnn);
  EXPECT_EQ(a.cxx11_abi, b.cxx11_abi);
  EXPECT_EQ(a.arch_list, b.arch_list);
  EXPECT_EQ(a.git_version, b.git_version);
  EXPECT_EQ(a.debug, b.debug);
  EXPECT_EQ(a.path, b.path);
}
}  // namespace

TEST(TorchFiles, PipWheelMatchesImport) {
  Notes notes;
  auto files = torch_pythons(false, &notes), imported = torch_pythons(true, nullptr);
  EXPECT_TRUE(notes.empty()) << notes[0];
  auto* t = torch_of(files, "/usr/bin/python3.10");
  auto* u = torch_of(imported, "/usr/bin/python3.10");
  ASSERT_TRUE(t && u);
  EXPECT_TRUE(t->present);
  EXPECT_EQ(t->version, "2.5.1+cu124");
  EXPECT_EQ(t->cuda, "12.4");
  EXPECT_EQ(t->cudnn, "9.1.0");  // the nvidia-cudnn-cu12 wheel beside torch, not /usr/include's 9.8.0
  EXPECT_FALSE(t->cxx11_abi);
  EXPECT_EQ(t->arch_list.names(), (Archs{"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"}));
  EXPECT_TRUE(t->arch_list_known);
  EXPECT_TRUE(u->arch_list_known);
  EXPECT_EQ(t->git_version, "a8d6afb511a69687bbb2b7e88a3cf67917e1697e");
  EXPECT_EQ(t->path, "/usr/local/lib/python3.10/dist-packages/torch");
  expect_same(*t, *u);
}

TEST(TorchFiles, S4SourceBuildReadFromItsTree) {
  auto f = probe_fixture("s4-wsl2-cuda117");
  EXPECT_TRUE(f.notes.empty()) << f.notes[0];
  auto* py = python(f, "/opt/miniconda3/bin/python3");
  ASSERT_TRUE(py);
  EXPECT_EQ(py->torch.version, "2.0.0a0+gitc263bd4");  // from version.py: the egg-info has none
  EXPECT_EQ(py->torch.cuda, "11.7");
  EXPECT_EQ(py->torch.cudnn, "");  // no cuDNN anywhere on this host
  EXPECT_TRUE(py->torch.cxx11_abi);
  EXPECT_EQ(py->torch.arch_list.names(), Archs{"sm_75"});
  EXPECT_EQ(py->torch.git_version, "c263bd43e8e8502d4726643bc6fd046f0130ac0e");
}

TEST(TorchFiles, RecentSourceBuildAbiFromLibc10) {
  // TorchConfig.cmake without the ABI flag (recent torch): libc10.so's __cxx11 names tell.
  auto files = torch_pythons(false, nullptr), imported = torch_pythons(true, nullptr);
  auto* t = torch_of(files, "/home/dev/miniforge3/bin/python3.12");
  auto* u = torch_of(imported, "/home/dev/miniforge3/bin/python3.12");
  ASSERT_TRUE(t && u);
  EXPECT_EQ(t->version, "2.10.0a0+gite67e3d9");  // from version.py: a develop install's egg-info has none
  EXPECT_EQ(t->cuda, "12.8");
  EXPECT_TRUE(t->cxx11_abi);
  EXPECT_EQ(t->arch_list.names(), Archs{"sm_120"});
  // No wheel beside it: /usr/include's 9.8.0, since libtorch_cuda.so needs libcudnn.so.9.
  EXPECT_EQ(t->cudnn, "9.8.0");
  expect_same(*t, *u);
}

TEST(TorchFiles, MissingArchStringIsANote) {
  // A CUDA torch whose libtorch_python.so has no arch string: empty list and a note, no guess.
  ::ts::testkit::TempDir tmp("ts-torchfiles");
  std::string root = tmp.path();
  std::string dir = root + "/site/torch";
  std::filesystem::create_directories(dir + "/lib");
  ASSERT_TRUE(util::write_file_atomic(dir + "/version.py", "__version__ = '2.7.0+cu128'\ncuda = '12.8'\n").empty());
  ASSERT_TRUE(util::write_file_atomic(dir + "/lib/libtorch_python.so", "junk sm_ junk").empty());
  std::string err;
  auto h = Host::at(root, &err);
  ASSERT_TRUE(h) << err;
  TorchFacts t;
  t.present = true;
  t.path = "/site/torch";
  std::vector<std::string> notes;
  read_torch_files(*h, "", t, notes);
  EXPECT_EQ(t.version, "2.7.0+cu128");
  EXPECT_TRUE(t.arch_list.empty());
  EXPECT_FALSE(t.arch_list_known);  // unread: unknown, which verdicts must not take for "no arch"
  EXPECT_TRUE(t.arch_list_unknown());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "torch at /site/torch: arch list not found in libtorch_python.so (use --import-torch)");
}

// The real torch of this machine (Debian's python3-torch 1.13.1, CPU) read both ways.
TEST(TorchFiles, RealTorchFilesEqualImport) {
  const std::string py = "/usr/bin/python3";
  if (::access(py.c_str(), X_OK) != 0) GTEST_SKIP() << "no " << py;
  auto script = [&](bool import) {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(60);
    o.extra_env = {{"PYTHONNOUSERSITE", "1"}};
    if (!import) o.extra_env["TORCHSMITH_NO_TORCH_IMPORT"] = "1";
    PythonFacts f;
    std::string err;
    EXPECT_TRUE(parse_python_json(util::run({py, "-I", "-c", python_probe_script()}, o).out, f, &err)) << err;
    return f;
  };
  auto files = script(false);
  if (!files.torch.present) GTEST_SKIP() << py << " has no torch";
  std::vector<std::string> notes;
  read_torch_files(Host::real(), files.prefix, files.torch, notes);
  auto imported = script(true);
  ASSERT_TRUE(imported.torch.error.empty()) << imported.torch.error;
  auto& a = files.torch;
  auto& b = imported.torch;
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.cuda, b.cuda);
  EXPECT_EQ(a.git_version, b.git_version);
  EXPECT_EQ(a.debug, b.debug);
  EXPECT_EQ(a.cxx11_abi, b.cxx11_abi);
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.arch_list, b.arch_list);
  EXPECT_EQ(a.cudnn, b.cudnn);
  EXPECT_TRUE(notes.empty()) << notes[0];
}

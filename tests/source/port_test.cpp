// Source ports (data/kb/ports.toml, source/port.h): the catalogue is well-formed and cited, each
// port rewrites what it is for and leaves a near miss alone, and a ported tree reverts byte for byte.
#include "source/port.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include "source/hash.h"
#include "source/instantiate.h"
#include "source/journal.h"
#include "testkit/find_nvcc.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"

namespace ts::source {
namespace {

namespace fs = std::filesystem;

const PortSet& catalogue() {
  static const PortSet s = [] {
    std::vector<std::string> errors;
    PortSet set = load_ports({}, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    return set;
  }();
  return s;
}

// The text after the one port `id` ran over it, as apply_ports would write it.
std::string port_one(const std::string& id, const std::string& text, const std::string& file = "ops.cu") {
  const Port* p = catalogue().find(id);
  EXPECT_NE(p, nullptr) << id;
  if (!p) return text;
  testkit::TempDir t("ts-port");
  EXPECT_EQ(util::write_file_atomic(t / file, text), "");
  PortSet one{{*p}};
  PortResult r = apply_ports(t.path(), one);
  EXPECT_TRUE(r.ok);
  return util::read_file(t / file).value_or("<unreadable>");
}

TEST(PortCatalogue, EveryPortIsCitedAndItsPatternCompiles) {
  ASSERT_GE(catalogue().ports.size(), 15u);
  for (const auto& p : catalogue().ports) {
    EXPECT_NE(p.source.find("https://"), std::string::npos) << p.id << ": an upstream reference a user can open";
    EXPECT_FALSE(p.reason.empty()) << p.id;
  }
}

TEST(PortCatalogue, BadEntriesAreNamed) {
  std::vector<Port> out;
  auto errs = parse_ports_text("x.toml", "[[port]]\nid = \"thc\"\npattern = \"(\"\nrewrite = \"\\\\2\"\n", out);
  ASSERT_FALSE(errs.empty());
  std::string all;
  for (const auto& e : errs) all += e + "\n";
  EXPECT_NE(all.find("id must start with 'port.'"), std::string::npos) << all;
  EXPECT_NE(all.find("pattern is not RE2"), std::string::npos) << all;
  EXPECT_NE(all.find("source is required"), std::string::npos) << all;
  EXPECT_TRUE(out.empty());
}

TEST(PortCatalogue, WhenAndRepeatAreChecked) {
  std::vector<Port> out;
  auto errs = parse_ports_text("x.toml",
                               "[[port]]\nid = \"port.a\"\nreason = \"r\"\nsource = \"https://x\"\npattern = \"a\"\n"
                               "rewrite = \"b\"\nwhen = \"(\"\nrepeat = \"yes\"\n",
                               out);
  std::string all;
  for (const auto& e : errs) all += e + "\n";
  EXPECT_NE(all.find("when is not RE2"), std::string::npos) << all;
  EXPECT_NE(all.find("repeat must be true or false"), std::string::npos) << all;
  out.clear();
  EXPECT_TRUE(parse_ports_text("x.toml",
                               "[[port]]\nid = \"port.a\"\nreason = \"r\"\nsource = \"https://x\"\npattern = \"a\"\n"
                               "rewrite = \"b\"\nwhen = \"c\"\nrepeat = true\n",
                               out)
                  .empty());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].repeat);
  EXPECT_EQ(out[0].when, "c");
}

// A repeating port stops when a pass changes nothing, and at its `unless` (a rewrite that keeps its own
// match, as the lerp port's guard does, is not applied twice).
TEST(ApplyPorts, ARepeatingPortStopsAtItsUnless) {
  Port p{};
  p.id = "port.t";
  p.pattern = "x(y+)";
  p.rewrite = "\\1";
  p.repeat = true;
  p.files = {".cu"};
  testkit::TempDir t("ts-port-repeat");
  ASSERT_EQ(util::write_file_atomic(t / "a.cu", "xxxyy;\n"), "");
  PortResult r = apply_ports(t.path(), PortSet{{p}});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(util::read_file(t / "a.cu"), "yy;\n");  // three passes: xxxyy -> xxyy -> xyy -> yy
  Port g = p;
  g.pattern = "(f\\(\\))";
  g.rewrite = "G \\1";
  g.unless = "G ";
  ASSERT_EQ(util::write_file_atomic(t / "b.cu", "f();\n"), "");
  r = apply_ports(t.path(), PortSet{{g}});
  EXPECT_EQ(util::read_file(t / "b.cu"), "G f();\n");
}

struct Case {
  const char* id;
  const char* before;
  const char* after;  // == before: a near miss the port must leave alone
};

class EachPort : public ::testing::TestWithParam<Case> {};

TEST_P(EachPort, RewritesItsApiAndLeavesANearMissAlone) {
  std::string id = GetParam().id;
  bool py = id.rfind("port.pkg-resources", 0) == 0 || id.rfind("port.torch-six", 0) == 0 || id == "port.python2-tabs";
  EXPECT_EQ(port_one(id, GetParam().before, py ? "__init__.py" : "ops.cu"),
            GetParam().after);
}

// The pkg_resources ports on a minimal installed package (its dist-info beside it) in a Python with
// no site-packages, as after setuptools 82: unported, its import fails; ported, it reads its version.
TEST(PortPython, APackageReadingItsVersionThroughPkgResourcesImportsOncePorted) {
  auto probe = util::run({"python3", "-S", "-c", "import importlib.metadata"}, {std::chrono::seconds(30)});
  if (!probe.ok()) GTEST_SKIP() << "no python3 with importlib.metadata: " << probe.err;
  for (const std::string& line : {std::string("from pkg_resources import get_distribution\n"),
                                  std::string("from pkg_resources import get_distribution, DistributionNotFound\n")}) {
    testkit::TempDir t("ts-port-py");
    std::filesystem::create_directories(t / "lt_pkgres");
    std::filesystem::create_directories(t / "lt_pkgres-1.2.3.dist-info");
    ASSERT_EQ(util::write_file_atomic(t / "lt_pkgres-1.2.3.dist-info/METADATA",
                                      "Metadata-Version: 2.1\nName: lt_pkgres\nVersion: 1.2.3\n"), "");
    ASSERT_EQ(util::write_file_atomic(t / "lt_pkgres/__init__.py",
                                      line + "__version__ = get_distribution('lt_pkgres').version\n"), "");
    util::RunOptions o;
    o.timeout = std::chrono::seconds(30);
    o.cwd = t.path();
    std::vector<std::string> argv{"python3", "-S", "-c", "import lt_pkgres; print(lt_pkgres.__version__)"};
    auto before = util::run(argv, o);
    EXPECT_FALSE(before.ok()) << line;
    EXPECT_NE(before.err.find("No module named 'pkg_resources'"), std::string::npos) << before.err;
    PortResult r = apply_ports(t.path(), catalogue());
    ASSERT_TRUE(r.ok);
    ASSERT_EQ(r.files.size(), 1u) << line;
    auto after = util::run(argv, o);
    EXPECT_TRUE(after.ok()) << after.err;
    EXPECT_EQ(after.out, "1.2.3\n");
  }
}

// The torch._six ports on a minimal package (neuralnet-pytorch's imports) against a torch with no
// torch._six, as torch >= 2.0: unported, its import fails; ported, each name is the object it aliased.
TEST(PortPython, APackageImportingFromTorchSixImportsOncePorted) {
  auto probe = util::run({"python3", "-S", "-c", "pass"}, {std::chrono::seconds(30)});
  if (!probe.ok()) GTEST_SKIP() << "no python3: " << probe.err;
  testkit::TempDir t("ts-port-six");
  std::filesystem::create_directories(t / "torch");
  std::filesystem::create_directories(t / "lt_six");
  ASSERT_EQ(util::write_file_atomic(t / "torch/__init__.py", "__version__ = '2.15.0'\n"), "");
  const std::string init = "import torch as T\n"
                           "from torch._six import container_abcs, string_classes, int_classes\n"
                           "from torch._six import inf\n"
                           "def kinds(x):\n"
                           "    return (isinstance(x, container_abcs.Mapping), isinstance(x, T._six.string_classes),\n"
                           "            isinstance(x, string_classes), isinstance(x, int_classes), inf > 1e308)\n";
  ASSERT_EQ(util::write_file_atomic(t / "lt_six/__init__.py", init), "");
  util::RunOptions o;
  o.timeout = std::chrono::seconds(30);
  o.cwd = t.path();
  std::vector<std::string> argv{"python3", "-S", "-B", "-c",
                                "import lt_six; print(lt_six.kinds({}), lt_six.kinds(b'x'), lt_six.kinds(3))"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("No module named 'torch._six'"), std::string::npos) << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.torch-six-import-split", "port.torch-six-container-abcs",
                                               "port.torch-six-string-classes", "port.torch-six-string-classes-attr",
                                               "port.torch-six-int-classes", "port.torch-six-inf-nan"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err;
  EXPECT_EQ(after.out, "(True, False, False, False, True) (False, True, True, False, True) (False, False, False, True, True)\n");
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "lt_six/__init__.py"), init);
}

// port.python2-tabs on a minimal package: its module with a tab and 8 spaces at one level fails to
// import with TabError; ported, it imports and answers as Python 2 read it. Its other module, tabs
// only, compiles: it is left byte for byte. The ported tree reverts byte for byte.
TEST(PortPython, APython2PackageMixingTabsAndSpacesImportsOncePorted) {
  auto probe = util::run({"python3", "-S", "-c", "pass"}, {std::chrono::seconds(30)});
  if (!probe.ok()) GTEST_SKIP() << "no python3: " << probe.err;
  testkit::TempDir t("ts-port-tabs");
  std::filesystem::create_directories(t / "lt_tabs");
  const std::string mixed = "def f(x):\n\tif x:\n\t\treturn 1\n        return 2\n";
  const std::string tabs = "def g():\n\treturn 3\n";
  ASSERT_EQ(util::write_file_atomic(t / "lt_tabs/__init__.py", "from .helper import f\nfrom .plain import g\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "lt_tabs/helper.py", mixed), "");
  ASSERT_EQ(util::write_file_atomic(t / "lt_tabs/plain.py", tabs), "");
  util::RunOptions o;
  o.timeout = std::chrono::seconds(30);
  o.cwd = t.path();
  std::vector<std::string> argv{"python3", "-S", "-B", "-c", "import lt_tabs; print(lt_tabs.f(0), lt_tabs.f(1), lt_tabs.g())"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("TabError: inconsistent use of tabs and spaces in indentation"), std::string::npos) << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].path, "lt_tabs/helper.py");
  EXPECT_EQ(r.ports, std::vector<std::string>{"port.python2-tabs"});
  EXPECT_EQ(util::read_file(t / "lt_tabs/plain.py"), tabs);
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err;
  EXPECT_EQ(after.out, "2 1 3\n");
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "lt_tabs/helper.py"), mixed);
}

INSTANTIATE_TEST_SUITE_P(
    Ports, EachPort,
    ::testing::Values(
        // spconv's all.cc: custom ops through torch::jit::RegisterOperators, which stopped taking them in 1.4.
        Case{"port.jit-register-operators",
             "static auto r =\n    torch::jit::RegisterOperators(\"spconv::a\", &a<2>)\n        .op(\"spconv::b\", &b);\n"
             "static auto s = torch::jit::RegisterOperators ( ).op(\"x::y\", &y);\n",
             "static auto r =\n    torch::RegisterOperators(\"spconv::a\", &a<2>)\n        .op(\"spconv::b\", &b);\n"
             "static auto s = torch::RegisterOperators ( ).op(\"x::y\", &y);\n"},
        // Near misses: the JIT form (a list of Operators) torch still has, a declaration, one already ported.
        Case{"port.jit-register-operators",
             "torch::jit::RegisterOperators reg({Operator(\"a::b\", fn)});\nauto r = torch::jit::RegisterOperators({op});\n"
             "static auto t = torch::RegisterOperators(\"a::c\", &c);\n",
             "torch::jit::RegisterOperators reg({Operator(\"a::b\", fn)});\nauto r = torch::jit::RegisterOperators({op});\n"
             "static auto t = torch::RegisterOperators(\"a::c\", &c);\n"},
        Case{"port.thc-header", "#include <THC/THC.h>\n", "#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDACachingAllocator.h>\n#include <ATen/ceil_div.h>\n"},
        Case{"port.thc-header", "#include \"THC/THC.h\"\n", "#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDACachingAllocator.h>\n#include <ATen/ceil_div.h>\n"},
        Case{"port.thc-header", "#include <THC/THCGeneral.h>\n", "#include <THC/THCGeneral.h>\n"},
        Case{"port.th-header", "#include <TH/TH.h>\n", "#include <ATen/ATen.h>\n"},
        Case{"port.th-header", "#include <TH/THGeneral.h>\n", "#include <TH/THGeneral.h>\n"},
        // pytorch-cuda-ops' bmv_kernel.cu; near misses: other headers whose names end in Type.h.
        Case{"port.aten-type-header", "#include <ATen/Type.h>\n#include \"ATen/Type.h\"\n",
             "#include <ATen/ATen.h>\n#include <ATen/ATen.h>\n"},
        Case{"port.aten-type-header", "#include <ATen/TypeDefault.h>\n#include <ATen/core/Type.h>\n#include <c10/core/ScalarType.h>\n",
             "#include <ATen/TypeDefault.h>\n#include <ATen/core/Type.h>\n#include <c10/core/ScalarType.h>\n"},
        // cond-norm's xcn_cuda_kernel.cu: a .type() held in a variable, every use a dispatch (one on the
        // line after the macro's name) or .scalarType(); the second function's variable is used otherwise.
        Case{"port.dispatch-type-variable",
             "void f(at::Tensor x) {\n  auto t = x.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n"
             "  AT_DISPATCH_ALL_TYPES(\n      t, \"g\", [&] {});\n  if (t.scalarType() == at::kHalf) {}\n}\n"
             "void g(at::Tensor y) {\n  auto t = y.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n  bool c = t.is_cuda();\n}\n",
             "void f(at::Tensor x) {\n  auto t = x.scalar_type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n"
             "  AT_DISPATCH_ALL_TYPES(\n      t, \"g\", [&] {});\n  if (t == at::kHalf) {}\n}\n"
             "void g(at::Tensor y) {\n  auto t = y.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n  bool c = t.is_cuda();\n}\n"},
        // Near misses: held by a non-const reference, never dispatched on, named in a comment, passed on.
        Case{"port.dispatch-type-variable", "void f(at::Tensor x) {\n  auto& t = x.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n}\n",
             "void f(at::Tensor x) {\n  auto& t = x.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n}\n"},
        Case{"port.dispatch-type-variable", "void f(at::Tensor x) {\n  auto t = x.type();\n  if (t.scalarType() == at::kHalf) {}\n}\n",
             "void f(at::Tensor x) {\n  auto t = x.type();\n  if (t.scalarType() == at::kHalf) {}\n}\n"},
        Case{"port.dispatch-type-variable", "void f(at::Tensor x) {\n  auto t = x.type();  // t's backend\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n}\n",
             "void f(at::Tensor x) {\n  auto t = x.type();  // t's backend\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n}\n"},
        Case{"port.dispatch-type-variable", "void f(at::Tensor x) {\n  const auto t = x.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n  g(t, x);\n}\n",
             "void f(at::Tensor x) {\n  const auto t = x.type();\n  AT_DISPATCH_FLOATING_TYPES(t, \"f\", [&] {});\n  g(t, x);\n}\n"},
        // neuralnet-pytorch's pc2vox.cpp (torch's headers through its own); near misses: braces already, two
        // arguments, a literal, a call, a file that names no torch::Tensor or at::Tensor.
        Case{"port.tensor-index-tensor", "#include \"pc2vox.h\"\ntorch::Tensor f(torch::Tensor indices) {\n  return indices.index(valid);\n}\n",
             "#include \"pc2vox.h\"\ntorch::Tensor f(torch::Tensor indices) {\n  return indices.index({valid});\n}\n"},
        Case{"port.tensor-index-tensor", "at::Tensor a = x.index({m}), b = x.index(m, n), c = x.index(0), d = x.index(f(m));\n",
             "at::Tensor a = x.index({m}), b = x.index(m, n), c = x.index(0), d = x.index(f(m));\n"},
        Case{"port.tensor-index-tensor", "#include <vector>\nint a = table.index(i);\n", "#include <vector>\nint a = table.index(i);\n"},
        // bp-layers' stereo_sad_kernel.cu: std:: in its own namespace cuda becomes the global std; near
        // misses: a file that opens no namespace cuda (namespace cudaops, cuda::std used), ::std:: and
        // cuda::std:: as written, an identifier ending in std.
        Case{"port.cuda-namespace-std",
             "namespace cuda\n{\n  std::vector<at::Tensor> f(std::vector<int> a);\n  ::std::size_t n; cuda::std::array<int, 2> b; mystd::x c;\n}\n",
             "namespace cuda\n{\n  ::std::vector<at::Tensor> f(::std::vector<int> a);\n  ::std::size_t n; cuda::std::array<int, 2> b; mystd::x c;\n}\n"},
        Case{"port.cuda-namespace-std", "namespace cudaops {\nstd::vector<int> f();\n}\ncuda::std::span<int> s;\n",
             "namespace cudaops {\nstd::vector<int> f();\n}\ncuda::std::span<int> s;\n"},
        // division's quantization_cuda_kernel.cu; near miss: the new path itself.
        Case{"port.cuda-generator-header", "#include <ATen/CUDAGeneratorImpl.h>\n", "#include <ATen/cuda/CUDAGeneratorImpl.h>\n"},
        Case{"port.cuda-generator-header", "#include <ATen/cuda/CUDAGeneratorImpl.h>\n#include <ATen/CUDAGenerator.h>\n",
             "#include <ATen/cuda/CUDAGeneratorImpl.h>\n#include <ATen/CUDAGenerator.h>\n"},
        Case{"port.thc-atomics", "#include <THC/THCAtomics.cuh>\n", "#include <ATen/cuda/Atomic.cuh>\n"},
        Case{"port.thc-device-utils", "#include <THC/THCDeviceUtils.cuh>\n",
             "#include <ATen/cuda/DeviceUtils.cuh>\n#include <ATen/ceil_div.h>\n"},
        Case{"port.thc-ceil-div", "dim3 grid(THCCeilDiv(n, 512L));\n", "dim3 grid(at::ceil_div(n, 512L));\n"},
        Case{"port.thc-ceil-div", "int d = MyTHCCeilDiv(n, 2);\n", "int d = MyTHCCeilDiv(n, 2);\n"},
        Case{"port.thc-cuda-check", "THCudaCheck(cudaGetLastError());\n", "C10_CUDA_CHECK(cudaGetLastError());\n"},
        Case{"port.thc-cuda-check", "MyTHCudaCheck(x);\n", "MyTHCudaCheck(x);\n"},
        Case{"port.thc-state-extern", "int a;\nextern THCState *state;\nint b;\n", "int a;\nint b;\n"},
        Case{"port.thc-state-extern", "// extern THCState *state; was here\n", "// extern THCState *state; was here\n"},
        Case{"port.thc-current-stream", "auto s = THCState_getCurrentStream(state);\n",
             "auto s = at::cuda::getCurrentCUDAStream();\n"},
        // pytorch-baidu-ctc's binding: the THCState from the global context, not a `state` variable.
        Case{"port.thc-current-stream", "ctc_opts.stream =\n    THCState_getCurrentStream(at::globalContext().getTHCState());\n",
             "ctc_opts.stream =\n    at::cuda::getCurrentCUDAStream();\n"},
        Case{"port.thc-current-stream", "auto s = THCState_getCurrentStreamOnDevice(state, 0);\n",
             "auto s = THCState_getCurrentStreamOnDevice(state, 0);\n"},
        // pytorch-emd's kernel: the glog-style checks c10 stopped defining.
        Case{"port.glog-check-macros", "  CHECK_EQ(xyz2.size(0), b);\n  DCHECK_LT(i, n);\n  CHECK_INPUT(xyz1);\n",
             "  TORCH_CHECK_EQ(xyz2.size(0), b);\n  TORCH_DCHECK_LT(i, n);\n  CHECK_INPUT(xyz1);\n"},
        Case{"port.glog-check-macros", "TORCH_CHECK_EQ(n, 3);\nMY_CHECK_EQ(n, 3);\n", "TORCH_CHECK_EQ(n, 3);\nMY_CHECK_EQ(n, 3);\n"},
        Case{"port.glog-check-macros", "#define CHECK_EQ(a, b) assert((a) == (b))\nCHECK_EQ(n, 3);\n",
             "#define CHECK_EQ(a, b) assert((a) == (b))\nCHECK_EQ(n, 3);\n"},
        Case{"port.glog-check-macros", "#include <glog/logging.h>\nCHECK_EQ(n, 3);\n", "#include <glog/logging.h>\nCHECK_EQ(n, 3);\n"},
        // odtk's kernels: CUB's counting iterator, gone with CCCL 3.0 (CUDA 13).
        Case{"port.cub-counting-iterator-header", "#include <cub/iterator/counting_input_iterator.cuh>\n",
             "#include <thrust/iterator/counting_iterator.h>\n"},
        Case{"port.cub-counting-iterator-header", "#include <cub/iterator/arg_index_input_iterator.cuh>\n",
             "#include <cub/iterator/arg_index_input_iterator.cuh>\n"},
        Case{"port.cub-counting-iterator", "auto i = cub::CountingInputIterator<int>(0);\n",
             "auto i = thrust::counting_iterator<int>(0);\n"},
        Case{"port.cub-counting-iterator", "auto i = cub::CountingInputIterator<int, long>(0);\n",
             "auto i = cub::CountingInputIterator<int, long>(0);\n"},
        // SATNet's kernel: CUDA's legacy saturate(), gone from nvcc 13's device headers.
        Case{"port.cuda-saturate", "zi = saturate((zi+1)/2)*2-1;\nzi = saturate(1-acosf(zi)/M_PI);\n",
             "zi = __saturatef((zi+1)/2)*2-1;\nzi = __saturatef(1-acosf(zi)/M_PI);\n"},
        Case{"port.cuda-saturate", "c = color.saturate(x);\nd = __saturatef(x);\ne = my_saturate(x);\n",
             "c = color.saturate(x);\nd = __saturatef(x);\ne = my_saturate(x);\n"},
        Case{"port.cuda-saturate", "__device__ float saturate(float x) { return fminf(fmaxf(x, 0.f), 1.f); }\ny = saturate(v);\n",
             "__device__ float saturate(float x) { return fminf(fmaxf(x, 0.f), 1.f); }\ny = saturate(v);\n"},
        // warp-ctc's moderngpu (vendored by pytorch-baidu-ctc): the mask-less warp shuffles.
        Case{"port.cuda-shfl-sync", "x = __shfl_up(var, delta, width);\ny = __shfl(v, 0);\nz = __shfl_xor(v, 1);\n",
             "x = __shfl_up_sync(0xffffffff, var, delta, width);\ny = __shfl_sync(0xffffffff, v, 0);\nz = __shfl_xor_sync(0xffffffff, v, 1);\n"},
        Case{"port.cuda-shfl-sync", "x = __shfl_up_sync(m, v, 1);\ny = my__shfl(v);\n", "x = __shfl_up_sync(m, v, 1);\ny = my__shfl(v);\n"},
        Case{"port.cuda-shfl-sync", "__device__ int __shfl_up(int v, int d) { return v; }\nx = __shfl_up(v, 1);\n",
             "__device__ int __shfl_up(int v, int d) { return v; }\nx = __shfl_up(v, 1);\n"},
        // warp-ctc's moderngpu shfl_add/shfl_max: inline PTX shfl without .sync (ptxas refuses it for sm_70+).
        Case{"port.ptx-shfl-sync", "\t\t\"shfl.up.b32 r0|p, %1, %2, %3;\"\n",
             "\t\t\"shfl.sync.up.b32 r0|p, %1, %2, %3, 0xffffffff;\"\n"},
        Case{"port.ptx-shfl-sync",
             "asm(\"shfl.down.b32 %0, %1, %2, 0x1f;\" : \"=r\"(r));\nasm(\"shfl.bfly.b32 %0, %1, %2, 0x1f;\\n\\t\");\nasm(\"shfl.idx.b32 %0|q, %1, %2, %3;\");\n",
             "asm(\"shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;\" : \"=r\"(r));\nasm(\"shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;\\n\\t\");\nasm(\"shfl.sync.idx.b32 %0|q, %1, %2, %3, 0xffffffff;\");\n"},
        // Near misses: already .sync, the intrinsic spelled in C, an operand list split across literals.
        Case{"port.ptx-shfl-sync",
             "asm(\"shfl.sync.up.b32 %0, %1, %2, %3, %4;\");\nx = __shfl_up_sync(m, v, 1); // shfl.up\nasm(\"shfl.up.b32 %0, %1,\" \" %2, %3;\");\n",
             "asm(\"shfl.sync.up.b32 %0, %1, %2, %3, %4;\");\nx = __shfl_up_sync(m, v, 1); // shfl.up\nasm(\"shfl.up.b32 %0, %1,\" \" %2, %3;\");\n"},
        Case{"port.ptx-vote-sync", "asm(\"vote.all.pred q, p;\");\nasm(\"vote.ballot.b32 %0, !p;\");\nasm(\"vote.any.pred q, p;\");\n",
             "asm(\"vote.sync.all.pred q, p, 0xffffffff;\");\nasm(\"vote.sync.ballot.b32 %0, !p, 0xffffffff;\");\nasm(\"vote.sync.any.pred q, p, 0xffffffff;\");\n"},
        Case{"port.ptx-vote-sync", "asm(\"vote.sync.all.pred q, p, %1;\");\nbool b = vote.all(x);\n",
             "asm(\"vote.sync.all.pred q, p, %1;\");\nbool b = vote.all(x);\n"},
        // irr's correlation package: the stream API of at::Context (2018).
        Case{"port.context-current-stream", "  f(n,\n    at::globalContext().getCurrentCUDAStream()\n  );\n",
             "  f(n,\n    at::cuda::getCurrentCUDAStream()\n  );\n"},
        Case{"port.context-current-stream", "auto s = at::cuda::getCurrentCUDAStream();\n", "auto s = at::cuda::getCurrentCUDAStream();\n"},
        Case{"port.thc-malloc", "p = THCudaMalloc(state, n * sizeof(float));\n",
             "p = c10::cuda::CUDACachingAllocator::raw_alloc(n * sizeof(float));\n"},
        Case{"port.thc-free", "THCudaFree(state, p);\n", "c10::cuda::CUDACachingAllocator::raw_delete(p);\n"},
        Case{"port.th-arg-check", "THArgCheck(x.dim() == 4, 2, \"4D input expected\");\n",
             "TORCH_CHECK(x.dim() == 4, \"4D input expected\");\n"},
        // PointMVSNet's gather_knn_kernel.cu: a condition that is a call with commas of its own.
        Case{"port.th-arg-check", "THArgCheck(at::cuda::getApplyGrid(total, grid, dev), 1, \"Too many elements\");\n",
             "TORCH_CHECK(at::cuda::getApplyGrid(total, grid, dev), \"Too many elements\");\n"},
        Case{"port.th-arg-check", "THArgCheck(ok, name, \"x\");\n", "THArgCheck(ok, name, \"x\");\n"},
        // graspness' knn.h: THError with a message, after the THC ports; a printf format is left alone.
        Case{"port.th-error", "        THError(\"aborting\");\n", "        TORCH_CHECK(false, \"aborting\");\n"},
        Case{"port.th-error", "THError(\"bad size %d\", n);\nMyTHError(\"x\");\n", "THError(\"bad size %d\", n);\nMyTHError(\"x\");\n"},
        Case{"port.th-error", "#define THError(m) throw m\nTHError(\"x\");\n", "#define THError(m) throw m\nTHError(\"x\");\n"},
        // PointMVSNet again: TH's index base, always 0; a file that defines its own keeps it.
        Case{"port.th-index-base", "int64_t v = index.data[off] - TH_INDEX_BASE;\n", "int64_t v = index.data[off] - 0;\n"},
        Case{"port.th-index-base", "#define TH_INDEX_BASE 0\nint64_t v = i - TH_INDEX_BASE;\nMY_TH_INDEX_BASE_X;\n",
             "#define TH_INDEX_BASE 0\nint64_t v = i - TH_INDEX_BASE;\nMY_TH_INDEX_BASE_X;\n"},
        // PointMVSNet's kernel names a define only in a comment: the port still applies (to the comment's
        // text too, as ports do).
        Case{"port.glog-check-macros", "// #define CHECK_EQ(x, y) AT_CHECK(x == y, #x)\n  CHECK_EQ(input.dim(), 3);\n",
             "// #define TORCH_CHECK_EQ(x, y) AT_CHECK(x == y, #x)\n  TORCH_CHECK_EQ(input.dim(), 3);\n"},
        Case{"port.at-check", "AT_CHECK(x.is_contiguous(), \"x\");\n", "TORCH_CHECK(x.is_contiguous(), \"x\");\n"},
        // fairseq-apollo's attention_kernel.cu: the alert torch 2.10 removed, in its two spellings; a call on
        // another object (the package's own context type) is left alone.
        Case{"port.cublas-workspace-alert", "  torch::globalContext().alertCuBLASConfigNotDeterministic();\n  h = handle();\n",
             "  /* alertCuBLASConfigNotDeterministic() was removed in torch 2.10 (pytorch/pytorch#161749) */\n  h = handle();\n"},
        Case{"port.cublas-workspace-alert", "globalContext() . alertCuBLASConfigNotDeterministic( );\n",
             "/* alertCuBLASConfigNotDeterministic() was removed in torch 2.10 (pytorch/pytorch#161749) */\n"},
        Case{"port.cublas-workspace-alert", "ctx.alertCuBLASConfigNotDeterministic();\nmy::globalContext().alertCuBLASConfigNotDeterministicX();\n",
             "ctx.alertCuBLASConfigNotDeterministic();\nmy::globalContext().alertCuBLASConfigNotDeterministicX();\n"},
        Case{"port.at-check", "MY_AT_CHECK(x);\n", "MY_AT_CHECK(x);\n"},
        Case{"port.dispatch-type", "AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.type(), \"f\", ([&] {\n",
             "AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), \"f\", ([&] {\n"},
        Case{"port.dispatch-type", "AT_DISPATCH_FLOATING_TYPES(grads[0].type(), \"g\", [&] {\n",
             "AT_DISPATCH_FLOATING_TYPES(grads[0].scalar_type(), \"g\", [&] {\n"},
        Case{"port.dispatch-type", "auto t = input.type();\n", "auto t = input.type();\n"},
        // OpenBCSim's axpy_cuda.cpp, GNU style: a space before each call's parentheses is the same call.
        Case{"port.dispatch-type", "AT_DISPATCH_FLOATING_TYPES (x.type (), \"axpy.run\",\n",
             "AT_DISPATCH_FLOATING_TYPES (x.scalar_type(), \"axpy.run\",\n"},
        Case{"port.dispatch-type", "auto t = input.type ();\nAT_DISPATCH_FLOATING_TYPES (t, \"f\", [&] {});\n",
             "auto t = input.type ();\nAT_DISPATCH_FLOATING_TYPES (t, \"f\", [&] {});\n"},
        Case{"port.type-is-cuda", "#define CHECK_CUDA(x) AT_ASSERT (x.type ().is_cuda (), #x \" must be a CUDA tensor\")\n",
             "#define CHECK_CUDA(x) AT_ASSERT (x.is_cuda(), #x \" must be a CUDA tensor\")\n"},
        Case{"port.type-is-cuda", "x.type ().backend ()\n", "x.type ().backend ()\n"},
        Case{"port.type-scalar-type", "if (x.type ().scalarType () == at::kHalf)\n", "if (x.scalar_type() == at::kHalf)\n"},
        Case{"port.type-is-cuda", "AT_ASSERTM(x.type().is_cuda(), \"x\");\n", "AT_ASSERTM(x.is_cuda(), \"x\");\n"},
        Case{"port.type-scalar-type", "if (x.type().scalarType() == at::kHalf)\n", "if (x.scalar_type() == at::kHalf)\n"},
        // torch-unique's kernel (nvcc: no "at::zeros" for (at::DeprecatedTypeProperties, {...})).
        Case{"port.type-factory-dtype", "auto mask = at::zeros(src.type().toScalarType(at::kByte), {src.numel()});\n",
             "auto mask = at::zeros({src.numel()}, src.options().dtype(at::kByte));\n"},
        Case{"port.type-factory-dtype", "auto y = torch::empty(x.type().toScalarType(torch::kLong), sizes);\n",
             "auto y = torch::empty(sizes, x.options().dtype(torch::kLong));\n"},
        // The TensorOptions form with the Type last still compiles (DeprecatedTypeProperties converts): left alone.
        Case{"port.type-factory-dtype", "auto m = at::zeros({n}, x.type().toScalarType(at::kByte));\n",
             "auto m = at::zeros({n}, x.type().toScalarType(at::kByte));\n"},
        Case{"port.type-factory-dtype", "auto t = x.type().toScalarType(at::kLong);\n", "auto t = x.type().toScalarType(at::kLong);\n"},
        Case{"port.type-factory", "auto o = at::ones(grads[0].type(), {2, x.size(0)});\n",
             "auto o = at::ones({2, x.size(0)}, grads[0].options());\n"},
        Case{"port.type-factory", "auto o = at::empty(input.type(), input.sizes());\n",
             "auto o = at::empty(input.sizes(), input.options());\n"},
        Case{"port.type-factory", "auto o = at::zeros({n, 3}, points.type());\n", "auto o = at::zeros({n, 3}, points.type());\n"},
        Case{"port.type-factory", "auto o = at::zeros_like(x.type(), y);\n", "auto o = at::zeros_like(x.type(), y);\n"},
        Case{"port.data-ptr", "float* p = x.data<float>();\nauto q = y.data<at::Half>();\n",
             "float* p = x.data_ptr<float>();\nauto q = y.data_ptr<at::Half>();\n"},
        Case{"port.data-ptr", "auto d = x.data();\n", "auto d = x.data();\n"},
        Case{"port.thc-state-global", "#include <vector>\nTHCState *state = at::globalContext().lazyInitCUDA();\nint a;\n",
             "#include <vector>\nint a;\n"},
        Case{"port.thc-state-global", "// THCState *state = at::globalContext().lazyInitCUDA();\n",
             "// THCState *state = at::globalContext().lazyInitCUDA();\n"},
        Case{"port.thc-blas-sgemm", "THCudaBlas_Sgemm(state, 'n', 't', n, m, k, 1.0f,",
             "[](char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, "
             "const float* b, int64_t ldb, float beta, float* c, int64_t ldc) { auto op = [](char t) { return (t == 't' "
             "|| t == 'T') ? CUBLAS_OP_T : (t == 'c' || t == 'C') ? CUBLAS_OP_C : CUBLAS_OP_N; }; if (n <= 1) ldc = "
             "std::max<int64_t>(m, 1); if (op(ta) != CUBLAS_OP_N) { if (m <= 1) lda = std::max<int64_t>(k, 1); } else if "
             "(k <= 1) { lda = std::max<int64_t>(m, 1); } if (op(tb) != CUBLAS_OP_N) { if (k <= 1) ldb = "
             "std::max<int64_t>(n, 1); } else if (n <= 1) { ldb = std::max<int64_t>(k, 1); } "
             "TORCH_CUDABLAS_CHECK(cublasSgemm(at::cuda::getCurrentCUDABlasHandle(), op(ta), op(tb), (int)m, (int)n, "
             "(int)k, &alpha, a, (int)lda, b, (int)ldb, &beta, c, (int)ldc)); }( 'n', 't', n, m, k, 1.0f,"},
        Case{"port.thc-general-header", "#include <THC/THCGeneral.h>\n",
             "#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDACachingAllocator.h>\n"},
        Case{"port.thc-general-header", "#include \"THC/THCGeneral.hpp\"\n",
             "#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDACachingAllocator.h>\n"},
        Case{"port.thc-general-header", "#include <THC/THCGeneralAllocator.h>\n", "#include <THC/THCGeneralAllocator.h>\n"},
        Case{"port.thc-thrust-allocator-header", "#include <THC/THCThrustAllocator.cuh>\n",
             "#include <ATen/cuda/ThrustAllocator.h>\n"},
        Case{"port.thc-thrust-allocator-header", "#include <ATen/cuda/ThrustAllocator.h>\n",
             "#include <ATen/cuda/ThrustAllocator.h>\n"},
        Case{"port.thc-thrust-allocator", "THCThrustAllocator thrustAlloc(state);\n"
             "auto p = thrust::cuda::par(THCThrustAllocator(state)).on(stream);\n",
             "at::cuda::ThrustAllocator thrustAlloc{};\nauto p = thrust::cuda::par(at::cuda::ThrustAllocator{}).on(stream);\n"},
        Case{"port.thc-thrust-allocator", "MyTHCThrustAllocator a(state);\nTHCThrustAllocator b(other);\n",
             "MyTHCThrustAllocator a(state);\nTHCThrustAllocator b(other);\n"},
        Case{"port.thc-blas-header", "#include <THC/THCBlas.h>\n", "#include <ATen/cuda/CUDAContext.h>\n"},
        Case{"port.thc-blas-header", "#include <ATen/cuda/CUDABlas.h>\n", "#include <ATen/cuda/CUDABlas.h>\n"},
        // Batched and gemv are their own ports: the plain Sgemm pattern must not take them.
        Case{"port.thc-blas-sgemm", "THCudaBlas_SgemmBatched(state, 'n',", "THCudaBlas_SgemmBatched(state, 'n',"},
        Case{"port.thc-blas-sgemm", "MyTHCudaBlas_Sgemm(state, 'n',", "MyTHCudaBlas_Sgemm(state, 'n',"},
        // maskrcnn-benchmark's nms and its copies (AdelaiDet, OBBDetection, jwyang's faster-rcnn) end the line with a comment.
        Case{"port.thc-state-global", "  int n = 1;\n  THCState *state = at::globalContext().lazyInitCUDA(); // TODO replace with getTHCState\n  f();\n",
             "  int n = 1;\n  f();\n"},
        Case{"port.thc-state-global", "  //THCState *state = at::globalContext().lazyInitCUDA(); // was here\n",
             "  //THCState *state = at::globalContext().lazyInitCUDA(); // was here\n"},
        Case{"port.thc-state-extern", "extern THCState *state; // from the module\nint b;\n", "int b;\n"},
        Case{"port.thc-numerics-header", "#include <THC/THCAtomics.cuh>\n#include <THC/THCNumerics.cuh>\n#include <cstdio>\n",
             "#include <THC/THCAtomics.cuh>\n#include <cstdio>\n"},
        Case{"port.thc-numerics-header", "// #include <THC/THCNumerics.cuh>\n#include <ATen/cuda/NumericLimits.cuh>\n",
             "// #include <THC/THCNumerics.cuh>\n#include <ATen/cuda/NumericLimits.cuh>\n"},
        Case{"port.pkg-resources-get-distribution", "import torch\nfrom pkg_resources import get_distribution\n",
             "import torch\nfrom importlib.metadata import distribution as get_distribution\n"},
        Case{"port.pkg-resources-get-distribution", "try:\n    from pkg_resources import get_distribution\n",
             "try:\n    from importlib.metadata import distribution as get_distribution\n"},
        // Another name beside it (require, resource_filename) has no importlib.metadata twin: left alone.
        Case{"port.pkg-resources-get-distribution", "from pkg_resources import get_distribution, require\n",
             "from pkg_resources import get_distribution, require\n"},
        Case{"port.pkg-resources-get-distribution", "# from pkg_resources import get_distribution\n",
             "# from pkg_resources import get_distribution\n"},
        Case{"port.pkg-resources-distribution-not-found", "from pkg_resources import get_distribution, DistributionNotFound\n",
             "from importlib.metadata import distribution as get_distribution, PackageNotFoundError as DistributionNotFound\n"},
        Case{"port.pkg-resources-distribution-not-found", "from pkg_resources import DistributionNotFound, get_distribution\n",
             "from importlib.metadata import distribution as get_distribution, PackageNotFoundError as DistributionNotFound\n"},
        Case{"port.pkg-resources-distribution-not-found", "from pkg_resources import DistributionNotFound\n",
             "from pkg_resources import DistributionNotFound\n"},
        Case{"port.torch-six-container-abcs", "import torch\nfrom torch._six import container_abcs\n",
             "import torch\nimport collections.abc as container_abcs\n"},
        // Near misses: an alias, a package's own _six module, a comment.
        Case{"port.torch-six-container-abcs", "from torch._six import container_abcs as abcs\n",
             "from torch._six import container_abcs as abcs\n"},
        Case{"port.torch-six-container-abcs", "from mypkg._six import container_abcs\n", "from mypkg._six import container_abcs\n"},
        Case{"port.torch-six-container-abcs", "# from torch._six import container_abcs\n", "# from torch._six import container_abcs\n"},
        Case{"port.torch-six-import-split", "    from torch._six import string_classes, int_classes,inf\r\n",
             "    from torch._six import string_classes\r\n    from torch._six import int_classes\r\n    from torch._six import inf\r\n"},
        Case{"port.torch-six-import-split", "from torch._six import (string_classes, int_classes)\n",
             "from torch._six import (string_classes, int_classes)\n"},
        Case{"port.torch-six-string-classes", "from torch._six import string_classes\r\n", "string_classes = (str, bytes)\r\n"},
        Case{"port.torch-six-string-classes-attr", "import torch as T\nok = isinstance(n, T._six.string_classes)\n",
             "import torch as T\nok = isinstance(n, (str, bytes))\n"},
        // A file that imports no torch: its `_six` is someone else's.
        Case{"port.torch-six-string-classes-attr", "import six as s\nok = isinstance(n, s._six.string_classes)\n",
             "import six as s\nok = isinstance(n, s._six.string_classes)\n"},
        Case{"port.torch-six-int-classes", "from torch._six import int_classes\n", "int_classes = int\n"},
        Case{"port.torch-six-inf-nan", "from torch._six import nan\n", "from math import nan\n"},
        Case{"port.torch-six-inf-nan", "from torch._six import with_metaclass\n", "from torch._six import with_metaclass\n"},
        // SFD's pointnet2 sources have Windows line endings: the line-anchored ports take `\r\n` too, and a
        // Python line keeps its `\r`.
        Case{"port.thc-state-extern", "#include <cuda.h>\r\n\r\nextern THCState *state;\r\n\r\n#define X 1\r\n",
             "#include <cuda.h>\r\n\r\n\r\n#define X 1\r\n"},
        Case{"port.thc-state-extern", "extern THCState *state; // global\r\nint b;\r\n", "int b;\r\n"},
        Case{"port.thc-state-global", "  THCState *state = at::globalContext().lazyInitCUDA();\r\n  f();\r\n", "  f();\r\n"},
        Case{"port.thc-numerics-header", "#include <THC/THCNumerics.cuh>\r\n#include <cstdio>\r\n", "#include <cstdio>\r\n"},
        Case{"port.pkg-resources-get-distribution", "import torch\r\nfrom pkg_resources import get_distribution\r\nx = 1\r\n",
             "import torch\r\nfrom importlib.metadata import distribution as get_distribution\r\nx = 1\r\n"},
        Case{"port.pkg-resources-distribution-not-found", "from pkg_resources import get_distribution, DistributionNotFound\r\n",
             "from importlib.metadata import distribution as get_distribution, PackageNotFoundError as DistributionNotFound\r\n"},
        // DeepShift's kernel: two char parameters of one template header, a literal above 127 for the second.
        Case{"port.char-template-param",
             "template <int num, int bits, char mask_shift, char mask_sign, bool zero_base>\n__global__ void K(int* p);\n"
             "void f(int* p) { K<4, 7, 0x7f,0x80, true><<<1, 1>>>(p); }\n",
             "template <int num, int bits, int mask_shift, int mask_sign, bool zero_base>\n__global__ void K(int* p);\n"
             "void f(int* p) { K<4, 7, 0x7f,0x80, true><<<1, 1>>>(p); }\n"},
        Case{"port.char-template-param", "template <char C = 'a'>\nstruct S {};\nS<200> s;\n", "template <int C = 'a'>\nstruct S {};\nS<200> s;\n"},
        // Near misses: every argument fits a char; an unsigned char (0x80 fits it); a function's char
        // parameter; a literal above 127 outside a template argument list.
        Case{"port.char-template-param", "template <int n, char m>\n__global__ void K();\nvoid f() { K<4, 0x7f><<<1, 1>>>(); }\n",
             "template <int n, char m>\n__global__ void K();\nvoid f() { K<4, 0x7f><<<1, 1>>>(); }\n"},
        Case{"port.char-template-param", "template <int n, unsigned char m>\nvoid K();\nvoid f() { K<4, 0x80>(); }\n",
             "template <int n, unsigned char m>\nvoid K();\nvoid f() { K<4, 0x80>(); }\n"},
        Case{"port.char-template-param", "void g(int a, char b, int c);\nstd::array<int, 200> v;\n",
             "void g(int a, char b, int c);\nstd::array<int, 200> v;\n"},
        Case{"port.char-template-param", "template <char m>\nvoid K();\nint x = 200;\n",
             "template <char m>\nvoid K();\nint x = 200;\n"},
        // A Python 2-era file mixing a tab and 8 spaces at one level; near misses: tabs only, and
        // the same mix inside a string literal.
        Case{"port.python2-tabs", "def f(x):\n\tif x:\n\t\treturn 1\n        return 2\n",
             "def f(x):\n        if x:\n                return 1\n        return 2\n"},
        Case{"port.python2-tabs", "def f(x):\n\tif x:\n\t\treturn 1\n\treturn 2\n",
             "def f(x):\n\tif x:\n\t\treturn 1\n\treturn 2\n"},
        Case{"port.python2-tabs", "S = '''\n\tif x:\n        y\n'''\n", "S = '''\n\tif x:\n        y\n'''\n"}));

// The BLAS ports' rewrites are long: what they must keep is checked, not their every byte.
TEST(PortBlas, BatchedAndGemvCallCublasWithTheArgumentsAfterState) {
  std::string b = port_one("port.thc-blas-sgemm-batched", "THCudaBlas_SgemmBatched(state,\n 't', 'n', n_, m_, k_, 1.0f, a, k_, b, k_, 0.0f, c, n_, batch);");
  EXPECT_EQ(b.find("THCudaBlas"), std::string::npos) << b;
  EXPECT_NE(b.find("cublasSgemmBatched(at::cuda::getCurrentCUDABlasHandle()"), std::string::npos) << b;
  EXPECT_NE(b.find("}(\n 't', 'n', n_, m_, k_, 1.0f, a, k_, b, k_, 0.0f, c, n_, batch);"), std::string::npos) << b;
  std::string v = port_one("port.thc-blas-sgemv", "THCudaBlas_Sgemv(state, 't', k_, m_, 1.0f, g, k_, o, 1, 1.0f, gb, 1);");
  EXPECT_NE(v.find("cublasSgemv(at::cuda::getCurrentCUDABlasHandle()"), std::string::npos) << v;
  EXPECT_NE(v.find("}( 't', k_, m_, 1.0f, g, k_, o, 1, 1.0f, gb, 1);"), std::string::npos) << v;
  // Without `state` first it is not THC's call: left alone.
  EXPECT_EQ(port_one("port.thc-blas-sgemv", "THCudaBlas_Sgemv(handle, 't');"), "THCudaBlas_Sgemv(handle, 't');");
}

// TH's CPU BLAS (DCNv2's CPU path): at::mm/at::mv on column-major views, the arguments kept as they are.
// (The rewrites were compiled against torch 2.15 and compared with a naive product: ports.toml's `checked`.)
TEST(PortBlas, ThCpuGemmAndGemvGoThroughAten) {
  std::string g = port_one("port.th-blas-gemm", "THFloatBlas_gemm('n', 't', n, m, k, 1.0f, ones, k, b, k, 0.0f, out, n);");
  EXPECT_EQ(g.find("THFloatBlas"), std::string::npos) << g;
  EXPECT_NE(g.find("at::mm(A, B)"), std::string::npos) << g;
  EXPECT_NE(g.find("}('n', 't', n, m, k, 1.0f, ones, k, b, k, 0.0f, out, n);"), std::string::npos) << g;
  EXPECT_NE(port_one("port.th-blas-gemm", "THDoubleBlas_gemm(").find("at::from_blob"), std::string::npos);
  std::string v = port_one("port.th-blas-gemv", "THFloatBlas_gemv('t', k_, m_, 1.0f, g, k_, o, 1, 1.0f, gb, 1);");
  EXPECT_NE(v.find("at::mv(A, X)"), std::string::npos) << v;
  EXPECT_NE(v.find("}('t', k_, m_, 1.0f, g, k_, o, 1, 1.0f, gb, 1);"), std::string::npos) << v;
  // Near misses: another TH BLAS call no port rewrites, a name that only ends the same, gemm for gemv.
  EXPECT_EQ(port_one("port.th-blas-gemm", "THFloatBlas_axpy(n, 1.0f, x, 1, y, 1);"), "THFloatBlas_axpy(n, 1.0f, x, 1, y, 1);");
  EXPECT_EQ(port_one("port.th-blas-gemm", "MyTHFloatBlas_gemm(a);"), "MyTHFloatBlas_gemm(a);");
  EXPECT_EQ(port_one("port.th-blas-gemv", "THFloatBlas_gemm('n');"), "THFloatBlas_gemm('n');");
}

// The ported file as the whole catalogue leaves it.
std::string port_all(const std::string& text, const std::string& file = "ops.cu") {
  testkit::TempDir t("ts-port-all");
  EXPECT_EQ(util::write_file_atomic(t / file, text), "");
  EXPECT_TRUE(apply_ports(t.path(), catalogue()).ok);
  return util::read_file(t / file).value_or("<unreadable>");
}

// afsd's and condlane's kernels: THCAtomics.cuh (which included THC.h, and with it the stream API)
// ported to ATen/cuda/Atomic.cuh, which has no stream: 'namespace "at::cuda" has no member
// "getCurrentCUDAStream"' on torch 2.11 until CUDAContext.h is included.
TEST(PortInclude, AFilePortedAwayFromTheThcHeadersGetsTheStreamApiItUses) {
  EXPECT_EQ(port_all("#include <ATen/ATen.h>\n#include <THC/THCAtomics.cuh>\n\n"
                     "void f() {\n  cudaStream_t s = at::cuda::getCurrentCUDAStream();\n  THCudaCheck(cudaGetLastError());\n}\n"),
            "#include <ATen/ATen.h>\n#include <ATen/cuda/Atomic.cuh>\n#include <ATen/cuda/CUDAContext.h>\n\n"
            "void f() {\n  cudaStream_t s = at::cuda::getCurrentCUDAStream();\n  C10_CUDA_CHECK(cudaGetLastError());\n}\n");
  // Without a stream call, C10_CUDA_CHECK still needs its own header.
  EXPECT_EQ(port_all("#include <THC/THCDeviceUtils.cuh>\nvoid f() { THCudaCheck(cudaGetLastError()); }\n"),
            "#include <ATen/cuda/DeviceUtils.cuh>\n#include <ATen/ceil_div.h>\n#include <c10/cuda/CUDAException.h>\n"
            "void f() { C10_CUDA_CHECK(cudaGetLastError()); }\n");
  // irr: the at::Context call rewritten, and its header with it (after the last include, a package's own).
  EXPECT_EQ(port_all("#include <torch/torch.h>\n#include \"kernel.cuh\"\nint g() {\n  return f(at::globalContext().getCurrentCUDAStream());\n}\n",
                     "correlation_cuda.cc"),
            "#include <torch/torch.h>\n#include \"kernel.cuh\"\n#include <ATen/cuda/CUDAContext.h>\nint g() {\n"
            "  return f(at::cuda::getCurrentCUDAStream());\n}\n");
}

TEST(PortInclude, NearMissesAreLeftAlone) {
  // The header already there (or c10's, which declares the stream): nothing added.
  const std::string has = "#include <ATen/cuda/CUDAContext.h>\n#include <THC/THCAtomics.cuh>\nauto s = at::cuda::getCurrentCUDAStream();\n";
  EXPECT_EQ(port_all(has), "#include <ATen/cuda/CUDAContext.h>\n#include <ATen/cuda/Atomic.cuh>\nauto s = at::cuda::getCurrentCUDAStream();\n");
  const std::string c10 = "#include <c10/cuda/CUDAStream.h>\n#include <THC/THCAtomics.cuh>\nauto s = at::cuda::getCurrentCUDAStream();\n";
  EXPECT_EQ(port_all(c10), "#include <c10/cuda/CUDAStream.h>\n#include <ATen/cuda/Atomic.cuh>\nauto s = at::cuda::getCurrentCUDAStream();\n");
  // A file no port changed compiled as it was (its own header gives the stream): untouched.
  const std::string own = "#include \"utils.h\"\nauto s = at::cuda::getCurrentCUDAStream();\n";
  EXPECT_EQ(port_all(own), own);
  // Ported, but no stream call: only the atomics header changes.
  EXPECT_EQ(port_all("#include <THC/THCAtomics.cuh>\n__device__ void f(float* p) { gpuAtomicAdd(p, 1.f); }\n"),
            "#include <ATen/cuda/Atomic.cuh>\n__device__ void f(float* p) { gpuAtomicAdd(p, 1.f); }\n");
  // c10::cuda's own spelling and a longer name are not at::cuda's stream call.
  EXPECT_EQ(port_all("#include <THC/THCAtomics.cuh>\nauto g = at::cuda::CUDAStreamGuard(s);\n"),
            "#include <ATen/cuda/Atomic.cuh>\nauto g = at::cuda::CUDAStreamGuard(s);\n");
}

// odtk's kernels on CUDA 13: CUB's counting iterator and its header are gone (CCCL 3.0); Thrust's
// is the same sequence, and a file that had it only through cub/cub.cuh gets Thrust's header.
TEST(PortCub, CountingInputIteratorBecomesThrusts) {
  EXPECT_EQ(port_all("#include <cub/device/device_select.cuh>\n#include <cub/iterator/counting_input_iterator.cuh>\n"
                     "void f() { cub::DeviceSelect::Flagged(w, n, cub::CountingInputIterator<int>(0), fl, o, ns, c, s); }\n"),
            "#include <cub/device/device_select.cuh>\n#include <thrust/iterator/counting_iterator.h>\n"
            "void f() { cub::DeviceSelect::Flagged(w, n, thrust::counting_iterator<int>(0), fl, o, ns, c, s); }\n");
  EXPECT_EQ(port_all("#include <cub/cub.cuh>\nauto it = cub::CountingInputIterator< int64_t >(count);\n"),
            "#include <cub/cub.cuh>\n#include <thrust/iterator/counting_iterator.h>\nauto it = thrust::counting_iterator<int64_t>(count);\n");
  // Near misses: the offset-typed form, another CUB iterator, a name that only ends the same.
  const std::string two = "#include <cub/cub.cuh>\nauto it = cub::CountingInputIterator<int, long>(0);\n";
  EXPECT_EQ(port_all(two), two);
  const std::string other = "#include <cub/cub.cuh>\nauto it = cub::ArgIndexInputIterator<int*>(p);\n";
  EXPECT_EQ(port_all(other), other);
  const std::string mine = "#include \"it.h\"\nauto it = mycub::CountingInputIterator<int>(0);\n";
  EXPECT_EQ(port_all(mine), mine);
}

using testkit::find_nvcc;  // tests/testkit/find_nvcc.h

// warp-ctc's moderngpu shfl_add (inline PTX shfl.up with a predicate output) and the other modes
// and vote forms: ptxas refuses them for sm_90 as written, assembles them ported, and the tree
// reverts byte for byte. A cubin needs no GPU.
TEST(PortNvcc, InlinePtxShflAndVoteAssembleForSm90OnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test assembles PTX";
  const std::string kernel =
      "__device__ __forceinline__ int shfl_add(int x, int offset, int width = 32) {\n"
      "\tint result = 0;\n\tint mask = (32 - width) << 8;\n\tasm(\n\t\t\"{.reg .s32 r0;\"\n\t\t\".reg .pred p;\"\n"
      "\t\t\"shfl.up.b32 r0|p, %1, %2, %3;\"\n\t\t\"@p add.s32 r0, r0, %4;\"\n\t\t\"mov.s32 %0, r0; }\"\n"
      "\t\t: \"=r\"(result) : \"r\"(x), \"r\"(offset), \"r\"(mask), \"r\"(x));\n\treturn result;\n}\n"
      "__device__ int down(int v, int o) { int r; asm volatile(\"shfl.down.b32 %0, %1, %2, 0x1f;\" : \"=r\"(r) : \"r\"(v), \"r\"(o)); return r; }\n"
      "__device__ int bfly(int v, int o) { int r; asm volatile(\"shfl.bfly.b32 %0, %1, %2, 0x1f;\\n\\t\" : \"=r\"(r) : \"r\"(v), \"r\"(o)); return r; }\n"
      "__device__ int idx(int v, int o) { int r; asm volatile(\"shfl.idx.b32 %0, %1, %2, 0x1f;\" : \"=r\"(r) : \"r\"(v), \"r\"(o)); return r; }\n"
      "__device__ unsigned ballot(int v) { unsigned r; asm volatile(\"{ .reg .pred p; setp.ne.s32 p, %1, 0; "
      "vote.ballot.b32 %0, p; }\" : \"=r\"(r) : \"r\"(v)); return r; }\n"
      "__global__ void k(int* p) { int i = threadIdx.x; p[i] = shfl_add(p[i], 1) + down(p[i], 1) + bfly(p[i], 1) + "
      "idx(p[i], 0) + (int)ballot(p[i]); }\n";
  testkit::TempDir t("ts-port-ptx");
  fs::create_directories(t / "include/device");
  ASSERT_EQ(util::write_file_atomic(t / "include/device/intrinsics.cuh", kernel), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  std::vector<std::string> argv{nvcc, "-arch=sm_90", "-cubin", "-x", "cu", "-o", t / "k.cubin", t / "include/device/intrinsics.cuh"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("Instruction 'shfl' without '.sync' is not supported"), std::string::npos)
      << before.out << before.err;
  EXPECT_NE((before.out + before.err).find("Instruction 'vote' without '.sync' is not supported"), std::string::npos);

  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.ptx-shfl-sync", "port.ptx-vote-sync"}));
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].rewrites, 5);
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err;
  EXPECT_TRUE(fs::exists(t / "k.cubin"));

  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "include/device/intrinsics.cuh"), kernel);
}

// The include directories of the newest torch the tests have (the test venv's), or none.
std::vector<std::string> torch_includes() {
  const char* home = std::getenv("HOME");
  std::string py = std::string(home ? home : "/root") + "/.cache/torchsmith/test-venvs/torch-cu13/bin/python";
  if (!fs::exists(py)) return {};
  auto r = util::run({py, "-c", "import os, torch; print(os.path.dirname(torch.__file__))"}, {std::chrono::seconds(120)});
  if (!r.ok() || r.out.empty()) return {};
  std::string dir = r.out.substr(0, r.out.find('\n')) + "/include";
  return {"-I" + dir, "-I" + dir + "/torch/csrc/api/include"};
}

// spconv's registry (src/spconv/all.cc) on today's torch headers: both old forms fail as the reports
// say, and compile ported (g++ -fsyntax-only: no object, no link). torch/script.h is heavy: a minute or two.
TEST(PortTorchCompile, JitRegisterOperatorsCompilesOnlyPorted) {
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  const std::string src =
      "#include <torch/script.h>\n"
      "template <int N> torch::Tensor times(torch::Tensor x) { return x * N; }\n"
      "static auto registry =\n    torch::jit::RegisterOperators(\"lt::twice\", &times<2>)\n        .op(\"lt::thrice\", &times<3>);\n"
      "static auto other = torch::jit::RegisterOperators().op(\"lt::four\", &times<4>);\n";
  testkit::TempDir t("ts-port-torch");
  ASSERT_EQ(util::write_file_atomic(t / "all.cc", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(8);  // a loaded 2-core machine
  std::vector<std::string> argv{"g++", "-std=c++20", "-fsyntax-only"};
  argv.insert(argv.end(), inc.begin(), inc.end());
  argv.push_back(t / "all.cc");
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  // g++ quotes with \u2018...\u2019 or '...' by the locale: the words around the quotes.
  EXPECT_NE(before.err.find("no matching function for call to"), std::string::npos) << before.err.substr(0, 2000);
  EXPECT_NE(before.err.find("torch::jit::RegisterOperators::RegisterOperators(const char [10]"), std::string::npos)
      << before.err.substr(0, 2000);
  EXPECT_NE(before.err.find("has no member named"), std::string::npos) << before.err.substr(0, 2000);
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.jit-register-operators"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err.substr(0, 3000);
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "all.cc"), src);
}

// The spectral ops of torch <= 1.7: each call becomes a lambda called with the call's own arguments.
TEST(PortSpectral, TheOldCallsKeepTheirArgumentsAndNearMissesAreLeftAlone) {
  std::string r = port_one("port.spectral-rfft", "            auto y = at::rfft(x_pad, 1, false, true);\n");
  EXPECT_EQ(r.rfind("            auto y = [](const at::Tensor& x, int64_t nd, bool normalized = false, bool onesided = true) {", 0), 0u) << r;
  EXPECT_NE(r.find("at::view_as_real(onesided ? at::fft_rfftn(x, std::nullopt, d, norm) : at::fft_fftn("), std::string::npos) << r;
  EXPECT_NE(r.find(" }(x_pad, 1, false, true);\n"), std::string::npos) << r;
  std::string i = port_one("port.spectral-irfft", "y = torch::irfft(x_pad, 1, false, false, {2*M});\n");
  EXPECT_NE(i.find("at::IntArrayRef sizes = {}) {"), std::string::npos) << i;
  EXPECT_NE(i.find("at::view_as_complex(x.contiguous())"), std::string::npos) << i;
  EXPECT_NE(i.find(" }(x_pad, 1, false, false, {2*M});\n"), std::string::npos) << i;
  EXPECT_NE(port_one("port.spectral-fft", "auto z = at::fft(y, 2);\n").find("at::fft_fftn(at::view_as_complex("), std::string::npos);
  EXPECT_NE(port_one("port.spectral-ifft", "auto z = at::ifft(y, 2, true);\n").find(" }(y, 2, true);\n"), std::string::npos);
  // The torch.fft module's own calls, the new at:: functions, another namespace's, the method form.
  const std::string near = "auto a = torch::fft::rfft(x);\nauto b = at::fft_rfft(x);\nauto c = torch::fft::fft(x);\n"
                           "auto d = my::irfft(x, 1);\nauto e = x.rfft(1);\nauto f = at::ifft_shift(x);\n";
  for (const char* id : {"port.spectral-rfft", "port.spectral-irfft", "port.spectral-fft", "port.spectral-ifft"})
    EXPECT_EQ(port_one(id, near), near) << id;
}

// The Tensor methods of torch <= 1.7: the receiver becomes the lambda's first argument, in a file of a
// torch extension only; a receiver with arguments, a method of another name, the torch.fft module's
// calls, and a file that names no Tensor type (another class's rfft method) are left alone.
TEST(PortSpectral, TheOldMethodsTakeTheirReceiverFirstAndNearMissesAreLeftAlone) {
  const std::string head = "#include <torch/extension.h>\nat::Tensor f(at::Tensor input, at::Tensor outfft) {\n";
  std::string r = port_one("port.spectral-rfft-method",
                           head + "    at::Tensor xfft = input.rfft(\n            /*signal_ndim*/2, /*normalized*/false, /*onesided*/true);\n");
  EXPECT_NE(r.find("    at::Tensor xfft = [](const at::Tensor& x, int64_t nd, bool normalized = false, bool onesided = true) {"),
            std::string::npos) << r;
  EXPECT_NE(r.find(" }(input, \n            /*signal_ndim*/2, /*normalized*/false, /*onesided*/true);\n"), std::string::npos) << r;
  EXPECT_NE(port_one("port.spectral-rfft-method", head + "auto y = self->w.contiguous().rfft(1);\n")
                .find(" }(self->w.contiguous(), 1);\n"), std::string::npos);
  std::string i = port_one("port.spectral-irfft-method", head + "at::Tensor out = outfft.irfft(2, false, true, {8, 8});\n");
  EXPECT_NE(i.find("at::view_as_complex(x.contiguous())"), std::string::npos) << i;
  EXPECT_NE(i.find(" }(outfft, 2, false, true, {8, 8});\n"), std::string::npos) << i;
  const std::string near = head + "auto a = at::rfft(x, 1);\nauto b = torch::fft::rfft(x);\nauto c = x.fft_rfft(1);\n"
                                  "auto d = g(x).rfft(1);\nauto e = x.rfftn(1);\nauto f = x.irfftn(1);\n";
  for (const char* id : {"port.spectral-rfft-method", "port.spectral-irfft-method"}) {
    EXPECT_EQ(port_one(id, near), near) << id;
    // An FFT plan class's own methods, in a file with no torch Tensor.
    const std::string plan = "#include \"fft_plan.h\"\nvoid g(Plan& plan, float* x) { plan.rfft(x, 1); plan.irfft(x, 1); }\n";
    EXPECT_EQ(port_one(id, plan, "plan.cpp"), plan) << id;
  }
}

// dct_cuda's calls (dct_2N_cuda.cpp) on today's torch headers: 'rfft is not a member of at' as on the
// GPU run, and compile ported (g++ -fsyntax-only over ATen/ATen.h: a minute or two).
TEST(PortTorchCompile, SpectralOpsCompileOnlyPorted) {
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  const std::string src =
      "#include <ATen/ATen.h>\n"
      "at::Tensor dct(at::Tensor x_pad, at::Tensor v, int64_t N, int M) {\n"
      "  auto y = at::rfft(x_pad, 1, false, true);\n"
      "  auto z = at::irfft(x_pad, 1, false, false, {2*N});\n"
      "  auto w = at::irfft(v, 1, false, true, {M});\n"
      "  auto a = at::ifft(at::fft(y, 1), 1, true);\n"
      "  return y.sum() + z.sum() + w.sum() + a.sum() + at::rfft(x_pad, 2).sum();\n}\n";
  testkit::TempDir t("ts-port-fft");
  ASSERT_EQ(util::write_file_atomic(t / "dct_2N_cuda.cpp", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(8);  // a loaded 2-core machine
  std::vector<std::string> argv{"g++", "-std=c++20", "-fsyntax-only"};
  argv.insert(argv.end(), inc.begin(), inc.end());
  argv.push_back(t / "dct_2N_cuda.cpp");
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("rfft"), std::string::npos) << before.err.substr(0, 2000);
  EXPECT_NE(before.err.find("is not a member of"), std::string::npos) << before.err.substr(0, 2000);
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.spectral-rfft", "port.spectral-irfft", "port.spectral-fft",
                                               "port.spectral-ifft"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err.substr(0, 3000);
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "dct_2N_cuda.cpp"), src);
}

// A band-limited convolution extension's forward (its Tensor methods) on today's torch
// headers: 'class at::Tensor has no member named rfft', and compiles ported (g++ -fsyntax-only).
TEST(PortTorchCompile, SpectralMethodsCompileOnlyPorted) {
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  const std::string src =
      "#include <ATen/ATen.h>\n"  // torch/extension.h's own includes need Python.h
      "std::vector<at::Tensor> band_forward(at::Tensor input, at::Tensor weights) {\n"
      "    at::Tensor xfft = input.rfft(\n            /*signal_ndim*/2, /*normalized*/false, /*onesided*/true);\n"
      "    at::Tensor yfft = weights.contiguous().rfft(2);\n"
      "    at::Tensor prod = xfft * yfft;\n    at::Tensor out = prod.irfft(2, false, true);\n"
      "    at::Tensor same = xfft.irfft(\n            /*signal_ndim*/2, /*normalized*/false, /*onesided*/true, input.sizes().slice(2));\n"
      "    return {out, same, xfft, yfft};\n}\n";
  testkit::TempDir t("ts-port-fft-m");
  ASSERT_EQ(util::write_file_atomic(t / "band_cuda.cpp", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(8);  // a loaded 2-core machine
  std::vector<std::string> argv{"g++", "-std=c++20", "-fsyntax-only"};
  argv.insert(argv.end(), inc.begin(), inc.end());
  argv.push_back(t / "band_cuda.cpp");
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("has no member named"), std::string::npos) << before.err.substr(0, 2000);
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.spectral-rfft-method", "port.spectral-irfft-method"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err.substr(0, 3000);
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "band_cuda.cpp"), src);
}

// The ported calls compute what the old ones did: linked against the test venv's libtorch (CPU) and
// run, the old calls' results checked against a direct DFT and their inverses (a minute or two).
TEST(PortTorchCompile, SpectralPortsComputeTheOldTransforms) {
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  std::string lib = inc[0].substr(2, inc[0].size() - 2 - std::string("/include").size()) + "/lib";
  const std::string src = R"cpp(#include <ATen/ATen.h>
#include <algorithm>
#include <cmath>
at::Tensor fwd(const at::Tensor& x) { return at::rfft(x, 1, false, true); }
at::Tensor fwd_full(const at::Tensor& x) { return at::rfft(x, 1, true, false); }
at::Tensor inv_full(const at::Tensor& y, int64_t n) { return at::irfft(y, 1, false, false, {n}); }
at::Tensor inv_half(const at::Tensor& y, int64_t n) { return at::irfft(y, 1, false, true, {n}); }
at::Tensor cfft(const at::Tensor& y) { return at::fft(y, 1); }
at::Tensor cifft(const at::Tensor& y) { return at::ifft(y, 1); }
at::Tensor fwd_m(const at::Tensor& x) { return x.rfft(1, false, true); }
at::Tensor inv_half_m(const at::Tensor& y, int64_t n) { return y.irfft(1, false, true, {n}); }
int main() {
  const int64_t M = 3, N = 8;
  auto x = at::randn({M, N}, at::kDouble);
  auto y = fwd(x);
  if (y.sizes() != at::IntArrayRef({M, N / 2 + 1, 2})) return 2;
  double err = 0;
  auto xa = x.accessor<double, 2>();
  auto ya = y.accessor<double, 3>();
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k <= N / 2; ++k) {
      double re = 0, im = 0;
      for (int64_t n = 0; n < N; ++n) {
        re += xa[m][n] * std::cos(2 * M_PI * k * n / N);
        im -= xa[m][n] * std::sin(2 * M_PI * k * n / N);
      }
      err = std::max({err, std::abs(re - ya[m][k][0]), std::abs(im - ya[m][k][1])});
    }
  auto spectrum = at::view_as_real(at::fft_fft(x)).contiguous();
  auto full = fwd_full(x);
  err = std::max(err, (full.select(2, 0).narrow(1, 0, N / 2 + 1) * std::sqrt(double(N)) - y.select(2, 0)).abs().max().item<double>());
  err = std::max(err, (inv_full(spectrum, N) - x).abs().max().item<double>());
  err = std::max(err, (inv_half(y, N) - x).abs().max().item<double>());
  err = std::max(err, (cifft(cfft(spectrum)) - spectrum).abs().max().item<double>());
  err = std::max(err, (fwd_m(x) - y).abs().max().item<double>());
  err = std::max(err, (inv_half_m(y, N) - x).abs().max().item<double>());
  return err < 1e-9 ? 0 : 1;
}
)cpp";
  testkit::TempDir t("ts-port-fft-run");
  ASSERT_EQ(util::write_file_atomic(t / "spectral.cpp", src), "");
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports.size(), 6u);
  util::RunOptions o;
  o.timeout = std::chrono::minutes(10);  // a loaded 2-core machine
  std::vector<std::string> argv{"g++", "-std=c++20", "-O1"};
  argv.insert(argv.end(), inc.begin(), inc.end());
  for (std::string a : {t / "spectral.cpp", std::string("-o"), t / "spectral", "-L" + lib, std::string("-ltorch_cpu"),
                        std::string("-lc10"), "-Wl,-rpath," + lib})
    argv.push_back(a);
  auto built = util::run(argv, o);
  ASSERT_TRUE(built.ok()) << built.err.substr(0, 3000);
  auto ran = util::run({t / "spectral"}, {std::chrono::minutes(2)});
  EXPECT_TRUE(ran.ok()) << "exit " << ran.exit_code << " (1: a transform differs, 2: a shape)" << ran.err;
}

// DeepShift's kernel template: nvcc 13 refuses a char parameter given 0x80 (with -std=c++14 too);
// ported to int it compiles, and the tree reverts byte for byte. A cubin needs no GPU.
TEST(PortNvcc, CharTemplateArgumentAbove127CompilesOnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test compiles CUDA";
  const std::string src =
      "template <int num, int bits, char mask_shift, char mask_sign, bool zero_base>\n"
      "__global__ void GEMM(const int* in, int* out) { int w = in[0]; out[0] = (w & mask_sign) + (w & mask_shift) + num + bits; }\n"
      "void launch(const int* a, int* b) {\n"
      "  GEMM<4, 6, 0x3f,0x40, true><<<1, 1>>>(a, b);\n"
      "  GEMM<4, 7, 0x7f,0x80, true><<<1, 1>>>(a, b);\n}\n";
  testkit::TempDir t("ts-port-char");
  ASSERT_EQ(util::write_file_atomic(t / "shift.cu", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  std::vector<std::string> argv{nvcc, "-std=c++14", "-arch=sm_90", "-cubin", "-o", t / "k.cubin", t / "shift.cu"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("no instance of function template \"GEMM\" matches the argument list"),
            std::string::npos) << before.out << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.char-template-param"}));
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].rewrites, 2);  // two passes over one template header
  EXPECT_NE(util::read_file(t / "shift.cu").value_or("").find("int mask_shift, int mask_sign"), std::string::npos);
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "shift.cu"), src);
}

// g++ -fsyntax-only of FILES' `compile` against today's torch headers (torch_includes): it fails with
// each of `before_has` in its errors, the catalogue's ports that apply are `ports`, it compiles ported,
// and the revert gives every file back byte for byte; `ported` sees the tree between the two.
struct TorchCompileCase {
  std::vector<std::pair<std::string, std::string>> files;  // name, text; the first is compiled
  std::vector<std::string> before_has;
  std::vector<std::string> ports;
  std::vector<std::string> extra_args = {};  // more include directories (the CUDA toolkit's, cuDNN's)
};

void expect_compiles_only_ported(const TorchCompileCase& c, const std::function<void(const fs::path&)>& ported = {}) {
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  testkit::TempDir t("ts-port-torch-compile");
  for (const auto& [name, text] : c.files) ASSERT_EQ(util::write_file_atomic(t / name, text), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(8);  // a loaded 2-core machine
  std::vector<std::string> argv{"g++", "-std=c++20", "-fsyntax-only"};
  argv.insert(argv.end(), inc.begin(), inc.end());
  argv.insert(argv.end(), c.extra_args.begin(), c.extra_args.end());
  argv.push_back(t / c.files.front().first);
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  for (const auto& want : c.before_has) EXPECT_NE(before.err.find(want), std::string::npos) << want << "\n" << before.err.substr(0, 2000);
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, c.ports);
  if (ported) ported(t.path());
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err.substr(0, 3000);
  EXPECT_EQ(revert_ports(t.path()), "");
  for (const auto& [name, text] : c.files) EXPECT_EQ(util::read_file(t / name), text) << name;
}

// involution-pytorch's autocast wrapper (torch <= 1.9): promote_type without a device type fails on
// torch 2.15's ATen/autocast_mode.h as on the GPU machine's 2.11, and compiles ported; the tree reverts.
TEST(PortTorchCompile, AutocastPromoteTypeGetsTheDeviceType) {
  const std::string src =
      "#include <ATen/autocast_mode.h>\n"
      "at::Tensor f(const at::Tensor& input, const at::Tensor& weight) {\n"
      "  auto exec_type = at::autocast::promote_type(at::kFloat, input, weight);\n"
      "  bool ok = at::autocast::is_autocast_eligible(input);\n"
      "  return ok ? at::autocast::cached_cast(exec_type, input) : weight;\n"
      "}\n";
  expect_compiles_only_ported(
      {{{"op.cpp", "#include \"wrapper.h\"\n"}, {"wrapper.h", src}},
       {"no matching function for call to", "promote_type(const c10::ScalarType&, const at::Tensor&, const at::Tensor&)"},
       {"port.autocast-promote-type-device", "port.autocast-eligible-device"}},
      [](const fs::path& t) {
        EXPECT_NE(util::read_file(t / "wrapper.h").value_or("").find("promote_type(at::kFloat, c10::DeviceType::CUDA, input, weight)"),
                  std::string::npos);
      });
}

// fairseq-apollo's kernels call the alert torch 2.10 removed: against torch 2.15's headers the call
// fails as on the GPU machine (torch 2.11), and compiles once the port dropped it.
TEST(PortTorchCompile, CublasWorkspaceAlertIsDroppedWhereTorchRemovedIt) {
  expect_compiles_only_ported({{{"op.cpp", "#include <ATen/Context.h>\nvoid gemm() {\n"
                                           "  at::globalContext().alertCuBLASConfigNotDeterministic();\n}\n"}},
                               {"alertCuBLASConfigNotDeterministic"},
                               {"port.cublas-workspace-alert"}});
}

// neuralnet-pytorch's pc2vox.cpp: index() with one tensor fails on torch 2.15's headers and compiles braced.
TEST(PortTorchCompile, IndexWithOneTensorCompilesOnlyPorted) {
  // ATen/TensorIndexing.h defines TensorIndex (torch/extension.h includes it; ATen/core/Tensor.h alone does not).
  expect_compiles_only_ported({{{"op.cpp", "#include <ATen/core/Tensor.h>\n#include <ATen/TensorIndexing.h>\n"
                                           "at::Tensor f(at::Tensor indices, const at::Tensor& valid) {\n"
                                           "  indices = indices.index(valid);\n  return indices;\n}\n"}},
                               {"index"},
                               {"port.tensor-index-tensor"}});
}

// cond-norm's bcn_cuda_forward: a .type() held in a variable and dispatched on fails on torch 2.15's
// headers as on the GPU machine's 2.11, and compiles once the variable is the tensor's scalar_type().
TEST(PortTorchCompile, ATypeHeldInAVariableAndDispatchedOnCompilesOnlyPorted) {
  expect_compiles_only_ported({{{"op.cpp", "#include <ATen/Dispatch.h>\n#include <ATen/core/Tensor.h>\n"
                                           "double f(const at::Tensor& x) {\n  auto input_type = x.type();\n  double s = 0;\n"
                                           "  AT_DISPATCH_FLOATING_TYPES(input_type, \"f\", [&] { s = sizeof(scalar_t); });\n"
                                           "  if (input_type.scalarType() == at::kFloat) s += 1;\n  return s;\n}\n"}},
                               {"DeprecatedTypeProperties"},
                               {"port.dispatch-type-variable"}});
}

// gnn-robustness-kernels' custom_kernel.cu: `X.argsort(0)` is ambiguous on torch >= 1.13's headers
// (argsort(int64_t, bool) and argsort(bool stable, int64_t, bool)); the literal becomes an int64_t.
// Near misses: a second argument settles it, a variable or no argument is not a literal.
TEST(PortTorchCompile, ArgsortWithAnIntegerLiteralCompilesOnlyPorted) {
  expect_compiles_only_ported({{{"op.cpp", "#include <ATen/core/Tensor.h>\n"
                                           "at::Tensor f(const at::Tensor& X) { return X.argsort(0).argsort( -1 ); }\n"}},
                               {"argsort"},
                               {"port.argsort-int-dim"}});
  EXPECT_EQ(port_one("port.argsort-int-dim", "auto a = X.argsort(0);\n"), "auto a = X.argsort(static_cast<int64_t>(0));\n");
  for (const char* left : {"auto a = X.argsort(0, true);\n", "auto a = X.argsort(dim);\n", "auto a = X.argsort();\n",
                           "auto a = X.argsort(/*stable=*/true, 1);\n"})
    EXPECT_EQ(port_one("port.argsort-int-dim", left), left) << left;
}

// fusedconvglu's convtbcglu.cpp: ConvolutionDescriptor::set as torch <= 1.6 declared it (six
// parameters) gets the allow_tf32 torch 1.7 added. Near misses: a call that already passes it, the
// six-argument set of an RNNDataDescriptor (a file that uses one is left alone), a file that does not
// include torch's Descriptors.h (its own descriptor class), and TensorDescriptor's five.
TEST(PortCudnnConvDescriptor, ASixArgumentSetGetsTorchsTf32Choice) {
  const std::string inc = "#include <ATen/cudnn/Descriptors.h>\n";
  EXPECT_EQ(port_one("port.cudnn-conv-descriptor-tf32",
                     inc + "  conv_desc.set(CUDNN_DATA_FLOAT, /*nDim=*/2, paddings,\n                stride1s, dilation1s, /*group=*/1);\n"
                           "  cdesc.set(getCudnnDataType(input), input.dim() - 2, pad, stride, dilation, groups);\n",
                     "op.cpp"),
            inc + "  conv_desc.set(CUDNN_DATA_FLOAT, /*nDim=*/2, paddings,\n                stride1s, dilation1s, /*group=*/1, "
                  "at::globalContext().allowTF32CuDNN());\n"
                  "  cdesc.set(getCudnnDataType(input), input.dim() - 2, pad, stride, dilation, groups, "
                  "at::globalContext().allowTF32CuDNN());\n");
  for (const std::string& near :
       {inc + "  conv_desc.set(CUDNN_DATA_FLOAT, 2, pad, stride, dil, 1, true);\n",
        inc + "  at::native::RNNDataDescriptor d;\n  d.set(CUDNN_DATA_FLOAT, layout, maxlen, batch, vec, lens);\n",
        std::string("#include \"my_descriptors.h\"\n  conv_desc.set(CUDNN_DATA_FLOAT, 2, pad, stride, dil, 1);\n"),
        inc + "  idesc.set(CUDNN_DATA_FLOAT, 4, size, stride, false);\n"})
    EXPECT_EQ(port_one("port.cudnn-conv-descriptor-tf32", near, "op.cpp"), near) << near;
}

// The six-argument call against torch 2.15's ATen/cudnn/Descriptors.h (with the venv's cuDNN and the
// toolkit's headers): "candidate expects 7 arguments, 6 provided" as on fusedconvglu's build, and
// compiles ported; the tree reverts byte for byte.
TEST(PortTorchCompile, CudnnConvolutionDescriptorSetCompilesOnlyPorted) {
  auto inc = torch_includes();
  std::string nvcc = find_nvcc();
  if (inc.empty() || nvcc.empty()) GTEST_SKIP() << "no test venv with torch or no CUDA toolkit";
  fs::path torch_inc = inc.front().substr(2);  // SITE/torch/include
  fs::path cudnn = torch_inc.parent_path().parent_path() / "nvidia/cudnn/include";
  if (!fs::exists(cudnn / "cudnn.h")) GTEST_SKIP() << "no cuDNN headers in the test venv (" << cudnn << ")";
  expect_compiles_only_ported(
      {{{"op.cpp", "#include <ATen/cudnn/Descriptors.h>\n"
                   "void f(int* pad, int* stride, int* dil) {\n"
                   "  at::native::ConvolutionDescriptor conv_desc;\n"
                   "  conv_desc.set(CUDNN_DATA_FLOAT, /*nDim=*/2, pad,\n                stride, dil, /*group=*/1);\n}\n"}},
       {"candidate expects 7 arguments, 6 provided"},
       {"port.cudnn-conv-descriptor-tf32"},
       {"-I" + cudnn.string(), "-I" + (fs::path(nvcc).parent_path().parent_path() / "include").string()}});
}

// superpixPool's suppixpool_cuda.cpp: the backend Type as the factory's first argument; the
// method form and the TensorOptions-last form are other spellings, left alone.
TEST(PortBackendTypeFactory, TheBackendTypeBecomesTensorOptionsAfterTheSizes) {
  EXPECT_EQ(port_one("port.backend-type-factory",
                     "  at::Tensor output = at::zeros(torch::CUDA(at::kInt), {batch_size, channels_size, K});\n"
                     "  at::Tensor outIdx = -at::ones(torch::CUDA(at::kInt), {batch_size, channels_size, K}); \n",
                     "op.cpp"),
            "  at::Tensor output = at::zeros({batch_size, channels_size, K}, at::device(at::kCUDA).dtype(at::kInt));\n"
            "  at::Tensor outIdx = -at::ones({batch_size, channels_size, K}, at::device(at::kCUDA).dtype(at::kInt)); \n");
  EXPECT_EQ(port_one("port.backend-type-factory", "auto b = torch::empty(at::CPU(at::ScalarType::Float), sizes);\n", "op.cpp"),
            "auto b = torch::empty(sizes, at::device(at::kCPU).dtype(at::ScalarType::Float));\n");
  for (const std::string& near : {std::string("auto o = torch::CUDA(at::kFloat).zeros({n, 3});\n"),
                                  std::string("auto o = at::zeros({n, 3}, torch::CUDA(at::kFloat));\n"),
                                  std::string("auto o = at::zeros(x.type(), {n, 3});\n"),
                                  std::string("auto o = my::zeros(torch::CUDA(at::kInt), {n});\n")})
    EXPECT_EQ(port_one("port.backend-type-factory", near, "op.cpp"), near);
}

// torchpermutohedral's setup.py and permutohedral.cpp: the package's numeric TORCH_VERSION, renamed
// where it is defined and where it is compared; torch's string (printed), its _MAJOR/_MINOR, an
// environment lookup of the same name and a Python variable are left alone.
TEST(PortTorchVersionMacro, ThePackagesNumericMacroIsRenamedWhereDefinedAndCompared) {
  EXPECT_EQ(port_one("port.torch-version-macro-define",
                     "TORCH_VERSION = int(v[0]) * 10000 + int(v[1]) * 100\n"
                     "define_macros = [(f\"{backend()}\", 1), (\"TORCH_VERSION\", TORCH_VERSION)]\n"
                     "args = ['-O3', '-DTORCH_VERSION=' + str(TORCH_VERSION)]\n"
                     "env = os.environ.get(\"TORCH_VERSION\", \"\")\n",
                     "setup.py"),
            "TORCH_VERSION = int(v[0]) * 10000 + int(v[1]) * 100\n"
            "define_macros = [(f\"{backend()}\", 1), (\"PKG_TORCH_VERSION\", TORCH_VERSION)]\n"
            "args = ['-O3', '-DPKG_TORCH_VERSION=' + str(TORCH_VERSION)]\n"
            "env = os.environ.get(\"TORCH_VERSION\", \"\")\n");
  EXPECT_EQ(port_one("port.torch-version-macro-define", "add_definitions(-DTORCH_VERSION=${Torch_VERSION})\n", "CMakeLists.txt"),
            "add_definitions(-DPKG_TORCH_VERSION=${Torch_VERSION})\n");
  EXPECT_EQ(port_one("port.torch-version-macro-use",
                     "#include <torch/extension.h>\n#if TORCH_VERSION >= 10701\nat::parallel_for(0, n, 1, f);\n#elif TORCH_VERSION == 10600\n#endif\n",
                     "permutohedral.cpp"),
            "#include <torch/extension.h>\n#if PKG_TORCH_VERSION >= 10701\nat::parallel_for(0, n, 1, f);\n#elif PKG_TORCH_VERSION == 10600\n#endif\n");
  for (const std::string& near : {std::string("std::cout << \"torch \" << TORCH_VERSION << std::endl;\n"),
                                  std::string("#if TORCH_VERSION_MAJOR >= 2\n#endif\n"),
                                  std::string("#ifdef TORCH_VERSION\n#endif\n")})
    EXPECT_EQ(port_one("port.torch-version-macro-use", near, "op.cpp"), near);
}

// The torch headers really clash with the package's macro: -DTORCH_VERSION=20150 then <torch/version.h>
// (which torch/extension.h includes) fails the #if, and both ports together compile (a light header: ms).
TEST(PortTorchCompile, APackagesNumericTorchVersionCompilesOnlyRenamed) {
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  const std::string setup = "from setuptools import setup\nsetup(ext_modules=[X(define_macros=[(\"TORCH_VERSION\", 20150)])])\n";
  const std::string src = "#include <torch/version.h>\n#if TORCH_VERSION >= 10701\nint ok = 1;\n#endif\n";
  testkit::TempDir t("ts-port-torch-version");
  ASSERT_EQ(util::write_file_atomic(t / "setup.py", setup), "");
  ASSERT_EQ(util::write_file_atomic(t / "op.cpp", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(2);
  auto compile = [&](const std::string& define) {
    std::vector<std::string> argv{"g++", "-std=c++20", "-fsyntax-only", "-D" + define + "=20150"};
    argv.insert(argv.end(), inc.begin(), inc.end());
    argv.push_back(t / "op.cpp");
    return util::run(argv, o);
  };
  auto before = compile("TORCH_VERSION");
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("is not valid in preprocessor expressions"), std::string::npos) << before.err.substr(0, 2000);
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.torch-version-macro-define", "port.torch-version-macro-use"}));
  EXPECT_NE(util::read_file(t / "setup.py").value_or("").find("(\"PKG_TORCH_VERSION\", 20150)"), std::string::npos);
  auto after = compile("PKG_TORCH_VERSION");  // the define the ported setup.py now passes
  EXPECT_TRUE(after.ok()) << after.err.substr(0, 3000);
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "op.cpp"), src);
  EXPECT_EQ(util::read_file(t / "setup.py"), setup);
}

// The backend-Type factory on today's torch headers fails as superpixPool's did and compiles ported
// (ATen/ATen.h, -fsyntax-only: tens of seconds).
TEST(PortTorchCompile, BackendTypeFactoryCompilesOnlyPorted) {
  expect_compiles_only_ported({{{"op.cpp", "#include <ATen/ATen.h>\n"
                                           "at::Tensor pool(int64_t b, int64_t c, int64_t k) {\n"
                                           "  at::Tensor out = at::zeros(at::CUDA(at::kInt), {b, c, k});\n"
                                           "  return -at::ones(at::CPU(at::kFloat), {b, c, k}) + out;\n}\n"}},
                               {"DeprecatedTypeProperties"},
                               {"port.backend-type-factory"}});
}

// Near misses: calls that already pass a device type (literal, at::kCUDA, a variable named
// device_type), a two-argument is_autocast_eligible, another namespace's promote_type.
TEST(PortAutocast, DeviceTypedCallsAndOtherPromoteTypesAreLeftAlone) {
  const std::string old = "auto t = at::autocast::promote_type(at::kHalf, a, b);\n";
  EXPECT_EQ(port_one("port.autocast-promote-type-device", old, "op.cpp"),
            "auto t = at::autocast::promote_type(at::kHalf, c10::DeviceType::CUDA, a, b);\n");
  for (const std::string& typed : {std::string("auto t = at::autocast::promote_type(at::kHalf, c10::DeviceType::CUDA, a);\n"),
                                   std::string("auto t = autocast::promote_type(at::kHalf, at::kCUDA, a, b);\n"),
                                   std::string("auto t = at::autocast::promote_type(lp, device_type, a);\n"),
                                   std::string("auto t = c10::promote_types(at::kHalf, at::kFloat);\n"),
                                   std::string("auto t = promote_type(x, y);\n")})
    EXPECT_EQ(port_one("port.autocast-promote-type-device", typed, "op.cpp"), typed);
  EXPECT_EQ(port_one("port.autocast-eligible-device", "bool e = at::autocast::is_autocast_eligible(x);\n", "op.cpp"),
            "bool e = at::autocast::is_autocast_eligible(x, c10::DeviceType::CUDA);\n");
  const std::string two = "bool e = at::autocast::is_autocast_eligible(x, c10::DeviceType::CPU);\n";
  EXPECT_EQ(port_one("port.autocast-eligible-device", two, "op.cpp"), two);
}

// CUDA's helper_math.h, as torchmcubes vendors it: its scalar lerp conflicts with C++20's ::lerp
// (libstdc++'s <math.h> says `using std::lerp;`), its vector overloads do not.
const std::string kHelperMath =
    "#include \"cuda_runtime.h\"\n"
    "inline __device__ __host__ float lerp(float a, float b, float t) {\n  return a + t * (b - a);\n}\n"
    "inline __device__ __host__ float2 lerp(float2 a, float2 b, float t) {\n"
    "  return make_float2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));\n}\n";

TEST(PortLerp, TheScalarLerpStepsAsideUnderCxx20) {
  std::string p = port_one("port.cxx20-global-lerp", kHelperMath, "helper_math.h");
  EXPECT_NE(p.find("#if __cplusplus <= 201703L  // torchsmith port.cxx20-global-lerp: C++20 has ::lerp(float, float, "
                   "float)\ninline __device__ __host__ float lerp(float a, float b, float t) {\n  return a + t * (b - a);\n}"
                   "\n#endif\ninline __device__ __host__ float2 lerp("), std::string::npos) << p;
  // Near misses: a vector overload alone, a double lerp, another function's name,
  // a file that already guards it, a call.
  const std::string vec = "__host__ __device__ float3 lerp(float3 a, float3 b, float t) { return a; }\n";
  EXPECT_EQ(port_one("port.cxx20-global-lerp", vec, "h.cuh"), vec);
  const std::string dbl = "__host__ __device__ double lerp(double a, double b, double t) { return a; }\n";
  EXPECT_EQ(port_one("port.cxx20-global-lerp", dbl, "h.cuh"), dbl);
  const std::string mine = "__host__ __device__ float mylerp(float a, float b, float t) { return a; }\n";
  EXPECT_EQ(port_one("port.cxx20-global-lerp", mine, "h.cuh"), mine);
  const std::string guarded = "#if __cplusplus <= 201703L\n__device__ float lerp(float a, float b, float t) { return a; }\n#endif\n";
  EXPECT_EQ(port_one("port.cxx20-global-lerp", guarded, "h.cuh"), guarded);
  const std::string call = "__global__ void k(float* o) { o[0] = lerp(o[1], o[2], 0.5f); }\n";
  EXPECT_EQ(port_one("port.cxx20-global-lerp", call), call);
}

// torch-mesh-isect's functor inherits thrust::unary_function, which CCCL 3.0 (CUDA 13) removed: the base
// goes; near misses: a second base beside it, a functor that uses thrust::plus, one already without it.
TEST(PortRewrite, ThrustUnaryFunctionBaseIsDropped) {
  const std::string functor = "struct is_valid_cnt : public thrust::unary_function<long2, int> {\n"
                              "  __host__ __device__ int operator()(long2 v) const { return v.x >= 0; }\n};\n";
  std::string p = port_one("port.thrust-unary-function", functor);
  EXPECT_EQ(p, "struct is_valid_cnt {  // torchsmith port.thrust-unary-function: CCCL 3.0 removed the empty base\n\n"
               "  __host__ __device__ int operator()(long2 v) const { return v.x >= 0; }\n};\n");
  EXPECT_EQ(port_one("port.thrust-unary-function", "class Add : thrust::binary_function<float, float, float> { };\n"),
            "class Add {  // torchsmith port.thrust-unary-function: CCCL 3.0 removed the empty base\n };\n");
  const std::string two = "struct F : public thrust::unary_function<int, int>, public Base {\n};\n";
  EXPECT_EQ(port_one("port.thrust-unary-function", two), two);
  const std::string plus = "auto s = thrust::reduce(v.begin(), v.end(), 0, thrust::plus<int>());\n";
  EXPECT_EQ(port_one("port.thrust-unary-function", plus), plus);
  const std::string plain = "struct is_valid_cnt {\n  int operator()(long2 v) const;\n};\n";
  EXPECT_EQ(port_one("port.thrust-unary-function", plain), plain);
}

// nvcc with C++20 (torch 2.13+'s headers) refuses the call as ambiguous; ported, it compiles with
// torch's --expt-relaxed-constexpr (device code calls the standard's constexpr lerp), and the tree
// reverts byte for byte. A cubin needs no GPU.
TEST(PortNvcc, HelperMathLerpCompilesUnderCxx20OnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test compiles CUDA";
  testkit::TempDir t("ts-port-lerp");
  ASSERT_EQ(util::write_file_atomic(t / "helper_math.h", kHelperMath), "");
  const std::string kernel = "#include \"helper_math.h\"\n__global__ void k(float* o) { o[0] = lerp(o[1], o[2], 0.5f); "
                             "float2 q = lerp(make_float2(0, 0), make_float2(1, 1), o[3]); o[4] = q.x; }\n"
                             "float h(float a) { return lerp(a, 2.f, 0.5f); }\n";
  ASSERT_EQ(util::write_file_atomic(t / "k.cu", kernel), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  std::vector<std::string> argv{nvcc, "-std=c++20", "--expt-relaxed-constexpr", "-arch=sm_90", "-cubin", "-o",
                                t / "k.cubin", t / "k.cu"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("more than one instance of overloaded function \"lerp\""), std::string::npos)
      << before.out << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.cxx20-global-lerp"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "helper_math.h"), kHelperMath);
}

// bp-layers' stereo_sad_kernel.cu: its host wrappers in its own namespace cuda return std::vector, which
// nvcc 13 with torch 2.15's headers reads as libcu++'s cuda::std::vector (incomplete); ported to ::std::
// it compiles, and the revert gives the file back byte for byte.
TEST(PortNvcc, StdInAPackagesOwnCudaNamespaceCompilesOnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test compiles CUDA";
  auto inc = torch_includes();
  if (inc.empty()) GTEST_SKIP() << "no test venv with torch (~/.cache/torchsmith/test-venvs/torch-cu13)";
  testkit::TempDir t("ts-port-cuda-ns");
  // c10/util/complex.h: the torch header that brings libcu++ (through thrust/complex.h) into every .cu
  // including ATen's; ATen/ATen.h itself costs ~20 s of nvcc per compile here.
  const std::string src = "#include <c10/util/complex.h>\n#include <vector>\nnamespace cuda\n{\n"
                          "  std::vector<c10::complex<float>> backward(c10::complex<float> a) { return {a, a}; }\n}\n";
  ASSERT_EQ(util::write_file_atomic(t / "k.cu", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  // -cuda: nvcc's front end only (the host code it writes is not compiled), where the error is.
  std::vector<std::string> argv{nvcc, "-std=c++20", "-arch=sm_86", "-cuda", "-o", t / "k.cpp.ii"};
  argv.insert(argv.end(), inc.begin(), inc.end());
  argv.push_back(t / "k.cu");
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("returns incomplete type \"cuda::std::"), std::string::npos)
      << before.out << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.cuda-namespace-std"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "k.cu"), src);
}

// cuSPARSE's legacy level-1 calls (CUDA 12.0 removed them): a .cu that calls one gets the compatibility
// block once, at its top, and the rest of the file as it was. Near misses: a file calling entry points
// cuSPARSE 12/13 still has, a .cpp (no kernel launch there), a file that defines its own cusparseSgthr,
// a name that only contains a legacy one, and a file already ported.
TEST(PortRewrite, CusparseLevel1CallsGetTheCompatibilityBlockOnce) {
  const std::string call = "#include <cusparse.h>\nvoid g(cusparseHandle_t h, int n, const float* v, float* o, const int* p) {\n"
                           "  cusparseSgthr(h, n, v, o, p, CUSPARSE_INDEX_BASE_ZERO);\n  cusparseSgthr(h, n, v, o, p, CUSPARSE_INDEX_BASE_ZERO);\n}\n";
  std::string p = port_one("port.cusparse-level1", call);
  ASSERT_TRUE(p.starts_with("// torchsmith port.cusparse-level1: CUDA 12.0 removed")) << p.substr(0, 200);
  ASSERT_TRUE(p.ends_with(call));
  EXPECT_NE(p.find("#if defined(CUSPARSE_VER_MAJOR) && CUSPARSE_VER_MAJOR >= 12"), std::string::npos);
  EXPECT_NE(p.find("cusparseGetStream(handle, &stream)"), std::string::npos);
  for (const char* fn : {"Sgthr", "Dgthrz", "Csctr", "Zaxpyi", "Droti"})
    EXPECT_NE(p.find(std::string("inline cusparseStatus_t cusparse") + fn + "("), std::string::npos) << fn;
  EXPECT_EQ(port_one("port.cusparse-level1", p), p);  // ported once
  const std::string still = "void s(cusparseHandle_t h) {\n  cusparseXcsrsort(h, m, n, nnz, d, r, c, P, buf);\n"
                            "  cusparseSpMV(h, op, &a, A, x, &b, y, CUDA_R_32F, alg, buf);\n  cusparseGather(h, vy, vx);\n}\n";
  EXPECT_EQ(port_one("port.cusparse-level1", still), still);
  EXPECT_EQ(port_one("port.cusparse-level1", call, "ops.cpp"), call);
  const std::string own = "cusparseStatus_t cusparseSgthr(cusparseHandle_t h, int n, const float* y, float* x, const int* i,\n"
                          "                               cusparseIndexBase_t b) {\n  return CUSPARSE_STATUS_SUCCESS;\n}\n"
                          "void g(cusparseHandle_t h) { cusparseSgthr(h, 0, 0, 0, 0, CUSPARSE_INDEX_BASE_ZERO); }\n";
  EXPECT_EQ(port_one("port.cusparse-level1", own), own);
  const std::string longer = "void g() { my_cusparseSgthr(1); cusparseSgthrEx(2); }\n";
  EXPECT_EQ(port_one("port.cusparse-level1", longer), longer);
}

// gnn-robustness-kernels' csrsort and the other legacy level-1 calls: nvcc 13 (cuSPARSE 12.6) stops on
// each as undeclared; ported, the file compiles (host and device, C++14 as the oldest standard a package
// forces), and the tree reverts byte for byte. A cusparseXcsrsort beside them is not touched. No GPU needed.
TEST(PortNvcc, CusparseLevel1CallsCompileOnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test compiles CUDA";
  const std::string src =
      "#include <cuda_runtime.h>\n#include <cusparse.h>\n#include <cstdint>\n"
      "void csrsort(cusparseHandle_t handle, int64_t m, int64_t n, int64_t nnz, const int* rowPtr, int* valIdx,\n"
      "             const float* val, float* outVal, int* P, void* buf) {\n"
      "  cusparseMatDescr_t desc;\n  cusparseCreateMatDescr(&desc);\n"
      "  cusparseXcsrsort(handle, m, n, nnz, desc, rowPtr, valIdx, P, buf);\n"
      "  cusparseSgthr(handle, nnz, val, outVal, P, CUSPARSE_INDEX_BASE_ZERO);\n}\n"
      "void rest(cusparseHandle_t h, int n, double* y, double* x, const int* i, cuComplex* cy, cuComplex* cx,\n"
      "          cuDoubleComplex* zy, cuDoubleComplex* zx) {\n"
      "  double a = 2, c = 1, s = 0;\n  cuComplex ca{1, 0};\n  cuDoubleComplex za{1, 0};\n"
      "  cusparseDgthrz(h, n, y, x, i, CUSPARSE_INDEX_BASE_ONE);\n  cusparseDsctr(h, n, x, i, y, CUSPARSE_INDEX_BASE_ZERO);\n"
      "  cusparseDaxpyi(h, n, &a, x, i, y, CUSPARSE_INDEX_BASE_ZERO);\n"
      "  cusparseCaxpyi(h, n, &ca, cx, i, cy, CUSPARSE_INDEX_BASE_ZERO);\n  cusparseZgthr(h, n, zy, zx, i, CUSPARSE_INDEX_BASE_ZERO);\n"
      "  cusparseZaxpyi(h, n, &za, zx, i, zy, CUSPARSE_INDEX_BASE_ZERO);\n  cusparseDroti(h, n, x, i, y, &c, &s, CUSPARSE_INDEX_BASE_ZERO);\n}\n";
  testkit::TempDir t("ts-port-cusparse");
  ASSERT_EQ(util::write_file_atomic(t / "custom_kernel.cu", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  std::vector<std::string> argv{nvcc, "-std=c++14", "-arch=sm_86", "-c", "-o", t / "k.o", t / "custom_kernel.cu"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  for (const char* fn : {"cusparseSgthr", "cusparseDgthrz", "cusparseDsctr", "cusparseCaxpyi", "cusparseDroti"})
    EXPECT_NE((before.out + before.err).find(std::string("identifier \"") + fn + "\" is undefined"), std::string::npos)
        << fn << "\n" << before.out << before.err;
  EXPECT_EQ((before.out + before.err).find("\"cusparseXcsrsort\" is undefined"), std::string::npos);
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.cusparse-level1"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err.substr(0, 3000);
  EXPECT_EQ((after.out + after.err).find("warning"), std::string::npos) << after.out << after.err;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "custom_kernel.cu"), src);
}

// Where the include goes: after the last #include active at the first use, never into an #if block
// closed before it, at the top when no include precedes the use.
TEST(PortInclude, TheIncludeGoesWhereTheUseSeesIt) {
  const std::string_view h = "ATen/cuda/CUDAContext.h";
  std::string t = "#include <a.h>\n#ifdef _WIN32\n#include <windows.h>\n#endif\nvoid f() { use(); }\n";
  EXPECT_EQ(add_include(t, t.find("use"), h),
            "#include <a.h>\n#include <ATen/cuda/CUDAContext.h>\n#ifdef _WIN32\n#include <windows.h>\n#endif\nvoid f() { use(); }\n");
  t = "#include <a.h>\n#ifdef WITH_CUDA\n#include <b.h>\nvoid f() { use(); }\n#endif\n";
  EXPECT_EQ(add_include(t, t.find("use"), h),
            "#include <a.h>\n#ifdef WITH_CUDA\n#include <b.h>\n#include <ATen/cuda/CUDAContext.h>\nvoid f() { use(); }\n#endif\n");
  t = "#ifdef WITH_CUDA\n#include <b.h>\n#else\n#include <c.h>\nvoid f() { use(); }\n#endif\n";  // #else is another block
  EXPECT_EQ(add_include(t, t.find("use"), h),
            "#ifdef WITH_CUDA\n#include <b.h>\n#else\n#include <c.h>\n#include <ATen/cuda/CUDAContext.h>\nvoid f() { use(); }\n#endif\n");
  t = "#ifndef K_H\n#define K_H\nvoid f() { use(); }\n#endif\n";
  EXPECT_EQ(add_include(t, t.find("use"), h), "#include <ATen/cuda/CUDAContext.h>\n" + t);
  t = "#include <a.h>";  // the last line with no newline
  EXPECT_EQ(add_include(t, t.size(), h), "#include <a.h>\n#include <ATen/cuda/CUDAContext.h>\n");
}

TEST(PortCatalogue, IncludePortsAreCheckedWhenRead) {
  std::vector<Port> out;
  auto errs = parse_ports_text("x.toml",
                               "[[port]]\nid = \"port.a\"\nreason = \"r\"\nsource = \"https://x\"\npattern = \"u\"\n"
                               "rewrite = \"v\"\ninclude = \"a b.h\"\nunless = \"(\"\n"
                               "[[port]]\nid = \"port.b\"\nreason = \"r\"\nsource = \"https://x\"\npattern = \"u\"\nunless = \"[\"\n",
                               out);
  std::string all;
  for (const auto& e : errs) all += e + "\n";
  EXPECT_NE(all.find("give include or rewrite, not both"), std::string::npos) << all;
  EXPECT_NE(all.find("is not a header path"), std::string::npos) << all;
  EXPECT_NE(all.find("unless is not RE2"), std::string::npos) << all;
  EXPECT_NE(all.find("port 'port.b': unless is not RE2"), std::string::npos) << all;
  EXPECT_TRUE(out.empty());
}

// fairseq's lightconv kernel after clang-format sorted its includes: a file whose template uses
// MASK is included above the header that defines it (and <iostream> for its std::cout). g++ refuses
// it; with port.include-order the header moves above, it compiles, and the tree reverts byte for byte.
TEST(PortIncludeOrder, AMacroUsedAboveItsHeaderCompilesReordered) {
  testkit::TempDir t("ts-port-order");
  fs::create_directories(t / "layer");
  const std::string kernel = "// kernel\n#include \"../utils.inc\"\n#include \"defs.h\"\n\n"
                             "int main() { return reduce<unsigned>(3u) == 3u ? 0 : 1; }\n";
  ASSERT_EQ(util::write_file_atomic(t / "utils.inc",
                                    "template <typename T> T reduce(T v) {\n  std::cout << v;\n  return v & MASK;\n}\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "layer/defs.h", "#include <iostream>\n#define MASK 0xffffffffu\n"), "");
  ASSERT_EQ(util::write_file_atomic(t / "layer/k.cpp", kernel), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(3);
  std::vector<std::string> argv{"g++", "-std=c++17", "-fsyntax-only", t / "layer/k.cpp"};
  auto before = util::run(argv, o);
  if (before.exit_code == 127 || !before.error.empty()) GTEST_SKIP() << "no g++: " << before.error;
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("MASK\xE2\x80\x99 was not declared in this scope"), std::string::npos) << before.err;  // g++'s quotes

  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok) << r.errors.front();
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.include-order"}));
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].path, "layer/k.cpp");
  EXPECT_EQ(util::read_file(t / "layer/k.cpp"),
            "// kernel\n#include \"defs.h\"\n#include \"../utils.inc\"\n\n"
            "int main() { return reduce<unsigned>(3u) == 3u ? 0 : 1; }\n");
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "layer/k.cpp"), kernel);
}

// Where the order is not what fails, nothing moves: a fallback of the used file's own, a use only in a
// #define's body (expanded later), a macro the includer defines above, a header the first file does not
// need, and two files each needing the other's macro.
TEST(PortIncludeOrder, NearMissesAreLeftAlone) {
  struct Near {
    std::string what, used, defs, includer_top;
  };
  const std::vector<Near> cases{
      {"own fallback", "#ifndef MASK\n#define MASK 0xff\n#endif\nint f(int v) { return v & MASK; }\n", "#define MASK 0xffffffff\n", ""},
      {"only in a #define", "#define APPLY(v) ((v) & MASK)\n", "#define MASK 0xffffffff\n", ""},
      {"defined above", "int f(int v) { return v & MASK; }\n", "#define MASK 0xffffffff\n", "#define MASK 0xf\n"},
      {"not needed", "int f(int v) { return v; }\n", "#define MASK 0xffffffff\n", ""},
      {"in a comment or string", "// MASK\nconst char* s = \"MASK\";\n", "#define MASK 0xffffffff\n", ""},
      {"each needs the other", "#define WIDTH 32\nint f(int v) { return v & MASK; }\n", "#define MASK ((1 << 1) - 1)\nint g[WIDTH];\n", ""},
  };
  for (const auto& c : cases) {
    testkit::TempDir t("ts-port-order-near");
    const std::string includer = c.includer_top + "#include \"a_used.h\"\n#include \"b_defs.h\"\nint x;\n";
    ASSERT_EQ(util::write_file_atomic(t / "a_used.h", c.used), "");
    ASSERT_EQ(util::write_file_atomic(t / "b_defs.h", c.defs), "");
    ASSERT_EQ(util::write_file_atomic(t / "k.cu", includer), "");
    PortSet one{{*catalogue().find("port.include-order")}};
    PortResult r = apply_ports(t.path(), one);
    EXPECT_TRUE(r.ok);
    EXPECT_FALSE(r.changed()) << c.what << "\n" << r.diff;
    EXPECT_EQ(util::read_file(t / "k.cu"), includer) << c.what;
  }
}

// dct_cuda's dct_cpp: dxt.cpp calls a template that dct.cpp defines and inlines at every use of its
// own, so g++ -O2 emits no copy and the library lacks it (-z defs makes the loader's "undefined symbol"
// a link error). With the instantiation the import asked for, it links; the tree reverts byte for byte.
TEST(PortInstantiation, ALibraryMissingItsOwnSpecializationLinksOnceInstantiated) {
  testkit::TempDir t("ts-port-inst");
  const std::string defines = "#include \"reorder.h\"\ntemplate <typename T>\nvoid reorder(const T* y, int n, T* z) {\n"
                              "  for (int i = 0; i < n; ++i) z[i] = y[n - 1 - i];\n}\n"
                              "void dct(const float* a, float* b) { reorder(a, 4, b); }\n";
  const std::string header = "template <typename T> void reorder(const T* y, int n, T* z);\n";
  const std::string caller = "#include \"reorder.h\"\nvoid dxt(const float* a, float* b) { reorder(a, 4, b); }\n";
  ASSERT_EQ(util::write_file_atomic(t / "dct.cpp", defines), "");
  ASSERT_EQ(util::write_file_atomic(t / "reorder.h", header), "");
  ASSERT_EQ(util::write_file_atomic(t / "dxt.cpp", caller), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(3);
  std::vector<std::string> argv{"g++", "-O2", "-shared", "-fPIC", "-Wl,-z,defs", "-o", t / "lib.so", t / "dct.cpp", t / "dxt.cpp"};
  auto before = util::run(argv, o);
  if (before.exit_code == 127 || !before.error.empty()) GTEST_SKIP() << "no g++: " << before.error;
  EXPECT_FALSE(before.ok());
  EXPECT_NE(before.err.find("undefined reference to `void reorder<float>(float const*, int, float*)'"), std::string::npos)
      << before.err;

  const std::vector<std::string> undefined{"_Z7reorderIfEvPKT_iPS0_", "_ZN2at4_ops10to_dtype_4callEv"};
  PortSet one{{*catalogue().find("port.template-instantiation")}};
  EXPECT_FALSE(apply_ports(t.path(), one, true).changed());  // no symbols: a failed compile's ports do nothing
  PortResult r = apply_ports(t.path(), one, false, &undefined);
  ASSERT_TRUE(r.ok) << r.errors.front();
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].path, "dct.cpp");  // where it is defined; not the header, not the caller
  EXPECT_NE(util::read_file(t / "dct.cpp").value_or("").find("\ntemplate void reorder<float>(float const*, int, float*);\n"),
            std::string::npos);
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.err;
  EXPECT_FALSE(apply_ports(t.path(), one, true, &undefined).changed());  // instantiated already: not twice
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "dct.cpp"), defines);
}

TEST(PortInstantiation, OnlyTemplateSpecializationsADeclarationCanSpell) {
  auto s = read_specialization("_Z21computeReorderReverseIfEvPKT_iiPS0_");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "computeReorderReverse");
  EXPECT_EQ(s->declaration, "void computeReorderReverse<float>(float const*, int, int, float*)");
  auto ns = read_specialization("_ZN3ops7reorderIdEEvPKT_iPS1_");
  ASSERT_TRUE(ns);
  EXPECT_EQ(ns->declaration, "void ops::reorder<double>(double const*, int, double*)");
  EXPECT_FALSE(read_specialization("_Z3dctPKfPf"));                 // not a template: nothing to instantiate
  EXPECT_FALSE(read_specialization("_ZN12_GLOBAL__N_17reorderIfEEvPKT_iPS1_"));  // an unnamed namespace's
  EXPECT_FALSE(read_specialization("cudaLaunchKernel"));            // not C++
  EXPECT_FALSE(read_specialization("_ZNK1A1fIiEEvT_"));             // a const member function
  // A kernel keeps __global__; a file that only declares the template, or defines another, is left alone.
  const std::vector<std::string> k{"_Z7forwardIfEviPKT_PS0_"};
  auto out = instantiate_undefined("template <typename scalar_t>\n__global__ void forward(int n, const scalar_t* a, scalar_t* b) {\n"
                                   "  b[0] = a[0];\n}\n", k);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\ntemplate __global__ void forward<float>(int, float const*, float*);\n"), std::string::npos) << *out;
  EXPECT_FALSE(instantiate_undefined("template <typename scalar_t>\n__global__ void forward(int n, const scalar_t* a, scalar_t* b);\n", k));
  EXPECT_FALSE(instantiate_undefined("template <typename T>\nvoid backward(int n, const T* a, T* b) {\n}\n", k));
  EXPECT_FALSE(instantiate_undefined("// template <typename T> void forward(int n, const T* a, T* b) { }\n", k));
}

TEST(ApplyPorts, RewritesTheSourcesDiffsAndRevertsByteForByte) {
  testkit::TempDir t("ts-port-tree");
  const std::string kernel = "#include <THC/THC.h>\nextern THCState *state;\nvoid f(at::Tensor x) {\n"
                             "  AT_CHECK(x.is_cuda(), \"x\");\n  THCudaCheck(cudaGetLastError());\n}\n";
  const std::string vendored = "AT_CHECK(1, \"not ours\");\n";
  const std::string doc = "AT_CHECK( in a README is not compiled\n";
  fs::create_directories(t / "csrc");
  fs::create_directories(t / "third_party/lib");
  ASSERT_EQ(util::write_file_atomic(t / "csrc/k.cu", kernel), "");
  ASSERT_EQ(util::write_file_atomic(t / "third_party/lib/v.h", vendored), "");
  ASSERT_EQ(util::write_file_atomic(t / "README.md", doc), "");

  PortResult dry = apply_ports(t.path(), catalogue(), true);
  ASSERT_TRUE(dry.ok);
  EXPECT_EQ(util::read_file(t / "csrc/k.cu"), kernel);  // a dry run writes nothing
  EXPECT_FALSE(fs::exists(t / kPortJournalRel));

  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok) << r.errors.front();
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].path, "csrc/k.cu");
  EXPECT_EQ(r.files[0].rewrites, 4);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.thc-header", "port.thc-cuda-check", "port.thc-state-extern",
                                               "port.at-check"}));
  EXPECT_EQ(r.diff, dry.diff);
  EXPECT_NE(r.diff.find("\n-#include <THC/THC.h>\n-extern THCState *state;\n+#include <ATen/cuda/CUDAContext.h>\n"
                        "+#include <c10/cuda/CUDACachingAllocator.h>\n+#include <ATen/ceil_div.h>\n"),
            std::string::npos) << r.diff;
  EXPECT_EQ(util::read_file(t / "csrc/k.cu"),
            "#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDACachingAllocator.h>\n#include <ATen/ceil_div.h>\n"
            "void f(at::Tensor x) {\n  TORCH_CHECK(x.is_cuda(), \"x\");\n"
            "  C10_CUDA_CHECK(cudaGetLastError());\n}\n");
  EXPECT_EQ(util::read_file(t / "third_party/lib/v.h"), vendored);  // vendored code is not ported
  EXPECT_EQ(util::read_file(t / "README.md"), doc);
  EXPECT_FALSE(fs::exists(t / kJournalRel));  // the fixes' journal is not the ports'

  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(sha256_hex(util::read_file(t / "csrc/k.cu").value_or("")), sha256_hex(kernel));
  EXPECT_FALSE(fs::exists(t / kPortJournalRel));
}

TEST(ApplyPorts, ATreeWithNothingToPortIsLeftAsItIs) {
  testkit::TempDir t("ts-port-none");
  ASSERT_EQ(util::write_file_atomic(t / "k.cpp", "TORCH_CHECK(true);\n"), "");
  PortResult r = apply_ports(t.path(), catalogue());
  EXPECT_TRUE(r.ok);
  EXPECT_FALSE(r.changed());
  EXPECT_FALSE(fs::exists(t / kPortJournalRel));
  EXPECT_EQ(revert_ports(t.path()), "");  // nothing journaled: nothing to do
}

}  // namespace
}  // namespace ts::source

namespace ts::source {
namespace {

// THCUNN's SharedMem, THC's reduceBlock and its ReduceAdd (ShiftAddNAS' adder kernel, batch 10's dev, copied
// from THCUNN's depthwise convolution): each include becomes its definition, once, where the file uses it.
// Near misses: a file that includes THCReduceApplyUtils.cuh and never calls reduceBlock (what else it used has
// no definition here), a file using ReduceMin from THCTensorMathReduce.cuh, a .cpp.
TEST(PortRewrite, ThcReduceBlockHeadersBecomeTheirDefinitions) {
  const std::string use = "\n__global__ void k(float* o, float v) {\n  SharedMem<float> smem;\n"
                          "  float t = reduceBlock<float, ReduceAdd<float>>(smem.getPointer(), blockDim.x, v, ReduceAdd<float>(), 0);\n"
                          "  if (threadIdx.x == 0) *o = t;\n}\n";
  std::string p = port_one("port.thcunn-shared-mem", "#include <THCUNN/SharedMem.cuh>" + use);
  EXPECT_TRUE(p.starts_with("// torchsmith port.thcunn-shared-mem: THCUNN/SharedMem.cuh went with THC")) << p;
  EXPECT_NE(p.find("struct SharedMem {"), std::string::npos) << p;
  EXPECT_TRUE(p.ends_with("#endif" + use)) << p;
  p = port_one("port.thc-reduce-block", "#include <THC/THCReduceApplyUtils.cuh>" + use);
  EXPECT_NE(p.find("__device__ T reduceBlock(T* smem, const unsigned int numVals, T threadVal, ReduceOp reduceOp, T init) {"),
            std::string::npos) << p;
  EXPECT_EQ(p.find("THCReduceApplyUtils.cuh>"), std::string::npos) << p;
  p = port_one("port.thc-reduce-ops", "#include \"THC/THCTensorMathReduce.cuh\"" + use);
  EXPECT_NE(p.find("struct ReduceAdd {"), std::string::npos) << p;
  const std::string apply_only = "#include <THC/THCReduceApplyUtils.cuh>\n__global__ void k() { getLinearBlockId<int>(); }\n";
  EXPECT_EQ(port_one("port.thc-reduce-block", apply_only), apply_only);
  const std::string min = "#include <THC/THCTensorMathReduce.cuh>" + use + "ReduceMin<float> m;\n";
  EXPECT_EQ(port_one("port.thc-reduce-ops", min), min);
  const std::string host = "#include <THCUNN/SharedMem.cuh>\nint f();\n";
  EXPECT_EQ(port_one("port.thcunn-shared-mem", host, "ops.cpp"), host);
}

// The same kernel with nvcc 13.0 (no torch: the headers are missing either way): it stops on the THCUNN
// include before, compiles (host and device, sm_86) ported, and the tree reverts byte for byte.
TEST(PortNvcc, ThcReduceBlockKernelCompilesOnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test compiles CUDA";
  const std::string src = "#include <cuda_runtime.h>\n#include <THCUNN/SharedMem.cuh>\n#include <THC/THCReduceApplyUtils.cuh>\n"
                          "#include <THC/THCTensorMathReduce.cuh>\n"
                          "template <typename scalar_t>\n__global__ void grad_weight(const scalar_t* in, scalar_t* out, int n) {\n"
                          "  SharedMem<scalar_t> smem;\n  scalar_t grad = 0;\n"
                          "  for (int i = threadIdx.x; i < n; i += blockDim.x) grad += in[i];\n  __syncthreads();\n"
                          "  scalar_t *buf = smem.getPointer();\n"
                          "  scalar_t tval = reduceBlock<scalar_t, ReduceAdd<scalar_t>>(buf, blockDim.x, grad, ReduceAdd<scalar_t>(), 0);\n"
                          "  if (threadIdx.x == 0) out[blockIdx.x] = tval;\n}\n"
                          "void launch(const float* a, float* b, const double* c, double* d, int n) {\n"
                          "  grad_weight<float><<<1, 64, 64 * sizeof(float)>>>(a, b, n);\n"
                          "  grad_weight<double><<<1, 96, 96 * sizeof(double)>>>(c, d, n);\n}\n";
  testkit::TempDir t("ts-port-thc-reduce");
  ASSERT_EQ(util::write_file_atomic(t / "adder_cuda_kernel.cu", src), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  std::vector<std::string> argv{nvcc, "-std=c++20", "-arch=sm_86", "-c", "-o", t / "k.o", t / "adder_cuda_kernel.cu"};
  auto before = util::run(argv, o);
  EXPECT_FALSE(before.ok());
  EXPECT_NE((before.out + before.err).find("THCUNN/SharedMem.cuh: No such file or directory"), std::string::npos)
      << before.out << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.thcunn-shared-mem", "port.thc-reduce-block", "port.thc-reduce-ops"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err.substr(0, 3000);
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "adder_cuda_kernel.cu"), src);
}

// A vendored CUDA Samples helper_cuda.h of CUDA 11 (handpose-virtualview's ops/cuda/helper_cuda.h,
// gpuDeviceInit and gpuGetMaxGflopsDeviceId, cut down): it reads cudaDeviceProp::computeMode and
// clockRate, which CUDA 13.0 removed.
const char* const kHelperCudaProps = R"(#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime.h>
inline int gpuDeviceInit(int devID) {
  cudaDeviceProp deviceProp;
  cudaGetDeviceProperties(&deviceProp, devID);
  if (deviceProp.computeMode == cudaComputeModeProhibited) {
    fprintf(stderr, "Error: device is running in <Compute Mode Prohibited>\n");
    return -1;
  }
  return devID;
}
inline int gpuGetMaxGflopsDeviceId(int device_count) {
  cudaDeviceProp deviceProp;
  uint64_t max_compute_perf = 0;
  int max_perf_device = 0;
  for (int current_device = 0; current_device < device_count; ++current_device) {
    cudaGetDeviceProperties(&deviceProp, current_device);
    if (deviceProp.computeMode != cudaComputeModeProhibited) {
      uint64_t compute_perf = (uint64_t)deviceProp.multiProcessorCount *
                              64 * deviceProp.clockRate;
      if (compute_perf > max_compute_perf) { max_compute_perf = compute_perf; max_perf_device = current_device; }
    }
  }
  return max_perf_device;
}
)";

// Each removed field read becomes the device attribute, the definition comes once at the top; what is
// not a read of a removed field (an assignment, a member of something else, a file with no
// cudaDeviceProp) is left as written.
TEST(PortDeviceProp, RemovedFieldReadsAskTheDeviceAndNearMissesStay) {
  testkit::TempDir t("ts-port-devprop");
  ASSERT_EQ(util::write_file_atomic(t / "helper_cuda.h", kHelperCudaProps), "");
  const std::string other = "struct Clock { int clockRate; };\nint f(Clock c) { return c.clockRate; }\n";
  ASSERT_EQ(util::write_file_atomic(t / "clock.cpp", other), "");
  const std::string mixed = "#include <cuda_runtime.h>\nvoid g(cudaDeviceProp* p, cudaDeviceProp* q, int* out) {\n"
                            "  p->clockRate = 5;\n  out[0] = p->memoryClockRate*q[1].kernelExecTimeoutEnabled;\n}\n";
  ASSERT_EQ(util::write_file_atomic(t / "k.cu", mixed), "");
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  std::string h = util::read_file(t / "helper_cuda.h").value_or("");
  EXPECT_TRUE(h.starts_with("// torchsmith port.device-prop-attribute:")) << h.substr(0, 200);
  EXPECT_EQ(h.find("deviceProp.computeMode"), std::string::npos) << h;
  EXPECT_EQ(h.find("deviceProp.clockRate"), std::string::npos) << h;
  EXPECT_NE(h.find("if (torchsmith_device_prop_attribute((deviceProp).pciDomainID, (deviceProp).pciBusID, "
                   "(deviceProp).pciDeviceID, cudaDevAttrComputeMode) == cudaComputeModeProhibited)"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("64 * torchsmith_device_prop_attribute((deviceProp).pciDomainID, (deviceProp).pciBusID, "
                   "(deviceProp).pciDeviceID, cudaDevAttrClockRate);"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("(uint64_t)deviceProp.multiProcessorCount"), std::string::npos);  // a field CUDA 13 kept
  EXPECT_EQ(util::read_file(t / "clock.cpp"), other);  // clockRate of a struct of its own, no cudaDeviceProp
  std::string k = util::read_file(t / "k.cu").value_or("");
  EXPECT_NE(k.find("  p->clockRate = 5;\n"), std::string::npos) << k;  // a write is not a read
  EXPECT_NE(k.find("out[0] = torchsmith_device_prop_attribute((p)->pciDomainID, (p)->pciBusID, (p)->pciDeviceID, "
                   "cudaDevAttrMemoryClockRate)*torchsmith_device_prop_attribute((q[1]).pciDomainID, (q[1]).pciBusID, "
                   "(q[1]).pciDeviceID, cudaDevAttrKernelExecTimeout);"),
            std::string::npos)
      << k;
  // Ported once: a second round over the ported tree changes nothing.
  PortResult again = apply_ports(t.path(), catalogue());
  EXPECT_TRUE(again.files.empty()) << again.diff;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "helper_cuda.h"), kHelperCudaProps);
  EXPECT_EQ(util::read_file(t / "k.cu"), mixed);
}

// The same helper against the installed CUDA's headers: on CUDA 13 it fails on the removed field and
// compiles ported (nvcc hands a .cpp to the host compiler with CUDA's include directory).
TEST(PortNvcc, DevicePropRemovedFieldsCompileOnlyPorted) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, CUDA_PATH or /usr/local/cuda): this test compiles CUDA";
  testkit::TempDir t("ts-port-devprop-nvcc");
  ASSERT_EQ(util::write_file_atomic(t / "helper_cuda.h", kHelperCudaProps), "");
  ASSERT_EQ(util::write_file_atomic(t / "h.cpp", "#include \"helper_cuda.h\"\nint main() { return gpuDeviceInit(0) + "
                                                  "gpuGetMaxGflopsDeviceId(1); }\n"),
            "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);  // a loaded 2-core machine
  std::vector<std::string> argv{nvcc, "-std=c++17", "-c", "-o", t / "h.o", t / "h.cpp"};
  auto before = util::run(argv, o);
  if (before.ok()) GTEST_SKIP() << "this CUDA still has cudaDeviceProp::computeMode (before 13.0)";
  EXPECT_NE((before.out + before.err).find("computeMode"), std::string::npos) << before.out << before.err;
  PortResult r = apply_ports(t.path(), catalogue());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.ports, (std::vector<std::string>{"port.device-prop-compute-mode", "port.device-prop-clock-rate",
                                               "port.device-prop-attribute"}));
  auto after = util::run(argv, o);
  EXPECT_TRUE(after.ok()) << after.out << after.err;
  EXPECT_EQ(revert_ports(t.path()), "");
  EXPECT_EQ(util::read_file(t / "helper_cuda.h"), kHelperCudaProps);
}

// fbtt-embedding's tt_embeddings_cuda.cu: CUB's trailing debug_synchronous, gone in CCCL 3.0, is dropped;
// a call with no such flag, and one whose last argument is a variable, are left as written.
TEST(PortCubDebugSynchronous, TrailingLiteralFlagIsDroppedNearMissesStay) {
  const std::string call =
      "AT_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, temp_storage_bytes, "
      "cache_freq.data_ptr<int64_t>(), sorted.data_ptr<int64_t>(), hashtbl.data_ptr<int64_t>(), "
      "out.data_ptr<int64_t>(), cache_freq.numel(), 0, sizeof(int64_t) * 8, at::cuda::getCurrentCUDAStream(), false));\n";
  EXPECT_EQ(port_one("port.cub-debug-synchronous", call),
            "AT_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, temp_storage_bytes, "
            "cache_freq.data_ptr<int64_t>(), sorted.data_ptr<int64_t>(), hashtbl.data_ptr<int64_t>(), "
            "out.data_ptr<int64_t>(), cache_freq.numel(), 0, sizeof(int64_t) * 8, at::cuda::getCurrentCUDAStream()));\n");
  const std::string scan = "cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n, stream,\n    true);\n";
  EXPECT_EQ(port_one("port.cub-debug-synchronous", scan), "cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n, stream);\n");
  const std::string kept = "cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n, stream);\n"
                           "cub::DeviceReduce::Sum(tmp, bytes, in, out, n, stream, debug);\n"
                           "my::DeviceScan::InclusiveSum(tmp, bytes, in, out, n, stream, false);\n"
                           "f(cub::DeviceReduce::Sum(tmp, bytes, in, out, n), false);\n";
  EXPECT_EQ(port_one("port.cub-debug-synchronous", kept), kept);
}

// dwconv-samson-wang's DepthWiseConv2d_cuda.cu: an AT_ASSERTM with no `;` (the old macro was an if block)
// gets one; a call with its `;`, one followed by a comment and one inside a longer line are left alone.
TEST(PortAtAssertSemicolon, AStatementWithoutSemicolonGetsOneNearMissesStay) {
  const std::string line = "  AT_ASSERTM(width == (grad.size(3) - kernel_size + 1 + bwd_padding * 2), "
                           "\"grad_input computed size should be equal to input size\")\n  if (width < 3) {}\n";
  EXPECT_EQ(port_one("port.at-assert-semicolon", line),
            "  AT_ASSERTM(width == (grad.size(3) - kernel_size + 1 + bwd_padding * 2), "
            "\"grad_input computed size should be equal to input size\");\n  if (width < 3) {}\n");
  EXPECT_EQ(port_one("port.at-assert-semicolon", "AT_ASSERT(x.dim() == 4)\n"), "AT_ASSERT(x.dim() == 4);\n");
  const std::string kept = "  AT_ASSERTM(x.is_cuda(), \"x\");\n  AT_ASSERT(x.dim() == 4) // 4d\n"
                           "  if (a) AT_ASSERT(b)\n  MY_AT_ASSERT(c)\n";
  EXPECT_EQ(port_one("port.at-assert-semicolon", kept), kept);
}

// OpenBCSim's axpy_cuda.cpp: a macro whose whole body is an AT_ASSERT, used with no `;` as the last statement
// of a do/while(false) block (the old AT_ASSERT was an if block), gets the `;` in its body; a body that has
// its `;`, goes on past the call, carries a comment or continues on the next line, a macro that is not
// AT_ASSERT, an object-like macro and a plain call are left alone.
TEST(PortAtAssertMacroSemicolon, AMacroWhoseBodyIsAnAtAssertGetsItsSemicolonNearMissesStay) {
  const std::string defs = "#define CHECK_CUDA(x) AT_ASSERT (x.is_cuda (), #x \" must be a CUDA tensor\")\n"
                           "#define CHECK_CONTIGUOUS(x) AT_ASSERTM(x.is_contiguous(), #x \" must be contiguous\")\n"
                           "#define CHECK_INPUT(x) \\\n  do { CHECK_CUDA (x); CHECK_CONTIGUOUS (x) } while (false)\n";
  EXPECT_EQ(port_one("port.at-assert-macro-semicolon", defs),
            "#define CHECK_CUDA(x) AT_ASSERT (x.is_cuda (), #x \" must be a CUDA tensor\");\n"
            "#define CHECK_CONTIGUOUS(x) AT_ASSERTM(x.is_contiguous(), #x \" must be contiguous\");\n"
            "#define CHECK_INPUT(x) \\\n  do { CHECK_CUDA (x); CHECK_CONTIGUOUS (x) } while (false)\n");
  const std::string kept = "#define A(x) AT_ASSERT(x);\n#define B(x) AT_ASSERT(x) // b\n"
                           "#define C(x) AT_ASSERT(x); g(x)\n#define D(x) AT_ASSERT(x) \\\n  ;\n"
                           "#define E(x) TORCH_CHECK(x, \"e\")\n#define F AT_ASSERT(f)\n  AT_ASSERT(y);\n";
  EXPECT_EQ(port_one("port.at-assert-macro-semicolon", kept), kept);
}

}  // namespace
}  // namespace ts::source

// Failures of the long-tail bench's dev packages (bench/longtail, the GPU machine's logs) that triage
// read as "unrecognised", each with a near miss: TH's calls the THC signature did not list, and a
// setup.py whose extension has no name, a source setup.py lists that the tree lacks.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

class LongTailWording : public ::testing::TestWithParam<Wording> {};

TEST_P(LongTailWording, NamesTheRootCause) { EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line; }

const Wording kLongTailWordings[] = {
    // sphconv's CMakeLists.txt names its author's nvcc before project().
    {"CMake Error at CMakeLists.txt:5 (project):\n  The CMAKE_CUDA_COMPILER:\n\n    /usr/local/cuda-10.2/bin/nvcc\n\n"
     "  is not a full path to an existing compiler tool.",
     "CMAKE_CUDA_COMPILER_PATH_MISSING"},
    // sphconv against torch 2.15 with Debian 12's CMake 3.25 (cuda_std_20 from torch's targets).
    {"CMake Error in src/sphconv/CMakeLists.txt:\n  Target \"sphconv_cuda\" requires the language dialect \"CUDA20\" (with compiler\n"
     "  extensions).  But the current compiler \"NVIDIA\" does not support this, or\n  CMake does not know the flags to enable it.",
     "CMAKE_LANGUAGE_DIALECT_FLAGS_UNKNOWN"},
    // motion-sparsity's BuildExt, as pip's setup.py build prints the frame's source line.
    {"  File \"/tmp/pip-req-build-k2x8/setup.py\", line 7, in build_extensions\n"
     "    self.compiler.compiler_so.remove('-Wstrict-prototypes')\nValueError: list.remove(x): x not in list",
     "SETUP_PY_REMOVES_ABSENT_COMPILER_FLAG"},
    // graspness' knn.h after the THC ports (g++ 13), PointMVSNet's kernel (nvcc 13.0).
    {"/tmp/dv/knn/out/src/src/knn.h:48:9: error: \xe2\x80\x98THError\xe2\x80\x99 was not declared in this scope",
     "THC_HEADERS_REMOVED"},
    {"/tmp/dv/pmvs/out/src/csrc/gather_knn_kernel.cu(85): error: identifier \"TH_INDEX_BASE\" is undefined",
     "THC_HEADERS_REMOVED"},
    {"/tmp/dv/pmvs/out/src/csrc/gather_knn_kernel.cu(126): error: identifier \"THArgCheck\" is undefined",
     "THC_HEADERS_REMOVED"},
    // shiftaddnas' adder kernel (batch 10's dev): THCUNN's SharedMem.cuh, gone with THC (headers.toml),
    // was read as a missing third-party header (MISSING_HEADER_GENERIC).
    {"/tmp/w/out/src/adder_cuda_kernel.cu:5:10: fatal error: THCUNN/SharedMem.cuh: No such file or directory",
     "THC_HEADERS_REMOVED"},
    // lookforthechange's cuda_ops setup.py (batch 12's dev) on torch >= 2.6: include_paths/library_paths'
    // cuda flag became device_type.
    {"  File \"/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py\", line 317, in run_setup\n"
     "    exec(code, locals())\n  File \"<string>\", line 4, in <module>\n"
     "TypeError: library_paths() got an unexpected keyword argument 'cuda'",
     "CPP_EXTENSION_CUDA_FLAG_REMOVED"},
    // edgeml's fastgrnn setup.py (batch 12's dev) imports its repository's package above it; setuptools'
    // PEP 517 backend runs setup.py's text as "<string>", so no frame names setup.py.
    {"  File \"/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py\", line 317, in run_setup\n"
     "    exec(code, locals())\n  File \"<string>\", line 4, in <module>\n"
     "ModuleNotFoundError: No module named 'edgeml_pytorch'",
     "SETUP_PY_MODULE_NOT_IN_TREE"},
    // auto-gredient's gradient_halide setup.py (batch 12's dev): hlr = os.environ['HL_ROOT'], unset.
    {"  File \"/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py\", line 317, in run_setup\n"
     "    exec(code, locals())\n  File \"<string>\", line 5, in <module>\n"
     "  File \"<frozen os>\", line 685, in __getitem__\nKeyError: 'HL_ROOT'",
     "SETUP_PY_ENV_VAR_UNSET"},
    // The same on Python 3.11 (this machine's venv): carets under the exec line.
    {"  File \"/v/lib/python3.11/site-packages/setuptools/build_meta.py\", line 317, in run_setup\n"
     "    exec(code, locals())  # noqa: S102 # exec is intentional here\n    ^^^^^^^^^^^^^^^^^^^^\n"
     "  File \"<string>\", line 5, in <module>\n  File \"<frozen os>\", line 679, in __getitem__\nKeyError: 'HL_ROOT'",
     "SETUP_PY_ENV_VAR_UNSET"},
    {"  File \"/tmp/pip-req-build-x1/setup.py\", line 5, in <module>\n    hlr = os.environ['HL_ROOT']\n"
     "  File \"/usr/lib/python3.10/os.py\", line 680, in __getitem__\n    raise KeyError(key) from None\nKeyError: 'HL_ROOT'",
     "SETUP_PY_ENV_VAR_UNSET"},
    // mlp_maps' hashencoder: its setup.py's CUDAExtension has its name commented out.
    {"  File \"/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py\", line 317, in run_setup\n"
     "    exec(code, locals())\n  File \"<string>\", line 16, in <module>\n"
     "TypeError: CUDAExtension() missing 1 required positional argument: 'name'",
     "SETUP_PY_EXTENSION_WITHOUT_NAME"},
    {"TypeError: Extension.__init__() missing 2 required positional arguments: 'name' and 'sources'",
     "SETUP_PY_EXTENSION_WITHOUT_NAME"},
    // torchmcubes' link (GCC 13 under /opt/gcc, the system's ld), and gold's wording of the same.
    {"/usr/bin/ld: error: could not run lto-wrapper", "LTO_WRAPPER_CANNOT_RUN"},
    {"/usr/bin/ld.gold: fatal error: could not run lto-wrapper", "LTO_WRAPPER_CANNOT_RUN"},
    // torchpermutohedral: its -DTORCH_VERSION=20110 compared in an #if after torch's string definition.
    {"/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/headeronly/version.h:17:3: error: token "
     "\"\"2.11.0\"\" is not valid in preprocessor expressions",
     "PACKAGE_MACRO_CLASHES_WITH_TORCH"},
    {"/usr/include/torch/csrc/api/include/torch/version.h:13:3: error: token \"\"1.13.0a0\"\" is not valid in preprocessor expressions",
     "PACKAGE_MACRO_CLASHES_WITH_TORCH"},
    // 3DLUT-interpolation's tetrahedral_cuda.cpp: g++ at the launch's third '<', in either quotes.
    {"/tmp/w/src/tetrahedral_cuda.cpp:26:41: error: expected primary-expression before \xe2\x80\x98<\xe2\x80\x99 token",
     "CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE"},
    {"launch.cpp:6:9: error: expected primary-expression before '<' token", "CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE"},
    // Vox-Surf: setup.py globbed another layout's paths, so its CUDAExtension had no source.
    {"  File \"/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/cpp_extension.py\", line 3021, in "
     "_write_ninja_file\n    raise AssertionError(\"At least one source is required to build a library\")\n"
     "AssertionError: At least one source is required to build a library",
     "EXTENSION_WITHOUT_SOURCES"},
    // The same on torch 1.13 (Debian's), whose check had no message yet.
    {"  File \"/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py\", line 2109, in _write_ninja_file\n"
     "    assert len(sources) > 0\n           ^^^^^^^^^^^^^^^^\nAssertionError",
     "EXTENSION_WITHOUT_SOURCES"},
    // depth-from-focus's gauss_psf: setup.py lists a source renamed in the tree (ninja's check of the
    // build edge's input), and the same without ninja: g++ and nvcc's host pass, GCC's older driver, nvcc.
    {"ninja: error: '/tmp/w/out/src/gauss_psf_kernel.cu', needed by "
     "'/tmp/w/out/src/build/temp.linux-x86_64-cpython-311/gauss_psf_kernel.o', missing and no known rule to make it",
     "EXTENSION_SOURCE_MISSING"},
    {"cc1plus: fatal error: src/vkfft_cuda.cu: No such file or directory", "EXTENSION_SOURCE_MISSING"},
    {"g++: error: csrc/ops_cpu.cpp: No such file or directory", "EXTENSION_SOURCE_MISSING"},
    {"nvcc fatal   : Could not open input file csrc/ops_kernel.cu", "EXTENSION_SOURCE_MISSING"},
    // A band-limited convolution's band_cuda.cpp (batch 16's dev, torch 2.15): the Tensor methods of
    // torch <= 1.7's spectral ops; dct_cuda's at::rfft; nvcc's wording; torch.rfft in Python.
    {"../../band_cuda.cpp:29:29: error: \xe2\x80\x98" "class at::Tensor\xe2\x80\x99 has no member named \xe2\x80\x98rfft\xe2\x80\x99",
     "TORCH_SPECTRAL_OPS_REMOVED"},
    {"dct.cpp:12:19: error: 'irfft' is not a member of 'at'; did you mean 'fft_irfft'?", "TORCH_SPECTRAL_OPS_REMOVED"},
    {"band_kernel.cu(31): error: class \"at::Tensor\" has no member \"rfft\"", "TORCH_SPECTRAL_OPS_REMOVED"},
    {"  File \"/w/conv2D_fft.py\", line 88, in forward\n    xfft = torch.rfft(x, signal_ndim=2, onesided=True)\n"
     "AttributeError: module 'torch' has no attribute 'rfft'", "TORCH_SPECTRAL_OPS_REMOVED"},
    // ggnet's DCNv2 (batch 16's dev): its src/dcn_v2.h, a torch 0.4 FFI header on TH's CPU tensor type,
    // included by the torch 1.x binding vision.cpp; THCudaTensor, nvcc's wording.
    {"../../src/dcn_v2.h:1:21: error: \xe2\x80\x98THFloatTensor\xe2\x80\x99 was not declared in this scope", "THC_HEADERS_REMOVED"},
    {"src/dcn_v2_cuda.h:3:22: error: 'THCudaTensor' has not been declared", "THC_HEADERS_REMOVED"},
    {"src/dcn_v2_cuda.cu(12): error: identifier \"THCudaDoubleTensor\" is undefined", "THC_HEADERS_REMOVED"},
};

INSTANTIATE_TEST_SUITE_P(All, LongTailWording, ::testing::ValuesIn(kLongTailWordings));

TEST(LongTailWording, NearMisses) {
  // torch.fft's own namespace missing on a torch older than 1.7 (the other direction), another class's
  // rfft, torch.fft's module called as the old function; a TH-like name of the package's own.
  expect_not_named({"x.cpp:9:20: error: 'fft' is not a member of 'torch'", "TORCH_SPECTRAL_OPS_REMOVED"});
  expect_not_named({"x.cpp:9:20: error: 'class FFTPlan' has no member named 'rfft'", "TORCH_SPECTRAL_OPS_REMOVED"});
  expect_not_named({"x.cpp:9:20: error: 'class at::Tensor' has no member named 'rfftn'", "TORCH_SPECTRAL_OPS_REMOVED"});
  expect_not_named({"AttributeError: module 'torch' has no attribute 'fft_rfft'", "TORCH_SPECTRAL_OPS_REMOVED"});
  expect_not_named({"x.cpp:3:5: error: 'THFloatTensorList' was not declared in this scope", "THC_HEADERS_REMOVED"});
  expect_not_named({"x.cpp:3:5: error: 'MyTHFloatTensor' was not declared in this scope", "THC_HEADERS_REMOVED"});
  // The C++ compiler's path (another class: a compiler removed or mistyped), and nvcc not found at all.
  expect_not_named({"CMake Error at CMakeLists.txt:2 (project):\n  The CMAKE_CXX_COMPILER:\n\n    /usr/bin/clang++\n\n"
                    "  is not a full path to an existing compiler tool.", "CMAKE_CUDA_COMPILER_PATH_MISSING"});
  expect_not_named({"CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be found.",
                    "CMAKE_CUDA_COMPILER_PATH_MISSING"});
  // A standard CMake knows but the target sets to a value that is none.
  expect_not_named({"CMake Error in CMakeLists.txt:\n  CUDA_STANDARD is set to invalid value '2a'",
                    "CMAKE_LANGUAGE_DIALECT_FLAGS_UNKNOWN"});
  // A remove of another list, of a variable, or one guarded by a test of the flag.
  expect_not_named({"    flags.remove('-O2')\nValueError: list.remove(x): x not in list", "SETUP_PY_REMOVES_ABSENT_COMPILER_FLAG"});
  expect_not_named({"    self.compiler.compiler_so.remove(flag)\nValueError: list.remove(x): x not in list",
                    "SETUP_PY_REMOVES_ABSENT_COMPILER_FLAG"});
  expect_not_named({"    if '-Wstrict-prototypes' in cc.compiler_so: cc.compiler_so.remove('-Wstrict-prototypes')",
                    "SETUP_PY_REMOVES_ABSENT_COMPILER_FLAG"});
  // A package's own THError-like name, and another missing argument.
  expect_not_named({"/tmp/src/ops.cpp:4:3: error: \xe2\x80\x98MyTHErrorX\xe2\x80\x99 was not declared in this scope",
                    "THC_HEADERS_REMOVED"});
  // A package's own header in a folder whose name only starts like THCUNN's.
  expect_not_named({"/tmp/src/k.cu:3:10: fatal error: THCUNNx/SharedMem.cuh: No such file or directory", "THC_HEADERS_REMOVED"});
  // Another keyword include_paths never took; a module `python -c` imports (its "<string>" is no setup.py's);
  // a KeyError of setup.py's own dict, and os.environ's of a program's frame.
  expect_not_named({"TypeError: include_paths() got an unexpected keyword argument 'cudax'", "CPP_EXTENSION_CUDA_FLAG_REMOVED"});
  expect_not_named({"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
                    "ModuleNotFoundError: No module named 'edgeml_pytorch'", "SETUP_PY_MODULE_NOT_IN_TREE"});
  expect_not_named({"  File \"/tmp/pip-req-build-x1/setup.py\", line 9, in <module>\n    v = versions['HL_ROOT']\n"
                    "KeyError: 'HL_ROOT'", "SETUP_PY_ENV_VAR_UNSET"});
  expect_not_named({"  File \"/home/u/app/train.py\", line 5, in <module>\n    root = os.environ['HL_ROOT']\n"
                    "  File \"<frozen os>\", line 685, in __getitem__\nKeyError: 'HL_ROOT'", "SETUP_PY_ENV_VAR_UNSET"});
  expect_not_named({"TypeError: CUDAExtension() missing 1 required positional argument: 'sources'",
                    "SETUP_PY_EXTENSION_WITHOUT_NAME"});
  expect_not_named({"TypeError: load() missing 1 required positional argument: 'name'", "SETUP_PY_EXTENSION_WITHOUT_NAME"});
  // lto-wrapper ran and lto1 failed (a compile error, an out-of-memory kill): not a link that cannot run LTO.
  expect_not_named({"/usr/bin/ld: error: lto-wrapper failed", "LTO_WRAPPER_CANNOT_RUN"});
  expect_not_named({"lto-wrapper: warning: using serial compilation of 2 LTRANS jobs", "LTO_WRAPPER_CANNOT_RUN"});
  // `.data<T>()` in a template stops before the '>' (another class); the launch line itself is only quoted.
  expect_not_named({"ops.cpp:12:40: error: expected primary-expression before '>' token", "CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE"});
  // The package's own header, or a version that is no string: not torch's definition.
  expect_not_named({"src/my_version.h:3:3: error: token \"\"1.0\"\" is not valid in preprocessor expressions",
                    "PACKAGE_MACRO_CLASHES_WITH_TORCH"});
  expect_not_named({"/x/torch/include/torch/version.h:17:3: error: token \"VERSION\" is not valid in preprocessor expressions",
                    "PACKAGE_MACRO_CLASHES_WITH_TORCH"});
  expect_not_named({"   26 |      <<<(n + 255) / 256, 256>>>(nullptr, 1.0f, 0);", "CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE"});
  // cpp_extension's neighbouring assertion: sources and objects of different lengths is not an empty list.
  expect_not_named({"AssertionError: sources and objects lists must be the same length", "EXTENSION_WITHOUT_SOURCES"});
  // A missing header a CMake build's object needs, nvcc's own temporary file, an #include of a .cpp, an
  // object the link lacks: not a listed source the tree lacks.
  expect_not_named({"ninja: error: 'protobuf/testgen.grpc.pb.h', needed by 'CMakeFiles/utbot.dir/main.cpp.o', missing "
                    "and no known rule to make it", "EXTENSION_SOURCE_MISSING"});
  expect_not_named({"ninja: error: 'src/a.cpp', needed by 'CMakeFiles/a.dir/src/a.cpp.o', missing and no known rule to make it",
                    "EXTENSION_SOURCE_MISSING"});
  expect_not_named({"cc1plus: fatal error: /tmp/tmpxft_0001a2b3_00000000-6_x.cudafe1.cpp: No such file or directory",
                    "EXTENSION_SOURCE_MISSING"});
  expect_not_named({"/home/u/src/ops.cpp:3:10: fatal error: ops_impl.cpp: No such file or directory", "EXTENSION_SOURCE_MISSING"});
  expect_not_named({"g++: error: build/temp.linux-x86_64-cpython-311/ops.o: No such file or directory", "EXTENSION_SOURCE_MISSING"});
}

// The answer names the listed source the tree lacks.
TEST(LongTailWording, AMissingSourceIsNamedInTheCause) {
  auto d = expect_root_cause({"ninja: error: '/tmp/w/out/src/gauss_psf_kernel.cu', needed by "
                              "'/tmp/w/out/src/build/temp.linux-x86_64-cpython-311/gauss_psf_kernel.o', missing and no "
                              "known rule to make it", "EXTENSION_SOURCE_MISSING"});
  ASSERT_NE(d.root(), nullptr);
  EXPECT_NE(d.root()->cause.find("not in the tree: /tmp/w/out/src/gauss_psf_kernel.cu."), std::string::npos) << d.root()->cause;
  EXPECT_NE(d.root()->fix.find("beside /tmp/w/out/src/gauss_psf_kernel.cu"), std::string::npos) << d.root()->fix;
}

// The answer names the flag setup.py removes.
TEST(LongTailWording, TheRemovedFlagIsNamedInTheCause) {
  auto d = expect_root_cause({"  File \"/tmp/pip-req-build-k2x8/setup.py\", line 7, in build_extensions\n"
                              "    self.compiler.compiler_so.remove('-Wstrict-prototypes')\n"
                              "ValueError: list.remove(x): x not in list",
                              "SETUP_PY_REMOVES_ABSENT_COMPILER_FLAG"});
  ASSERT_NE(d.root(), nullptr);
  EXPECT_NE(d.root()->cause.find("setup.py removes -Wstrict-prototypes from"), std::string::npos) << d.root()->cause;
}

}  // namespace
}  // namespace ts::triage::testing

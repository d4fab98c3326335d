// One root cause, every compiler's wording: a C++ signature must name its cause whether GCC,
// clang, nvcc's EDG front end or MSVC printed the line. And every input gets an answer: a root
// cause, "unrecognised" with the first real error line, or "no error".
#include "test_util.h"
#include "triage/render.h"

namespace ts::triage::testing {
namespace {

class OneWording : public ::testing::TestWithParam<Wording> {};

TEST_P(OneWording, NamesTheRootCause) {
  EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line;
}

// Log lines in each tool's own wording (quotes as the tools print them).
const Wording kWordings[] = {
    // Jetson: JetPack's CUDA 10 libraries absent at import (wheel/container for another JetPack, no
    // NVIDIA runtime), or the L4T image's 0-byte placeholders seen by ld / the loader.
    {"OSError: libcurand.so.10: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
    {"ImportError: libcufft.so.10.0: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
    {"ImportError: libcublas.so.10: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
    {"ImportError: /usr/lib/aarch64-linux-gnu/libcublas.so.10: file too short", "JETSON_WHEEL_JETPACK_MISMATCH"},
    {"/usr/bin/ld: /usr/lib/aarch64-linux-gnu/libcudnn.so: file not recognized: File truncated", "JETSON_WHEEL_JETPACK_MISMATCH"},
    // HIP offload flags reaching GCC (every driver name and quote style) or a clang without HIP.
    {"c++: error: unrecognized command line option '--offload-arch=gfx900'; did you mean '--offload-abi=ilp32'?", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
    {"g++-11: error: unrecognized command-line option '--offload-arch=gfx90a'", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
    {"g++: error: unrecognized command-line option \u2018-fno-gpu-rdc\u2019", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
    {"g++-11: error: unrecognized command-line option '--rocm-path=/opt/rocm-5.2.3'", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
    {"clang: error: unsupported option '--offload-arch=gfx1100' for target 'arm64-apple-darwin23.0.0'", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
    // nvcc-only flags of a hipified torch extension reaching ROCm's clang.
    {"clang++: error: unknown argument: '--use_fast_math'", "NVCC_FLAGS_IN_HIP_BUILD"},
    {"clang++: error: unknown argument '--threads'; did you mean '-mthreads'?", "NVCC_FLAGS_IN_HIP_BUILD"},
    {"clang++: error: unknown argument: '--ptxas-options=-v'", "NVCC_FLAGS_IN_HIP_BUILD"},
    {"clang++: error: unknown argument: '-Xptxas'", "NVCC_FLAGS_IN_HIP_BUILD"},
    // rocBLAS without a Tensile library for the GPU: quoted without its prefix, and the follow-up line.
    {"ocBLAS error: Cannot read C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1201", "ROCBLAS_TENSILE_LIBRARY_NOT_FOUND"},
    {"rocBLAS error: Could not initialize Tensile host:", "ROCBLAS_TENSILE_LIBRARY_NOT_FOUND"},
    // PEP 668: pip's error, the distribution's explanation, uv's wording.
    {"error: externally-managed-environment", "PIP_EXTERNALLY_MANAGED"},
    {"\u00d7 This environment is externally managed", "PIP_EXTERNALLY_MANAGED"},
    {"error: The interpreter at /usr is externally managed, and indicates the following:", "PIP_EXTERNALLY_MANAGED"},
    // Cython 3's exception-propagating cdef functions as C callbacks: except *, except? -1, a callback typedef.
    {"h5py/h5fd.pyx:198:16: Cannot assign type 'void *(*)(H5FD_t *) except *' to 'void *(*)(H5FD_t *) noexcept'", "CYTHON3_INCOMPATIBLE"},
    {"g.pyx:404:74: Cannot assign type 'int (const_void *, const_void *) except? -1 nogil' to 'int (*)(const_void *, const_void *) noexcept'", "CYTHON3_INCOMPATIBLE"},
    {"d.pyx:506:30: Cannot assign type 'duk_ret_t (duk_context *) except? -1' to 'duk_safe_call_function'. Exception values are incompatible. Suggest adding 'noexcept' to type 'duk_ret_t (duk_context *) except? -1'.", "CYTHON3_INCOMPATIBLE"},
    // setuptools >= 71 with packaging < 22.
    {"TypeError: canonicalize_version() got an unexpected keyword argument 'strip_trailing_zero'", "PACKAGING_TOO_OLD_FOR_SETUPTOOLS"},
    // packaging >= 22 rejecting a non-PEP 440 version: packaging itself, pip's and pkg_resources' vendored copies.
    {"packaging.version.InvalidVersion: Invalid version: '2.0.0.nv23.05'", "PACKAGING_INVALID_VERSION"},
    {"pip._vendor.packaging.version.InvalidVersion: Invalid version: '1.1build1' (package: distro-info)", "PACKAGING_INVALID_VERSION"},
    {"pkg_resources.extern.packaging.version.InvalidVersion: Invalid version: '0.23ubuntu1' (package: distro-info)", "PACKAGING_INVALID_VERSION"},
    // PEP 660 editable install without backend/pip support: pip's message, pyproject_hooks, old pip.
    {"ERROR: Project file:///x has a 'pyproject.toml' and its build backend is missing the 'build_editable' hook. Since it does not have a 'setup.py' nor a 'setup.cfg', it cannot be installed in editable mode.", "EDITABLE_BACKEND_UNSUPPORTED"},
    {"pyproject_hooks._impl.HookMissing: build_editable", "EDITABLE_BACKEND_UNSUPPORTED"},
    {"(A \"pyproject.toml\" file was found, but editable mode currently requires a setuptools-based build.)", "EDITABLE_BACKEND_UNSUPPORTED"},
    // Python.h missing, gcc's message in other locales (and a capitalised paste).
    {"module.c:1:10: fatal error: Python.h: Arquivo ou diret\u00f3rio inexistente", "PYTHON_H_MISSING"},
    {"dulwich/_objects.c:21:10: fatal error: Python.h: No such file or Directory", "PYTHON_H_MISSING"},
    {"src/m.c:1:10: schwerwiegender Fehler: Python.h: Datei oder Verzeichnis nicht gefunden", "PYTHON_H_MISSING"},
    {"src/m.c:1:10: \u81f4\u547d\u9519\u8bef\uff1a Python.h\uff1a\u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55", "PYTHON_H_MISSING"},
    // setuptools >= 58 without 2to3; auditwheel repair failures.
    {"    error in erl_terms setup command: use_2to3 is invalid.", "SETUPTOOLS_USE_2TO3_REMOVED"},
    {"error in foo setup command: use_2to3 is invalid when false.", "SETUPTOOLS_USE_2TO3_REMOVED"},
    {"ValueError: Cannot repair wheel, because required library \"libcudart.so.13\" could not be located", "AUDITWHEEL_LIB_NOT_LOCATED"},
    {"auditwheel: error: cannot repair \"x-cp36-cp36m-linux_x86_64.whl\" to \"manylinux1_x86_64\" ABI because of the presence of too-recent versioned symbols. You'll need to compile the wheel on an older toolchain.", "AUDITWHEEL_TOO_RECENT_SYMBOLS"},
    {"      ModuleNotFoundError: No module named 'setuptools.command.test'", "SETUPTOOLS_TEST_COMMAND_REMOVED"},
    {"error: invalid command 'test'", "SETUPTOOLS_TEST_COMMAND_REMOVED"},
    // A build tool missing from an isolated PEP 517 build environment.
    {"    ModuleNotFoundError: No module named 'Cython'", "PYTHON_BUILD_DEPS_MISSING"},
    // A prebuilt GPU package whose CUDA/cuDNN major is not loadable: onnxruntime-gpu's provider, cuDNN 8's and 9's own loaders.
    {"FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared object file: No such file or directory", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Could not load library libcublasLt.so.11. Error: libcublasLt.so.11: cannot open shared object file: No such file or directory", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    // CTranslate2's loader: Linux sonames and Windows DLLs.
    {"RuntimeError: Library libcublas.so.12 is not found or cannot be loaded", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"RuntimeError: Library cublas64_12.dll is not found or cannot be loaded", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"RuntimeError: Library libcudnn_ops.so.9 is not found", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    // Any package pinned to one exact torch: pip's resolver and its post-install check.
    {"    vllm 0.5.4 depends on torch==2.4.0", "TORCH_COMPANION_VERSION_CONFLICT"},
    {"vllm-flash-attn 2.5.8.post2 requires torch==2.3.0, but you have torch 2.0.1 which is incompatible.", "TORCH_COMPANION_VERSION_CONFLICT"},
    {"llava 1.2.2.post1 requires torch==2.1.2, but you have torch 2.4.0 which is incompatible.", "TORCH_COMPANION_VERSION_CONFLICT"},
    // xFormers' operator reason when its C++/CUDA library did not load.
    {"    xFormers wasn't build with CUDA support", "EXT_BUILT_FOR_OTHER_TORCH"},
    // protobuf >= 4.21 and _pb2 code from an old protoc: both releases' wording.
    {"TypeError: Descriptors cannot not be created directly.", "PROTOBUF_PY_GENERATED_CODE_OUTDATED"},
    {"TypeError: Descriptors cannot be created directly.", "PROTOBUF_PY_GENERATED_CODE_OUTDATED"},
    {"If this call came from a _pb2.py file, your generated code is out of date and must be regenerated with protoc >= 3.19.0.", "PROTOBUF_PY_GENERATED_CODE_OUTDATED"},
    // cudaDeviceProp fields CUDA 13 removed: EDG/nvcc, GCC (localised quotes), clang, MSVC.
    {"s.cu(121): error: class \"cudaDeviceProp\" has no member \"memoryClockRate\"", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
    {"q.cpp:134:27: error: ‘struct cudaDeviceProp’ has no member named ‘clockRate’", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
    {"q.cpp:134:27: error: no member named 'deviceOverlap' in 'cudaDeviceProp'", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
    {"n.cc(1021): error C2039: 'clockRate': is not a member of 'cudaDeviceProp'", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
    // glibc 2.41's noexcept C23 math declarations against older CUDA/GPU-toolchain headers: EDG, clang, GCC.
    {"/usr/include/bits/mathcalls.h(79): error: exception specification is incompatible with that of previous function \"cospi\" (declared at line 5554 of /usr/local/cuda/include/crt/math_functions.h)", "CUDA_GLIBC_MATH_NOEXCEPT_MISMATCH"},
    {"/usr/include/x86_64-linux-gnu/bits/mathcalls.h:83:1: error: exception specification in declaration does not match previous declaration", "CUDA_GLIBC_MATH_NOEXCEPT_MISMATCH"},
    {"/usr/include/bits/mathcalls.h:79:1: error: declaration of ‘double sinpi(double) noexcept’ has a different exception specifier", "CUDA_GLIBC_MATH_NOEXCEPT_MISMATCH"},
    // nvcc's host-compiler check, Debian/Ubuntu's packaged nvcc wrapper wording.
    {"ERROR: No supported gcc/g++ host compiler found, but clang-3.8 is available.", "NVCC_HOST_GCC_TOO_NEW"},
    // A Find module that only newer CMake ships.
    {"  By not providing \"FindCUDAToolkit.cmake\" in CMAKE_MODULE_PATH this project", "CMAKE_TOO_OLD"},
    // ld's "cannot find -lcuda" in translated locales.
    {"/usr/bin/ld: -lcuda kann nicht gefunden werden", "CUDA_LINK_LIB_NOT_FOUND"},
    {"/usr/bin/ld: 找不到 -lcudart", "CUDA_LINK_LIB_NOT_FOUND"},
    {"/usr/bin/ld : ne peut trouver -lcublas", "CUDA_LINK_LIB_NOT_FOUND"},
    // A missing <cstdint>: GCC, a GCC without a note, clang, EDG, MSVC (ASCII and localised quotes).
    {"a.h:24:3: error: ‘uint8_t’ has not been declared", "MISSING_CSTDINT_NEW_GCC"},
    {"a.h(24): error: namespace \"std\" has no member \"uintptr_t\"", "MISSING_CSTDINT_NEW_GCC"},
    {"a.h:24:8: error: no type named 'uint32_t' in namespace 'std'", "MISSING_CSTDINT_NEW_GCC"},
    {"a.hpp(41): error C2039: “uint32_t”: not a member of “std”", "MISSING_CSTDINT_NEW_GCC"},
    // Another forgotten standard header, four wordings plus a localised GCC.
    {"s.cc:58:21: error: ‘numeric_limits’ is not a member of ‘std’", "MISSING_STD_HEADER"},
    {"k.h:273:19: error: ‘FLT_MAX’ was not declared in this scope", "MISSING_STD_HEADER"},
    {"n.h:110:17: error: no member named 'numeric_limits' in namespace 'std'", "MISSING_STD_HEADER"},
    {"scan.cu(52): error: namespace \"std\" has no member \"numeric_limits\"", "MISSING_STD_HEADER"},
    {"error C2039: 'runtime_error': is not a member of 'std'", "MISSING_STD_HEADER"},
    {"f.cpp:86:18: Fehler: »runtime_error« ist kein Element von »std«", "MISSING_STD_HEADER"},
    // An extension module built for another torch: Linux's undefined symbol, Windows' DLL load failure.
    {"ImportError: /e/site-packages/x_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "EXT_BUILT_FOR_OTHER_TORCH"},
    {"ImportError: DLL load failed while importing flash_attn_2_cuda: The specified procedure could not be found.", "EXT_BUILT_FOR_OTHER_TORCH"},
    {"ImportError: DLL load failed while importing _ext: The specified module could not be found.", "EXT_BUILT_FOR_OTHER_TORCH"},
    {"ImportError: /e/site-packages/pytorch3d/_C.so: undefined symbol: _ZNK3c1010TensorImpl18compute_contiguousEv", "EXT_BUILT_FOR_OTHER_TORCH"},
    // An extension module that was never built: the package is named by the line, never by the signature.
    {"ImportError: cannot import name '_C' from 'detectron2' (/src/detectron2/detectron2/__init__.py)", "EXT_MODULE_NOT_BUILT"},
    {"ModuleNotFoundError: No module named 'mmcv._ext'", "EXT_MODULE_NOT_BUILT"},
    {"ModuleNotFoundError: No module named 'pointnet2_ops._ext'", "EXT_MODULE_NOT_BUILT"},
    {"ModuleNotFoundError: No module named 'fused_layer_norm_cuda'", "EXT_MODULE_NOT_BUILT"},
    {"ModuleNotFoundError: No module named 'amp_C'", "EXT_MODULE_NOT_BUILT"},
    {"ImportError: cannot import name '_ext' from 'pointops' (unknown location)", "EXT_MODULE_NOT_BUILT"},
    // torch's own _C missing is the source checkout shadowing the install, not an unbuilt extension.
    {"ModuleNotFoundError: No module named 'torch._C'", "TORCH_C_LOADED_FROM_SOURCE_TREE"},
    // torch's own DLLs stay a Windows DLL problem.
    {"ImportError: DLL load failed while importing _C: The specified module could not be found.", "WINDOWS_DLL_LOAD_FAILED"},
    // CMake's if() on an empty Python version (the Python library and headers were not found).
    {"    \"VERSION_LESS\" \"3\"", "PYTHON_H_MISSING"},
    // Sources newer than torch: a registration macro the installed headers lack.
    {"r.cpp:5:24: error: unexpected namespace name 'ta': expected expression", "EXT_SOURCE_NEWER_THAN_TORCH"},
    {"r.cpp:5:1: error: ISO C++ forbids declaration of ‘TORCH_LIBRARY_FRAGMENT’ with no type [-fpermissive]", "EXT_SOURCE_NEWER_THAN_TORCH"},
    {"r.cpp(5): error: identifier \"STABLE_TORCH_LIBRARY\" is undefined", "EXT_SOURCE_NEWER_THAN_TORCH"},
    {"r.cpp(5): error C3861: 'TORCH_LIBRARY_FRAGMENT': identifier not found", "EXT_SOURCE_NEWER_THAN_TORCH"},
    // Removed torch APIs.
    // torch APIs removed since the package was written (this session's GPU run: afsd, condlane, irr, pytorch-emd).
    {"/tmp/x/out/src/AFSD/prop_pooling/boundary_max_pooling_kernel.cu(94): error: namespace \"at::cuda\" has no member \"getCurrentCUDAStream\"", "TORCH_API_REMOVED"},
    {"/tmp/x/out/src/correlation_cuda.cc:74:25: error: \u2018class at::Context\u2019 has no member named \u2018getCurrentCUDAStream\u2019", "TORCH_API_REMOVED"},
    {"k.cpp:9:14: error: 'getCurrentCUDAStream' is not a member of 'at::cuda'", "TORCH_API_REMOVED"},
    {"/tmp/x/out/src/cuda/emd_kernel.cu(180): error: identifier \"CHECK_EQ\" is undefined", "TORCH_API_REMOVED"},
    {"emd.cpp:12:3: error: \u2018CHECK_GE\u2019 was not declared in this scope", "TORCH_API_REMOVED"},
    // CUB's iterators that CCCL 3.0 (CUDA 13) removed, in nvcc's, clang's and gcc's wording (odtk's kernels).
    {"/tmp/x/csrc/cuda/nms.cu(39): catastrophic error: cannot open source file \"cub/iterator/counting_input_iterator.cuh\"", "CCCL_ITERATOR_REMOVED"},
    {"k.cu:2:10: fatal error: 'cub/iterator/transform_input_iterator.cuh' file not found", "CCCL_ITERATOR_REMOVED"},
    {"k.cu:2:10: fatal error: cub/iterator/discard_output_iterator.cuh: No such file or directory", "CCCL_ITERATOR_REMOVED"},
    {"k.cu(64): error: namespace \"cub\" has no member \"CountingInputIterator\"", "CCCL_ITERATOR_REMOVED"},
    // Inline PTX shfl/vote without .sync, refused by ptxas for sm_70+ (warp-ctc's moderngpu; a faiss build for sm_72).
    {"ptxas /tmp/tmpxft_00001872_00000000-6_ctc_entrypoint.ptx, line 46047; error   : Instruction 'shfl' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", "PTX_WARP_SYNC_REQUIRED"},
    {"ptxas /tmp/IVFUtils-7663dd/IVFUtils-sm_72.s, line 424; error   : Instruction 'shfl' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", "PTX_WARP_SYNC_REQUIRED"},
    {"ptxas /tmp/k.ptx, line 51; error   : Instruction 'vote' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", "PTX_WARP_SYNC_REQUIRED"},
    // c10::Half compared in device code without cpp_extension's -D__CUDA_NO_HALF_OPERATORS__ (spconv's maxpool.cu, CMake-built).
    {"            operand types are: const c10::Half == const c10::Half", "CUDA_HALF_OPERATOR_AMBIGUOUS"},
    {"            operand types are: float < c10::BFloat16", "CUDA_HALF_OPERATOR_AMBIGUOUS"},
    // A pybind11 older than the target Python (spconv's third_party/pybind11 of 2019 with Python 3.12).
    {"/tmp/x/out/src/third_party/pybind11/include/pybind11/cast.h:442:36: error: invalid use of incomplete type \u2018PyFrameObject\u2019 {aka \u2018struct _frame\u2019}", "PYBIND11_TOO_OLD_FOR_PYTHON"},
    {"/tmp/x/third_party/pybind11/include/pybind11/pybind11.h:2021:49: error: \u2018PyThreadState\u2019 {aka \u2018struct _ts\u2019} has no member named \u2018frame\u2019; did you mean \u2018cframe\u2019?", "PYBIND11_TOO_OLD_FOR_PYTHON"},
    {"/tmp/x/pybind11/include/pybind11/cast.h:442:36: error: member access into incomplete type 'PyFrameObject' (aka 'struct _frame')", "PYBIND11_TOO_OLD_FOR_PYTHON"},
    {"/tmp/x/pybind11/include/pybind11/cast.h(442): error: pointer to incomplete class type \"_frame\" is not allowed", "PYBIND11_TOO_OLD_FOR_PYTHON"},
    // A binding whose library the repository's own CMake project builds first (warp-ctc's pytorch_binding).
    {"  Build warp-ctc and set WARP_CTC_PATH to the location of libwarpctc.so (default is '../build')", "SETUP_PY_NEEDS_PREBUILT_LIBRARY"},
    {"Could not find libwarprnnt.so in ../build.", "SETUP_PY_NEEDS_PREBUILT_LIBRARY"},
    // A Boost component library missing where Boost's headers are there (end2end's program_options; FindBoost's wording).
    {"  \"boost_program_options\" (requested version 1.83.0) with any of the", "BOOST_COMPONENT_NOT_INSTALLED"},
    {"  Could NOT find Boost (missing: program_options) (found version \"1.74.0\")", "BOOST_COMPONENT_NOT_INSTALLED"},
    {"x.cu:3:10: fatal error: 'THC/THC.h' file not found", "THC_HEADERS_REMOVED"},
    {"x.cu(3): catastrophic error: cannot open source file \"THC/THC.h\"", "THC_HEADERS_REMOVED"},
    {"x.cpp(12): error C3861: 'AT_CHECK': identifier not found", "AT_CHECK_REMOVED"},
    {"x.cpp:12:3: error: use of undeclared identifier 'AT_CHECK'", "AT_CHECK_REMOVED"},
    {"x.cpp:40:5: error: cannot convert ‘const at::DeprecatedTypeProperties’ to ‘c10::ScalarType’", "TENSOR_TYPE_DISPATCH_REMOVED"},
    {"x.cpp(40): error C2664: cannot convert argument 1 from 'const at::DeprecatedTypeProperties' to 'c10::ScalarType'", "TENSOR_TYPE_DISPATCH_REMOVED"},
    {"x.cu:40:3: error: ‘THCState’ was not declared in this scope", "THC_HEADERS_REMOVED"},
    {"x.cu(40): error: identifier \"THCudaCheck\" is undefined", "THC_HEADERS_REMOVED"},
    {"x.cpp(40): error C3861: 'THCudaMalloc': identifier not found", "THC_HEADERS_REMOVED"},
    {"x.cpp(9): fatal error C1060: compiler is out of heap space", "OOM_CC1PLUS_KILLED"},
    {"ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject", "NUMPY2_ABI_MISMATCH"},
    // Headers in MSVC / EDG / clang wording.
    {"x.cpp(1): fatal error C1083: Cannot open include file: 'Python.h': No such file or directory", "PYTHON_H_MISSING"},
    {"x.cu(2): catastrophic error: cannot open source file \"torch/extension.h\"", "TORCH_EXTENSION_H_MISSING"},
    {"x.cu:2:10: fatal error: 'cusparse.h' file not found", "CUDA_DEV_HEADER_MISSING"},
    {"x.cu(2): catastrophic error: cannot open source file \"foo/bar.h\"", "MISSING_HEADER_GENERIC"},
    {"x.cu:7:10: fatal error: cute/algorithm/copy.hpp: No such file or directory", "SUBMODULES_MISSING"},
    // Type-first factories (soap117/DeepRule#18; nvcc's overload error lists the argument types).
    {"src/right_pool.cpp:44:41: error: could not convert \u2018at::CUDA(((c10::ScalarType)c10::kFloat))\u2019 from \u2018at::DeprecatedTypeProperties\u2019 to \u2018c10::IntArrayRef\u2019 {aka \u2018c10::ArrayRef<long int>\u2019}", "TENSOR_TYPE_DISPATCH_REMOVED"},
    {"unique_kernel.cu(22): error: no instance of overloaded function \"at::zeros\" matches the argument list\n            argument types are: (at::DeprecatedTypeProperties, {...})", "TENSOR_TYPE_DISPATCH_REMOVED"},
    // A header-only library's per-arch template with no specialization (NVIDIA/cutlass#2461; cuFFTDx's SM<>).
    {"fftconv_cuda.cu(791): error: incomplete type \"cufftdx::SM<900U>\" is not allowed", "HEADER_LIBRARY_NO_ARCH_SPECIALIZATION"},
    {"(aka \"cutlass::gemm::device::DefaultGemmConfiguration<cutlass::arch::OpClassTensorOp, cutlass::arch::Sm89, cutlass::half_t, cutlass::half_t, float, float>\") is not allowed", "HEADER_LIBRARY_NO_ARCH_SPECIALIZATION"},
    // A header with no extension, after the including file's line and column.
    {"ops/src/datatype/datatype.h:4:10: fatal error: google/dense_hash_map: No such file or directory", "MISSING_HEADER_GENERIC"},
    // Links that name a CUDA library or LAPACK.
    {"/usr/bin/ld: x.o: undefined reference to `ncclCommInitRank'", "NCCL_NOT_FOUND"},
    {"/usr/bin/ld: x.o: undefined reference to `cusparseCreate'", "CUDA_LINK_LIB_NOT_FOUND"},
    {"x.obj : error LNK2019: unresolved external symbol cublasCreate_v2 referenced in function f", "CUDA_LINK_LIB_NOT_FOUND"},
    {"/usr/bin/ld: libx.so: undefined reference to `sgesv_'", "LAPACK_NOT_LINKED"},
    {"x.obj : error LNK2019: unresolved external symbol foo referenced in function bar", "UNDEFINED_REFERENCE_LINK"},
    // Import and runtime.
    {"ImportError: DLL load failed while importing _C: The specified module could not be found.", "WINDOWS_DLL_LOAD_FAILED"},
    {"RuntimeError: Not compiled with GPU support (nms at csrc/nms.h:22)", "EXT_NOT_COMPILED_WITH_CUDA"},
    {"ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"OSError: /x/_version_cuda.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb", "UNDEFINED_SYMBOL_CXX11_ABI"},
    {"RuntimeError: CUDA error: no kernel image is available for execution on the device", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"RuntimeError: CUDA error: invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"RuntimeError: HIP error: invalid device function", "ROCM_NO_CODE_OBJECT_FOR_GPU"},
    {"RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility was attempted on non supported HW", "CUDA_ERROR_804_FORWARD_COMPAT"},
    {"RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version", "NVIDIA_DRIVER_TOO_OLD"},
    {"CUDA error at x.cu:9 code=35(cudaErrorInsufficientDriver) \"cudaGetDeviceCount(&n)\"", "NVIDIA_DRIVER_TOO_OLD"},
    {"ModuleNotFoundError: No module named 'distutils'", "PY312_DISTUTILS_REMOVED"},
    {"AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?", "PKGUTIL_IMPIMPORTER_PY312"},
    {"ModuleNotFoundError: No module named 'pkg_resources'", "PKG_RESOURCES_REMOVED"},
    // A compiler too old for the -std the build passes (GCC driver, cc1plus, either quote style).
    {"g++: error: unrecognized command line option ‘-std=c++14’", "GCC_TOO_OLD_FOR_TORCH"},
    {"c++: error: unrecognized command line option '-std=gnu++14'", "GCC_TOO_OLD_FOR_TORCH"},
    {"cc1plus: error: unrecognized command line option \"-std=c++11\"", "GCC_TOO_OLD_FOR_TORCH"},
    // An architecture nvcc no longer knows, whatever the option and the arch kind.
    {"nvcc fatal   : Value 'compute_30' is not defined for option 'gpu-architecture'", "NVCC_UNSUPPORTED_GPU_ARCH"},
    {"nvcc fatal   : Value 'sm_20' is not defined for option 'gpu-name'", "NVCC_UNSUPPORTED_GPU_ARCH"},
    // any value of the GPU options, one no toolkit has: a README's -arch=[arch] typed with its brackets
    // (multimodallearning/pytorch-mask-rcnn#38), ptxas under CMake's compiler check (utcs-scea/altis#19).
    {"nvcc fatal   : Value '[sm_61]' is not defined for option 'gpu-architecture'", "NVCC_UNSUPPORTED_GPU_ARCH"},
    {"    ptxas fatal   : Value 'sm_30' is not defined for option 'gpu-name'", "NVCC_UNSUPPORTED_GPU_ARCH"},
    // conda's conflict report quoted without its UnsatisfiableError line (pytorch/pytorch#55007).
    {"anaconda==2020.11 -> pkginfo==1.6.1[build='py38h06a4308_0|py37h06a4308_0']The following specifications were found to be incompatible with your system:",
     "CONDA_SOLVE_CONFLICT"},
    // nvcc's sub-tool killed: lower-case, no colon (as quoted in CI logs).
    {"nvcc error 'cicc' died due to signal 9 (kill signal)", "OOM_NVCC_SUBPROCESS_KILLED"},
    // half2 <-> float2 conversions only exist from sm_53 in older toolkits.
    {"src/reduce_kernel.h(199): error: identifier \"__half22float2\" is undefined", "NVCC_HALF_INTRINSIC_ARCH_TOO_LOW"},
    // A GLIBCXX tag quoted without its backquotes.
    {"ImportError: /env/lib/libstdc++.so.6: version GLIBCXX_3.4.29 not found (required by x.so)", "GLIBCXX_VERSION_NOT_FOUND"},
    // Relocatable device code linked without the device link: GNU ld, MSVC link, libcudadevrt.
    {"k.cudafe1.cpp:(.text+0x1d): undefined reference to `__cudaRegisterLinkedBinary_52_tmpxft_00017045_00000000_6_k_cpp1_ii_4778c217'", "CUDA_RDC_DEVICE_LINK_MISSING"},
    {"a_cuda_kernel.obj : error LNK2001: unresolved external symbol __cudaRegisterLinkedBinary_52_tmpxft_0_a_cpp1_ii_1", "CUDA_RDC_DEVICE_LINK_MISSING"},
    {"link.stub:(.text+0xad): undefined reference to `__fatbinwrap_38_cuda_device_runtime_compute_86_cpp1_ii_8b1a5d37'", "CUDA_RDC_DEVICE_LINK_MISSING"},
    // CUDA 12 removed texture references: EDG, GNU ld, MSVC link.
    {"k.cu(56): error: texture is not a template", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
    {"k.cu(120): error: identifier \"cudaBindTexture\" is undefined", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
    {"/usr/bin/ld: undefined reference to `cudaUnbindTexture'", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
    {"k.obj : error LNK2019: unresolved external symbol cudaBindTextureToArray referenced in function f", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
    // Any standard name the compiler says std lacks, in each wording (not only the common ones).
    {"x.cpp:3:10: error: ‘exchange’ is not a member of ‘std’", "MISSING_STD_HEADER"},
    {"x.cc:3:10: error: no member named 'exchange' in namespace 'std'", "MISSING_STD_HEADER"},
    {"x.cu(3): error: namespace \"std\" has no member \"tolower\"", "MISSING_STD_HEADER"},
    {"x.cpp(3): error C2039: 'tolower': is not a member of 'std'", "MISSING_STD_HEADER"},
    // The host compiler out of memory: the C front end, GCC's allocator, MSVC's heap, clang's killed child.
    {"gcc: fatal error: Killed signal terminated program cc1", "OOM_CC1PLUS_KILLED"},
    {"cc1plus: out of memory allocating 65536 bytes after a total of 2147483648 bytes", "OOM_CC1PLUS_KILLED"},
    {"x.cpp(9): fatal error C1002: compiler is out of heap space in pass 2", "OOM_CC1PLUS_KILLED"},
    {"clang: error: unable to execute command: Killed", "OOM_CC1PLUS_KILLED"},
    {"OSError: [Errno 122] Disk quota exceeded", "DISK_FULL"},
    // bfloat16 on a GPU without it: cuBLAS, vLLM's check, torch autocast.
    {"RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`", "GPU_BF16_UNSUPPORTED"},
    {"ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.", "GPU_BF16_UNSUPPORTED"},
    {"RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.", "GPU_BF16_UNSUPPORTED"},
    // A companion package pinned for another torch release (pip's resolver).
    {"    torchvision 0.15.2 depends on torch==2.0.1", "TORCH_COMPANION_VERSION_CONFLICT"},
    {"    torchaudio 2.5.1 depends on torch==2.5.1", "TORCH_COMPANION_VERSION_CONFLICT"},
    // nvcc's own host-compiler check (CUDA <= 10.x): clang on Linux, Apple clang, gcc.
    {"nvcc fatal   : The version ('60000') of the host compiler ('clang') is not supported", "NVCC_HOST_GCC_TOO_NEW"},
    {"nvcc fatal   : The version ('90000') of the host compiler ('Apple clang') is not supported", "NVCC_HOST_GCC_TOO_NEW"},
    {"nvcc fatal   : The version ('11.2') of the host compiler ('gcc') is not supported", "NVCC_HOST_GCC_TOO_NEW"},
    // clang's "no member" wording for a std:: integer type without <cstdint>.
    {"f.h:15:30: error: no member named 'uint8_t' in namespace 'std'", "MISSING_CSTDINT_NEW_GCC"},
    // torch's own module missing a libtorch symbol: another install's libraries are loaded.
    {"ImportError: /home/u/.local/lib/python3.8/site-packages/torch/_C.so: undefined symbol: _ZN5torch3jit5Value13setUniqueNameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", "TORCH_MIXED_INSTALL_STALE_LIBS"},
    {"ImportError: /opt/venv/lib/python3.10/site-packages/torch/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "TORCH_MIXED_INSTALL_STALE_LIBS"},
    // CUDA_HOME extended like PATH: setuptools, Python, the shell.
    {"unable to execute ':/usr/local/cuda-10.0/bin/nvcc': No such file or directory", "CUDA_HOME_IS_PATH_LIST"},
    {"FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda:/usr/local/cuda-12.1/bin/nvcc'", "CUDA_HOME_IS_PATH_LIST"},
    {"/bin/sh: 1: :/usr/local/cuda/bin/nvcc: not found", "CUDA_HOME_IS_PATH_LIST"},
    {"error: command '/usr/local/cuda-10.1:/bin/nvcc' failed with exit status 1", "CUDA_HOME_IS_PATH_LIST"},
    // conda and mamba solvers.
    {"UnsatisfiableError: The following specifications were found to be in conflict:", "CONDA_SOLVE_CONFLICT"},
    {"error    libmamba Could not solve for environment specs", "CONDA_SOLVE_CONFLICT"},
    // A GPU older than the library call needs: cuBLAS and cuDNN.
    {"RuntimeError: CUDA error: CUBLAS_STATUS_ARCH_MISMATCH when calling `cublasGemmEx(...)`", "GPU_ARCH_TOO_OLD_FOR_LIBRARY"},
    {"RuntimeError: cuDNN error: CUDNN_STATUS_ARCH_MISMATCH", "GPU_ARCH_TOO_OLD_FOR_LIBRARY"},
    // pybind11 under Python's limited API: EDG, GCC, clang, MSVC.
    {"torch/include/pybind11/buffer_info.h(107): error: identifier \"Py_buffer\" is undefined", "EXT_PY_LIMITED_API_PYBIND11"},
    {"torch/include/pybind11/buffer_info.h:107:23: error: 'Py_buffer' does not name a type", "EXT_PY_LIMITED_API_PYBIND11"},
    {"torch/include/pybind11/buffer_info.h:107:23: error: unknown type name 'Py_buffer'", "EXT_PY_LIMITED_API_PYBIND11"},
    {"torch\\include\\pybind11\\buffer_info.h(107): error C2065: 'Py_buffer': undeclared identifier", "EXT_PY_LIMITED_API_PYBIND11"},
    // An MSVC older than libtorch's headers need (English and localised text, the code is the same).
    {"C:\\libtorch\\include\\torch/csrc/utils/variadic.h(195): error C2951: template declarations are only permitted at global, namespace, or class scope", "MSVC_TOO_OLD_FOR_TORCH"},
    {"E:\\libtorch\\include\\c10/util/C++17.h(211): error C2951: 模板 声明只能在全局、命名空间或类范围内使用", "MSVC_TOO_OLD_FOR_TORCH"},
    {"c10/util/Metaprogramming.h(40): error C2210: 'T': pack expansions cannot be used as arguments to non-packed parameters in alias templates", "MSVC_TOO_OLD_FOR_TORCH"},
    // HIP headers without the platform macro (ROCm >= 5 and the older HCC/NVCC names).
    {"/opt/rocm/include/hip/hip_runtime.h:66:2: error: #error (\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");", "HIP_PLATFORM_MACRO_UNDEFINED"},
    {"/opt/rocm/include/hip/hip_common.h:50:2: error: \"Must define exactly one of __HIP_PLATFORM_HCC__ or __HIP_PLATFORM_NVCC__\"", "HIP_PLATFORM_MACRO_UNDEFINED"},
    // The HIP clang without its ROCm install: device library, runtime (new and old punctuation), installation.
    {"clang: error: cannot find ROCm device library; provide its path via '--rocm-path' or '--rocm-device-lib-path', or pass '-nogpulib' to build without ROCm device library", "ROCM_PATH_NOT_FOUND"},
    {"clang-12: error: cannot find HIP runtime. Provide its path via --rocm-path, or pass -nogpuinc to build without HIP runtime.", "ROCM_PATH_NOT_FOUND"},
    {"clang: error: cannot find ROCm installation; provide its path via '--rocm-path', or pass '-nogpulib' and '-nogpuinc' to build without ROCm device library and HIP includes", "ROCM_PATH_NOT_FOUND"},
    // The Windows SDK's CRT/Win32 headers: MSVC (English, localised), the IDE's error list, clang-cl.
    {"C:\\VS\\VC\\Tools\\MSVC\\14.29.30133\\include\\crtdefs.h(10): fatal error C1083: Cannot open include file: 'corecrt.h': No such file or directory", "WINDOWS_SDK_MISSING"},
    {"C:\\VS\\VC\\Tools\\MSVC\\14.24.28314\\include\\crtdefs.h(10): fatal error C1083: 无法打开包括文件: “corecrt.h”: No such file or directory", "WINDOWS_SDK_MISSING"},
    {"Error\tC1083\tCannot open include file: 'stddef.h': No such file or directory\trpcs3\tC:\\src\\wx\\defs.h\t713", "WINDOWS_SDK_MISSING"},
    {"C:\\VS\\include\\crtdefs.h(10,10): fatal error: 'corecrt.h' file not found", "WINDOWS_SDK_MISSING"},
    // A CUDA extension linked against a CPU-only torch: GNU ld, lld, link.exe.
    {"/usr/bin/ld: cannot find -lc10_cuda: No such file or directory", "TORCH_CPU_ONLY_FOR_CUDA_EXT"},
    {"ld.lld: error: unable to find library -ltorch_cuda", "TORCH_CPU_ONLY_FOR_CUDA_EXT"},
    {"LINK : fatal error LNK1181: cannot open input file 'c10_cuda.lib'", "TORCH_CPU_ONLY_FOR_CUDA_EXT"},
    {"LINK : fatal error LNK1104: cannot open file 'torch_cuda.lib'", "TORCH_CPU_ONLY_FOR_CUDA_EXT"},
    // CUDA's own libraries missing at link: link.exe's LNK1104 and lld's wording.
    {"LINK : fatal error LNK1104: cannot open file 'cublas.lib'", "CUDA_LINK_LIB_NOT_FOUND"},
    {"ld.lld: error: unable to find library -lcudart", "CUDA_LINK_LIB_NOT_FOUND"},
    // torch's C++17 check as MSVC prints it; GCC's "'std::X' has not been declared".
    {"c10/macros/Macros.h(1): fatal error C1189: #error:  C++17 or later compatible compiler is required to use PyTorch.", "CXX17_REQUIRED"},
    {"x.cc:12:8: error: 'std::runtime_error' has not been declared", "MISSING_STD_HEADER"},
    // Out of disk and out of memory on Windows (link.exe, the OS) and in clang's LLVM.
    {"LINK : fatal error LNK1180: insufficient disk space to complete link", "DISK_FULL"},
    {"OSError: [WinError 112] There is not enough space on the disk", "DISK_FULL"},
    {"LINK : fatal error LNK1102: out of memory", "OOM_LINKER_KILLED"},
    {"LLVM ERROR: out of memory", "OOM_CC1PLUS_KILLED"},
    // gcc-only -f flags reaching clang.
    {"clang: error: unknown argument: '-fno-semantic-interposition'", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
    {"clang++-14: error: unknown argument: '-fno-plt'", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
    // NumPy 2 refusing a module built for NumPy 1: the umath import and the ABI numbers.
    {"ImportError: numpy.core._multiarray_umath failed to import", "NUMPY2_ABI_MISMATCH"},
    {"RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000", "NUMPY2_ABI_MISMATCH"},
    // pip's post-install check naming the companion's torch pin.
    {"torchvision 0.17.0 requires torch==2.2.0, but you have torch 2.3.0 which is incompatible.", "TORCH_COMPANION_VERSION_CONFLICT"},
    {"ERROR: torchaudio 0.5.0 has requirement torch==1.5.0, but you'll have torch 1.6.0 which is incompatible.", "TORCH_COMPANION_VERSION_CONFLICT"},
    // macOS dyld naming a torch C++ symbol the installed libtorch lacks.
    {"ImportError: dlopen(/x/_C.cpython-310-darwin.so, 0x0002): Symbol not found: __ZN3c1017RegisterOperatorsD1Ev", "EXT_BUILT_FOR_OTHER_TORCH"},
    // A bundled CUB's namespace macros against the toolkit's CUB.
    {"/usr/local/cuda/include/cub/util_namespace.cuh:46:2: error: #error CUB requires a definition of CUB_NS_QUALIFIER when CUB_NS_PREFIX/POSTFIX are defined.", "CUB_THRUST_VERSION_MISMATCH"},
    // A warning made fatal by -Werror after a compiler upgrade: GCC (English, German), clang, MSVC.
    {"src/UtilsAvx512.cc:970:35: error: ‘r’ may be used uninitialized [-Werror=maybe-uninitialized]", "WERROR_NEW_COMPILER_WARNING"},
    {"avx512fintrin.h:6137:10: Fehler: »__Y« ist nicht initialisiert, wird aber benutzt [-Werror=uninitialized]", "WERROR_NEW_COMPILER_WARNING"},
    {"aten/src/ATen/core/List.h:88:10: error: variable 'x' set but not used [-Werror,-Wunused-but-set-variable]", "WERROR_NEW_COMPILER_WARNING"},
    {"c10\\util\\Half.h(120): error C2220: the following warning is treated as an error", "WERROR_NEW_COMPILER_WARNING"},
    {"x.cpp(12): error C2220: warning treated as error - no 'object' file generated", "WERROR_NEW_COMPILER_WARNING"},
    {"xlocale(319): error C2220: 警告被视为错误 - 没有生成“object”文件", "WERROR_NEW_COMPILER_WARNING"},
    // clang's unknown -W flag stays a flag mismatch although -Werror tags it.
    {"error: unknown warning option '-Wno-unused-but-set-variable'; did you mean '-Wno-unused-const-variable'? [-Werror,-Wunknown-warning-option]", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
    // FindCUDA's library variables left NOTFOUND: the configure listing and the link line.
    {"CUDA_cublas_LIBRARY (ADVANCED)", "CMAKE_CUDA_LIBRARY_NOTFOUND"},
    {"/usr/bin/ld: cannot find -lCUDA_cublas_LIBRARY-NOTFOUND", "CMAKE_CUDA_LIBRARY_NOTFOUND"},
    // An assembler older than the compiler: any mnemonic it does not know (TSX, CET, AVX-512).
    {"/tmp/ccK2bNjL.s:634: Error: no such instruction: `xend'", "ASSEMBLER_TOO_OLD"},
    {"/tmp/ccV3C0xn.s:46042: Error: no such instruction: `endbr64'", "ASSEMBLER_TOO_OLD"},
    {"/tmp/ccErIxvH.s:17054: Error: no such instruction: `{vex} vpdpbusds %ymm7,%ymm0,%ymm6'", "ASSEMBLER_TOO_OLD"},
    // The C++ standard too old for the headers: libstdc++'s own guard (C++11/14, localised prefix).
    {"c++14_warning.h:32:2: 错误：#error This file requires compiler and library support for the forthcoming ISO C++ 2014 standard.", "CXX17_REQUIRED"},
    {"/usr/include/c++/4.8.2/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library support for the ISO C++ 2011 standard.", "CXX17_REQUIRED"},
    // setup.py's own build-dependency check.
    {"RuntimeError: Missing build dependency: Unable to `import yaml`.", "PYTHON_BUILD_DEPS_MISSING"},
    // The string-ABI mismatch at link time (the linker's demangled name).
    {"main.cpp:(.text+0x4a): undefined reference to `torch::jit::load(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)'", "UNDEFINED_SYMBOL_CXX11_ABI"},
    {"app.cpp:(.text+0x30e): more undefined references to `c10::Error::Error(c10::SourceLocation, std::string const&)' follow", "UNDEFINED_SYMBOL_CXX11_ABI"},
    // A CUDA compiler that cannot find libdevice: nvcc's driver, old cicc, clang.
    {"nvcc fatal   : Path to libdevice library not specified", "CUDA_LIBDEVICE_NOT_FOUND"},
    {"error in open: /usr/local/cuda/bin/../nvvm/libdevice/libdevice.compute_50.10.bc", "CUDA_LIBDEVICE_NOT_FOUND"},
    {"clang: error: cannot find libdevice for sm_35; provide path to different CUDA installation via '--cuda-path', or pass '-nocudalib' to build without linking with libdevice", "CUDA_LIBDEVICE_NOT_FOUND"},
    // An arch nvcc does not know, pasted without the closing quote.
    {"nvcc fatal   : Unsupported gpu architecture 'compute_61", "NVCC_UNSUPPORTED_GPU_ARCH"},
    // A newer gcc's -f flag (Python's sysconfig) reaching an older gcc: both spellings, a localised driver.
    {"g++: error: unrecognized command line option \u2018-fno-plt\u2019", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
    {"gcc: error: unrecognized command-line option '-fcf-protection'", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
    {"g++: \u9519\u8bef\uff1aunrecognized command line option \u2018-fno-plt\u2019", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
    // A header only newer torch has: gcc (localised), clang, EDG, MSVC.
    {"d.cpp:16:10: fatal error: ATen/ceil_div.h: \u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55", "EXT_SOURCE_NEWER_THAN_TORCH"},
    {"d.cu:16:10: fatal error: 'ATen/ceil_div.h' file not found", "EXT_SOURCE_NEWER_THAN_TORCH"},
    {"d.cu(16): catastrophic error: cannot open source file \"ATen/ceil_div.h\"", "EXT_SOURCE_NEWER_THAN_TORCH"},
    {"d.cpp(16): fatal error C1083: Cannot open include file: 'ATen/ceil_div.h': No such file or directory", "EXT_SOURCE_NEWER_THAN_TORCH"},
    // The MSVC STL refusing an older nvcc (EDG prints the static assertion).
    {"yvals_core.h(581): error: static assertion failed with \"error STL1002: Unexpected compiler version, expected CUDA 12.4 or newer.\"", "MSVC_UNSUPPORTED_BY_NVCC"},
    // A vendored header-only submodule (glm, anything under third_party/) not checked out.
    {"fatal error C1083: Cannot open include file: \"glm/glm.hpp\": No such file or directory", "SUBMODULES_MISSING"},
    {"a.cuh:2:10: fatal error: third_party/glm/glm/glm.hpp: No such file or directory", "SUBMODULES_MISSING"},
    {"a.cu(2): catastrophic error: cannot open source file \"glm/glm.hpp\"", "SUBMODULES_MISSING"},
    // An arch nvcc does not know, quoted without nvcc's prefix.
    {"Unsupported gpu architecture 'compute_75'", "NVCC_UNSUPPORTED_GPU_ARCH"},
    // gcc without its C++ front end: today's and old gcc wording.
    {"gcc: fatal error: cannot execute 'cc1plus': execvp: No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    {"gcc: error trying to exec 'cc1plus': execvp: No such file or directory", "CPP_EXT_CXX_NOT_FOUND"},
    // DeepSpeed's async_io op without libaio: setup.py's abort, link.exe (English, localised), GNU ld.
    {"AssertionError: Unable to pre-compile async_io", "DEEPSPEED_AIO_LIBAIO_MISSING"},
    {"LINK : fatal error LNK1181: cannot open input file 'aio.lib'", "DEEPSPEED_AIO_LIBAIO_MISSING"},
    {"LINK : fatal error LNK1181: \u65e0\u6cd5\u6253\u5f00\u8f93\u5165\u6587\u4ef6\u201caio.lib\u201d", "DEEPSPEED_AIO_LIBAIO_MISSING"},
    {"/usr/bin/ld: cannot find -laio: No such file or directory", "DEEPSPEED_AIO_LIBAIO_MISSING"},
    // A missing header in any locale and MSVC's double-quoted form.
    {"g.h:36:10: fatal error: EGL/egl.h: \u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55", "MISSING_HEADER_GENERIC"},
    {"g.cpp(9): fatal error C1083: Cannot open include file: \"EGL/egl.h\": No such file or directory", "MISSING_HEADER_GENERIC"},
    // A second, older copy of a CUDA library loaded before torch's: versioned and unversioned entry points.
    {"ImportError: /venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
    {"OSError: /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: cublasLtGroupedMatrixLayoutInit_internal", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
    {"ImportError: /opt/x/libtorch_cuda.so.2.5: undefined symbol: cudnnGetLibConfig", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
    // torch.distributed's store cannot bind its port: the old THD, TCPStore, c10d socket and DistNetworkError wordings.
    {"RuntimeError: Address already in use at /pytorch/torch/lib/THD/process_group/General.cpp:17", "DIST_STORE_PORT_IN_USE"},
    {"RuntimeError: Address already in use", "DIST_STORE_PORT_IN_USE"},
    {"[W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:47531 (errno: 98 - Address already in use).", "DIST_STORE_PORT_IN_USE"},
    {"torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use", "DIST_STORE_PORT_IN_USE"},
    // A Triton of another release than the one torch pins: a name Inductor imports is missing.
    {"ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' (/x/triton/compiler/compiler.py)", "TRITON_NOT_AVAILABLE"},
    {"ImportError: cannot import name 'AttrsDescriptor' from 'triton.backends.compiler' (/x/triton/backends/compiler.py)", "TRITON_NOT_AVAILABLE"},
    // A pinned wheel for another Python or platform, old pip (no prefix) and new pip wording.
    {"torch-1.0.0-cp37-cp37m-linux_x86_64.whl is not a supported wheel on this platform.", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
    {"ERROR: torch-2.1.2+cu121-cp311-cp311-win_amd64.whl is not a supported wheel on this platform.", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
    // torch sees no device in this process (CUDA_VISIBLE_DEVICES naming no GPU): the error and a UI's warning of it.
    {"RuntimeError: No CUDA GPUs are available", "CUDA_VISIBLE_DEVICES_NO_GPU"},
    {"Warning: caught exception 'No CUDA GPUs are available', memory monitor disabled", "CUDA_VISIBLE_DEVICES_NO_GPU"},
    // Code for an older torch importing an API a newer torch removed: torch._six (module, names), torch.utils.ffi.
    {"ModuleNotFoundError: No module named 'torch._six'", "TORCH_PY_API_REMOVED"},
    {"ImportError: cannot import name 'container_abcs' from 'torch._six' (/venv/lib/python3.8/site-packages/torch/_six.py)", "TORCH_PY_API_REMOVED"},
    {"ImportError: torch.utils.ffi is deprecated. Please use cpp extensions instead.", "TORCH_PY_API_REMOVED"},
    // CUDA error 46 (a GPU in Exclusive-Process mode already taken): old THC, new torch, Caffe-style C++ wordings.
    {"THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1503970438496/work/torch/lib/THC/generic/THCStorage.cu line=66 error=46 : all CUDA-capable devices are busy or unavailable", "GPU_EXCLUSIVE_PROCESS_BUSY"},
    {"RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "GPU_EXCLUSIVE_PROCESS_BUSY"},
    {"F0326 12:01:02.123 common.cpp:152] Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or unavailable", "GPU_EXCLUSIVE_PROCESS_BUSY"},
    // WSL2's unversioned libcuda.so outside the loader cache: cuDNN's loader, ctypes, cuda-python.
    {"Could not load library libcudnn_ops_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
    {"OSError: libcuda.so: cannot open shared object file: No such file or directory", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
    {"RuntimeError: Failed to dlopen libcuda.so", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
    // Two OpenMP runtimes in one process: macOS, Windows and Linux library names.
    {"OMP: Error #15: Initializing libiomp5.dylib, but found libomp.dylib already initialized.", "OPENMP_RUNTIME_DUPLICATE"},
    {"OMP: Error #15: Initializing libomp.dll, but found libiomp5md.dll already initialized.", "OPENMP_RUNTIME_DUPLICATE"},
    {"OMP: Error #15: Initializing libiomp5.so, but found libomp.so.5 already initialized.", "OPENMP_RUNTIME_DUPLICATE"},
    // dyld without libomp: Homebrew Intel and Apple Silicon prefixes, @rpath.
    {"  dyld[52063]: Library not loaded: /opt/homebrew/opt/libomp/lib/libomp.dylib", "MACOS_LIBOMP_NOT_FOUND"},
    {"dyld[42212]: Library not loaded: @rpath/libomp.dylib", "MACOS_LIBOMP_NOT_FOUND"},
    {"ImportError: dlopen(/u/site-packages/pymrmr.cpython-36m-darwin.so, 2): Library not loaded: /usr/local/opt/libiomp/lib/libiomp5.dylib", "MACOS_LIBOMP_NOT_FOUND"},
    // arm64 vs x86_64 on macOS: dyld, old and new ld64.
    {"OSError: dlopen(/p/librwkv.dylib, 0x0006): tried: '/p/librwkv.dylib' (mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64'))", "MACOS_BINARY_ARCH_MISMATCH"},
    {"ld: warning: ignoring file ../libtorch/lib/libtorch_cpu.dylib, building for macOS-arm64 but attempting to link with file built for macOS-x86_64", "MACOS_BINARY_ARCH_MISMATCH"},
    {"ld: warning: ignoring file '/u/torch/lib/libc10.dylib': found architecture 'x86_64', required architecture 'arm64'", "MACOS_BINARY_ARCH_MISMATCH"},
    // MPS refused by the macOS version, as the minimum rose.
    {"RuntimeError: The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers`", "MPS_MACOS_TOO_OLD"},
    {"RuntimeError: The MPS backend is supported on macOS 14.0+. Current OS version can be queried using `sw_vers`", "MPS_MACOS_TOO_OLD"},
    // A CUDA container image that needs a newer host driver (NVIDIA container toolkit's check), old and new spacing.
    {"nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container: unknown", "NVIDIA_DRIVER_TOO_OLD"},
    {"stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure]\\nnvidia-container-cli: requirement error: unsatisfied condition: cuda >= 9.0\\n", "NVIDIA_DRIVER_TOO_OLD"},
    // GPUs requested from Docker without the NVIDIA container toolkit: --gpus and compose's driver: nvidia.
    {"docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].", "NVIDIA_CONTAINER_TOOLKIT_MISSING"},
    {"Error response from daemon: could not select device driver \"nvidia\" with capabilities: [[gpu]]", "NVIDIA_CONTAINER_TOOLKIT_MISSING"},
    // The container hook without the host driver's NVML (no driver, Docker Desktop VM, old WSL2 host).
    {"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown", "NVIDIA_CONTAINER_NVML_NOT_FOUND"},
    {"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory", "NVIDIA_CONTAINER_NVML_NOT_FOUND"},
    // Windows: MSVC rejecting and/or/not (English, old spacing, Visual Studio's error list, Chinese).
    {"ops.cpp(80): error C2065: 'and': undeclared identifier", "MSVC_ALTERNATIVE_TOKENS"},
    {"ampif.C(971) : error C2065: 'not' : undeclared identifier", "MSVC_ALTERNATIVE_TOKENS"},
    {"Error\tC2065\t'or': undeclared identifier (compiling source file D:\\src\\a.cpp)\tlib\tD:\\src\\a.hpp\t403", "MSVC_ALTERNATIVE_TOKENS"},
    {"D:\\src\\a.cpp(12): error C2065: \xE2\x80\x9C" "and\xE2\x80\x9D: \xE6\x9C\xAA\xE5\xA3\xB0\xE6\x98\x8E\xE7\x9A\x84\xE6\xA0\x87\xE8\xAF\x86\xE7\xAC\xA6", "MSVC_ALTERNATIVE_TOKENS"},
    {"x.cpp(174): error C2146: syntax error: missing ')' before identifier 'and'", "MSVC_ALTERNATIVE_TOKENS"},
    {"D:\\src\\hb-ot-var-avar-table.hh(174): error C2146: syntax error: missing ')' before identifier 'and' [D:\\build\\harfbuzz.vcxproj]", "MSVC_ALTERNATIVE_TOKENS"},
    // Windows long is 32 bits: link.exe LNK2001/LNK2019 and lld-link wordings, data_ptr/data/item.
    {"pg.obj : error LNK2001: unresolved external symbol \"public: long * __cdecl at::Tensor::data_ptr<long>(void)const \" (??$data_ptr@J@Tensor@at@@QEBAPEAJXZ)", "WINDOWS_LONG_IS_32BIT"},
    {"iou3d.obj : error LNK2019: unresolved external symbol \"public: long __cdecl at::Tensor::item<long>(void)const \" (??$item@J@Tensor@at@@QEBAJXZ) referenced in function main", "WINDOWS_LONG_IS_32BIT"},
    {"lld-link: error: undefined symbol: unsigned long * __cdecl at::TensorBase::data_ptr<unsigned long>(void) const", "WINDOWS_LONG_IS_32BIT"},
    {"iou3d.obj : error LNK2001: \xE6\x97\xA0\xE6\xB3\x95\xE8\xA7\xA3\xE6\x9E\x90\xE7\x9A\x84\xE5\xA4\x96\xE9\x83\xA8\xE7\xAC\xA6\xE5\x8F\xB7 \"public: long * __cdecl at::Tensor::data<long>(void)const \" (??$data@J@Tensor@at@@QEBAPEAJXZ)", "WINDOWS_LONG_IS_32BIT"},
    // Source code page: C2001/C2015 in English, Chinese and Japanese; C4819 made fatal by /WX.
    {"D:\\src\\mission.c(568,35): error C2001: \xE5\xB8\xB8\xE9\x87\x8F\xE4\xB8\xAD\xE6\x9C\x89\xE6\x8D\xA2\xE8\xA1\x8C\xE7\xAC\xA6 [D:\\build\\game.vcxproj]", "MSVC_SOURCE_CODEPAGE"},
    {"src\\strerror.c(111): error C2001: newline in constant", "MSVC_SOURCE_CODEPAGE"},
    {"D:\\src\\model.cpp(194): error C2015: too many characters in constant", "MSVC_SOURCE_CODEPAGE"},
    {"C:\\src\\ops.cu : error C4819: The file contains a character that cannot be represented in the current code page (949). Save the file in Unicode format to prevent data loss", "MSVC_SOURCE_CODEPAGE"},
    // Python import library missing: English, Chinese, free-threaded, stable ABI.
    {"LINK : fatal error LNK1104: cannot open file 'python39.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
    {"LINK : fatal error LNK1104: \xE6\x97\xA0\xE6\xB3\x95\xE6\x89\x93\xE5\xBC\x80\xE6\x96\x87\xE4\xBB\xB6\xE2\x80\x9Cpython311.lib\xE2\x80\x9D", "PYTHON_IMPORT_LIB_NOT_FOUND"},
    {"LINK : fatal error LNK1104: cannot open file 'python313t.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
    {"LINK : fatal error LNK1104: cannot open file 'python3.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
    // MSBuild platform toolset missing: English (VS 2017/2019/2022 texts) and German.
    {"C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\Community\\MSBuild\\Microsoft\\VC\\v160\\Microsoft.CppBuild.targets(439,5): error MSB8020: The build tools for v142 (Platform Toolset = 'v142') cannot be found.", "MSVC_PLATFORM_TOOLSET_MISSING"},
    {"Microsoft.CppBuild.targets(440,5): error MSB8020: The build tools for Visual Studio 2015 (Platform Toolset = 'v140') cannot be found.", "MSVC_PLATFORM_TOOLSET_MISSING"},
    {"Microsoft.CppBuild.targets(439,5): error MSB8020: Die Buildtools f\xC3\xBCr v141 (Plattformtoolset = \"v141\") wurden nicht gefunden.", "MSVC_PLATFORM_TOOLSET_MISSING"},
    // Windows MAX_PATH: cl.exe in English and Chinese (wrapped), ninja's stat.
    {"C:\\Users\\u\\AppData\\Local\\Temp\\pip-install-cy8q7xfw\\xformers_06605d5ac8334cc2a1d5005993c148de\\xformers\\csrc\\attention.cpp : fatal error C1083: Cannot open compiler generated file: '': Invalid argument", "WINDOWS_PATH_TOO_LONG"},
    {"\xE6\xB3\x95\xE6\x89\x93\xE5\xBC\x80\xE7\xBC\x96\xE8\xAF\x91\xE5\x99\xA8\xE7\x94\x9F\xE6\x88\x90\xE7\x9A\x84\xE6\x96\x87\xE4\xBB\xB6: \xE2\x80\x9C\xE2\x80\x9D: Invalid argument", "WINDOWS_PATH_TOO_LONG"},
    {"ninja: error: Stat(V:/TEMP/pip-install-lou3njk7/xformers/build/temp.win-amd64-cpython-312/Release/flash_fwd_split_hdim128_bf16_sm80.obj): Filename longer than 260 characters", "WINDOWS_PATH_TOO_LONG"},
    // pip writing a wheel's nested files under a deep prefix: WinError 206 (English, Chinese), Errno 2 on a 250+ char path.
    {"ERROR: Could not install packages due to an OSError: [WinError 206] The filename or extension is too long: 'C:\\\\ci\\\\env\\\\Lib\\\\site-packages\\\\torch'", "WINDOWS_PATH_TOO_LONG"},
    {"ERROR: Could not install packages due to an OSError: [WinError 206] \xE6\x96\x87\xE4\xBB\xB6\xE5\x90\x8D\xE6\x88\x96\xE6\x89\xA9\xE5\xB1\x95\xE5\x90\x8D\xE5\xA4\xAA\xE9\x95\xBF\xE3\x80\x82", "WINDOWS_PATH_TOO_LONG"},
    {"ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\u\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.11_qbz5n2kfra8p0\\\\LocalCache\\\\local-packages\\\\Python311\\\\site-packages\\\\torch\\\\include\\\\ATen\\\\native\\\\transformers\\\\cuda\\\\mem_eff_attention\\\\kernels\\\\cutlassB_bf16_aligned_k128_dropout.cu.h'", "WINDOWS_PATH_TOO_LONG"},
    // ninja 1.13.0's truncated .rsp line: the input path starts inside a CMake object dir.
    {"  LINK : fatal error LNK1181: cannot open input file 'LIRAggregateCAPI.dir\\D_\\a\\llvm\\resources\\windows_version_resource.rc.res'", "NINJA_WINDOWS_RSP_TRUNCATED"},
    {"LINK : fatal error LNK1181: cannot open input file \"_test.dir\\src\\main.cpp.obj\"", "NINJA_WINDOWS_RSP_TRUNCATED"},
    // WinError 193: a DLL of the wrong architecture (or damaged) while torch loads its DLLs.
    {"OSError: [WinError 193] %1 is not a valid Win32 application", "WINDOWS_DLL_LOAD_FAILED"},
    // M_ math constants hidden: MSVC (English, old spacing, French), nvcc/EDG on Windows, MinGW GCC, clang.
    {"parakeet.cpp\\src\\fft.cpp(28,29): error C2065: 'M_PI': undeclared identifier", "MATH_CONSTANTS_UNDEFINED"},
    {"lensfun\\modifier.cpp(90) : error C2065: 'M_PI' : undeclared identifier", "MATH_CONSTANTS_UNDEFINED"},
    {"C:\\src\\ggml-turbo-quant.c(61,45): error C2065: 'M_PI' : identificateur non d\xC3\xA9" "clar\xC3\xA9 [C:\\build\\ggml-base.vcxproj]", "MATH_CONSTANTS_UNDEFINED"},
    {"D:\\src\\device\\gpu/gpu_util.h(134): error: identifier \"M_PI\" is undefined", "MATH_CONSTANTS_UNDEFINED"},
    {"D:/RLLib-master/include/Mathema.h:212:68: error: 'M_PI' was not declared in this scope", "MATH_CONSTANTS_UNDEFINED"},
    {"src/k.cpp:12:20: error: use of undeclared identifier 'M_SQRT2'", "MATH_CONSTANTS_UNDEFINED"},
    // GCC builtins under MSVC: English (wrapped by MSBuild), Chinese, nvcc's EDG host pass.
    {"C:\\src\\nt_headers.hpp(183,75): error C3861: '__builtin_ctz': identifier", "MSVC_GCC_BUILTIN_UNSUPPORTED"},
    {"C:\\src\\HighsHash.h(105,46): error C3861: \xE2\x80\x9C__builtin_clzll\xE2\x80\x9D: \xE6\x89\xBE\xE4\xB8\x8D\xE5\x88\xB0\xE6\xA0\x87\xE8\xAF\x86\xE7\xAC\xA6", "MSVC_GCC_BUILTIN_UNSUPPORTED"},
    {"C:\\src\\csrc\\rasterize.cu(88): error: identifier \"__builtin_popcount\" is undefined", "MSVC_GCC_BUILTIN_UNSUPPORTED"},
    // The compiler itself crashed: gcc (segfault, failed assertion), clang's driver, MSVC C1001 (new and
    // old wording, the Error List column form), cl.exe's banner.
    {"x.cpp:2633:1: internal compiler error: Segmentation fault", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"t.cpp:609:6: internal compiler error: in equal_mem_array_ref_p, at tree-ssa-scopedtables.c:429", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"clang: error: unable to execute command: Segmentation fault (core dumped)", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"clang: error: unable to execute command: Segmentation fault: 11", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"clang: error: unable to execute command: Illegal instruction: 4", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"clang-9: error: clang frontend command failed due to signal (use -v to see invocation)", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"clang++: error: clang frontend command failed with exit code 139 (use -v to see invocation)", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"D:\\oneDNN\\src\\cpu\\gemm_convolution_utils.cpp(401): fatal error C1001: Internal compiler error.", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"D:\\a\\k.cu(17): fatal error C1001: An internal error has occurred in the compiler.", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"Error\tC1001\tInternal compiler error.\tdnnl_cpu\tD:\\src\\cpu\\gemm_convolution_utils.cpp\t401\t", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"INTERNAL COMPILER ERROR in 'D:\\VC\\Tools\\MSVC\\14.16.27023\\bin\\Hostx64\\x64\\cl.exe'", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    {"  Error : Internal Compiler error (codegen): \"there was an error in verifying the lgenfe output!\" [C:\\b\\caffe2\\caffe2_gpu.vcxproj]", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
    // The C++14 form of torch's standard guards (torch 1.5-2.0) next to the C++17 one.
    {"/libtorch/include/c10/util/C++17.h:20:2: error: #error You need C++14 to compile PyTorch", "CXX17_REQUIRED"},
    {"/t/include/ATen/ATen.h:4:2: error: #error C++14 or later compatible compiler is required to use ATen.", "CXX17_REQUIRED"},
    // CUDA 13's CCCL below C++17 (ornladios/ADIOS2#4620, galaxyproject/KegAlign#39).
    {"/opt/cuda/targets/x86_64-linux/include/cccl/thrust/detail/config/cpp_dialect.h:78:6: error: #error Thrust requires at least C++17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.", "CXX17_REQUIRED"},
    {"/opt/cuda/targets/x86_64-linux/include/cccl/cuda/std/__internal/cpp_dialect.h:40:6: error: #error libcu++ requires at least C++ 17. Define CCCL_IGNORE_DEPRECATED_CPP_DIALECT to suppress this message.", "CXX17_REQUIRED"},
    {"    CUB requires at least C++17", "CXX17_REQUIRED"},
    {"all.h(4): fatal error C1189: #error:  C++17 or later compatible compiler is required to use PyTorch.", "CXX17_REQUIRED"},
    // torch 2.14's C++20 guard (release notes, pytorch/pytorch#178150), as GCC and as clang print it.
    {"/t/include/ATen/ATen.h:5:2: error: #error C++20 or later compatible compiler is required to use ATen.", "CXX17_REQUIRED"},
    {"/t/include/torch/all.h:4:2: error: C++20 or later compatible compiler is required to use PyTorch.", "CXX17_REQUIRED"},
    // No MSVC for setuptools/distutils: today's wording, the versioned one, distutils' vcvarsall.bat.
    {"error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\"", "MSVC_BUILD_TOOLS_MISSING"},
    {"error: Microsoft Visual C++ 10.0 is required (Unable to find vcvarsall.bat).", "MSVC_BUILD_TOOLS_MISSING"},
    {"error: Microsoft Visual C++ 9.0 is required. Get it from http://aka.ms/vcpython27", "MSVC_BUILD_TOOLS_MISSING"},
    {"error: Unable to find vcvarsall.bat", "MSVC_BUILD_TOOLS_MISSING"},
    {"error:unable to find vcvarsall.bat", "MSVC_BUILD_TOOLS_MISSING"},
    // THC headers gone: gcc in English and a translated locale, MSVC with curly quotes (any locale).
    {"src/x.cu:4:10: fatal error: THC/THC.h: No such file or directory", "THC_HEADERS_REMOVED"},
    {"fatal error: THC/THC.h: \xE6\xB2\xA1\xE6\x9C\x89\xE9\x82\xA3\xE4\xB8\xAA\xE6\x96\x87\xE4\xBB\xB6\xE6\x88\x96\xE7\x9B\xAE\xE5\xBD\x95", "THC_HEADERS_REMOVED"},
    {"x.cu:1:10: schwerwiegender Fehler: THC/THCAtomics.cuh: Datei oder Verzeichnis nicht gefunden", "THC_HEADERS_REMOVED"},
    {"\xE2\x80\x9CTHC/THC.h\xE2\x80\x9D: No such file or directory", "THC_HEADERS_REMOVED"},
    {"src\\x.cpp(1): fatal error C1083: \xE6\x97\xA0\xE6\xB3\x95\xE6\x89\x93\xE5\xBC\x80\xE5\x8C\x85\xE6\x8B\xAC\xE6\x96\x87\xE4\xBB\xB6: \xE2\x80\x9CTHC/THC.h\xE2\x80\x9D: No such file or directory", "THC_HEADERS_REMOVED"},
    // CUDA headers not on MSVC's include path, in a translated MSVC (curly quotes).
    {"thc\\THCGeneral.h(12): fatal error C1083: can not open or include such file: \xE2\x80\x9C" "cuda.h\xE2\x80\x9D: No such file or directory", "CUDA_DEV_HEADER_MISSING"},
    {"k.cu(1): fatal error C1083: \xE6\x97\xA0\xE6\xB3\x95\xE6\x89\x93\xE5\xBC\x80\xE5\x8C\x85\xE6\x8B\xAC\xE6\x96\x87\xE4\xBB\xB6: \xE2\x80\x9C" "cuda_runtime.h\xE2\x80\x9D: No such file or directory", "CUDA_DEV_HEADER_MISSING"},
    // A CUDA library handed to the driver by a full path that does not exist.
    {"gcc: error: /usr/local/cuda-9.0/lib64/libcudart.so: No such file or directory", "CUDA_LINK_LIB_NOT_FOUND"},
    {"x86_64-linux-gnu-g++: error: /usr/local/cuda-8.0/lib64/libcudart_static.a: No such file or directory", "CUDA_LINK_LIB_NOT_FOUND"},
    // No cl.exe on PATH: torch's JIT build asking 'where cl' (as subprocess prints it) next to the older warning.
    {"subprocess.CalledProcessError: Command '['where', 'cl']' returned non-zero exit status 1.", "MSVC_CL_NOT_FOUND"},
    {"C:\\py\\torch\\utils\\cpp_extension.py:346: UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified", "MSVC_CL_NOT_FOUND"},
    // clang compiling CUDA for an arch its toolkit lacks: old and new capitalisation, the version-range check.
    {"clang: error: Unsupported CUDA gpu architecture: sm_61", "NVCC_UNSUPPORTED_GPU_ARCH"},
    {"clang: error: unsupported CUDA gpu architecture: sm_89", "NVCC_UNSUPPORTED_GPU_ARCH"},
    {"clang: error: GPU arch sm_20 is supported by CUDA versions between 7.0 and 8.0 (inclusive), but installation at /usr/lib/cuda is 11.8; use '--cuda-path' to specify a different CUDA install, pass a different GPU arch with '--cuda-gpu-arch', or pass '--no-cuda-version-check'", "NVCC_UNSUPPORTED_GPU_ARCH"},
    // The distributed store's port taken: accelerate's own check, c10d's message without its log prefix (old and new).
    {"ConnectionError: Tried to launch distributed communication on port `29500`, but another process is utilizing it. Please specify a different port (such as using the `--main_process_port` flag or specifying a different `main_process_port` in your config file) and rerun your script.", "DIST_STORE_PORT_IN_USE"},
    {"RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).", "DIST_STORE_PORT_IN_USE"},
    {"address. The server socket has failed to bind to [::]:29600 (errno: 98 - Address", "DIST_STORE_PORT_IN_USE"},
    {"RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use.", "DIST_STORE_PORT_IN_USE"},
    // bf16 on a pre-Ampere GPU: transformers' check, ptxas under Triton (three instruction spellings, Windows temp path).
    {"ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0", "GPU_BF16_UNSUPPORTED"},
    {"ptxas /tmp/compile-ptx-src-38292b, line 100; error   : Feature '.bf16' requires .target sm_80 or higher", "GPU_BF16_UNSUPPORTED"},
    {"ptxas /tmp/compile-ptx-src-0cc16a, line 649; error   : Feature 'cvt with .f32.bf16' requires .target sm_80 or higher", "GPU_BF16_UNSUPPORTED"},
    {"ptxas C:\\Users\\A\\AppData\\Local\\Temp\\tmpv5eqmmj8.ptx, line 2051; error   : Feature 'cvt.bf16.f32' requires .target sm_80 or higher", "GPU_BF16_UNSUPPORTED"},
    // CUDA 12 dropped texture references: clang's CUDA wording (nvcc's EDG says "texture is not a template").
    {"/usr/lib/clang/15.0.7/include/__clang_cuda_texture_intrinsics.h:696:13: error: no template named 'texture'", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
    {"    bf16 is only supported on A100+ GPUs", "GPU_BF16_UNSUPPORTED"},
    // cuDNN refusing a too-old GPU, as a Python binding names the status.
    {"libcudnn.cudnnStatusArchMismatch", "GPU_ARCH_TOO_OLD_FOR_LIBRARY"},
    // poetry's solver wording of a companion pinned to another torch.
    {"Because torchvision (0.4.0) depends on torch (1.2.0)", "TORCH_COMPANION_VERSION_CONFLICT"},
    // link.exe without the Windows SDK: kernel32.lib/ucrt.lib (English, Portuguese, Chinese quotes), rc.exe.
    {"LINK : fatal error LNK1181: cannot open input file 'kernel32.lib'", "WINDOWS_SDK_MISSING"},
    {"LINK : fatal error LNK1104: n\xC3\xA3o \xC3\xA9 poss\xC3\xADvel abrir o arquivo 'kernel32.lib'", "WINDOWS_SDK_MISSING"},
    {"LINK : fatal error LNK1104: \xE6\x97\xA0\xE6\xB3\x95\xE6\x89\x93\xE5\xBC\x80\xE6\x96\x87\xE4\xBB\xB6\xE2\x80\x9Ckernel32.lib\xE2\x80\x9D", "WINDOWS_SDK_MISSING"},
    {"LINK : fatal error LNK1104: cannot open file 'ucrtd.lib'", "WINDOWS_SDK_MISSING"},
    {"LINK : fatal error LNK1158: cannot run 'rc.exe' [C:\\build\\CMakeFiles\\3.11.1\\CompilerIdC\\CompilerIdC.vcxproj]", "WINDOWS_SDK_MISSING"},
    // onnxruntime's CUDA provider DLL on Windows: its cuDNN/cuBLAS DLLs not loadable (old and new wording).
    {"D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1193 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when trying to load \"C:\\app\\onnxruntime_providers_cuda.dll\"", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"[ONNXRuntimeError] : 1 : FAIL : Error loading \"E:\\venv\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\" which depends on \"cudnn64_9.dll\" which is missing. (Error 126: \"The specified module could not be found.\")", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    // cuDNN 8's loader on Windows (CTranslate2 / faster-whisper apps): the DLL of the cuDNN major it needs.
    {"Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Could not load library cudnn_ops_infer64_8.dll. Error code 126", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Could not load library cudnn_cnn_infer64_8.dll. Error code 127", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    // LAPACK routines unresolved by Apple's ld64 (Fortran-suffixed and plain names).
    {"            \"_dsyev_\", referenced from:", "LAPACK_NOT_LINKED"},
    {"  \"_dgetrf\", referenced from:", "LAPACK_NOT_LINKED"},
    // torch built without LAPACK: today's op-named message and the TH-era one.
    {"RuntimeError: Calling torch.geqrf on a CPU tensor requires compiling PyTorch with LAPACK. Please use PyTorch built with LAPACK support.", "TORCH_BUILT_WITHOUT_LAPACK"},
    {"RuntimeError: geqrf: Lapack library not found in compile time", "TORCH_BUILT_WITHOUT_LAPACK"},
    // torch's preload of the nvidia-* wheels' libraries found none.
    {"ValueError: libcublas.so.*[0-9] not found in the system path ['/code', '/usr/local/lib/python310.zip']", "TORCH_NVIDIA_WHEELS_SITE_DIR_SPLIT"},
    {"ValueError: libnvrtc.so.*[0-9].*[0-9] not found in the system path", "TORCH_NVIDIA_WHEELS_SITE_DIR_SPLIT"},
    // cudaErrorNoDevice in the runtime's own words (torch 0.x THCudaCheck, Paddle).
    {"THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=109 error=38 : no CUDA-capable device is detected", "CUDA_VISIBLE_DEVICES_NO_GPU"},
    {"paddle.fluid.core.EnforceNotMet: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCount: no CUDA-capable device is detected at [/paddle/paddle/fluid/platform/gpu_info.cc:33]", "CUDA_VISIBLE_DEVICES_NO_GPU"},
    // Windows: a torch DLL whose entry point is missing (WinError 127), English and French.
    {"OSError: [WinError 127] The specified procedure could not be found. Error loading \"C:\\Python39\\lib\\site-packages\\torch\\lib\\c10_cuda.dll\" or one of its dependencies.", "TORCH_MIXED_INSTALL_STALE_LIBS"},
    {"OSError: [WinError 127] La proc\xC3\xA9" "dure sp\xC3\xA9" "cifi\xC3\xA9" "e est introuvable. Error loading \"E:\\venv\\lib\\site-packages\\torch\\lib\\cudnn_adv_infer64_8.dll\" or one of its dependencies.", "TORCH_MIXED_INSTALL_STALE_LIBS"},
    // torchvision's CUDA-version check and torchaudio's copy of it.
    {"RuntimeError: Detected that PyTorch and TorchAudio were compiled with different CUDA versions. PyTorch has CUDA version 11.8 whereas TorchAudio has CUDA version 11.7.", "TORCHVISION_CUDA_MISMATCH"},
    {"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA Version=11.8.", "TORCHVISION_CUDA_MISMATCH"},
    // flash-attn's arch check: 2.x message, and the bare TORCH_CHECK of flash-attn 1.x / early 2.x.
    {"RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "FLASH_ATTN_GPU_TOO_OLD"},
    {"RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false. (Could this error message be improved? If so, please report an enhancement request to PyTorch.)", "FLASH_ATTN_GPU_TOO_OLD"},
    {"RuntimeError: Expected is_sm8x || is_sm75 to be true, but got false.", "FLASH_ATTN_GPU_TOO_OLD"},
    // torchvision's operators never registered: torch 2.x wording and the older one.
    {"RuntimeError: operator torchvision::nms does not exist", "TORCHVISION_OPS_NOT_LOADED"},
    {"RuntimeError: No such operator torchvision::nms", "TORCHVISION_OPS_NOT_LOADED"},
    // CMake without a CUDA compiler: Makefile/Ninja generators and Visual Studio generators.
    {"  No CMAKE_CUDA_COMPILER could be found.", "CMAKE_CUDA_COMPILER_NOT_FOUND"},
    {"  No CUDA toolset found.", "CMAKE_CUDA_COMPILER_NOT_FOUND"},
    // MSVC's missing include in English and in a translated (Chinese) message.
    {"C:\\src\\ext\\ops.cpp(3): fatal error C1083: Cannot open include file: 'ops_impl.h': No such file or directory", "MISSING_HEADER_GENERIC"},
    {"D:\\src\\include\\bpf.h(218,10): fatal error C1083: \xE6\x97\xA0" "\xE6\xB3\x95" "\xE6\x89\x93" "\xE5\xBC\x80" "\xE5\x8C\x85" "\xE6\x8B\xAC" "\xE6\x96\x87" "\xE4\xBB\xB6" ": \xE2\x80\x9C" "../external/libbpf/src/bpf.h\xE2\x80\x9D" ": No such file or directory", "MISSING_HEADER_GENERIC"},
    {"fatal error C1083: \xE6\x97\xA0" "\xE6\xB3\x95" "\xE6\x89\x93" "\xE5\xBC\x80" "\xE5\x8C\x85" "\xE6\x8B\xAC" "\xE6\x96\x87" "\xE4\xBB\xB6" ":\xE2\x80\x9C" "serial/serial.h\xE2\x80\x9D" ": No such file or directory", "MISSING_HEADER_GENERIC"},
    // A package that swallowed its extension's ImportError and calls it later.
    {"NameError: name '_C' is not defined", "EXT_MODULE_NOT_BUILT"},
    {"ImportError: cannot import name '_C'", "EXT_MODULE_NOT_BUILT"},
    // ... indented as pip indents a child's output (tramac/awesome-semantic-segmentation-pytorch#25's line).
    {"      ImportError: cannot import name '_C'", "EXT_MODULE_NOT_BUILT"},
    // torch imported from its source checkout: _C is the tree's folder, of unknown location.
    {"ImportError: cannot import name '_add_docstr' from 'torch._C' (unknown location)", "TORCH_C_LOADED_FROM_SOURCE_TREE"},
    // A build-time Python module missing: Python >= 3.6, 3.3-3.5 and 2.x wordings.
    {"ModuleNotFoundError: No module named 'yaml'", "PYTHON_BUILD_DEPS_MISSING"},
    {"ImportError: No module named 'yaml'", "PYTHON_BUILD_DEPS_MISSING"},
    {"ImportError: No module named yaml", "PYTHON_BUILD_DEPS_MISSING"},
    // An undefined symbol at link time: GNU ld, MSVC link, Apple ld64.
    {"/usr/bin/ld: main.o: in function `main': undefined reference to `foo()'", "UNDEFINED_REFERENCE_LINK"},
    {"main.obj : error LNK2019: unresolved external symbol \"void __cdecl foo(void)\" (?foo@@YAXXZ) referenced in function main", "UNDEFINED_REFERENCE_LINK"},
    {"Undefined symbols for architecture arm64:", "UNDEFINED_REFERENCE_LINK"},
    // Windows: an extension's DLL imports a torch function this torch lacks (ERROR_PROC_NOT_FOUND), Python >= 3.8 and older.
    {"ImportError: DLL load failed while importing _C: The specified procedure could not be found.", "EXT_BUILT_FOR_OTHER_TORCH"},
    {"ImportError: DLL load failed: The specified procedure could not be found.", "EXT_BUILT_FOR_OTHER_TORCH"},
    // PTX newer than the driver's JIT accepts: runtime API, driver API, and the JIT ptxas line a JIT linker quotes.
    {"RuntimeError: Triton Error [CUDA]: the provided PTX was compiled with an unsupported toolchain.", "CUDA_PTX_UNSUPPORTED_TOOLCHAIN"},
    {"numba.cuda.cudadrv.driver.CudaAPIError: [222] Call to cuLinkAddData results in CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "CUDA_PTX_UNSUPPORTED_TOOLCHAIN"},
    {"ptxas application ptx input, line 9; fatal   : Unsupported .version 8.1; current version is '8.0'", "CUDA_PTX_UNSUPPORTED_TOOLCHAIN"},
    // NumPy 2 with a torch built against NumPy 1: NumPy's warning, and torch's own wordings when it is cut.
    {"A module that was compiled using NumPy 1.x cannot be run in", "NUMPY2_ABI_MISMATCH"},
    {"RuntimeError: Numpy is not available", "NUMPY2_ABI_MISMATCH"},
    {"RuntimeError: Could not infer dtype of numpy.int64", "NUMPY2_ABI_MISMATCH"},
    // Wording sweep (batch 5, wD): the same root causes in other tools', versions' and locales' words.
    {"RuntimeError: geqrf: Lapack library not found in compile time", "TORCH_BUILT_WITHOUT_LAPACK"},
    {"RuntimeError: Calling torch.linalg.cholesky on a CPU tensor requires compiling PyTorch with LAPACK. Please use PyTorch built with LAPACK support.", "TORCH_BUILT_WITHOUT_LAPACK"},
    {"RuntimeError: CMake must be installed to build the following extensions: _dlib_pybind11", "CMAKE_NOT_INSTALLED"},
    {"                       CMake is not installed on your system!", "CMAKE_NOT_INSTALLED"},
    {"ninja: error: loading 'build.ninja': The system cannot find the file specified.", "NINJA_BUILD_FILE_MISSING"},
    {"ninja: error: loading 'build.ninja': Le fichier sp\xC3\xA9" "cifi\xC3\xA9 est introuvable.", "NINJA_BUILD_FILE_MISSING"},
    {"ERROR: Could not install packages due to an OSError: [WinError 5] Access is denied: 'C:\\\\Program Files\\\\Python311\\\\Lib\\\\site-packages\\\\x.pyd'", "PIP_PERMISSION_DENIED"},
    {"ERROR: Could not install packages due to an OSError: [WinError 5] Accesso negato: 'c:\\\\programdata\\\\anaconda3\\\\lib\\\\site-packages\\\\x'", "PIP_PERMISSION_DENIED"},
    {"test: Test CUDA failure common.cu:941 'system not yet initialized'", "CUDA_802_FABRIC_MANAGER_MISSING"},
    {"ggml_cuda_init: failed to initialize CUDA: system not yet initialized", "CUDA_802_FABRIC_MANAGER_MISSING"},
    {"E external/xla/xla/stream_executor/cuda/cuda_driver.cc:152] failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized", "CUDA_802_FABRIC_MANAGER_MISSING"},
    {"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized", "CUDA_802_FABRIC_MANAGER_MISSING"},
    {"CMake Error in external/owl/owl/CMakeLists.txt: CUDA_ARCHITECTURES is empty for target \"owl\".", "CMAKE_CUDA_ARCHITECTURES_EMPTY"},
    {"  Unable to find installation candidates for torch (2.5.1)", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
    {"    | Unable to find installation candidates for torch (2.5.1+cu124)", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
    {"E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or higher minor version.", "CUDNN_VERSION_INCOMPATIBLE"},
    {"Loaded runtime CuDNN library: 7301 (compatibility version 7300) but source was compiled with 7003 (compatibility version 7000).", "CUDNN_VERSION_INCOMPATIBLE"},
    {"fatal: Fetched in submodule path 'third_party/cutlass', but it did not contain 099a70167993378fe25fe1e668207fc4ea3c0fb0. Direct fetching of that commit failed.", "GIT_SUBMODULE_FETCH_FAILED"},
    {"torch.OutOfMemoryError: HIP out of memory. Tried to allocate 5.48 GiB. GPU 0 has a total capacity of 15.98 GiB of which 4.96 GiB is free.", "CUDA_OUT_OF_MEMORY"},
    {"RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCCachingAllocator.cpp:510", "CUDA_OUT_OF_MEMORY"},
    {"2019-08-24 01:11:32.333585: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 2.12G (2279250176 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory", "CUDA_OUT_OF_MEMORY"},
    {"E tensorflow/compiler/xla/stream_executor/rocm/rocm_driver.cc:606] failed to allocate 1.00G (1073741824 bytes) from device: HIP_ERROR_OutOfMemory", "CUDA_OUT_OF_MEMORY"},
    {"error: Distribution `torch==2.5.1 @ registry+https://pypi.org/simple` can't be installed because it doesn't have a source distribution or wheel for the current platform", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
    {"  \u2570\u2500\u25b6 Because torch==1.12.0+cu113 has no wheels with a matching Python ABI", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
    {"FileNotFoundError: Could not find module 'C:\\Python38\\lib\\site-packages\\torch\\lib\\c10.dll' (or one of its dependencies). Try using the full path with constructor syntax.", "WINDOWS_DLL_LOAD_FAILED"},
    {"FileNotFoundError: Could not find module 'G:\\Python310\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd'. Try using the full path with constructor syntax.", "WINDOWS_DLL_LOAD_FAILED"},
    // CPython's loader words inside another message, or alone (batch 19's development part): llama-cpp-python
    // re-raising ctypes' FileNotFoundError in its RuntimeError (abetlen/llama-cpp-python#1280), a logger's
    // "time:module: " before it (#981), a JSON report's "error" (duckyshell/ComfyUI-MiniMaxH3-Prompt-Writer#8),
    // an extension module's "DLL load failed while importing" without "ImportError: " (Kedreamix/Linly-Dubbing#58).
    {"RuntimeError: Failed to load shared library 'D:\\My_Tech\\GenAIPlay\\venv\\Lib\\site-packages\\llama_cpp\\llama.dll': Could not find module 'D:\\My_Tech\\GenAIPlay\\venv\\Lib\\site-packages\\llama_cpp\\llama.dll' (or one of its dependencies). Try using the full path with constructor syntax.", "WINDOWS_DLL_LOAD_FAILED"},
    {"02:08:15:llama_chat_adapter.py: RuntimeError: Failed to load shared library 'C:\\Program Files\\CodeProject\\AI\\modules\\LlamaChat\\bin\\windows\\python311\\venv\\lib\\site-packages\\llama_cpp\\lib\\llama.dll': Could not find module 'C:\\Program Files\\CodeProject\\AI\\modules\\LlamaChat\\bin\\windows\\python311\\venv\\lib\\site-packages\\llama_cpp\\lib\\llama.dll' (or one of its dependencies). Try using the full path with constructor syntax.", "WINDOWS_DLL_LOAD_FAILED"},
    {"  \"error\": \"Failed to load shared library 'E:\\\\ComfyUI_windows_portable_mm_H3\\\\python_embeded\\\\Lib\\\\site-packages\\\\llama_cpp\\\\lib\\\\llama.dll': Could not find module 'E:\\\\ComfyUI_windows_portable_mm_H3\\\\python_embeded\\\\Lib\\\\site-packages\\\\llama_cpp\\\\lib\\\\llama.dll' (or one of its dependencies). Try using the full path with constructor syntax.\",", "WINDOWS_DLL_LOAD_FAILED"},
    {"DLL load failed while importing onnxruntime_pybind11_state: \xE5\x8A\xA8\xE6\x80\x81\xE9\x93\xBE\xE6\x8E\xA5\xE5\xBA\x93(DLL)\xE5\x88\x9D\xE5\xA7\x8B\xE5\x8C\x96\xE4\xBE\x8B\xE7\xA8\x8B\xE5\xA4\xB1\xE8\xB4\xA5\xE3\x80\x82", "WINDOWS_DLL_LOAD_FAILED"},
    {"C:/py/lib/site-packages/torch/include\\torch/csrc/dynamo/compiled_autograd.h(1076): error C2872: \xE2\x80\x9C" "std\xE2\x80\x9D: \xE4\xB8\x8D\xE6\x98\x8E\xE7\xA1\xAE\xE7\x9A\x84\xE7\xAC\xA6\xE5\x8F\xB7", "MSVC_STD_AMBIGUOUS_COMPILED_AUTOGRAD"},
    {"G:/Python310/lib/site-packages/torch/include\\torch/csrc/dynamo/compiled_autograd.h(1134): error C2872: 'std': ambiguous symbol", "MSVC_STD_AMBIGUOUS_COMPILED_AUTOGRAD"},
    {"pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "NVIDIA_DRIVER_MISSING"},
    {"RuntimeError: Not compiled with CUDA support", "EXT_NOT_COMPILED_WITH_CUDA"},
    {"Error loading shared library libstdc++.so.6: No such file or directory (needed by ./bin/node)", "SHARED_OBJECT_NOT_LOADABLE"},
    {"ImportError: dlopen(/x/_dynet.so, 2): Library not loaded: /private/var/folders/T/pip-build-snn3Sx/dynet/build/dynet/libdynet.dylib", "SHARED_OBJECT_NOT_LOADABLE"},
    {"dyld[4242]: Library not loaded: @rpath/libomp.dylib", "MACOS_LIBOMP_NOT_FOUND"},
    // Batch 5 wordings: docker's runtime lookup (current and pre-20.10 daemons), pip's long-path hint and
    // Git for Windows' MAX_PATH refusals, Triton's own libcuda.so lookup, setup.py's attribute access to the
    // removed test command, setuptools >= 77 without packaging.licenses, torch._six attributes.
    {"docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "NVIDIA_CONTAINER_TOOLKIT_MISSING"},
    {"Error response from daemon: Unknown runtime specified nvidia", "NVIDIA_CONTAINER_TOOLKIT_MISSING"},
    {"HINT: This error might have occurred since this system does not have Windows Long Path support enabled. You can find information on how to enable this at https://pip.pypa.io/warnings/enable-long-paths", "WINDOWS_PATH_TOO_LONG"},
    {"fatal: cannot create directory at 'server/ee/libs/platform/platform-workflow/src/main/java/com/x/dispatcher': Filename too long", "WINDOWS_PATH_TOO_LONG"},
    {"error: unable to create file src/test/resources/org/rf/ide/core/testdata/KeywordExecutionActionWithThreeArgs.tsv (Filename too long)", "WINDOWS_PATH_TOO_LONG"},
    {"AssertionError: libcuda.so cannot found!", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
    {"AttributeError: module 'setuptools.command' has no attribute 'test'", "SETUPTOOLS_TEST_COMMAND_REMOVED"},
    {"  ImportError: Cannot import `packaging.licenses`.", "PACKAGING_TOO_OLD_FOR_SETUPTOOLS"},
    {"ModuleNotFoundError: No module named 'packaging.licenses'", "PACKAGING_TOO_OLD_FOR_SETUPTOOLS"},
    {"AttributeError: module 'torch._six' has no attribute 'PY3'", "TORCH_PY_API_REMOVED"},
    {"AttributeError: module 'torch' has no attribute '_six'", "TORCH_PY_API_REMOVED"},
    {"ModuleNotFoundError: No module named 'torch.utils.serialization'", "TORCH_PY_API_REMOVED"},
    {"ImportError: cannot import name '_accumulate' from 'torch._utils' (/env/lib/python3.9/site-packages/torch/_utils.py)", "TORCH_PY_API_REMOVED"},
    {"FileNotFoundError: Unable to find library: fastjet.dll", "AUDITWHEEL_LIB_NOT_LOCATED"},
    {"delvewheel ... FileNotFoundError: Unable to find library: clio_cee_api.dll", "AUDITWHEEL_LIB_NOT_LOCATED"},
    {"\t/Users/u/.local/lib/python3.8/site-packages/h5py/_errors.cpython-38-darwin.so: mach-o, but wrong architecture", "MACOS_BINARY_ARCH_MISMATCH"},
    {"  = note: LINK : fatal error LNK1181: cannot open input file 'python313.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
    {"LINK : fatal error LNK1181: cannot open input file 'python3.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
    // No code for the GPU's architecture: old THC, glog's CHECK (Caffe), a project's cudaSafeCall, the driver API name, a Rust binding.
    {"RuntimeError: cuda runtime error (8) : invalid device function at /pytorch/torch/lib/THC/generic/THCTensorMathPointwise.cu:246", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"THCudaCheck FAIL file=/src/cuda/emd_kernel.cu line=190 error=98 : invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"F0225 14:29:46.455771   743 vol2col.cu:75] Check failed: error == cudaSuccess (8 vs. 0)  invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"Best: 224 threads, 96 blocks (3.40282e+38ms)Error: invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"cupy.cuda.driver.CUDADriverError: CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available for execution on the device", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"[23:42:41] src/runtime/cuda/cuda_module.cc:93: CUDAError: cuModuleLoadData(&(module_[device_id]), data_.c_str()) failed with error: CUDA_ERROR_NO_BINARY_FOR_GPU", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Cuda(NoBinaryForGpu)', examples/add.rs:10:76", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"[18:48:28] /src/op/impl/cuda/cuda_perform.cu:136: Check failed: (e) == (cudaSuccess) CudaPerformNormAddOnRow CUDA: invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"... im2col.cu:49] Check failed. Error == cudaSuccess (8 vs.0) invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"execution failed : (8) invalid device function .", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    {"CUDA Function Error: invalid device function", "NO_KERNEL_IMAGE_FOR_DEVICE"},
    // CUDA error 35 (driver older than the runtime) as a bare number: DIGITS, TensorRT (both spellings).
    {"cudaRuntimeGetVersion() failed with error #35", "NVIDIA_DRIVER_TOO_OLD"},
    {"ERROR: This container was built for NVIDIA Driver Release 455.23 or later, but", "NVIDIA_DRIVER_TOO_OLD"},
    {"[08/20/2020-17:01:01] [E] [TRT] CUDA initialization failure with error 35. Please check your CUDA installation:  http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html", "NVIDIA_DRIVER_TOO_OLD"},
    {"[11/05/2023-16:18:50] [W] [TRT] CUDA initialization failure with error: 35. Please check your CUDA installation:  http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html", "NVIDIA_DRIVER_TOO_OLD"},
    // torch 1.5+ refusing Python 2 (setup.py, import torch).
    {"Exception: Python 2 has reached end-of-life and is no longer supported by PyTorch.", "PYTHON_TOO_OLD_FOR_TORCH"},
    // GCC in another language: the header name survives, 'fatal error' and the C library's ENOENT text are translated.
    {"ib/command.c:4:10: 致命错误：lib/re.h：没有那个文件或目录", "MISSING_HEADER_GENERIC"},
    {"src/ops.cpp:3:10: schwerwiegender Fehler: ops_impl.h: Datei oder Verzeichnis nicht gefunden", "MISSING_HEADER_GENERIC"},
    {"src/ops.cpp:3:10: erreur fatale : ops_impl.h : Aucun fichier ou dossier de ce type", "MISSING_HEADER_GENERIC"},
    {"src/ops.cpp:3:10: фатальная ошибка: ops_impl.h: Нет такого файла или каталога", "MISSING_HEADER_GENERIC"},
    // Another copy of a CUDA library loaded: glibc's relocation wording (with and without the comma), also inside cuDNN's loader.
    {"OSError: /env/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
    {"python: relocation error: /usr/local/cuda-11.1/lib64/libcublas.so: symbol runGemmShortApi, version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
    {"Could not load library libcudnn_cnn_train.so.8. Error: /usr/local/cuda-11.1/lib64/libcudnn_ops_train.so.8: symbol _Z22cudnnGenericOpTensorNdILi3EE, version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time reference", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
    // MSBuild's missing Windows SDK version: English, localized text (the code stays), the IDE's error-list columns.
    {"error MSB8036: The Windows SDK version 10.0.16299.0 was not found. Install the required version of Windows SDK or change the SDK version in the project property pages or by right-clicking the solution and selecting \"Retarget solution\".", "WINDOWS_SDK_MISSING"},
    {"D:\\VS\\MSBuild\\Microsoft\\VC\\v170\\Microsoft.Cpp.WindowsSDK.targets(46,5): error MSB8036: \u627e\u4e0d\u5230 Windows SDK \u7248\u672c 10.0.26100.0\u3002 [F:\\b\\x.vcxproj]", "WINDOWS_SDK_MISSING"},
    {"Error\tMSB8036\tThe Windows SDK version 10.0.17763.0 was not found.\tSkyBoxRenderer", "WINDOWS_SDK_MISSING"},
    {"  RC Pass 1: command \"rc /fo CMakeFiles\\cmTC_d94ba.dir/manifest.res CMakeFiles\\cmTC_d94ba.dir/manifest.rc\" failed (exit code 0) with the following output:", "WINDOWS_SDK_MISSING"},
    // PaddlePaddle's loader cannot dlopen the cuDNN of its CUDA build (2.x with the PreconditionNotMet tag, 1.x without).
    {"RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    {"Error: Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion at (/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
    // rocBLAS 6.x's lazy per-arch Tensile library that does not load (Windows HIP SDK path), and its follow-up.
    {"rocBLAS error: Could not load C:\\Program Files\\AMD\\ROCm\\6.1\\bin\\/rocblas/library/TensileLibrary_lazy_gfx1103.dat", "ROCBLAS_TENSILE_LIBRARY_NOT_FOUND"},
    {"rocBLAS error: Could not initialize Tensile library", "ROCBLAS_TENSILE_LIBRARY_NOT_FOUND"},
    // link.exe without LAPACK: the IDE's error list (32-bit '_dgeev_'), and a localized LNK2001 line.
    {"Error\tLNK2019\tunresolved external symbol _dgeev_ referenced in function \"int __cdecl cxxlapack::geev<int>(char,char,int,double *,int,double *,double *,double *,int,double *,int,double *,int)\"\tx C:\\b\\x.obj\t1\t", "LAPACK_NOT_LINKED"},
    {"x.obj : error LNK2001: \xE6\x97\xA0\xE6\xB3\x95\xE8\xA7\xA3\xE6\x9E\x90\xE7\x9A\x84\xE5\xA4\x96\xE9\x83\xA8\xE7\xAC\xA6\xE5\x8F\xB7 dgesv_", "LAPACK_NOT_LINKED"},
    // mamba's solver failure before the LibMambaUnsatisfiableError prefix existed.
    {"Encountered problems while solving:", "CONDA_SOLVE_CONFLICT"},
    // accelerate refusing bf16 mixed precision on a pre-Ampere GPU.
    {"ValueError: bf16 mixed precision requires PyTorch >= 1.10 and a supported device.", "GPU_BF16_UNSUPPORTED"},
    {"TypeError: BFloat16 is not supported on MPS", "GPU_BF16_UNSUPPORTED"},
    {"TypeError: Trying to convert BFloat16 to the MPS backend but it does not have support for that dtype.", "GPU_BF16_UNSUPPORTED"},
    // macOS dyld: a stale torch dylib from an earlier build next to a newer one.
    {"  Reason: Incompatible library version: libshm.dylib requires version 1.0.0 or later, but libATen.dylib provides version 0.0.0", "TORCH_MIXED_INSTALL_STALE_LIBS"},
    // A binary too big for 32-bit relocations / the PE image limit: lld, lld without its prefix, mold, MSVC in two locales.
    {"ld.lld: error: lib/libx.so:(.eh_frame+0x7f991): relocation R_X86_64_PC32 out of range: -2179713377 is not in [-2147483648, 2147483647]; references section '.gcc_except_table.f'", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
    {"ld: error: a.o:(.rodata+0x18): relocation R_X86_64_REX_GOTPCRELX out of range: 2792125052 is not in [-2147483648, 2147483647]; references 'typeinfo for X'", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
    {"mold: error: a.o:(.text): relocation R_X86_64_PC32 against .rodata..L__unnamed_13 out of range: -2149102178 is not in [-2147483648, 2147483648)", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
    {"aotriton::v2::flash::AttnFwdParams&): .text+0x13e): relocation R_X86_64_PC32 out of range: -2151757170", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
    {"LINK : fatal error LNK1248: image size (894C8000) exceeds maximum allowable size (80000000) [C:\\b\\x.vcxproj]", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
    {"LINK : fatal error LNK1248: \u6620\u50cf\u5927\u5c0f(8046A000)\u8d85\u8fc7\u5141\u8bb8\u7684\u6700\u5927\u5927\u5c0f(80000000)", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
    // torch absent from the interpreter that runs setup.py: Python <= 3.5 and Python 2 wordings.
    {"ImportError: No module named 'torch'", "BUILD_ENV_TORCH_MISSING"},
    {"ImportError: No module named torch", "BUILD_ENV_TORCH_MISSING"},
    {"ImportError: No module named torch.utils.cpp_extension", "BUILD_ENV_TORCH_MISSING"},
    // A C++17 std facility missing inside torch's own headers: the translation unit's -std is too old (clang, gcc, MSVC, nvcc).
    {"/env/lib/python3.11/site-packages/torch/include/c10/util/in_place.h:7:12: error: no member named 'in_place' in namespace 'std'", "CXX17_REQUIRED"},
    {"/opt/conda/lib/python3.10/site-packages/torch/include/c10/core/impl/copy_on_write_state.h:43:8: error: \u2018optional\u2019 in namespace \u2018std\u2019 does not name a template type", "CXX17_REQUIRED"},
    {"C:\\libtorch\\include\\c10/util/Optional.h(12): error C2039: 'optional': is not a member of 'std'", "CXX17_REQUIRED"},
    {"/usr/lib/python3/dist-packages/torch/include/c10/util/TypeIndex.h(80): error: namespace \"std\" has no member \"string_view\"", "CXX17_REQUIRED"},
    // AppleClang without OpenMP, found by a required FindOpenMP (the CMake Error's indented body).
    {"  Could NOT find OpenMP_CXX (missing: OpenMP_CXX_FLAGS OpenMP_CXX_LIB_NAMES)", "OPENMP_HEADER_MISSING_MACOS"},
    {"  Could NOT find OpenMP_C (missing: OpenMP_C_FLAGS OpenMP_C_LIB_NAMES)", "OPENMP_HEADER_MISSING_MACOS"},
    // Python's development headers missing, found at CMake configure time: FindPython3, FindPython, FindPythonLibs, pybind11.
    {"Could NOT find Python3 (missing: Python3_INCLUDE_DIRS Development Development.Module Development.Embed) (found version \"3.10.6\")", "PYTHON_H_MISSING"},
    {"  Could NOT find Python (missing: Development.Module) (found version \"3.8.10\")", "PYTHON_H_MISSING"},
    {"  Could NOT find PythonLibs (missing: PYTHON_LIBRARIES PYTHON_INCLUDE_DIRS)", "PYTHON_H_MISSING"},
    {"  Could not find Python.h in /usr/include/python3.6m, install python-dev", "PYTHON_H_MISSING"},
    {"../meson.build:41:12: ERROR: Python dependency not found", "PYTHON_H_MISSING"},
    {"meson.build:15:0: ERROR: Dependency \"python3\" not found, tried pkgconfig and sysconfig", "PYTHON_H_MISSING"},
    {"Dependency \"python3\" not found", "PYTHON_H_MISSING"},
    // meson's wording of a missing ninja.
    {"ERROR: Could not detect Ninja v1.8.2 or newer", "NINJA_REQUIRED"},
};

INSTANTIATE_TEST_SUITE_P(All, OneWording, ::testing::ValuesIn(kWordings));

// One generic signature for "the compiled module is missing": the module the line names goes into
// the cause and the remedy, and the old package-named ids are answered by it.
TEST(GenericSignature, NamesTheMissingModuleAndAnswersItsFormerIds) {
  struct Case { const char* line; const char* module; const char* former; };
  for (const Case& c : {Case{"ImportError: cannot import name '_C' from 'detectron2' (/d/__init__.py)", "detectron2", "DETECTRON2_C_NOT_BUILT"},
                        Case{"ModuleNotFoundError: No module named 'mmcv._ext'", "mmcv._ext", "MMCV_EXT_NOT_BUILT"},
                        Case{"ModuleNotFoundError: No module named 'fused_layer_norm_cuda'", "fused_layer_norm_cuda", "APEX_CUDA_EXT_NOT_BUILT"}}) {
    Diagnosis d = diagnose(std::string(c.line) + "\n");
    ASSERT_TRUE(d.root()) << c.line;
    EXPECT_EQ(d.root()->id, "EXT_MODULE_NOT_BUILT");
    ASSERT_FALSE(d.root()->captures.empty());
    EXPECT_EQ(d.root()->captures[0], c.module);
    EXPECT_NE(d.root()->cause.find(std::string("'") + c.module + "'"), std::string::npos) << d.root()->cause;
    EXPECT_NE(d.root()->remedy.note.find(std::string("'") + c.module + "'"), std::string::npos) << d.root()->remedy.note;
    EXPECT_EQ(d.root()->cause.find("$1"), std::string::npos);
    ASSERT_TRUE(d.root()->sig);
    EXPECT_TRUE(answers(*d.root()->sig, c.former));
    EXPECT_TRUE(answers(*d.root()->sig, "EXT_MODULE_NOT_BUILT"));
    EXPECT_FALSE(answers(*d.root()->sig, "EXT_BUILT_FOR_OTHER_TORCH"));
    EXPECT_EQ(engine().set().find(c.former), nullptr) << "a former id is not a signature of its own";
  }
  for (const char* near : {"ModuleNotFoundError: No module named 'numpy._core'",
                           "ImportError: cannot import name '_validate' from 'mypkg.utils'",
                           "ModuleNotFoundError: No module named 'torchvision'",
                           "      ImportError: cannot import name '_Cfg' from 'mypkg'"}) {
    Diagnosis d = diagnose(std::string(near) + "\n");
    EXPECT_FALSE(has_finding(d, "EXT_MODULE_NOT_BUILT")) << near;
  }
}

// torch 0.3-1.x's capability check: a warning (the build may still run on another GPU), so the
// root cause of a log without an error, not a failed log.
TEST(OneWordingWarning, OldTorchCapabilityWording) {
  Diagnosis d = diagnose("UserWarning:\n    Found GPU0 GeForce GTX 960M which is of cuda capability 5.0.\n"
                         "    PyTorch no longer supports this GPU because it is too old.\n");
  EXPECT_EQ(root_id(d), "CUDA_ARCH_SM_NOT_IN_TORCH_LIST");
  Diagnosis near = diagnose("    Found GPU0 NVIDIA GeForce RTX 3090 which is of cuda capability 8.6.\n");
  EXPECT_FALSE(has_finding(near, "CUDA_ARCH_SM_NOT_IN_TORCH_LIST"));
}

// nvcc's two lines: the first names no type, the second names c10::Half, and that is the root cause (its
// remedy the build helper's rule). Near misses: the same ambiguity on the package's own half type, or on
// __half alone, is not this class.
TEST(OneWordingHalf, TheOperandLineNamesTheCauseOfTheAmbiguity) {
  Diagnosis d = diagnose("/src/spconv/maxpool.cu(187): error: more than one operator \"==\" matches these operands:\n"
                         "            operand types are: const c10::Half == const c10::Half\n"
                         "1 error detected in the compilation of \"/src/spconv/maxpool.cu\".\n");
  EXPECT_EQ(root_id(d), "CUDA_HALF_OPERATOR_AMBIGUOUS");
  for (const char* near : {"            operand types are: const MyHalf == const MyHalf\n",
                           "            operand types are: __half == __half\n",
                           "            operand types are: c10::Half *__restrict__ == int\n"}) {
    EXPECT_FALSE(has_finding(diagnose(std::string("k.cu(3): error: more than one operator \"==\" matches these operands:\n") + near),
                             "CUDA_HALF_OPERATOR_AMBIGUOUS")) << near;
  }
}

// Near misses of the wordings above: the same words in lines that are not that failure.
TEST(OneWordingNearMiss, DoesNotTrigger) {
  for (const Wording& n : {Wording{"k.cu(9): error: namespace \"at::cuda\" has no member \"myStream\"", "TORCH_API_REMOVED"},
                           Wording{"k.cu(9): error: identifier \"CHECK_INPUT\" is undefined", "TORCH_API_REMOVED"},
                           Wording{"k.cu(9): error: identifier \"TORCH_CHECK_EQ\" is undefined", "TORCH_API_REMOVED"},
                           Wording{"k.cpp:4:1: error: \u2018class at::Context\u2019 has no member named \u2018myField\u2019", "TORCH_API_REMOVED"},
                           Wording{"g++ -std=c++14 -O3 -o encoder encoder.C", "GCC_TOO_OLD_FOR_TORCH"},
                           // The last line of CMake's CMP0104 developer warning (the build goes on).
                           Wording{"  CUDA_ARCHITECTURES is empty for target \"exputil\".", "CMAKE_CUDA_ARCHITECTURES_EMPTY"},
                           Wording{"RuntimeError: CUDA error: invalid device ordinal", "NO_KERNEL_IMAGE_FOR_DEVICE"},
                           Wording{"[E] [TRT] CUDA initialization failure with error: 100. Please check your CUDA installation", "NVIDIA_DRIVER_TOO_OLD"},
                           Wording{"cudaGetDeviceCount() failed with error #350", "NVIDIA_DRIVER_TOO_OLD"},
                           Wording{"NVIDIA Release 20.10 (build 16733513)", "NVIDIA_DRIVER_TOO_OLD"},
                           Wording{"DEPRECATION: Python 2.7 reached the end of its life on January 1st, 2020.", "PYTHON_TOO_OLD_FOR_TORCH"},
                           Wording{"rm: 无法删除 'build/config.h': 没有那个文件或目录", "MISSING_HEADER_GENERIC"},
                           // An incomplete type that names no arch template.
                           Wording{"ops.cu(12): error: incomplete type \"at::Tensor\" is not allowed", "HEADER_LIBRARY_NO_ARCH_SPECIALIZATION"},
                           // Another overload error: no DeprecatedTypeProperties among its argument types.
                           Wording{"            argument types are: (c10::ScalarType, {...})", "TENSOR_TYPE_DISPATCH_REMOVED"},
                           // A source file missing from the command line is not an #include (no line:column before it).
                           Wording{"cc1plus: fatal error: src/cuda/ops.cpp: No such file or directory", "MISSING_HEADER_GENERIC"},
                           // CUB's namespace macros (nvlabs/autodmp#8): another requirement, not the dialect.
                           Wording{"cuda12-3-0/include/cub/util_namespace.cuh:46:2: error: #error CUB requires a definition of CUB_NS_QUALIFIER when CUB_NS_PREFIX/POSTFIX are defined.", "CXX17_REQUIRED"},
                           Wording{"ls: Zugriff auf 'ops_impl.h' nicht möglich: Datei oder Verzeichnis nicht gefunden", "MISSING_HEADER_GENERIC"},
                           Wording{"RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCCachingAllocator.cpp:510", "NO_KERNEL_IMAGE_FOR_DEVICE"},
                           Wording{"F0310 07:19:41.605973  3025 syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  out of memory", "NO_KERNEL_IMAGE_FOR_DEVICE"},
                           Wording{"const char* name = \"CUDA_ERROR_NO_DEVICE\";", "NO_KERNEL_IMAGE_FOR_DEVICE"},
                           Wording{"/usr/bin/ld: a.o: relocation R_X86_64_32 against `.rodata' can not be used when making a shared object; recompile with -fPIC", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
                           Wording{"ld.lld: error: a.o:(.debug_info+0x10): relocation R_X86_64_32 out of range: 5405348154 is not in [0, 4294967295]", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
                           Wording{"ld.lld: error: a.o:(.text+0x8): relocation R_AARCH64_JUMP26 out of range: 134217732 is not in [-134217728, 134217727]", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
                           Wording{"LINK : fatal error LNK1104: cannot open file 'torch.lib'", "RELOC_TRUNCATED_FATBIN_TOO_LARGE"},
                           Wording{"ImportError: No module named torch._C", "BUILD_ENV_TORCH_MISSING"},
                           Wording{"/site-packages/torch/include/c10/util/Float8.h:12:3: error: \u2018uint8_t\u2019 in namespace \u2018std\u2019 does not name a type", "CXX17_REQUIRED"},
                           Wording{"src/main.cpp:7:12: error: no member named 'optional' in namespace 'std'", "CXX17_REQUIRED"},
                           Wording{"Could NOT find Python3 (missing: Python3_EXECUTABLE Interpreter)", "PYTHON_H_MISSING"},
                           Wording{"Could NOT find PythonLibs (missing: PYTHON_LIBRARIES) (found version \"2.7.12\")", "PYTHON_H_MISSING"},
                           Wording{"Could NOT find PythonInterp (missing: PYTHON_EXECUTABLE)", "PYTHON_H_MISSING"},
                           Wording{"src/meson.build:7:0: ERROR: Dependency \"argparse\" not found, tried pkgconfig and cmake", "PYTHON_H_MISSING"},
                           Wording{"Dependency \"python3-gi\" not found", "PYTHON_H_MISSING"},
                           Wording{"Found ninja-1.10.0 at /usr/bin/ninja", "NINJA_REQUIRED"},
                           Wording{"-- Could NOT find Python3 (missing: Python3_INCLUDE_DIRS Development) (found version \"3.10.12\")", "PYTHON_H_MISSING"},
                           Wording{"-- Could NOT find OpenMP_C (missing: OpenMP_C_FLAGS OpenMP_C_LIB_NAMES) ", "OPENMP_HEADER_MISSING_MACOS"},
                           Wording{"      -- Could NOT find OpenMP (missing: OpenMP_C_FOUND OpenMP_CXX_FOUND)", "OPENMP_HEADER_MISSING_MACOS"},
                           Wording{"ImportError: No module named torchvision", "BUILD_ENV_TORCH_MISSING"},
                           Wording{"ImportError: No module named 'torch_ext'", "BUILD_ENV_TORCH_MISSING"},
                           Wording{"RuntimeError: Expected is_cuda to be true, but got false.", "FLASH_ATTN_GPU_TOO_OLD"},
                           Wording{"ImportError: cannot import name '_C_helpers' from 'mypkg'", "EXT_MODULE_NOT_BUILT"},
                           Wording{"ImportError: cannot import name '_add_docstr' from 'torch._C' (/venv/lib/python3.10/site-packages/torch/_C.so)", "TORCH_C_LOADED_FROM_SOURCE_TREE"},
                           Wording{"RuntimeError: PyTorch was compiled without NumPy support", "NUMPY2_ABI_MISMATCH"},
                           Wording{"RuntimeError: Could not infer dtype of NoneType", "NUMPY2_ABI_MISMATCH"},
                           Wording{"ptxas application ptx input, line 12; error   : Unknown symbol 'foo'", "CUDA_PTX_UNSUPPORTED_TOOLCHAIN"},
                           Wording{"RuntimeError: Expected is_sm80 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)", "FLASH_ATTN_GPU_TOO_OLD"},
                           Wording{"RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.", "FLASH_ATTN_GPU_TOO_OLD"},
                           Wording{"RuntimeError: No such operator aten::my_op", "TORCHVISION_OPS_NOT_LOADED"},
                           Wording{"-- Looking for a CUDA toolset: No CUDA toolset found in VS 2019, trying VS 2022", "CMAKE_CUDA_COMPILER_NOT_FOUND"},
                           Wording{"c1xx: fatal error C1083: Cannot open source file: '..\\test\\main.cpp': No such file or directory", "MISSING_HEADER_GENERIC"},
                           Wording{"NameError: name '_Cache' is not defined", "EXT_MODULE_NOT_BUILT"},
                           Wording{"ImportError: No module named yamlordereddictloader", "PYTHON_BUILD_DEPS_MISSING"},
                           Wording{"ld: warning: object file (x.o) was built for newer macOS version (14.0) than being linked (13.0)", "UNDEFINED_REFERENCE_LINK"},
                           Wording{"ImportError: DLL load failed while importing _C: The specified module could not be found.", "EXT_BUILT_FOR_OTHER_TORCH"},
                           Wording{"RuntimeError: Detected that PyTorch and torchvision were compiled with the same CUDA version", "TORCHVISION_CUDA_MISMATCH"},
                           Wording{"OSError: libcurand.so.11: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
                           Wording{"ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
                           Wording{"W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library 'libcublas.so.10'; dlerror: libcublas.so.10: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
                           Wording{"OSError: libcusparse.so.10: cannot open shared object file: No such file or directory", "JETSON_WHEEL_JETPACK_MISMATCH"},
                           Wording{"-rw-r--r-- 1 root root 0 Jul  1  2020 /usr/lib/aarch64-linux-gnu/libcublas.so.10.2.2.89", "JETSON_WHEEL_JETPACK_MISMATCH"},
                           Wording{"/usr/bin/c++ -x hip --offload-arch=gfx90a -fno-gpu-rdc -c kernel.cpp", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
                           Wording{"clang: warning: argument unused during compilation: '--offload-arch=gfx900' [-Wunused-command-line-argument]", "HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER"},
                           Wording{"/opt/rocm/bin/hipcc -O3 --use_fast_math -c column_remap.hip", "NVCC_FLAGS_IN_HIP_BUILD"},
                           Wording{"clang++: error: unknown argument: '-mno-avx512'", "NVCC_FLAGS_IN_HIP_BUILD"},
                           Wording{"rocBLAS warning: hipBlasLt failed, falling back to tensile.", "ROCBLAS_TENSILE_LIBRARY_NOT_FOUND"},
                           Wording{"OSError: libcuda.so.1: cannot open shared object file: No such file or directory", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
                           Wording{"Failed to dlopen libcuda.so.1", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
                           Wording{"dyld[1]: Library not loaded: @rpath/libc10.dylib", "MACOS_LIBOMP_NOT_FOUND"},
                           Wording{"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown", "NVIDIA_DRIVER_TOO_OLD"},
                           Wording{"NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=470,driver<471", "NVIDIA_DRIVER_TOO_OLD"},
                           Wording{"nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown", "NVIDIA_CONTAINER_NVML_NOT_FOUND"},
                           Wording{"docker: Error response from daemon: could not select device driver \"\" with capabilities: [[compute]].", "NVIDIA_CONTAINER_TOOLKIT_MISSING"},
                           Wording{"error: invalid command 'bdist_wheel'", "SETUPTOOLS_TEST_COMMAND_REMOVED"},
                           Wording{"AttributeError: module 'setuptools.command' has no attribute 'build'", "SETUPTOOLS_TEST_COMMAND_REMOVED"},
                           Wording{"docker: Error response from daemon: unknown or invalid runtime name: runsc.", "NVIDIA_CONTAINER_TOOLKIT_MISSING"},
                           Wording{"OSError: [Errno 36] File name too long: '/tmp/x'", "WINDOWS_PATH_TOO_LONG"},
                           Wording{"ModuleNotFoundError: No module named 'packaging.tags'", "PACKAGING_TOO_OLD_FOR_SETUPTOOLS"},
                           Wording{"AttributeError: module 'torch' has no attribute 'compile'", "TORCH_PY_API_REMOVED"},
                           Wording{"ImportError: cannot import name '_import_dotted_name' from 'torch._utils'", "TORCH_PY_API_REMOVED"},
                           Wording{"FileNotFoundError: Unable to find library: libfoo.so", "AUDITWHEEL_LIB_NOT_LOCATED"},
                           Wording{"LINK : fatal error LNK1181: cannot open input file 'm.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
                           Wording{"libcuda.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcuda.so.1", "LIBCUDA_SO_UNVERSIONED_NOT_FOUND"},
                           Wording{"ModuleNotFoundError: No module named 'setuptools.command.build'", "SETUPTOOLS_TEST_COMMAND_REMOVED"},
                           Wording{"error in foo setup command: 'install_requires' must be a string or list of strings", "SETUPTOOLS_USE_2TO3_REMOVED"},
                           Wording{"INFO:auditwheel.lddtree:Excluding libtorch_cpu.so", "AUDITWHEEL_LIB_NOT_LOCATED"},
                           Wording{"This constrains the platform tag to \"manylinux_2_35_x86_64\".", "AUDITWHEEL_TOO_RECENT_SYMBOLS"},
                           Wording{"Defaulting to user installation because normal site-packages is not writeable", "PIP_EXTERNALLY_MANAGED"},
                           Wording{"  --break-system-packages     Allow pip to modify an EXTERNALLY-MANAGED Python installation", "PIP_EXTERNALLY_MANAGED"},
                           Wording{"RMS/Routines/Grouping3Dcy.pyx:481:86: Cannot assign type 'double' to 'unsigned int'", "CYTHON3_INCOMPATIBLE"},
                           Wording{"cdef int cmp(const void* a, const void* b) noexcept nogil:", "CYTHON3_INCOMPATIBLE"},
                           Wording{"TypeError: canonicalize_name() got an unexpected keyword argument 'validate'", "PACKAGING_TOO_OLD_FOR_SETUPTOOLS"},
                           Wording{"WARNING: Ignoring invalid distribution -orch (/venv/lib/python3.10/site-packages)", "PACKAGING_INVALID_VERSION"},
                           Wording{"  Checking if build backend supports build_editable ... done", "EDITABLE_BACKEND_UNSUPPORTED"},
                           Wording{"In file included from /usr/include/python3.11/Python.h:38,", "PYTHON_H_MISSING"},
                           Wording{"/usr/include/python3.11/Python.h: In function \u2018int f()\u2019:", "PYTHON_H_MISSING"},
                           Wording{"Requirement already satisfied: Cython in ./venv/lib/python3.10/site-packages (3.0.10)", "PYTHON_BUILD_DEPS_MISSING"},
                           Wording{"c++: error: unrecognized command-line option '-mavx512fp16'", "GCC_TOO_OLD_FOR_TORCH"},
                           Wording{"cc1plus: warning: command line option '-Wstrict-prototypes' is valid for C/ObjC but not for C++", "GCC_TOO_OLD_FOR_TORCH"},
                           Wording{"/usr/local/cuda/bin/nvcc -arch=compute_30 -ptx compare.cu -o compare.ptx", "NVCC_UNSUPPORTED_GPU_ARCH"},
                           Wording{"nvcc fatal   : Value 'c++20' is not defined for option 'std'", "NVCC_UNSUPPORTED_GPU_ARCH"},
                           Wording{"/usr/bin/ld: k.o: undefined reference to `cudaLaunchKernel'", "CUDA_RDC_DEVICE_LINK_MISSING"},
                           Wording{"/usr/bin/ld: k.o: undefined reference to `cudaLaunchKernel'", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
                           Wording{"k.cu(56): warning: texture<float2> is deprecated, use cudaTextureObject_t", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
                           Wording{"k.cu(9): error: identifier \"__half\" is undefined", "NVCC_HALF_INTRINSIC_ARCH_TOO_LOW"},
                           Wording{"libstdc++.so.6 exports GLIBCXX_3.4.29 (strings | grep GLIBCXX)", "GLIBCXX_VERSION_NOT_FOUND"},
                           Wording{"x.cpp:3:10: error: 'seconds' is not a member of 'std::chrono'", "MISSING_STD_HEADER"},
                           Wording{"x.cc:3:10: error: no member named 'seconds' in namespace 'std::chrono'", "MISSING_STD_HEADER"},
                           Wording{"x.cu(3): error: namespace \"std::chrono\" has no member \"seconds\"", "MISSING_STD_HEADER"},
                           Wording{"x.cpp:3:10: error: 'class std::vector<int>' has no member named 'frob'", "MISSING_STD_HEADER"},
                           Wording{"-- Checking disk quota: 120 GB free", "DISK_FULL"},
                           Wording{"    accelerate 1.0.1 depends on torch>=1.10.0", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"Requirement already satisfied: torch==2.0.1 in ./venv (from torchvision==0.15.2)", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory", "CUDA_HOME_IS_PATH_LIST"},
                           Wording{"FileNotFoundError: [Errno 2] No such file or directory: 'C:\\CUDA\\v11.8/bin/nvcc'", "CUDA_HOME_IS_PATH_LIST"},
                           Wording{"ImportError: /venv/lib/python3.10/site-packages/torch_scatter/_C.so: undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs", "TORCH_MIXED_INSTALL_STALE_LIBS"},
                           Wording{"ImportError: /venv/lib/python3.10/site-packages/torchvision/_C.so: undefined symbol: _ZN3c106detail19maybe_wrap_dim_slowEllb", "TORCH_MIXED_INSTALL_STALE_LIBS"},
                           Wording{"nvcc fatal   : The version ('1939') of the host compiler ('Microsoft Visual Studio') is not supported", "NVCC_HOST_GCC_TOO_NEW"},
                           Wording{"Solving environment: done", "CONDA_SOLVE_CONFLICT"},
                           Wording{"CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx(...)`", "GPU_ARCH_TOO_OLD_FOR_LIBRARY"},
                           Wording{"x.cpp(12): error C2951: template declarations are only permitted at global, namespace, or class scope", "MSVC_TOO_OLD_FOR_TORCH"},
                           Wording{"main.cpp:5:10: error: 'Py_ssize_t' was not declared in this scope", "EXT_PY_LIMITED_API_PYBIND11"},
                           Wording{"hipcc -D__HIP_PLATFORM_AMD__ -c k.hip -o k.o", "HIP_PLATFORM_MACRO_UNDEFINED"},
                           Wording{"-- Found HIP runtime at /opt/rocm (--rocm-path not needed)", "ROCM_PATH_NOT_FOUND"},
                           Wording{"C:\\src\\ext\\ops.cpp(3): fatal error C1083: Cannot open include file: 'ops_impl.h': No such file or directory", "WINDOWS_SDK_MISSING"},
                           Wording{"/usr/lib/gcc/x86_64-linux-gnu/12/include/x.h:1:10: fatal error: stddef.h: No such file or directory", "WINDOWS_SDK_MISSING"},
                           Wording{"/usr/bin/ld: cannot find -lcudart: No such file or directory", "TORCH_CPU_ONLY_FOR_CUDA_EXT"},
                           Wording{"-L/venv/lib/python3.10/site-packages/torch/lib -lc10_cuda -ltorch_cuda", "TORCH_CPU_ONLY_FOR_CUDA_EXT"},
                           Wording{"x.cc:12:8: error: 'std::chrono::seconds' has not been declared", "MISSING_STD_HEADER"},
                           Wording{"Checking that there is enough space on the disk... yes", "DISK_FULL"},
                           Wording{"clang: error: unable to execute command: Killed", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
                           Wording{"clang++: error: clang frontend command failed with exit code 137 (use -v to see invocation)", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
                           Wording{"c++: internal compiler error: Killed (program cc1plus)", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
                           Wording{"x.cpp(12): error C2001: newline in constant", "ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG"},
                           Wording{"-- Performing Test COMPILER_SUPPORTS_CXX14 - Success", "CXX17_REQUIRED"},
                           Wording{"set_property(TARGET app PROPERTY CXX_STANDARD 14)  # You need C++14 or later", "CXX17_REQUIRED"},
                           Wording{"call \"C:\\Program Files (x86)\\Microsoft Visual Studio\\2019\\BuildTools\\VC\\Auxiliary\\Build\\vcvarsall.bat\" x64", "MSVC_BUILD_TOOLS_MISSING"},
                           Wording{"In file included from /t/include/THC/THC.h:4,", "THC_HEADERS_REMOVED"},
                           Wording{"k.cu(1): fatal error C1083: Cannot open include file: 'cudnn.h': No such file or directory", "CUDA_DEV_HEADER_MISSING"},
                           Wording{"k.cpp(1): fatal error C1083: Cannot open include file: 'mycuda.hpp': No such file or directory", "CUDA_DEV_HEADER_MISSING"},
                           Wording{"gcc: error: src/nearest_neighborhood.cu.o: No such file or directory", "CUDA_LINK_LIB_NOT_FOUND"},
                           Wording{"clang: warning: CUDA version 12.4 is only partially supported [-Wunknown-cuda-version]", "NVCC_UNSUPPORTED_GPU_ARCH"},
                           Wording{"subprocess.CalledProcessError: Command '['where', 'nvcc']' returned non-zero exit status 1.", "MSVC_CL_NOT_FOUND"},
                           Wording{"ImportError: dlopen(/x/_C.so, 2): Symbol not found: _PyInit__C", "EXT_BUILT_FOR_OTHER_TORCH"},
                           Wording{"ERROR: fastai 1.0.61 has requirement torch>=1.0.0, but you'll have torch 0.4.0 which is incompatible.", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"RuntimeError: module compiled against API version 0xe but this version of numpy is 0xd", "NUMPY2_ABI_MISMATCH"},
                           Wording{"Successfully installed torch-2.3.0 torchvision-0.18.0 (torchvision 0.18.0 requires torch==2.3.0)", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.ldg.global.f", "OOM_CC1PLUS_KILLED"},
                           Wording{"clang: error: no such file or directory: '-fno-plt.o'", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
                           Wording{"RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`", "GPU_BF16_UNSUPPORTED"},
                           Wording{"clang: error: unable to execute command: No such file or directory", "OOM_CC1PLUS_KILLED"},
                           Wording{"src/UtilsAvx512.cc:970:35: warning: 'r' may be used uninitialized [-Wmaybe-uninitialized]", "WERROR_NEW_COMPILER_WARNING"},
                           Wording{"/usr/bin/c++ -Wall -Werror=return-type -Werror=non-virtual-dtor -c List.cpp -o List.cpp.o", "WERROR_NEW_COMPILER_WARNING"},
                           Wording{"c10\\util\\Half.h(120): warning C4244: 'argument': conversion from 'double' to 'float'", "WERROR_NEW_COMPILER_WARNING"},
                           Wording{"-- CUDA_cublas_LIBRARY: /usr/lib/x86_64-linux-gnu/libcublas.so", "CMAKE_CUDA_LIBRARY_NOTFOUND"},
                           Wording{"OpenCV_LIBS_NOTFOUND (ADVANCED)", "CMAKE_CUDA_LIBRARY_NOTFOUND"},
                           Wording{"-- Performing Test HAS_RTM (assembler supports xbegin/xend) - Success", "ASSEMBLER_TOO_OLD"},
                           Wording{"x.cpp:3:1: error: #error This build requires USE_CUDA", "CXX17_REQUIRED"},
                           Wording{"-- Checking build dependency: import yaml - found", "PYTHON_BUILD_DEPS_MISSING"},
                           Wording{"main.cpp:(.text+0x4a): undefined reference to `mylib::load(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)'", "UNDEFINED_SYMBOL_CXX11_ABI"},
                           Wording{"main.cpp:(.text+0x4a): undefined reference to `torch::cuda::device_count()'", "UNDEFINED_SYMBOL_CXX11_ABI"},
                           Wording{"-- Found supported gcc/g++ host compiler: /usr/bin/g++-12", "NVCC_HOST_GCC_TOO_NEW"},
                           Wording{"[W:onnxruntime:Default, onnxruntime_pybind_state.cc:861 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider.", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"Loaded library libcudnn_ops.so.9 from /venv/lib/python3.11/site-packages/nvidia/cudnn/lib", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"Failed to load library libmyplugin.so", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"RuntimeError: Library libsndfile.so.1 is not found or cannot be loaded", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"Could not load library libmkl_rt.so.2. Error: libmkl_rt.so.2: cannot open shared object file", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"    accelerate 0.34.2 depends on torch>=1.10.0", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"outlines 0.0.34 requires pydantic>=2.0, but you have pydantic 1.10.15 which is incompatible.", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"memory_efficient_attention.cutlassF:               available", "EXT_BUILT_FOR_OTHER_TORCH"},
                           Wording{"    dtype=torch.float32 (supported: {torch.bfloat16, torch.float16})", "EXT_BUILT_FOR_OTHER_TORCH"},
                           Wording{"Requirement already satisfied: protobuf==3.20.3 in ./venv/lib/python3.10/site-packages", "PROTOBUF_PY_GENERATED_CODE_OUTDATED"},
                           Wording{"/build/caffe2/proto/caffe2.pb.h:17:2: error: #error This file was generated by an older version of protoc which is", "PROTOBUF_PY_GENERATED_CODE_OUTDATED"},
                           Wording{"q.cu(12): error: class \"cudaDeviceProp\" has no member \"frobRate\"", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
                           Wording{"q.cpp:12:5: error: ‘struct myDeviceProp’ has no member named ‘clockRate’", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
                           Wording{"q.cu(12): warning: \"clockRate\" was declared deprecated (cudaDeviceProp)", "CUDA13_DEVICE_PROP_FIELD_REMOVED"},
                           Wording{"m.h(40): error: exception specification is incompatible with that of previous function \"frob\"", "CUDA_GLIBC_MATH_NOEXCEPT_MISMATCH"},
                           Wording{"/usr/include/bits/mathcalls.h:79:1: note: previous declaration of ‘double cospi(double)’", "CUDA_GLIBC_MATH_NOEXCEPT_MISMATCH"},
                           Wording{"  By not providing \"Findmylib.cmake\" in CMAKE_MODULE_PATH this project", "CMAKE_TOO_OLD"},
                           Wording{"/usr/bin/ld: skipping incompatible /usr/lib/i386-linux-gnu/libcuda.so when searching for -lcuda", "CUDA_LINK_LIB_NOT_FOUND"},
                           Wording{"/usr/bin/ld: warning: libcuda.so.1, needed by /usr/lib/libdarknet.so, not found (try using -rpath or -rpath-link)", "CUDA_LINK_LIB_NOT_FOUND"},
                           Wording{"/usr/bin/ld: -lcuda -lcudart", "CUDA_LINK_LIB_NOT_FOUND"},
                           Wording{"c10\\util\\Half.h(120): error C2221: '.x': left operand points to 'struct', use '->'", "WERROR_NEW_COMPILER_WARNING"},
                           Wording{"-- nvcc uses libdevice from /usr/local/cuda/nvvm/libdevice", "CUDA_LIBDEVICE_NOT_FOUND"},
                           Wording{"nvcc fatal   : Path to input file not specified", "CUDA_LIBDEVICE_NOT_FOUND"},
                           Wording{"c++: error: unrecognized command-line option '-mavx512fp16'", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
                           Wording{"cc1plus: warning: command line option '-Wstrict-prototypes' is valid for C/ObjC but not for C++", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
                           Wording{"g++: error: unrecognized command-line option '-std=c++17'", "COMPILER_FLAG_MISMATCH_GCC_CLANG"},
                           Wording{"d.cpp:3:10: fatal error: ATen/cuda/CUDAGeneratorImpl.h: No such file or directory", "EXT_SOURCE_NEWER_THAN_TORCH"},
                           Wording{"#include <ATen/ceil_div.h>", "EXT_SOURCE_NEWER_THAN_TORCH"},
                           Wording{"yvals_core.h(581): error: static assertion failed with \"error STL1003: Unexpected compiler, expected C++ compiler.\"", "MSVC_UNSUPPORTED_BY_NVCC"},
                           Wording{"-- Found glm: /usr/include/glm/glm.hpp (found version \"0.9.9\")", "SUBMODULES_MISSING"},
                           Wording{"a.cpp:2:10: fatal error: GL/glew.h: No such file or directory", "SUBMODULES_MISSING"},
                           Wording{"-- nvcc --list-gpu-arch: compute_50 compute_52 compute_75 compute_86", "NVCC_UNSUPPORTED_GPU_ARCH"},
                           Wording{"gcc: fatal error: cannot execute 'cc1plus': execvp: Permission denied", "CPP_EXT_CXX_NOT_FOUND"},
                           Wording{" [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.", "DEEPSPEED_AIO_LIBAIO_MISSING"},
                           Wording{"async_io ............... [NO] ....... [OKAY]", "DEEPSPEED_AIO_LIBAIO_MISSING"},
                           Wording{"/usr/bin/ld: cannot find -laiohttp_ext", "DEEPSPEED_AIO_LIBAIO_MISSING"},
                           // torch's own mangled NCCL wrapper missing: a torch build problem, not a second NCCL.
                           Wording{"ImportError: /usr/lib/python3.8/site-packages/torch/lib/libtorch_python.so: undefined symbol: _ZN5torch4cuda4nccl6detail16throw_nccl_errorE12ncclResult_t", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
                           Wording{"ImportError: /x/_ext.so: undefined symbol: cudaLaunchKernel", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
                           // Another server's port clash (a web UI), not the distributed store.
                           Wording{"OSError: [Errno 98] Address already in use", "DIST_STORE_PORT_IN_USE"},
                           // A wrong MASTER_ADDR (errno 99), not a taken port.
                           Wording{"[W socket.cpp:426] [c10d] The server socket has failed to bind to 10.0.0.5:29500 (errno: 99 - Cannot assign requested address).", "DIST_STORE_PORT_IN_USE"},
                           Wording{"ptxas /tmp/x.ptx, line 12; error   : Feature '.f16x2' requires .target sm_53 or higher", "GPU_BF16_UNSUPPORTED"},
                           Wording{"Because my_project depends on numpy (1.26.4) and pandas (2.2.0) depends on numpy (>=1.22.4)", "TORCH_COMPANION_VERSION_CONFLICT"},
                           Wording{"LINK : fatal error LNK1104: cannot open file 'mylib.lib'", "WINDOWS_SDK_MISSING"},
                           Wording{"link.exe /nologo kernel32.lib user32.lib gdi32.lib /out:a.exe", "WINDOWS_SDK_MISSING"},
                           Wording{"LoadLibrary failed with error 126 \"\" when trying to load \"C:\\app\\myplugin.dll\"", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"-- LAPACK requires BLAS", "TORCH_BUILT_WITHOUT_LAPACK"},
                           Wording{"  \"_dgetrf_wrapper\", referenced from:", "LAPACK_NOT_LINKED"},
                           // cuDNN 8's zlib dependency missing on Windows: another cause.
                           Wording{"Could not locate zlibwapi.dll. Please make sure it is in your library path!", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"a.cpp:3:1: error: no template named 'texture_view'", "CUDA12_TEXTURE_REFERENCE_REMOVED"},
                           Wording{"Detected 1 CUDA Capable device(s)", "CUDA_VISIBLE_DEVICES_NO_GPU"},
                           Wording{"OSError: [WinError 127] The specified procedure could not be found. Error loading \"C:\\Python39\\lib\\site-packages\\cv2\\cv2.pyd\"", "TORCH_MIXED_INSTALL_STALE_LIBS"},
                           Wording{"ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 7860): address already in use", "DIST_STORE_PORT_IN_USE"},
                           // A name missing from another package whose name starts like triton's.
                           Wording{"ImportError: cannot import name 'Client' from 'tritonclient.http'", "TRITON_NOT_AVAILABLE"},
                           Wording{"Processing ./torch-2.1.2+cu121-cp311-cp311-linux_x86_64.whl", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
                           Wording{"ModuleNotFoundError: No module named 'torch'", "TORCH_PY_API_REMOVED"},
                           // Windows classes: the same codes or words in lines that are not that failure.
                           Wording{"ops.cpp(80): error C2065: 'band': undeclared identifier", "MSVC_ALTERNATIVE_TOKENS"},
                           Wording{"ops.cpp(80): error C2146: syntax error: missing ';' before identifier 'w_out'", "MSVC_ALTERNATIVE_TOKENS"},
                           Wording{"ops.cpp(80): error C2146: syntax error: missing ';' before identifier 'w_out' [C:\\b\\ops.vcxproj]", "MSVC_ALTERNATIVE_TOKENS"},
                           Wording{"main.obj : error LNK2019: unresolved external symbol \"long __cdecl mylib::count<long>(void)\" referenced in function main", "WINDOWS_LONG_IS_32BIT"},
                           Wording{"ops.obj : error LNK2001: unresolved external symbol \"public: __int64 * __cdecl at::Tensor::data_ptr<long long>(void)const \"", "WINDOWS_LONG_IS_32BIT"},
                           Wording{"C:\\src\\ops.cpp : warning C4819: The file contains a character that cannot be represented in the current code page (936). Save the file in Unicode format to prevent data loss", "MSVC_SOURCE_CODEPAGE"},
                           Wording{"cl : Command line warning D9025 : overriding '/source-charset:utf-8' with '/utf-8'", "MSVC_SOURCE_CODEPAGE"},
                           Wording{"LINK : fatal error LNK1104: cannot open file 'torch_python.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
                           Wording{"LINK : fatal error LNK1104: cannot open file 'pythoncom.lib'", "PYTHON_IMPORT_LIB_NOT_FOUND"},
                           Wording{"warning MSB8012: TargetPath(C:\\b\\x.dll) does not match the Linker's OutputFile property value", "MSVC_PLATFORM_TOOLSET_MISSING"},
                           Wording{"C:\\src\\ext\\ops.cpp(3): fatal error C1083: Cannot open include file: 'ops_impl.h': No such file or directory", "WINDOWS_PATH_TOO_LONG"},
                           Wording{"OSError: [Errno 22] Invalid argument: 'C:\\data\\frames\\0001.png'", "WINDOWS_PATH_TOO_LONG"},
                           Wording{"ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: 'C:\\\\venv\\\\Lib\\\\site-packages\\\\numpy-1.26.4.dist-info\\\\METADATA'", "WINDOWS_PATH_TOO_LONG"},
                           Wording{"LINK : fatal error LNK1181: cannot open input file 'caffe2\\CMakeFiles\\torch_cpu.dir\\__\\aten\\src\\ATen\\native\\Activation.cpp.obj'", "NINJA_WINDOWS_RSP_TRUNCATED"},
                           Wording{"LINK : fatal error LNK1181: cannot open input file 'mylib.lib'", "NINJA_WINDOWS_RSP_TRUNCATED"},
                           Wording{"C:\\src\\fft.cpp(28,29): error C2065: 'M_PIXELS': undeclared identifier", "MATH_CONSTANTS_UNDEFINED"},
                           Wording{"src/geo.cpp:12:20: error: 'M_PI' redefined [-Werror]", "MATH_CONSTANTS_UNDEFINED"},
                           Wording{"C:\\src\\forward.cpp(280): error C3861: 'my_clz': identifier not found", "MSVC_GCC_BUILTIN_UNSUPPORTED"},
                           Wording{"src/k.cpp:3:5: warning: '__builtin_clz' result undefined for 0 [-Wbuiltin-memcpy-chk-size]", "MSVC_GCC_BUILTIN_UNSUPPORTED"},
                           Wording{"RuntimeError: torch.linalg.inv: LAPACK error code 1", "TORCH_BUILT_WITHOUT_LAPACK"},
                           Wording{"    Found GPU0 NVIDIA GeForce RTX 3090 which is of cuda capability 8.6.", "CUDA_ARCH_SM_NOT_IN_TORCH_LIST"},
                           Wording{"CMake Error: CMake was unable to find a build program corresponding to \"Ninja\".", "CMAKE_NOT_INSTALLED"},
                           Wording{"ninja: error: build.ninja:41: bad $-escape (literal $ must be written as $$)", "NINJA_BUILD_FILE_MISSING"},
                           Wording{"ERROR: Could not install packages due to an OSError: [WinError 32] The process cannot access the file because it is being used by another process", "PIP_PERMISSION_DENIED"},
                           Wording{"E cuda_driver.cc:152] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "CUDA_802_FABRIC_MANAGER_MISSING"},
                           Wording{"-- CUDA_ARCHITECTURES for target \"kernels\": 80;86", "CMAKE_CUDA_ARCHITECTURES_EMPTY"},
                           Wording{"  Unable to find installation candidates for torchvision (0.16.0)", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
                           Wording{"I tensorflow/stream_executor/cuda/cuda_dnn.cc:384] Loaded cuDNN version 8101", "CUDNN_VERSION_INCOMPATIBLE"},
                           Wording{"Submodule path 'third_party/cutlass': checked out '099a70167993378fe25fe1e668207fc4ea3c0fb0'", "GIT_SUBMODULE_FETCH_FAILED"},
                           Wording{"RuntimeError: cuda runtime error (719) : unspecified launch failure at /pytorch/aten/src/THC/THCCachingHostAllocator.cpp:278", "CUDA_OUT_OF_MEMORY"},
                           Wording{"E tensorflow/stream_executor/cuda/cuda_driver.cc:967] failed to alloc 2304 bytes on host: CUDA_ERROR_OUT_OF_MEMORY", "CUDA_OUT_OF_MEMORY"},
                           Wording{"error: Distribution `torchvision==0.20.1 @ registry+https://pypi.org/simple` can't be installed because it doesn't have a source distribution or wheel for the current platform", "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON"},
                           Wording{"FileNotFoundError: [Errno 2] No such file or directory: 'C:\\models\\weights.pth'", "WINDOWS_DLL_LOAD_FAILED"},
                           Wording{"C:\\sdk\\include\\rpcndr.h(192): error C2872: 'byte': ambiguous symbol", "MSVC_STD_AMBIGUOUS_COMPILED_AUTOGRAD"},
                           Wording{"pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found", "NVIDIA_DRIVER_MISSING"},
                           Wording{"AssertionError: Torch not compiled with CUDA enabled", "EXT_NOT_COMPILED_WITH_CUDA"},
                           Wording{"Error relocating ./AtomicParsley: __cxa_guard_acquire: symbol not found", "SHARED_OBJECT_NOT_LOADABLE"},
                           Wording{"clang: error: unable to execute command: No such file or directory", "OOM_CC1PLUS_KILLED"},
                           Wording{"ls: relocation error: /lib64/libacl.so.1: symbol getxattr, version ATTR_1.0 not defined in file libattr.so.1 with link time reference", "CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH"},
                           Wording{"error MSB8020: The build tools for v142 (Platform Toolset = 'v142') cannot be found.", "WINDOWS_SDK_MISSING"},
                           Wording{"RC Pass 1: command \"rc /fo app.res app.rc\" failed (exit code 1) with the following output:", "WINDOWS_SDK_MISSING"},
                           Wording{"RuntimeError: Cannot load model weights from /data/ckpt", "EXT_CUDA_RUNTIME_MAJOR_MISMATCH"},
                           Wording{"rocBLAS error: Could not load the solution index file", "ROCBLAS_TENSILE_LIBRARY_NOT_FOUND"},
                           Wording{"x.obj : error LNK2019: unresolved external symbol _dgemm_ referenced in function main", "LAPACK_NOT_LINKED"},
                           Wording{"TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead.", "GPU_BF16_UNSUPPORTED"},
                           Wording{"TypeError: Trying to convert Float8_e4m3fn to the MPS backend but it does not have support for that dtype.", "GPU_BF16_UNSUPPORTED"},
                           Wording{"warning: encountered problems while solving the linear system", "CONDA_SOLVE_CONFLICT"},
                           Wording{"nvcc fatal   : Value 'c++20' is not defined for option 'std'", "NVCC_UNSUPPORTED_GPU_ARCH"},
                           Wording{"The following specifications were found to be incompatible with the docs build, see below", "CONDA_SOLVE_CONFLICT"},
                           Wording{"ValueError: fp16 mixed precision requires a GPU (not 'mps').", "GPU_BF16_UNSUPPORTED"},
                           Wording{"  Reason: Incompatible library version: libopencv_imgproc.4.5.dylib requires version 4.5.0 or later, but libopencv_core.4.5.dylib provides version 4.4.0", "TORCH_MIXED_INSTALL_STALE_LIBS"}}) {
    expect_not_named(n);
  }
}

// dyld names the stale torch dylib under its generic "Library not loaded" line: the reason is the root cause.
TEST(StaleTorchDylib, IncompatibleVersionOutranksLibraryNotLoaded) {
  Diagnosis d = diagnose(
      "ImportError: dlopen(/x/site-packages/torch/_C.cpython-36m-darwin.so, 9): Library not loaded: @rpath/libATen.dylib\n"
      "  Referenced from: /x/site-packages/torch/lib/libshm.dylib\n"
      "  Reason: Incompatible library version: libshm.dylib requires version 1.0.0 or later, but libATen.dylib provides version 0.0.0\n");
  EXPECT_EQ(root_id(d), "TORCH_MIXED_INSTALL_STALE_LIBS");
}

// CUDA error 999 at initialisation: torch's warning and the driver API's own words.
// A warning (torch falls back to the CPU), so the root cause without a failure.
TEST(CudaInitFailure, UnknownErrorInEveryWording) {
  for (const char* line :
       {"/x/torch/cuda/__init__.py:88: UserWarning: CUDA initialization: CUDA unknown error - this may be due to an "
        "incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start.",
        "2023-10-04 12:33:47.594219: E external/xla/xla/stream_executor/cuda/cuda_driver.cc:268] failed call to cuInit: "
        "CUDA_ERROR_UNKNOWN: unknown error",
        "[h264_nvenc @ 0x5649f5d0c140] dl_fn->cuda_dl->cuInit(0) failed -> CUDA_ERROR_UNKNOWN: unknown error"}) {
    Diagnosis d = diagnose(std::string(line) + "\n");
    EXPECT_EQ(root_id(d), "CUDA_INIT_UNEXPECTED_ERROR") << line;
  }
  // Another driver call's unknown error is not an initialisation failure.
  EXPECT_FALSE(has_finding(diagnose("cuCtxCreate failed -> CUDA_ERROR_UNKNOWN: unknown error\n"), "CUDA_INIT_UNEXPECTED_ERROR"));
}

TEST(AlwaysAnAnswer, UnknownErrorLineIsUnrecognisedWithThatLine) {
  for (const char* line : {"frob.cpp(7): error C9999: the frobnicator is out of order",
                           "error: the frobnicator is out of order",
                           "FrobnicatorError: out of order",
                           "Segmentation fault (core dumped)",
                           // excerpts often drop the file name before a fatal error
                           "fatal error: the frobnicator is out of order",
                           "fatal error C9999: the frobnicator is out of order",
                           "RuntimeError: CUDA error: an illegal frobnication was encountered"}) {
    Diagnosis d = diagnose(std::string("building\n") + line + "\ndone\n");
    ASSERT_TRUE(d.root()) << line;
    EXPECT_EQ(d.root()->id, "unrecognised") << line;
    EXPECT_TRUE(d.failed());
    ASSERT_FALSE(d.root()->evidence.empty());
    EXPECT_EQ(d.root()->evidence.front().line, 2u) << line;
  }
}

// A process that dies of an uncaught C++ exception prints nothing else that looks like an error
// ("Aborted" alone is no marker): the runtime's own lines are the first real error.
TEST(AlwaysAnAnswer, UncaughtCxxExceptionIsTheFirstRealError) {
  struct Case { const char* log; std::uint64_t line; };
  for (const Case& c : {
           Case{"loading model\nterminate called after throwing an instance of 'frob::Broken'\n"
                "  what():  the frobnicator is out of order\nAborted\n", 2},
           // Only the what() line survived (a log cut by a pipe or a line limit).
           Case{"loading model\n  what():  the frobnicator is out of order\nAborted\n", 2},
           Case{"loading model\nlibc++abi: terminating due to uncaught exception of type frob::Broken: out of order\n", 2},
           Case{"loading model\nlibc++abi.dylib: terminating with uncaught exception of type frob::Broken: out of order\n", 2}}) {
    Diagnosis d = diagnose(c.log);
    ASSERT_TRUE(d.root()) << c.log;
    EXPECT_EQ(d.root()->id, "unrecognised") << c.log;
    EXPECT_TRUE(d.failed()) << c.log;
    ASSERT_FALSE(d.root()->evidence.empty());
    EXPECT_EQ(d.root()->evidence.front().line, c.line) << c.log;
  }
  // The what() marker is the runtime's line only, not prose mentioning what().
  Diagnosis prose = diagnose("loading model\nsee e.what(): it names the error\ndone\n");
  EXPECT_FALSE(prose.root());
  EXPECT_FALSE(prose.failed());
}

// A CUDA runtime call's status as the CUDA samples print it is an error line, for any call and code.
TEST(AlwaysAnAnswer, ACudaCallsReturnedStatusIsTheFirstRealError) {
  for (const char* log : {" CUDA Device Query (Runtime API) version (CUDART static linking)\n\n"
                          "cudaGetDeviceCount returned 3\n-> initialization error\nResult = FAIL\n",
                          "probe\ncuInit returned 999\n",
                          "probe\nhipGetDeviceCount returned 100\n"}) {
    Diagnosis d = diagnose(log);
    ASSERT_TRUE(d.root()) << log;
    EXPECT_TRUE(d.failed()) << log;
  }
  // Prose about a function that returned something is not one.
  EXPECT_FALSE(diagnose("the function returned 3 values\ncuda returned 0 errors\n").root());
}

// A slowdown advisory (ninja missing: the serial backend) cannot make a build or a run fail, so a
// warning that can outranks it even when the advisory comes first, as it does at the top of most
// extension builds (torch's arch-list warning: the lines of the thread in wordings_structure_test).
// Near miss: alone, the advisory is still the finding, and still no failure (NoErrorSaysSo).
TEST(AlwaysAnAnswer, AnAdvisoryRanksBelowAWarningThatCanFail) {
  Diagnosis d = diagnose(
      "/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:381: UserWarning: Attempted to use ninja as the "
      "BuildExtension backend but we could not find ninja.. Falling back to using the slow distutils backend.\n"
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CUDA_ARCH_SM_NOT_IN_TORCH_LIST");
}

TEST(AlwaysAnAnswer, NoErrorSaysSo) {
  Diagnosis d = diagnose("running build_ext\nbuilding 'x' extension\ncopying x.so -> build/lib\n");
  EXPECT_FALSE(d.root());
  EXPECT_FALSE(d.failed());
  // Warnings alone are worth a note but are not a failure.
  Diagnosis w = diagnose(
      "/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:381: UserWarning: Attempted to use ninja as the "
      "BuildExtension backend but we could not find ninja.. Falling back to using the slow distutils backend.\n"
      "copying x.so -> build/lib\n");
  ASSERT_TRUE(w.root());
  EXPECT_EQ(w.root()->id, "NINJA_FALLBACK_SLOW");
  EXPECT_FALSE(w.failed());
  // What `torchsmith diagnose` prints for both, text and --json.
  for (const Diagnosis* x : {&d, &w}) {
    EXPECT_NE(render_text(*x, false, false).find("no error found"), std::string::npos);
    EXPECT_EQ(to_json(*x, false)["error"], false);
  }
  EXPECT_NE(render_text(w, false, false).find("NINJA_FALLBACK_SLOW"), std::string::npos);
  Diagnosis e = diagnose("x.cpp:1:1: error: frobnication failed\n");
  EXPECT_EQ(to_json(e, false)["error"], true);
  EXPECT_EQ(render_text(e, false, false).find("no error found"), std::string::npos);
}

}  // namespace
}  // namespace ts::triage::testing

#!/usr/bin/env python3
"""Writes tests/triage/cases/<ID>.log (a realistic excerpt whose root cause must be ID) and
<ID>.near.log (a near miss that must not trigger ID) for every signature. The core lines are
hand-written from real logs; the noise and wrappers around them are shared per phase.
Re-run after adding a signature: python3 tests/triage/gen_cases.py"""
import os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))

def ninja(n, what='CXX', f='aten/src/ATen/native/cpu/Activation.cpp'):
    return f'[{n}/6120] Building {what} object caffe2/CMakeFiles/torch_cpu.dir/__/{f}.o'

NOISE = {
 'configure': [
  '-- The CXX compiler identification is GNU 11.4.0',
  '-- The C compiler identification is GNU 11.4.0',
  '-- Detecting CXX compiler ABI info - done',
  '-- Check for working CXX compiler: /usr/bin/c++ - skipped',
  '-- Looking for pthread.h - found',
  '-- Performing Test C_HAS_AVX_1 - Failed',
  '-- Performing Test COMPILER_SUPPORTS_HIDDEN_VISIBILITY - Success',
  '-- Found Python: /usr/bin/python3.10 (found version "3.10.12") found components: Interpreter',
  'CMake Warning at cmake/Dependencies.cmake:1422 (message):',
  '  Not compiling with MAGMA.  Suppress this warning with -DUSE_MAGMA=OFF.',
  '',
 ],
 'compile': [
  ninja(4051), ninja(4052, 'CUDA', 'aten/src/ATen/native/cuda/Loss.cu'),
  '/home/u/pytorch/aten/src/ATen/native/cpu/Activation.cpp:231:12: warning: unused variable \'beta\' [-Wunused-variable]',
  '  231 |     double beta = 1.0;',
  '      |            ^~~~',
  ninja(4053, 'CXX', 'aten/src/ATen/native/TensorShape.cpp'),
  'In file included from /home/u/pytorch/c10/util/Half.h:15,',
  '/home/u/pytorch/c10/util/Exception.h:12:1: warning: \'deprecated\' attribute directive ignored [-Wattributes]',
 ],
 'link': [ninja(6101), ninja(6102), '[6103/6120] Linking CXX shared library lib/libtorch_cpu.so'],
 'package': [
  'Collecting packaging', '  Using cached packaging-24.0-py3-none-any.whl (53 kB)',
  'Building wheels for collected packages: flash-attn',
  '  Building wheel for flash-attn (setup.py) ... error',
  '  running bdist_wheel', '  running build', '  running build_py',
 ],
 'import': [
  '$ python -c "import torch; print(torch.__version__)"',
  '/home/u/venv/lib/python3.10/site-packages/torch/_subclasses/functional_tensor.py:258: UserWarning: Failed to initialize NumPy',
 ],
 'runtime': [
  '$ python smoke.py', 'torch 2.4.0a0+gitd990dad', 'cuda available: checking',
 ],
}

TAIL = {
 'configure': ['-- Configuring incomplete, errors occurred!',
               'See also "/home/u/pytorch/build/CMakeFiles/CMakeOutput.log".',
               'Traceback (most recent call last):', '  File "/home/u/pytorch/setup.py", line 1469, in <module>',
               '    main()', "subprocess.CalledProcessError: Command '['cmake', '..', '-GNinja']' returned non-zero exit status 1."],
 'compile': [ninja(4054), 'ninja: build stopped: subcommand failed.',
             'Traceback (most recent call last):', '  File "/home/u/pytorch/setup.py", line 1469, in <module>',
             "subprocess.CalledProcessError: Command '['cmake', '--build', '.', '--target', 'install', '--config', 'Release']' returned non-zero exit status 1."],
 'link': ['ninja: build stopped: subcommand failed.', "error: command '/usr/bin/g++' failed with exit code 1"],
 'package': ['  error: subprocess-exited-with-error', '  ERROR: Failed building wheel for flash-attn', 'Failed to build flash-attn'],
 'import': [],
 'runtime': ['exit status 1'],
}

# id -> (core lines, near-miss lines). Core lines are where the failure shows in a real log.
C = {}
def c(id, core, near): C[id] = (core, near)

F = 'FAILED: caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/native/TensorShape.cpp.o'
FC = 'FAILED: caffe2/CMakeFiles/torch_cuda.dir/__/aten/src/ATen/native/cuda/Loss.cu.o'
c('OOM_CC1PLUS_KILLED', [F, '/usr/bin/c++ -O3 -c /home/u/pytorch/aten/src/ATen/native/TensorShape.cpp', 'c++: fatal error: Killed signal terminated program cc1plus', 'compilation terminated.'],
  ['-- Performing Test killed_signal_terminated - Success', 'copying tests/test_Killed_signal.py -> build/lib/tests'])
c('OOM_NVCC_SUBPROCESS_KILLED', [FC, "nvcc error   : 'cicc' died due to signal 9 (Kill signal)"],
  ['/usr/local/cuda/bin/nvcc -Xptxas -v -c kernel.cu  # retry if ptxas dies due to signals'])
c('OOM_GENERIC_KILLED', [FC, 'Killed'],
  ['-- Installing: /opt/x/share/doc/Killed/README', "/home/u/src/Killed.cpp:3:2: warning: 'Killed' is deprecated [-Wdeprecated]"])
c('BUILD_STALL_HIGH_JOBS', ['running build_ext', 'Allowing ninja to set a default number of workers... (overridable by setting the environment variable MAX_JOBS=N)', ninja(12, 'CUDA', 'csrc/flash_attn/src/flash_fwd_hdim128.cu')],
  ['Using envvar MAX_JOBS (4) as the number of workers...'])
c('NVCC_TOOL_SEGFAULT', [FC, "nvcc error   : 'ptxas' died due to signal 11 (Invalid memory reference)"],
  ["nvcc warning : 'ptxas' option -v is deprecated"])
c('PTXAS_MEMORY_ALLOCATION_FAILURE', [FC, 'ptxas fatal   : Memory allocation failure'],
  ['ptxas info    : Used 128 registers, 416 bytes cmem[0]'])
c('PTXAS_TOO_MUCH_SHARED_DATA', [FC, "ptxas error   : Entry function '_Z13flash_fwd_kernelILi128EEvv' uses too much shared data (0x10000 bytes, 0xc000 max)"],
  ["ptxas info    : Function properties for _Z13flash_fwd_kernelILi128EEvv uses 49152 bytes smem"])
c('DISK_FULL', [F, '/tmp/ccAbCd.s: Assembler messages:', '/tmp/ccAbCd.s: Fatal error: can\'t write 63 bytes to section .text: No space left on device'],
  ['-- Checking free space on device: 120 GB available'])
c('CMAKE4_POLICY_VERSION_MINIMUM', ['CMake Error at third_party/protobuf/cmake/CMakeLists.txt:2 (cmake_minimum_required):', '  Compatibility with CMake < 3.5 has been removed from CMake.', '', '  Update the VERSION argument <min> value.  Or, use the <min>...<max> syntax', '  to tell CMake that the project requires at least <min> but has been updated', '  to work with policies introduced by <max> or earlier.', '', '  Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.'],
  ['CMake Deprecation Warning at third_party/foo/CMakeLists.txt:1 (cmake_minimum_required):', '  Compatibility with CMake < 3.10 will be removed from a future version of', '  CMake.'])
c('CMAKE_TOO_OLD', ['CMake Error at CMakeLists.txt:1 (cmake_minimum_required):', '  CMake 3.18 or higher is required.  You are running version 3.10.2'],
  ['-- CMake version 3.27.9 or higher is recommended'])
c('STALE_CMAKE_CACHE_DIR', ['CMake Error: The current CMakeCache.txt directory /work/pytorch/build/CMakeCache.txt is different than the directory /home/u/pytorch/build where CMakeCache.txt was created. This may result in binaries being created in the wrong place. If you are not sure, reedit the CMakeCache.txt'],
  ['-- Build files have been written to: /home/u/pytorch/build', '-- The current CMakeCache.txt directory is /home/u/pytorch/build'])
c('STALE_CMAKE_GENERATOR', ['CMake Error: Error: generator : Ninja', 'Does not match the generator used previously: Unix Makefiles', 'Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.'],
  ['-- Using generator: Ninja (matches the generator used previously)'])
c('STALE_CACHED_OPTION', ['-- USE_CUDA is set in the environment to 1', 'CMake Warning at CMakeLists.txt:420 (message):', '  disabling CUDA because USE_CUDA is set false'],
  ['-- USE_CUDA is set; enabling CUDA because CUDA was found'])
c('SUBMODULES_MISSING', ['Could not find any of CMakeLists.txt, Makefile, setup.py, LICENSE, LICENSE.md, LICENSE.txt in /home/u/pytorch/third_party/pybind11', "Did you run 'git submodule update --init --recursive'?"],
  ['-- Submodule third_party/pybind11 is up to date (contains CMakeLists.txt)'])
c('NO_CXX_COMPILER', ['-- The CXX compiler identification is unknown', 'CMake Error at CMakeLists.txt:2 (project):', '  No CMAKE_CXX_COMPILER could be found.', '', '  Tell CMake where to find the compiler by setting either the environment', '  variable "CXX" or the CMake cache entry CMAKE_CXX_COMPILER to the full path'],
  ['-- CMAKE_CXX_COMPILER found: /usr/bin/c++'])
c('CPP_EXT_CXX_NOT_FOUND', ['building \'fused_adam\' extension', "/bin/sh: 1: c++: not found", "error: command 'c++' failed: No such file or directory"],
  ['-- Found c++: /usr/bin/c++ (found version "12.2.0")'])
c('CUDA_NOT_DETECTED_AT_CONFIGURE', ['-- Caffe2: CUDA cannot be found. Depending on whether you are building', '--   Caffe2 or a Caffe2 dependent library, the next warning / error will', '--   give you more info.', '-- USE_CUDA          : OFF'],
  ['-- Caffe2: CUDA detected: 12.1', '-- Found CUDA: /usr/local/cuda (found version "12.1")'])
c('CUDNN_NOT_FOUND', ['-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH)', 'CMake Warning at cmake/public/cuda.cmake:246 (message):', '  Cannot find cuDNN library.  Turning the option off'],
  ['-- Found CUDNN: /usr/lib/x86_64-linux-gnu/libcudnn.so', '--   USE_CUDNN           : ON'])
c('NCCL_NOT_FOUND', ['CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):', '  Could NOT find NCCL (missing: NCCL_INCLUDE_DIRS NCCL_LIBRARIES)'],
  ['-- Found NCCL: /usr/include (found version "2.21.5")'])
c('NVTOOLSEXT_NOT_FOUND', ['CMake Error at cmake/public/cuda.cmake:187 (message):', '  Failed to find nvToolsExt'],
  ['-- Found nvToolsExt: /usr/local/cuda/include/nvtx3'])
c('CMAKE_UNKNOWN_CUDA_ARCH_NAME', ['CMake Error at cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake:227 (message):', '  Unknown CUDA Architecture Name 12.0 in CUDA_SELECT_NVCC_ARCH_FLAGS'],
  ['-- CUDA architecture name 12.0 known: Blackwell'])
c('TORCHCONFIG_NOT_FOUND', ['CMake Error at CMakeLists.txt:8 (find_package):', '  By not providing "FindTorch.cmake" in CMAKE_MODULE_PATH this project has', '  asked CMake to find a package configuration file provided by "Torch", but', '  CMake did not find one.', '', '  Could not find a package configuration file provided by "Torch" with any of', '  the following names:'],
  ['-- Found Torch: /home/u/venv/lib/python3.10/site-packages/torch/lib/libtorch.so'])
c('CMAKE_DEPENDENCY_CONFIG_NOT_FOUND', ['CMake Error at CMakeLists.txt:21 (find_package):', '  By not providing "Findfmt.cmake" in CMAKE_MODULE_PATH this project has', '  asked CMake to find a package configuration file provided by "fmt", but', '  CMake did not find one.', '', '  Could not find a package configuration file provided by "fmt" with any of', '  the following names:', '', '    fmtConfig.cmake', '    fmt-config.cmake'],
  ['CMake Error at CMakeLists.txt:21 (find_package):', '  Could not find a configuration file for package "fmt" that is compatible', '  with requested version "10.0".'])
c('CMAKE_INSTALL_PERMISSION', ['-- Install configuration: "Release"', 'CMake Error at cmake_install.cmake:41 (file):', '  file INSTALL cannot set permissions on "/usr/local/include": Operation not', '  permitted.'],
  ['-- Installing: /home/u/pytorch/torch/include/ATen/ATen.h', '-- Up-to-date: /home/u/pytorch/torch/lib/libc10.so'])
c('CMAKE_RPATH_CHANGE_UNSUPPORTED', ['CMake Error at c10/cmake_install.cmake:52 (file):', '  file RPATH_CHANGE could not write new RPATH', '  The install of the c10 target requires changing an RPATH from the build tree, but this is not supported with the Ninja generator unless on an ELF-based or XCOFF-based platform.'],
  ['-- Set runtime path of "/home/u/pytorch/torch/lib/libc10.so" to "$ORIGIN"'])
c('MAGMA_CONDA_PACKAGE_UNAVAILABLE', ["conda_build.exceptions.DependencyNeedsBuildingError: Unsatisfiable dependencies for platform linux-64: {'magma-cuda110'}"],
  ['  magma-cuda110             2.5.2                         1    pytorch'])
c('CUDA_HOME_NOT_SET', ['Traceback (most recent call last):', '  File "setup.py", line 57, in <module>', '    ext_modules=get_extensions(),', 'OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.'],
  ['-- CUDA_HOME is set to /usr/local/cuda-12.1'])
c('CUDA_LIBDEVICE_NOT_FOUND', [FC, 'nvcc fatal   : Path to libdevice library not specified', "error: command '/usr/bin/nvcc' failed with exit status 1"],
  ['-- Found libdevice: /usr/local/cuda/nvvm/libdevice/libdevice.10.bc'])
c('DEEPSPEED_AIO_LIBAIO_MISSING', ['      test.c', "      LINK : fatal error LNK1181: cannot open input file 'aio.lib'", '      AssertionError: Unable to pre-compile async_io', '      DS_BUILD_OPS=1'],
  [' [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.', 'async_io ............... [NO] ....... [NO]'])
c('NVCC_NOT_FOUND', ['Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 2100, in _run_ninja_build', "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'"],
  ['-- Found nvcc at /usr/local/cuda/bin/nvcc'])
c('CUDA_VERSION_MISMATCH', ['Traceback (most recent call last):', '  File "setup.py", line 120, in <module>', 'RuntimeError: ', 'The detected CUDA version (12.4) mismatches the version that was used to compile', 'PyTorch (11.8). Please make sure to use the same CUDA versions.'],
  ['-- The detected CUDA version (12.4) matches the version used to compile PyTorch (12.4)'])
c('CUDA_MINOR_VERSION_MISMATCH_WARN', ['/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:425: UserWarning: The detected CUDA version (12.2) has a minor version mismatch with the version that was used to compile PyTorch (12.1). Most likely this shouldn\'t be a problem.'],
  ['-- CUDA 12.1 matches the minor version used to compile PyTorch'])
c('APEX_CUDA_VERSION_MISMATCH', ['Compiling cuda extensions with', 'nvcc: NVIDIA (R) Cuda compiler driver', 'RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.8.'],
  ['Cuda extensions are being compiled with Cuda 11.8, matching the Pytorch binaries.'])
c('FLASH_ATTN_CUDA_TOO_OLD', ['torch.__version__  = 2.1.0+cu117', 'RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make sure nvcc has a supported version by running nvcc -V.'],
  ['FlashAttention supports CUDA 11.6 and above; found 12.1'])
c('NVCC_HOST_GCC_TOO_NEW', [FC, '/usr/local/cuda-11.8/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc flag \'-allow-unsupported-compiler\' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.', '  132 | #error -- unsupported GNU version! gcc versions later than 11 are not supported!'],
  ['# nvcc -allow-unsupported-compiler: gcc versions later than 12 are supported by CUDA 12.4'])
c('CPP_EXT_COMPILER_VERSION_BOUNDS', ['Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 414, in _check_cuda_version', 'RuntimeError: The current installed version of g++ (13.2.0) is greater than the maximum required version by CUDA 11.8. Please make sure to use an adequate version of g++ (>=6.0.0, <12.0).'],
  ['The current installed version of g++ (11.4.0) is within the versions supported by CUDA 11.8.'])
c('MSVC_UNSUPPORTED_BY_NVCC', ['C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\crt/host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!'],
  ['-- Microsoft Visual Studio version 2022 (17.9) is supported by CUDA 12.4'])
c('NVCC_STD_FUNCTION_PARAM_PACKS', [FC, '/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded with \u2018...\u2019:', '  435 |         function(_Functor&& __f)'],
  ['/usr/include/c++/11/bits/std_function.h:435:145: note: in expansion of parameter packs'])
c('NVCC_STD_CXX17_UNSUPPORTED', [FC, "nvcc fatal   : Value 'c++17' is not defined for option 'std'"],
  ["nvcc warning : The -std=c++17 flag is not supported with the configured host compiler. Flag will be ignored."])
c('NVCC_UNKNOWN_HOST_OPTION', [FC, "nvcc fatal   : Unknown option '-Wno-unused-variable'"],
  ['nvcc warning : option -Wno-unused-variable passed to host compiler via -Xcompiler'])
c('NVCC_SINGLE_INPUT_FILE', [FC, 'nvcc fatal   : A single input file is required for a non-link phase when an outputfile is specified'],
  ['-- nvcc: a single input file is compiled per object'])
c('NVCC_UNSUPPORTED_GPU_ARCH', [FC, "nvcc fatal   : Unsupported gpu architecture 'compute_120'"],
  ["nvcc warning : The 'compute_35', 'compute_37' architectures are deprecated, and may be removed in a future release"])
c('CPP_EXT_UNKNOWN_CUDA_ARCH', ['Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1964, in _get_cuda_arch_flags', '    raise ValueError(f"Unknown CUDA arch ({arch}) or GPU not supported")', 'ValueError: Unknown CUDA arch (8.9) or GPU not supported'],
  ['-- Known CUDA arch (8.9) for GPU: NVIDIA GeForce RTX 4090'])
c('CPP_EXT_NO_GPU_ARCH_LIST_EMPTY', ['No CUDA runtime is found, using CUDA_HOME=\'/usr/local/cuda\'', 'Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1985, in _get_cuda_arch_flags', "    arch_list[-1] += '+PTX'", 'IndexError: list index out of range'],
  ['Setting TORCH_CUDA_ARCH_LIST=8.6+PTX from the detected GPU'])
c('RELOC_TRUNCATED_FATBIN_TOO_LARGE', ['FAILED: lib/libtorch_cuda.so', "/usr/lib/gcc/x86_64-linux-gnu/9/../../../x86_64-linux-gnu/crti.o: in function `_init':", "(.init+0xb): relocation truncated to fit: R_X86_64_GOTPCREL against undefined symbol `__gmon_start__'"],
  ['-- Relocation model: R_X86_64_GOTPCREL relocations fit with -mcmodel=medium'])
c('NVCC_HALF_INTRINSIC_ARCH_TOO_LOW', [FC, '/home/u/apex/csrc/layer_norm_cuda_kernel.cu(34): error: identifier "__hfma2" is undefined'],
  ['// uses __hfma2 when __CUDA_ARCH__ >= 530'])
c('NVCC_ATOMICADD_ARCH_TOO_LOW', [FC, '/home/u/ext/src/roi_align_kernel.cu(120): error: no instance of overloaded function "atomicAdd" matches the argument list', '            argument types are: (double *, double)'],
  ['-- atomicAdd for double requires sm_60: building for sm_80'])
c('CUDA_DEV_HEADER_MISSING', [FC, '/home/u/pytorch/aten/src/ATen/cuda/CUDAContext.h:5:10: fatal error: cusparse.h: No such file or directory', '    5 | #include <cusparse.h>', '      |          ^~~~~~~~~~~~', 'compilation terminated.'],
  ['-- Found cusparse.h in /usr/local/cuda/include'])
c('CUDA_LINK_LIB_NOT_FOUND', ['FAILED: lib/libtorch_cuda.so', '/usr/bin/ld: cannot find -lcudart: No such file or directory'],
  ['-- Linking with -lcudart_static (found /usr/local/cuda/lib64/libcudart_static.a)'])
c('MAKE_NO_RULE_TO_MAKE_LIBRARY', ["make[2]: *** No rule to make target '/usr/lib/x86_64-linux-gnu/librt.so', needed by 'lib/libc10.so'.  Stop."],
  ["make[2]: Nothing to be done for 'lib/libc10.so'."])
c('CXX17_REQUIRED', ['/home/u/venv/lib/python3.10/site-packages/torch/include/c10/util/C++17.h:13:2: error: #error "You\'re trying to build PyTorch with a too old version of GCC. We need GCC 9 or later."'.replace('#error "You\'re trying to build PyTorch with a too old version of GCC. We need GCC 9 or later."', '#error C++17 or later compatible compiler is required to use PyTorch.'), '   13 | #error C++17 or later compatible compiler is required to use PyTorch.'],
  ['-- C++17 or later compatible compiler found: GNU 11.4.0'])
c('MISSING_CSTDINT_NEW_GCC', [F, "/home/u/pytorch/third_party/gloo/gloo/types.h:64:3: error: \u2018uint8_t\u2019 does not name a type", "/home/u/pytorch/third_party/gloo/gloo/types.h:8:1: note: \u2018uint8_t\u2019 is defined in header \u2018<cstdint>\u2019; did you forget to \u2018#include <cstdint>\u2019?"],
  ["/home/u/pytorch/c10/util/Half.h:40:3: note: declared here: uint8_t does name a type here"])
c('MISSING_STD_HEADER', [F, "/home/u/ext/src/sampler.cpp:88:17: error: \u2018numeric_limits\u2019 is not a member of \u2018std\u2019", "/home/u/ext/src/sampler.cpp:4:1: note: \u2018std::numeric_limits\u2019 is defined in header \u2018<limits>\u2019; did you forget to \u2018#include <limits>\u2019?"],
  ["/home/u/ext/src/sampler.cpp:4:1: note: the header <limits> was found in /usr/include/c++/12"])
c('ICE_SEGFAULT_DEBUG_OR_COMPILER_BUG', [F, "/home/u/pytorch/aten/src/ATen/native/TensorShape.cpp:1443:1: internal compiler error: Segmentation fault", "Please submit a full bug report, with preprocessed source (by using -freport-bug)."],
  ['-- Checking for internal compiler error workaround: not needed'])
c('COMPILER_FLAG_MISMATCH_GCC_CLANG', [F, "cc1plus: error: unrecognized command-line option \u2018-Wno-unused-private-field\u2019 [-Werror]", 'cc1plus: all warnings being treated as errors'],
  ["cc1plus: warning: command-line option '-Wno-unused-private-field' is valid for C/ObjC but not for C++"])
c('THC_HEADERS_REMOVED', ['/home/u/maskrcnn/csrc/cuda/ROIAlign_cuda.cu:5:10: fatal error: THC/THC.h: No such file or directory', '    5 | #include <THC/THC.h>', 'compilation terminated.'],
  ['-- Note: THC/THC.h was removed in torch 1.11; using ATen/cuda/CUDAContext.h'])
# bp-layers (the long-tail bench, batch 10's dev): its own namespace cuda's std::vector, read as libcu++'s.
c('CUDA_NAMESPACE_STD_SHADOWED', ['FAILED: /tmp/w/torchsmith-bp-layers-ops/out/src/build/temp.linux-x86_64-cpython-312/sad/src/stereo_sad_kernel.o',
  '/tmp/w/torchsmith-bp-layers-ops/out/src/sad/src/stereo_sad_kernel.cu(138): error: function "cuda::stereo_sad_backward" returns incomplete type "cuda::std::__4::vector<at::Tensor, cuda::std::__4::allocator<at::Tensor>>"',
  '    std::vector<at::Tensor> stereo_sad_backward(at::Tensor f0, at::Tensor f1,',
  '                                                                           ^', '',
  '2 errors detected in the compilation of "/tmp/w/torchsmith-bp-layers-ops/out/src/sad/src/stereo_sad_kernel.cu".'],
  ['/home/u/k.cu(12): error: no instance of constructor "cuda::std::__4::complex<float>::complex" matches the argument list',
   '/home/u/k.cu(20): error: namespace "cuda::std" has no member "bit_cast_ex"'])
# division (the long-tail bench, batch 10's dev): backward_func.cc binds at::cudnn_convolution_backward, gone from torch.
c('ATEN_CUDNN_CONV_BACKWARD_REMOVED', ['FAILED: /tmp/w/torchsmith-division-cpp-extension/out/src/build/temp.linux-x86_64-cpython-312/backward_func.o',
  "/tmp/w/torchsmith-division-cpp-extension/out/src/backward_func.cc: In function 'void pybind11_init_backward_func(pybind11::module_&)':",
  "/tmp/w/torchsmith-division-cpp-extension/out/src/backward_func.cc:82:54: error: \u2018cudnn_convolution_backward\u2019 is not a member of \u2018at\u2019; did you mean \u2018mps_convolution_backward\u2019?",
  '   82 |   m.def("cudnn_convolution_backward",           &at::cudnn_convolution_backward);',
  '      |                                                      ^~~~~~~~~~~~~~~~~~~~~~~~~~'],
  ["/home/u/op.cc:12:20: error: \u2018cudnn_convolution_forward\u2019 is not a member of \u2018at\u2019",
   '/home/u/op.cu(30): error: namespace "at" has no member "convolution_backward_overrideable_x"'])
# treeenergyloss' lib_tree_filter (the long-tail bench, batch 10's dev): setup.py raises without LD_LIBRARY_PATH.
c('SETUP_PY_ENV_VAR_UNSET', ['Traceback (most recent call last):',
  '  File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py", line 317, in run_setup',
  '    exec(code, locals())', '  File "<string>", line 17, in <module>', 'Exception: LD_LIBRARY_PATH is not set.'],
  ['OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.',
   'CMake Error: CMAKE_MAKE_PROGRAM is not set.  You probably need to select a different build tool.',
   'Warning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included'])
# openvideoenhance (the long-tail bench, batch 10's dev): setup.py reads sys.argv[2] as its arch list and deletes it.
c('SETUP_PY_NO_DISTRIBUTION', ['Traceback (most recent call last):',
  '  File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py", line 435, in build_wheel',
  "    return _build(['bdist_wheel', '--dist-info-dir', str(metadata_directory)])",
  '  File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py", line 125, in _file_with_extension',
  '    raise ValueError(',
  'ValueError: No distribution was found. Ensure that `setup.py` is not empty and that it calls `setup()`.'],
  ['warning: no files found matching \'*.whl\' under directory \'dist\'',
   'ValueError: No distribution found for the requirement torch'])
c('TORCH_API_REMOVED', ['/home/u/afsd/prop_pooling/boundary_max_pooling_kernel.cu(94): error: namespace "at::cuda" has no member "getCurrentCUDAStream"', '      cudaStream_t stream = at::cuda::getCurrentCUDAStream();', '                                      ^', '', '1 error detected in the compilation of "/home/u/afsd/prop_pooling/boundary_max_pooling_kernel.cu".'],
  ['/home/u/ext/ops.cu(9): error: namespace "at::cuda" has no member "myStreamHelper"', '/home/u/ext/ops.cu(12): error: identifier "CHECK_INPUT" is undefined'])
c('CCCL_ITERATOR_REMOVED', ['/home/u/odtk/csrc/cuda/decode.cu:37:10: fatal error: cub/iterator/counting_input_iterator.cuh: No such file or directory', '   37 | #include <cub/iterator/counting_input_iterator.cuh>', '      |          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~', 'compilation terminated.'],
  ['#include <cub/iterator/arg_index_input_iterator.cuh>', '// cub/iterator/counting_input_iterator.cuh replaced by thrust/iterator/counting_iterator.h'])
# nvcc 13 (CCCL 3.0) on a kernel that used thrust::device without <thrust/execution_policy.h>; near: the
# source's own namespace thrust_utils, which nvcc words the same way.
c('MISSING_CCCL_HEADER', ['[2/4] /usr/local/cuda/bin/nvcc -c /home/u/ext/src/nms_kernel.cu -o nms_kernel.o -gencode=arch=compute_90,code=sm_90', '/home/u/ext/src/nms_kernel.cu(37): error: namespace "thrust" has no member "device"', '    thrust::sequence(thrust::device, order, order + n);', '                             ^', '', '1 error detected in the compilation of "/home/u/ext/src/nms_kernel.cu".'],
  ['/home/u/ext/src/nms_kernel.cu(37): error: namespace "thrust_utils" has no member "device"', "/home/u/ext/src/sort.cpp:9:5: error: 'sort' is not a member of 'my::thrust'"])
c('PTX_WARP_SYNC_REQUIRED', ['[2/3] /usr/local/cuda/bin/nvcc -c /home/u/ctc/third-party/warp-ctc/src/ctc_entrypoint.cu -o ctc_entrypoint.o -gencode=arch=compute_90,code=sm_90', "ptxas /tmp/tmpxft_00001872_00000000-6_ctc_entrypoint.ptx, line 1592; error   : Instruction 'shfl' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", "ptxas /tmp/tmpxft_00001872_00000000-6_ctc_entrypoint.ptx, line 1596; error   : Instruction 'shfl' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", 'ptxas fatal   : Ptx assembly aborted due to errors'],
  ["ptxas /tmp/tmpxft_00002c2f_00000000-5_disparity_method.ptx, line 3659; warning : Instruction 'shfl' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in a future PTX ISA version"])
c('PYBIND11_TOO_OLD_FOR_PYTHON', ['[3/9] /usr/bin/g++ -c /home/u/spconv/src/utils/all.cc -I/home/u/spconv/third_party/pybind11/include -I/usr/include/python3.12', 'In file included from /home/u/spconv/third_party/pybind11/include/pybind11/pytypes.h:12,', "/home/u/spconv/third_party/pybind11/include/pybind11/cast.h: In function ‘std::string pybind11::detail::error_string()’:", "/home/u/spconv/third_party/pybind11/include/pybind11/cast.h:442:36: error: invalid use of incomplete type ‘PyFrameObject’ {aka ‘struct _frame’}", "  442 |                 \"  \" + handle(frame->f_code->co_filename).cast<std::string>() +", '      |                                    ^~'],
  ["/home/u/ext/src/frames.cpp:12:5: error: invalid use of incomplete type ‘PyFrameObject’ {aka ‘struct _frame’}", '-- pybind11 v2.4.3 (vendored in third_party/pybind11)'])
c('CUDA_HALF_OPERATOR_AMBIGUOUS', ['[5/9] Building CUDA object src/spconv/CMakeFiles/spconv.dir/maxpool.cu.o', '/home/u/spconv/src/spconv/maxpool.cu(187): error: more than one operator "==" matches these operands:', '            operand types are: const c10::Half == const c10::Half', '          if (in == out) {', '                 ^'],
  ['/home/u/ext/src/half.cu(12): error: more than one operator "==" matches these operands:', '            operand types are: const my::Half == const my::Half'])
c('AT_CHECK_REMOVED', ["/home/u/ext/src/nms.cpp:12:3: error: \u2018AT_CHECK\u2019 was not declared in this scope; did you mean \u2018TORCH_CHECK\u2019?"],
  ['// AT_CHECK was renamed TORCH_CHECK'])
c('EXT_SOURCE_NEWER_THAN_TORCH', ["/home/u/audio/torchaudio/csrc/sox/register.cpp:5:24: error: unexpected namespace name 'torchaudio': expected expression", 'TORCH_LIBRARY_FRAGMENT(torchaudio, m) {', '                       ^'],
  ['/home/u/audio/torchaudio/csrc/sox/register.cpp:5:1: warning: TORCH_LIBRARY_FRAGMENT(torchaudio, m) registers 12 ops', 'TORCH_LIBRARY_FRAGMENT(torchaudio, m) {'])
c('TORCH_EXTENSION_H_MISSING', ['/home/u/ext/src/vision.cpp:2:10: fatal error: torch/extension.h: No such file or directory', '    2 | #include <torch/extension.h>', 'compilation terminated.'],
  ['-- Found torch/extension.h in /home/u/venv/lib/python3.10/site-packages/torch/include'])
c('PYTHON_H_MISSING', ['In file included from /home/u/ext/src/vision.cpp:1:', '/home/u/venv/lib/python3.10/site-packages/torch/include/torch/csrc/python_headers.h:12:10: fatal error: Python.h: No such file or directory', 'compilation terminated.'],
  ['-- Found Python.h: /usr/include/python3.10'])
c('OPENMP_HEADER_MISSING_MACOS', ["/Users/u/pytorch/aten/src/ATen/ParallelOpenMP.h:5:10: fatal error: 'omp.h' file not found", '#include <omp.h>', '         ^~~~~~~'],
  ['-- Found OpenMP_CXX: -Xpreprocessor -fopenmp (found version "5.0") omp.h found'])
c('CUB_THRUST_VERSION_MISMATCH', ['C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.6\\include\\thrust/system/cuda/config.h(78): fatal error C1189: #error:  The version of CUB in your include path is not compatible with this release of Thrust. CUB is now included in the CUDA Toolkit, so you no longer need to use your own checkout of CUB. Define THRUST_IGNORE_CUB_VERSION_CHECK to ignore this.'],
  ['-- Using the CUB that ships with the CUDA Toolkit; THRUST_IGNORE_CUB_VERSION_CHECK not set'])
c('MSVC_LNK1161_INVALID_EXPORT', ['  FAILED: bin/torch_cpu.dll lib/torch_cpu.lib ', '  LINK: command "link.exe /nologo @CMakeFiles\\torch_cpu.rsp /out:bin\\torch_cpu.dll" failed (exit code 1161) with the following output:', 'D:\\git_source\\pytorch\\out\\build\\x64-Debug\\LazyNativeFunctions.cpp.obj : fatal error LNK1161: invalid export specification'],
  ['-- Linker: LNK1161 workaround not needed for MSVC 14.38'])
c('MSVC_TLS_LAZY_INIT_LNK2001', ['main.obj : error LNK2001: unresolved external symbol __imp___tls_index_?init@?1??lazy_init_num_threads@internal@at@@YAXXZ@4_NA'],
  ['-- Checking lazy_init_num_threads TLS export: ok'])
c('MSVC_LNK2019_CAFFE2_TYPEMETA', ['test_api.obj : error LNK2019: unresolved external symbol "private: static unsigned short __cdecl caffe2::TypeMeta::_typeMetaData<float>(void)" referenced in function main'],
  ['-- caffe2::TypeMeta exported symbols: 512'])
c('MSVC_CL_NOT_FOUND', ["nvcc fatal   : Cannot find compiler 'cl.exe' in PATH"],
  ['-- Found cl.exe in PATH: C:\\Program Files\\Microsoft Visual Studio\\2022\\VC\\bin\\cl.exe'])
c('MSVC_DISTUTILS_USE_SDK', ['UserWarning: It seems that the VC environment is activated but DISTUTILS_USE_SDK is not set.This may lead to multiple activations of the VC env.Please set `DISTUTILS_USE_SDK=1` and try again.'],
  ['-- DISTUTILS_USE_SDK=1 is set; using the activated VC environment'])
c('MSVC_BUILD_TOOLS_MISSING', ['error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ Build Tools": https://visualstudio.microsoft.com/visual-cpp-build-tools/'],
  ['-- Microsoft Visual C++ 14.3 found'])
c('BUILD_ENV_TORCH_MISSING', ['  Getting requirements to build wheel ... error', '  Traceback (most recent call last):', '    File "<string>", line 19, in <module>', "  ModuleNotFoundError: No module named 'torch'"],
  ["  Requirement already satisfied: torch in ./venv/lib/python3.10/site-packages (2.4.0)"])
c('NINJA_REQUIRED', ['Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1734, in verify_ninja_availability', "RuntimeError: Ninja is required to load C++ extensions (pip install ninja to get it)"],
  ['-- Ninja found: /usr/bin/ninja (1.11.1), C++ extensions will load'])
c('NINJA_FALLBACK_SLOW', ['UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find ninja.. Falling back to using the slow distutils backend.'],
  ['-- Using ninja as the BuildExtension backend: /usr/bin/ninja'])
c('FLASH_ATTN_PREBUILT_WHEEL_NOT_FOUND', ['  Guessing wheel URL:  https://github.com/Dao-AILab/flash-attention/releases/download/v2.6.3/flash_attn-2.6.3+cu123torch2.4cxx11abiFALSE-cp310-cp310-linux_x86_64.whl', '  Precompiled wheel not found. Building from source...'],
  ['  Precompiled wheel found: using flash_attn-2.6.3+cu123torch2.4'])
c('PKGUTIL_IMPIMPORTER_PY312', ["AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?"],
  ["-- pkgutil.ImpImporter removed in 3.12; using importlib"])
c('GLIBCXX_VERSION_NOT_FOUND', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', "ImportError: /home/u/miniconda3/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /home/u/venv/lib/python3.10/site-packages/torch/lib/libtorch_python.so)"],
  ['-- libstdc++ provides GLIBCXX_3.4.30 (found)'])
c('GLIBC_VERSION_NOT_FOUND', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by /home/u/venv/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so)"],
  ['-- glibc version GLIBC_2.35 found'])
c('EXT_BUILT_FOR_OTHER_TORCH', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', 'ImportError: /home/u/venv/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi'],
  ['nm -D libc10_cuda.so | grep SetDevice  # defined symbol: _ZN3c104cuda9SetDeviceEa'.replace('_ZN3c104cuda9SetDeviceEa', 'c10::cuda::SetDevice(signed char)')])
c('UNDEFINED_SYMBOL_CXX11_ABI', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', 'ImportError: /home/u/ext/_ext.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE'],
  ['-- _GLIBCXX_USE_CXX11_ABI=1 (torch._C._GLIBCXX_USE_CXX11_ABI is True)'])
c('MKL_IJIT_NOTIFYEVENT', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', 'ImportError: /home/u/miniconda3/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent'],
  ['-- MKL 2024.0 exports iJIT_NotifyEvent: ok'])
c('TORCH_LIB_NOT_LOADED_IMPORT_ORDER', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', 'ImportError: libc10.so: cannot open shared object file: No such file or directory'],
  ['-- Installing: /home/u/pytorch/torch/lib/libc10.so'])
c('TORCH_C_LOADED_FROM_SOURCE_TREE', ['Traceback (most recent call last):', '  File "/home/u/pytorch/torch/__init__.py", line 237, in <module>', 'ImportError: Failed to load PyTorch C extensions:', '    It appears that PyTorch has loaded the `torch/_C` folder', '    of the PyTorch repository rather than the C extensions which'],
  ['-- PyTorch C extensions built: torch/_C.cpython-310-x86_64-linux-gnu.so'])
c('EXT_MODULE_NOT_BUILT', ['Traceback (most recent call last):', '  File "demo.py", line 9, in <module>', "ImportError: cannot import name '_C' from 'detectron2' (/home/u/detectron2/detectron2/__init__.py)"],
  ["-- detectron2 _C extension built: detectron2/_C.cpython-310-x86_64-linux-gnu.so", "ModuleNotFoundError: No module named 'numpy._core'", "ImportError: cannot import name '_validate' from 'mypkg.utils'"])
c('TORCHVISION_OPS_NOT_LOADED', ["/home/u/venv/lib/python3.10/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python extension", "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible, or if you had errors while compiling torchvision from source."],
  ['-- torchvision custom C++ ops loaded'])
c('TORCHVISION_CUDA_MISMATCH', ['RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=11.8 and torchvision has CUDA Version=12.1. Please reinstall the torchvision that matches your PyTorch install.'],
  ['-- PyTorch and torchvision were compiled with the same CUDA version (12.1)'])
c('NUMPY_SUPPORT_MISSING', ['Traceback (most recent call last):', '  File "smoke.py", line 4, in <module>', 'RuntimeError: PyTorch was compiled without NumPy support'],
  ['-- USE_NUMPY : ON (PyTorch compiled with NumPy support)'])
c('TORCH_NOT_COMPILED_WITH_CUDA', ['Traceback (most recent call last):', '  File "smoke.py", line 6, in <module>', '    x = torch.randn(2, 64, 512, device="cuda")', 'AssertionError: Torch not compiled with CUDA enabled'],
  ['torch compiled with CUDA 12.4: enabled'])
c('NO_KERNEL_IMAGE_FOR_DEVICE', ['Traceback (most recent call last):', '  File "smoke.py", line 6, in <module>', 'RuntimeError: CUDA error: no kernel image is available for execution on the device', 'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.'],
  ['-- checking that a kernel image is available for each device: ok'])
c('CUDA_ERROR_804_FORWARD_COMPAT', ['/opt/conda/lib/python3.8/site-packages/torch/cuda/__init__.py:52: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW (Triggered internally at  ../c10/cuda/CUDAFunctions.cpp:104.)', '  return torch._C._cuda_getDeviceCount() > 0', 'False'],
  ['-- cuda-compat forward compatibility package: not installed'])
c('NVIDIA_DRIVER_TOO_OLD', ['RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx'],
  ['-- NVIDIA driver version 550.54 is new enough'])
c('CUDA_PTX_UNSUPPORTED_TOOLCHAIN', ['RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.', 'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.'],
  ['-- PTX compiled with toolchain 12.4, driver supports 12.4'])
c('FLASH_ATTN_GPU_TOO_OLD', ['RuntimeError: FlashAttention only supports Ampere GPUs or newer.'],
  ['-- FlashAttention: Ampere GPUs or newer detected (sm_86)'])
c('GENERIC_BUILD_WRAPPER', None, ['-- RuntimeError handling: Error compiling objects is reported by cpp_extension'])
c('NINJA_BUILD_STOPPED', None, ['ninja: build stopped: interrupted by user.'])
c('SETUPTOOLS_COMMAND_FAILED', None, ["-- error: command 'gcc' is the default compiler"])
c('MAKE_ERROR_WRAPPER', None, ['make[2]: Leaving directory \'/home/u/pytorch/build\''])
c('CALLED_PROCESS_ERROR', None, ['-- subprocess.CalledProcessError is caught and retried by the build script'])
c('CMAKE_CONFIGURE_INCOMPLETE', None, ['-- Configuring done (12.3s)'])
c('LD_RETURNED_1', None, ['-- collect2: ld returned 0 exit status'])
c('MISSING_HEADER_GENERIC', [F, '/home/u/pytorch/third_party/kineto/libkineto/src/CuptiActivity.h:9:10: fatal error: cupti.h: No such file or directory', '    9 | #include <cupti.h>', 'compilation terminated.'] + [f'/home/u/pytorch/third_party/kineto/libkineto/src/CuptiActivity.h:{20+i}:5: error: \u2018CUpti_Activity\u2019 does not name a type' for i in range(40)],
  ['-- Looking for cupti.h - found'])
c('OOM_LINKER_KILLED', ['FAILED: lib/libtorch_cuda.so', 'collect2: fatal error: ld terminated with signal 9 [Killed]', 'compilation terminated.'],
  ['-- linker: ld terminated cleanly with status 0'])
c('UNDEFINED_REFERENCE_LINK', ['FAILED: bin/test_api', "/usr/bin/ld: CMakeFiles/test_api.dir/main.cpp.o: in function `main':", "main.cpp:(.text+0x2a): undefined reference to `cblas_sgemm'", 'collect2: error: ld returned 1 exit status'],
  ['-- Check for undefined references (-Wl,--no-undefined): enabled'])
c('GCC_TOO_OLD_FOR_TORCH', ['CMake Error at CMakeLists.txt:58 (message):', '  GCC-9.3 or newer is required to compile PyTorch, but found 7.5.0'],
  ['-- GCC 11.4.0 is newer than required'])
c('PYTHON_TOO_OLD_FOR_TORCH', ['You are using Python 3.7.16. Python >=3.8.0 is required.'],
  ['-- Python 3.10.12 is supported'])
c('PYTHON_BUILD_DEPS_MISSING', ['Building wheel torch-2.4.0a0+gitd990dad', 'Traceback (most recent call last):', '  File "/home/u/pytorch/torchgen/gen.py", line 10, in <module>', '    import yaml', "ModuleNotFoundError: No module named 'yaml'"],
  ['Requirement already satisfied: pyyaml in ./venv/lib/python3.10/site-packages (6.0.1)'])
c('PROTOBUF_HEADER_MISMATCH', [F, '/home/u/pytorch/build/caffe2/proto/caffe2.pb.h:12:2: error: #error This file was generated by a newer version of protoc which is', '   12 | #error This file was generated by a newer version of protoc which is'],
  ['-- Generating caffe2.pb.h with protoc 3.13.0 (matches libprotobuf 3.13.0)'])
c('PROTOBUF_PY_GENERATED_CODE_OUTDATED', ['Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.10/site-packages/onnx/onnx_ml_pb2.py", line 16, in <module>',
  '    DESCRIPTOR = _descriptor.FileDescriptor(', 'TypeError: Descriptors cannot not be created directly.',
  'If this call came from a _pb2.py file, your generated code is out of date and must be regenerated with protoc >= 3.19.0.'],
  ['Requirement already satisfied: protobuf==3.20.3 in ./venv/lib/python3.10/site-packages', 'Successfully installed protobuf-4.25.3 (descriptors are created by the generated _pb2 modules)'])
c('CMAKE_CUDA_COMPILER_NOT_FOUND', ['CMake Error at /usr/share/cmake-3.25/Modules/CMakeDetermineCUDACompiler.cmake:180 (message):', '  Failed to find nvcc.', '  Compiler requires the CUDA toolkit.  Please set the CUDAToolkit_ROOT', '  variable.'],
  ['-- The CUDA compiler identification is NVIDIA 12.1.105', '-- Check for working CUDA compiler: /usr/local/cuda/bin/nvcc - skipped'])
c('CMAKE_FETCHCONTENT_DOWNLOAD_FAILED', ['-- Downloading pybind11', "[ 22%] Performing download step (download, verify and extract) for 'pybind11-populate'",
  "-- Using src='https://github.com/pybind/pybind11/archive/v2.6.0.tar.gz'",
  'CMake Error at pybind11-subbuild/pybind11-populate-prefix/src/pybind11-populate-stamp/download-pybind11-populate.cmake:170 (message):',
  '  Each download failed!', '', "    error: downloading 'https://github.com/pybind/pybind11/archive/v2.6.0.tar.gz' failed",
  '          status_code: 6', '          status_string: "Couldn\'t resolve host name"',
  'CMake Error at /usr/share/cmake-3.25/Modules/FetchContent.cmake:1616 (message):', '  Build step for pybind11 failed: 2',
  'Call Stack (most recent call first):', '  cmake/pybind11.cmake:45 (FetchContent_Populate)'],
  ['-- Downloading pybind11', "-- Using src='https://github.com/pybind/pybind11/archive/v2.6.0.tar.gz'", '-- [download 100% complete]',
   "[100%] Completed 'pybind11-populate'", '-- pybind11 is downloaded to /tmp/b/_deps/pybind11-src'])
c('CUDA_SAMPLES_HEADER_MISSING', ['FAILED: /tmp/m/build/temp.linux-x86_64-cpython-311/src/bvh_cuda_op.o',
  '/usr/local/cuda/bin/nvcc -Iinclude -I$CUDA_SAMPLES_INC -c /tmp/m/src/bvh_cuda_op.cu -o /tmp/m/build/temp.linux-x86_64-cpython-311/src/bvh_cuda_op.o',
  '/tmp/m/src/bvh_cuda_op.cu:39:10: fatal error: helper_math.h: No such file or directory', '   39 | #include "helper_math.h"',
  '      |          ^~~~~~~~~~~~~~~', 'compilation terminated.'],
  ['-- Installing: /usr/local/include/helper_math.h', '/tmp/m/src/bvh_cuda_op.cu(12): warning #177-D: variable "helper_math" was declared but never referenced'])
c('GPU_LIBRARY_HEADER_MISSING', ['FAILED: /tmp/k/build/temp.linux-x86_64-cpython-312/multimatmul.o',
  '/usr/local/cuda/bin/nvcc -I/usr/local/magma/include -I/tmp/k/cub-1.8.0 -c /tmp/k/multimatmul.cu -o /tmp/k/build/temp.linux-x86_64-cpython-312/multimatmul.o',
  '/tmp/k/multimatmul.cu:16:10: fatal error: magma_v2.h: No such file or directory', '   16 | #include "magma_v2.h"',
  '      |          ^~~~~~~~~~~~', 'compilation terminated.'],
  ['-- Found MAGMA: /usr/local/magma/include/magma_v2.h', '-- Looking for NvInfer.h - found'])
c('CUDA_LIBRARY_API_REMOVED', ['FAILED: /tmp/g/build/temp.linux-x86_64-cpython-311/csrc/custom_kernel.o',
  '/usr/local/cuda/bin/nvcc -I/venv/lib/python3.11/site-packages/torch/include -c /tmp/g/csrc/custom_kernel.cu -o /tmp/g/build/temp.linux-x86_64-cpython-311/csrc/custom_kernel.o',
  '/tmp/g/csrc/custom_kernel.cu(126): error: identifier "cusparseSgthr" is undefined',
  '      cusparseSgthr(handle, nnz, val, outValSorted, P, CUSPARSE_INDEX_BASE_ZERO);', '      ^', '',
  '1 error detected in the compilation of "/tmp/g/csrc/custom_kernel.cu".'],
  # a near miss: an entry point that every CUDA 12/13 cuSPARSE still has, undeclared because the file lacks cusparse.h
  ['FAILED: /tmp/g/build/temp.linux-x86_64-cpython-311/csrc/spmv.o',
   '/tmp/g/csrc/spmv.cu(41): error: identifier "cusparseSpMV" is undefined', '      cusparseSpMV(handle, op, &alpha, matA, vecX, &beta, vecY, CUDA_R_32F, alg, buf);', '      ^',
   '1 error detected in the compilation of "/tmp/g/csrc/spmv.cu".'])
c('CMAKE_CUDA_ARCHITECTURES_EMPTY', ['CMake Error at /usr/share/cmake-3.25/Modules/CMakeDetermineCUDACompiler.cmake:277 (message):', '  CMAKE_CUDA_ARCHITECTURES must be non-empty if set.'],
  ['-- CMAKE_CUDA_ARCHITECTURES set to 86'])
c('CUDA_INIT_UNEXPECTED_ERROR', ['/home/u/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:118: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 999: unknown error (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)', 'False'],
  ['-- CUDA initialization: cudaGetDeviceCount() returned 2'])
c('SHARED_LIB_NOT_FOUND_LDD', ['$ ldd torch/_C.cpython-37m-x86_64-linux-gnu.so', '\tlinux-vdso.so.1 (0x00007ffd3b5f2000)', '\tlibtorch_python.so => /home/u/pytorch/torch/lib/libtorch_python.so (0x00007f1c)', '\tlibmkl_intel_lp64.so => not found', '\tlibmkl_gnu_thread.so => not found'],
  ['\tlibmkl_intel_lp64.so.2 => /opt/intel/oneapi/mkl/lib/libmkl_intel_lp64.so.2 (0x00007f1c)'])
c('SHARED_OBJECT_NOT_LOADABLE', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', 'OSError: libopenblas.so.0: cannot open shared object file: No such file or directory'],
  ['-- Found libopenblas.so.0 in /usr/lib/x86_64-linux-gnu (shared object file ok)'])
c('CUDA_OUT_OF_MEMORY', ['Traceback (most recent call last):', '  File "smoke.py", line 9, in <module>', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 3.12 GiB is free.'],
  ['-- CUDA memory: 79.10 GiB total, out of which 75.98 GiB free'])
c('CUDNN_VERSION_INCOMPATIBLE', ['Traceback (most recent call last):', '  File "smoke.py", line 12, in <module>', 'RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version (8, 5, 0). PyTorch already comes bundled with cuDNN.'],
  ['-- cuDNN version 8.9.2 compatible with PyTorch'])
c('NUMPY2_ABI_MISMATCH', ['A module that was compiled using NumPy 1.x cannot be run in', 'NumPy 2.0.0 as it may crash. To support both 1.x and 2.x', 'versions of NumPy, modules must be compiled with NumPy 2.0.'],
  ['-- NumPy 2.0.0 found; building against the NumPy 2 C API'])
c('TRITON_NOT_AVAILABLE', ['torch._dynamo.exc.BackendCompilerFailed: backend=\'inductor\' raised:', 'RuntimeError: Cannot find a working triton installation. More information on installing Triton can be found at https://github.com/openai/triton'],
  ['-- triton 3.0.0 installed (pytorch-triton)'])
c('BUILD_NEEDS_A_GPU', ['Traceback (most recent call last):', '  File "setup.py", line 69, in <module>', '    ext_modules=get_extensions(),', '  File "setup.py", line 47, in get_extensions', "    raise NotImplementedError('Cuda is not availabel')", 'NotImplementedError: Cuda is not availabel'],
  ['-- Cuda is available: building the CUDA extension (torch.cuda.is_available())'])
c('NVIDIA_DRIVER_MISSING', ['Traceback (most recent call last):', '  File "smoke.py", line 6, in <module>', 'RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx'],
  ['-- NVIDIA driver 550.54.15 found on your system'])
c('PIP_INDEX_UNREACHABLE', [
  "WARNING: Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f79c4d7acf0>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/scikit-build-core/",
  "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f79c4d7aed0>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/scikit-build-core/",
  'ERROR: Could not find a version that satisfies the requirement scikit-build-core>=0.10 (from versions: none)',
  'ERROR: No matching distribution found for scikit-build-core>=0.10'],
  ["WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<x>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/scikit-build-core/",
   'Collecting scikit-build-core>=0.10', '  Using cached scikit_build_core-0.11.1-py3-none-any.whl (185 kB)'])
c('PIP_PERMISSION_DENIED', ["ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/torch'", 'Consider using the `--user` option or check the permissions.'],
  ['Successfully installed torch-2.4.0a0+gitd990dad (permission check ok)'])
c('WINDOWS_DLL_LOAD_FAILED', ['Traceback (most recent call last):', '  File "<string>", line 1, in <module>', 'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\Python310\\lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.'],
  ['-- Copying fbgemm.dll to torch\\lib (dependencies ok)'])
c('NINJA_BUILD_FILE_MISSING', ["ninja: error: loading 'build.ninja': No such file or directory"],
  ['-- Generating build.ninja'])
c('NINJA_MANIFEST_DIRTY', ['[0/1] Re-running CMake...', '-- Configuring done', '-- Generating done', "ninja: error: manifest 'build.ninja' still dirty after 100 tries"],
  ['[0/1] Re-running CMake... (build.ninja dirty: CMakeLists.txt changed)'])
c('GIT_SUBMODULE_FETCH_FAILED', ["Cloning into '/home/u/pytorch/third_party/cutlass'...", "fatal: unable to access 'https://github.com/NVIDIA/cutlass.git/': Failed to connect to github.com port 443 after 21040 ms: Couldn't connect to server", "fatal: clone of 'https://github.com/NVIDIA/cutlass.git' into submodule path '/home/u/pytorch/third_party/cutlass' failed"],
  ["Submodule path 'third_party/cutlass': checked out 'bbe579a9e3beb6ea6626d9227ec32d0dae119a49'"])
c('CUDA_ARCH_SM_NOT_IN_TORCH_LIST', ['/home/u/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:235: UserWarning: ', 'NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.', 'The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.'],
  ['-- NVIDIA GeForce RTX 5090 (sm_120) is supported by this PyTorch build'])

c('SETUPTOOLS_DISTUTILS_VERSION', ['Traceback (most recent call last):', '  File "train.py", line 3, in <module>', '    from torch.utils.tensorboard import SummaryWriter', '  File "/home/u/venv/lib/python3.8/site-packages/torch/utils/tensorboard/__init__.py", line 4, in <module>', '    LooseVersion = distutils.version.LooseVersion', "AttributeError: module 'distutils' has no attribute 'version'"],
  ['-- distutils.version found (setuptools 59.5.0)'])
c('ASSEMBLER_TOO_OLD', [F, '/tmp/cc8uoJt1.s: Assembler messages:', "/tmp/cc8uoJt1.s:20470: Error: no such instruction: `vpdpbusd %ymm4,%ymm23,%ymm1'", "/tmp/cc8uoJt1.s:20755: Error: no such instruction: `vpdpbusd %ymm2,%ymm7,%ymm0'"],
  ['-- Performing Test HAS_AVX512_VNNI (assembler supports vpdpbusd) - Success'])
c('CPP_EXT_COMPILER_ABI_WARNING', ['/home/u/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:387: UserWarning: ', '                               !! WARNING !!', 'Your compiler (c++) is not compatible with the compiler Pytorch was', 'built with for this platform, which is g++ on linux. Please'],
  ['-- Your compiler (g++ 11.4.0) matches the compiler PyTorch was built with'])

# Real-log corpus classes (tests/triage/real): wordings of nvcc/EDG, MSVC, ROCm, import and runtime failures.
c('PTXAS_UNRESOLVED_EXTERN_FUNCTION', [F, "ptxas fatal   : Unresolved extern function '_Z3powdi'"],
  ["ptxas info    : Function properties for _Z3powdi"])
c('OPENMP_UNSUPPORTED_APPLE_CLANG', [F, "clang++: error: unsupported option '-fopenmp'"],
  ["-- Found OpenMP_CXX: -Xpreprocessor -fopenmp (found version \"5.0\")"])
c('MSVC_STD_AMBIGUOUS_COMPILED_AUTOGRAD', [F, "C:\\venv\\Lib\\site-packages\\torch\\include\\torch/csrc/dynamo/compiled_autograd.h(1134): error C2872: 'std': ambiguous symbol"],
  ["C:\\x\\include\\valarray(20): note: could be 'std'"])
c('TENSOR_TYPE_DISPATCH_REMOVED', [F, '/home/u/ext/src/roi_align_kernel.cu(312): error: no suitable conversion function from "const at::DeprecatedTypeProperties" to "c10::ScalarType" exists'],
  ['/home/u/ext/src/roi_align_kernel.cu(312): warning: function "at::Tensor::type" is deprecated (declared at DeprecatedTypeProperties.h)'])
# A band-limited convolution's band_cuda.cpp (the long-tail bench, batch 16's dev) on torch 2.15: Tensor::rfft.
c('TORCH_SPECTRAL_OPS_REMOVED', [F, "/home/u/ext/band_cuda.cpp:29:29: error: 'class at::Tensor' has no member named 'rfft'",
  '   29 |     at::Tensor xfft = input.rfft('],
  ["/home/u/ext/fft_ops.cpp:9:20: error: 'fft' is not a member of 'torch'"])
c('PY312_DISTUTILS_REMOVED', ['Traceback (most recent call last):', '  File "/tmp/pip-install-x/pkg/setup.py", line 3, in <module>', '    from distutils.core import setup', "ModuleNotFoundError: No module named 'distutils'"],
  ["DeprecationWarning: The distutils package is deprecated and slated for removal in Python 3.12"])
# neuralnet-pytorch (the long-tail bench, batch 10's dev) on Python 3.12: its versioneer.py's get_config_from_root.
# lookforthechange's cuda_ops (the long-tail bench, batch 12's dev) on torch >= 2.6, through setuptools' PEP 517 backend.
c('CPP_EXTENSION_CUDA_FLAG_REMOVED', ['Traceback (most recent call last):',
  '  File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py", line 317, in run_setup',
  '    exec(code, locals())',
  '  File "<string>", line 4, in <module>',
  "TypeError: library_paths() got an unexpected keyword argument 'cuda'"],
  ["TypeError: include_paths() got an unexpected keyword argument 'cuda_home'"])
c('PY312_CONFIGPARSER_REMOVED', ['Traceback (most recent call last):',
  '  File "/tmp/w/torchsmith-neuralnet-pytorch/out/src/setup.py", line 40, in <module>',
  '    version=versioneer.get_version(),',
  '  File "/tmp/w/torchsmith-neuralnet-pytorch/out/src/versioneer.py", line 342, in get_config_from_root',
  '    parser = configparser.SafeConfigParser()',
  '             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
  "AttributeError: module 'configparser' has no attribute 'SafeConfigParser'. Did you mean: 'RawConfigParser'?"],
  ["DeprecationWarning: The SafeConfigParser class has been renamed to ConfigParser in Python 3.2. This alias will be removed in Python 3.12. Use ConfigParser directly instead.",
   "AttributeError: 'ConfigParser' object has no attribute 'read_dict'"])
c('PKG_RESOURCES_REMOVED', ['Traceback (most recent call last):', '  File "/home/u/venv/lib/python3.12/site-packages/torch/utils/cpp_extension.py", line 25, in <module>', '    from pkg_resources import packaging', "ModuleNotFoundError: No module named 'pkg_resources'"],
  ["UserWarning: pkg_resources is deprecated as an API."])
c('CMAKE_NOT_INSTALLED', ['running build_ext', "error: [Errno 2] No such file or directory: 'cmake'"],
  ["-- The CMake version is 3.27.9: cmake found at /usr/bin/cmake"])
c('EXT_NOT_COMPILED_WITH_CUDA', ['  File "/home/u/det/layers/nms.py", line 19, in nms', 'RuntimeError: Not compiled with GPU support (nms at /home/u/det/csrc/nms.h:22)'],
  ["-- Compiled with GPU support: sm_80"])
c('TORCH_BUILT_WITHOUT_LAPACK', ['FAILED test/test_linalg.py::TestLinalgCPU::test_svd_cpu_float32 - RuntimeError: svd: LAPACK library not found in compilation'],
  ["-- Found LAPACK: /usr/lib/x86_64-linux-gnu/libopenblas.so"])
c('MAGMA_NOT_FOUND', ['-- MAGMA not found. Compiling without MAGMA support'],
  ["-- Found MAGMA: /opt/magma/lib/libmagma.so"])
c('TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON', ['ERROR: Could not find a version that satisfies the requirement torch==1.13.1 (from versions: 2.2.0, 2.2.1)', 'ERROR: No matching distribution found for torch==1.13.1'],
  ["ERROR: Could not find a version that satisfies the requirement torchvisionx (from versions: none)"])
c('JETSON_OPENBLAS_ILLEGAL_INSTRUCTION', ['>>> import torch', 'Illegal instruction (core dumped)'],
  ["-- Performing Test HAS_ILLEGAL_INSTRUCTION_CHECK - Success"])
c('JETSON_WHEEL_JETPACK_MISMATCH', ['>>> import torch', 'Traceback (most recent call last):',
  '  File "/usr/local/lib/python3.6/dist-packages/torch/__init__.py", line 195, in <module>', '    _load_global_deps()',
  '  File "/usr/lib/python3.6/ctypes/__init__.py", line 348, in __init__', '    self._handle = _dlopen(self._name, mode)',
  'OSError: libcurand.so.10: cannot open shared object file: No such file or directory'],
  ['-rw-r--r-- 1 root root 0 Jul  1  2020 /usr/lib/aarch64-linux-gnu/libcublas.so.10.2.2.89',
   'lrwxrwxrwx 1 root root 15 Oct 27  2020 /usr/lib/aarch64-linux-gnu/libcurand.so -> libcurand.so.10'])
c('CUDA_802_FABRIC_MANAGER_MISSING', ['RuntimeError: cuda runtime error (802) : system not yet initialized at /opt/conda/aten/src/THC/THCGeneral.cpp:50'],
  ["nvidia-fabricmanager: started, 802 links up"])
c('CUDA_LIB_SHADOWED_BY_LD_LIBRARY_PATH', ['ImportError: /home/u/venv/lib/python3.10/site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12'],
  ["ldconfig: libnvJitLink.so.12 version check passed"])
c('EXT_CUDA_RUNTIME_MAJOR_MISMATCH', ['  File "/home/u/venv/lib/python3.10/site-packages/mmcv/ops/__init__.py", line 2, in <module>', 'ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory'],
  ["-- Found CUDART: /usr/local/cuda/lib64/libcudart.so.12"])
c('TORCH_NVIDIA_WHEELS_SITE_DIR_SPLIT', ['    from torch._C import *  # noqa: F403', 'ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory'],
  ["Requirement already satisfied: nvidia-cudnn-cu12==9.1.0.70 (provides libcudnn.so.9)"])
c('TORCH_MIXED_INSTALL_STALE_LIBS', ['    from torch._C import *', 'ImportError: /usr/local/lib/python3.8/dist-packages/torch/lib/libtorch_cpu.so: undefined symbol: _ZN3c1021throwNullDataPtrErrorEv'],
  ["-- Installing: /usr/local/lib/python3.8/dist-packages/torch/lib/libtorch_cpu.so"])
c('ROCM_NO_CODE_OBJECT_FOR_GPU', ['RuntimeError: HIP error: invalid device function', 'HIP kernel errors might be asynchronously reported at some other API call'],
  ["-- HIP: device function table built for gfx90a"])
c('ROCBLAS_TENSILE_LIBRARY_NOT_FOUND', ['rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1031'],
  ["rocBLAS info: TensileLibrary.dat loaded for gfx1030"])
c('ROCM_CUDA_HEADER_IN_HIP_BUILD', [F, "/usr/include/thrust/system/cuda/detail/guarded_cuda_runtime_api.h:38:10: fatal error: 'cuda_runtime_api.h' file not found"],
  ["/opt/rocm/include/thrust/system/hip/detail/guarded_hip_runtime_api.h:38:10: note: using rocThrust"])
c('LAPACK_NOT_LINKED', ["/usr/bin/ld: libtorch_cpu.so: undefined reference to `dgetrf_'", 'collect2: error: ld returned 1 exit status'],
  ["-- Looking for dgetrf_ - found"])
c('STALE_CMAKE_MAKE_PROGRAM', ['CMake Error:', "  Running", '', "   '/tmp/pip-build-env-x/overlay/bin/ninja' '--version'", '', '  failed with:', '', '   No such file or directory'],
  ["-- Build files have been written to: /home/u/build (generator: Ninja, /usr/bin/ninja --version 1.11.1)"])

c('CUDA_RDC_DEVICE_LINK_MISSING', ["/usr/bin/ld: CMakeFiles/app.dir/kernel.cu.o: in function `__sti____cudaRegisterAll()':", "tmpxft_00017045_00000000-5_kernel.cudafe1.cpp:(.text.startup+0x1d): undefined reference to `__cudaRegisterLinkedBinary_52_tmpxft_00017045_00000000_6_kernel_cpp1_ii_4778c217'", 'collect2: error: ld returned 1 exit status'],
  ["nvcc -dlink CMakeFiles/app.dir/kernel.cu.o -o CMakeFiles/app.dir/cmake_device_link.o  # __cudaRegisterLinkedBinary stubs resolved"])
c('CUDA12_TEXTURE_REFERENCE_REMOVED', [FC, 'src/resample.cu(56): error: texture is not a template', '  texture<float2, 1, cudaReadModeElementType> t_xy;', '  ^', '', 'src/resample.cu(120): error: identifier "cudaBindTexture" is undefined'],
  ['src/resample.cu(56): warning: texture<float2> usage is deprecated, use cudaTextureObject_t'])

c('CUDA13_DEVICE_PROP_FIELD_REMOVED', [FC, 'src/info.cu(144): error: class "cudaDeviceProp" has no member "clockRate"', '        << prop.clockRate', '                ^', '',
  '1 error detected in the compilation of "src/info.cu".'],
  ['src/info.cu(144): warning: "clockRate" is deprecated: use cudaDeviceGetAttribute(cudaDevAttrClockRate)', 'src/info.cu(150): error: class "cudaDeviceProp" has no member "frobRate"'])

c('CUDA_GLIBC_MATH_NOEXCEPT_MISMATCH', [FC, '/usr/include/x86_64-linux-gnu/bits/mathcalls.h(79): error: exception specification is incompatible with that of previous function "cospi" (declared at line 2601 of /usr/local/cuda/bin/../targets/x86_64-linux/include/crt/math_functions.h)',
  '     extern double cospi (double __x) noexcept (true); extern double __cospi (double __x) noexcept (true);', '                                      ^'],
  ['/usr/include/x86_64-linux-gnu/bits/mathcalls.h(79): note: cospi is declared noexcept by glibc 2.41', 'src/m.h(40): error: exception specification is incompatible with that of previous function "frob"'])

c('GPU_BF16_UNSUPPORTED', ['Traceback (most recent call last):', '  File "/app/run.py", line 40, in <module>', '    out = model(x)', "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"],
  ['INFO: torch.cuda.is_bf16_supported() = False; using float16 (Bfloat16 needs compute capability 8.0)'])

c('TORCH_COMPANION_VERSION_CONFLICT', ['ERROR: Cannot install torch==2.2.1+cu118 and torchvision==0.16.1+cu118 because these package versions have conflicting dependencies.', '', 'The conflict is caused by:', '    The user requested torch==2.2.1+cu118', '    torchvision 0.16.1+cu118 depends on torch==2.1.1+cu118', '', 'ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts'],
  ['Collecting torchvision==0.17.1+cu118', '  Using cached torchvision-0.17.1+cu118 (torch==2.2.1+cu118 already satisfied)'])

c('CUDA_HOME_IS_PATH_LIST', ["/usr/local/cuda:/usr/local/cuda-11.8/bin/nvcc -I/home/u/venv/lib/python3.10/site-packages/torch/include -c src/deform_conv_cuda_kernel.cu -o build/temp.linux-x86_64-3.10/src/deform_conv_cuda_kernel.o --expt-relaxed-constexpr --compiler-options '-fPIC' -std=c++17",
  "unable to execute '/usr/local/cuda:/usr/local/cuda-11.8/bin/nvcc': No such file or directory",
  "error: command '/usr/local/cuda:/usr/local/cuda-11.8/bin/nvcc' failed with exit status 1"],
  ["/usr/local/cuda-11.8/bin/nvcc -I/home/u/venv/lib/python3.10/site-packages/torch/include -c src/deform_conv_cuda_kernel.cu -o build/temp.linux-x86_64-3.10/src/deform_conv_cuda_kernel.o",
   "export PATH=/usr/local/cuda-11.8/bin:$PATH  # CUDA_HOME=/usr/local/cuda-11.8"])

c('CONDA_SOLVE_CONFLICT', ['Collecting package metadata (repodata.json): done', 'Solving environment: failed with initial frozen solve. Retrying with flexible solve.',
  'Solving environment: |', 'Found conflicts! Looking for incompatible packages.', 'This can take several minutes.  Press CTRL-C to abort.', 'failed', '',
  'UnsatisfiableError: The following specifications were found to be incompatible with each other:', '',
  'Package cudatoolkit conflicts for:', 'pytorch==1.13.1 -> cudatoolkit[version=\'>=11.6,<11.7\']', 'cudatoolkit=11.3'],
  ['Collecting package metadata (repodata.json): done', 'Solving environment: done', '', '## Package Plan ##', '  added / updated specs:', '    - pytorch==2.1.0'])

c('CONDA_PACKAGE_NOT_IN_CHANNELS', ['(base) C:\\proj>conda install pytorch==1.13.1 torchvision==0.14.1 cudatoolkit=11.7 -c pytorch -c nvidia',
  'Collecting package metadata (current_repodata.json): done', 'Solving environment: unsuccessful initial attempt using frozen solve. Retrying with flexible solve.', '',
  'PackagesNotFoundError: The following packages are not available from current channels:', '', '  - cudatoolkit=11.7', '', 'Current channels:', '',
  '  - https://conda.anaconda.org/pytorch/win-64', '  - https://conda.anaconda.org/nvidia/win-64'],
  ['(base) $ conda remove keyutils', 'PackagesNotFoundError: The following packages are missing from the target environment:', '  - keyutils'])

c('CONDA_PACKAGE_CORRUPTED', ['Downloading and Extracting Packages', 'Preparing transaction: done', 'Verifying transaction: failed', '',
  'CondaVerificationError: The package for pytorch located at /opt/conda/pkgs/pytorch-1.11.0-py3.8_cuda11.3_cudnn8_0',
  "appears to be corrupted. The path 'lib/python3.8/site-packages/torch/lib/libtorch_cuda.so'", 'specified in the package manifest cannot be found.'],
  ['Downloading and Extracting Packages', 'Preparing transaction: done', 'Verifying transaction: done', 'Executing transaction: done'])

c('UV_INDEX_STRATEGY_FIRST_INDEX', ['$ uv add torch torchvision --index https://download.pytorch.org/whl/cu126',
  '  \u00d7 No solution found when resolving dependencies:',
  '  \u2570\u2500\u25b6 Because there is no version of pillow==11.1.0 and your project depends on pillow==11.1.0, we can conclude that your project\'s requirements are unsatisfiable.', '',
  '      hint: `pillow` was found on https://download.pytorch.org/whl/cu126, but not at the requested version (pillow==11.1.0). A compatible version may be available'],
  ['$ uv add torch --index https://download.pytorch.org/whl/cu126', 'Resolved 23 packages in 1.2s', '  hint: `torch` is pinned to the pytorch index via tool.uv.sources'])

c('INDEX_URL_IS_FIND_LINKS_PAGE', ['$ uv add torch==1.6.0+cu101 torchvision==0.7.0+cu101 --index https://download.pytorch.org/whl/torch_stable.html',
  '  \u00d7 No solution found when resolving dependencies:',
  '  \u2570\u2500\u25b6 Because there is no version of torch==1.6.0+cu101 and your project depends on torch==1.6.0+cu101, we can conclude that your project\'s requirements are unsatisfiable.'],
  ['$ pip install torch==1.6.0+cu101 -f https://download.pytorch.org/whl/torch_stable.html', 'Successfully installed torch-1.6.0+cu101'])

c('UV_LOCAL_VERSION_REQUIRED', ['~ # uv pip install torch==2.2.0 --index-url https://download.pytorch.org/whl/cpu',
  '  x No solution found when resolving dependencies:',
  "  `-> Because torch==2.2.0 is unusable because no wheels are available with a matching Python implementation and you require torch==2.2.0, we can conclude that the requirements are unsatisfiable."],
  ['~ # uv pip install torch==2.2.0+cpu --index-url https://download.pytorch.org/whl/cpu', 'Resolved 12 packages in 1.1s', 'Installed 12 packages in 2.3s'])

c('GPU_ARCH_TOO_OLD_FOR_LIBRARY', ['Device Tesla K40m', "terminate called after throwing an instance of 'std::runtime_error'",
  '  what():  [FT][ERROR] CUDA runtime error: CUBLAS_STATUS_ARCH_MISMATCH /workspace/fastertransformer/cuda/open_attention.h:171', 'Aborted (core dumped)'],
  ['cublasStatus_t values: CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_NOT_INITIALIZED; arch checks passed for sm_80'])

c('EXT_PY_LIMITED_API_PYBIND11', [FC, '/home/u/venv/lib/python3.10/site-packages/torch/include/pybind11/buffer_info.h(107): error: identifier "Py_buffer" is undefined', '',
  '/home/u/venv/lib/python3.10/site-packages/torch/include/pybind11/buffer_info.h(153): error: identifier "Py_buffer" is undefined'],
  ['/home/u/venv/lib/python3.10/site-packages/torch/include/pybind11/buffer_info.h(107): warning: Py_buffer is deprecated in the limited API'])

c('MSVC_TOO_OLD_FOR_TORCH', [FC, 'C:\\libtorch\\include\\torch/csrc/utils/variadic.h(195): error C2951: template declarations are only permitted at global, namespace, or class scope',
  'C:\\libtorch\\include\\torch/csrc/utils/variadic.h(195): error C2143: syntax error: missing \';\' before \'<end Parse>\''],
  ['C:\\src\\mylib\\parser.h(12): error C2951: template declarations are only permitted at global, namespace, or class scope'])

c('HIP_PLATFORM_MACRO_UNDEFINED', [FC, 'In file included from /workspace/src/tracer.h:24,', '/opt/rocm/include/hip/hip_runtime.h:66:2: error: #error ("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__");',
  '   66 | #error("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__");'],
  ['/opt/rocm/bin/hipcc -D__HIP_PLATFORM_AMD__ -I/opt/rocm/include -c /workspace/src/tracer.cpp -o tracer.o'])

c('ROCM_PATH_NOT_FOUND', [FC, 'clang: warning: argument unused during compilation: \'--offload-compress\' [-Wunused-command-line-argument]',
  "clang: error: cannot find ROCm device library; provide its path via '--rocm-path' or '--rocm-device-lib-path', or pass '-nogpulib' to build without ROCm device library"],
  ['-- ROCm device library found at /opt/rocm/amdgcn/bitcode', "clang: warning: argument unused during compilation: '--rocm-path=/opt/rocm' [-Wunused-command-line-argument]"])

c('ROCM_COMPILER_TOO_OLD', ['FAILED: src/CMakeFiles/kernels.dir/reduce.hip.o', '/usr/bin/clang++ -x hip --offload-arch=gfx1201 -c /src/reduce.hip -o reduce.hip.o',
  "clang-15: error: invalid target ID 'gfx1201'; format is a processor name followed by an optional colon-delimited list of features followed by an enable/disable sign (e.g., 'gfx908:sramecc+:xnack-')"],
  ["clang: error: invalid target ID 'gfx90a:xnack'; format is a processor name followed by an optional colon-delimited list of features followed by an enable/disable sign (e.g., 'gfx908:sramecc+:xnack-')"])

c('NVCC_HOST_COMPILER_UNSUPPORTED_OS', ['[ 12%] Building CUDA object CMakeFiles/sift.dir/src/matching.cu.obj', 'nvcc fatal   : Host compiler targets unsupported OS'],
  ['nvcc warning : The -std=c++17 flag is not supported with the configured host compiler. Flag will be ignored.'])

c('NVCC_ARM_NEON_UNSUPPORTED', [FC, '/usr/lib/gcc/aarch64-linux-gnu/11/include/arm_neon.h(52): error: identifier "__Uint16x4_t" is undefined',
  '/usr/lib/gcc/aarch64-linux-gnu/11/include/arm_neon.h(53): error: identifier "__Uint32x2_t" is undefined'],
  ['/usr/lib/gcc/aarch64-linux-gnu/11/include/arm_neon.h:6183:1: error: inlining failed in call to \'always_inline\' \'vld1q_f32\': target specific option mismatch'])

c('HIP_OFFLOAD_FLAGS_TO_HOST_COMPILER', ['FAILED: CMakeFiles/transformer_engine.dir/util/hip_driver.cpp.o',
  '/usr/bin/g++ -DUSE_ROCM -D__HIP_PLATFORM_AMD__=1 -isystem /opt/rocm-6.4.2/include -O3 -std=c++17 -fno-gpu-rdc -fPIC -x hip --offload-arch=gfx90a -c hip_driver.cpp',
  "g++: error: unrecognized command-line option '-fno-gpu-rdc'", "g++: error: unrecognized command-line option '--offload-arch=gfx90a'"],
  ['/opt/rocm/llvm/bin/clang++ -x hip --offload-arch=gfx90a -fno-gpu-rdc -c hip_driver.cpp',
   "clang++: warning: argument unused during compilation: '--offload-arch=gfx90a' [-Wunused-command-line-argument]"])

c('NVCC_FLAGS_IN_HIP_BUILD', ['FAILED: /home/u/ext/build/temp.linux-x86_64-cpython-312/csrc/attention.o',
  '/opt/rocm/bin/hipcc -I/home/u/venv/lib/python3.12/site-packages/torch/include -D__HIP_PLATFORM_AMD__=1 -DUSE_ROCM=1 -fPIC -O3 --use_fast_math --extended-lambda --offload-arch=gfx1100 -c csrc/attention.hip',
  "clang++: error: unknown argument: '--use_fast_math'", "clang++: error: unknown argument: '--extended-lambda'"],
  ['/opt/rocm/bin/hipcc -O3 -ffast-math --offload-arch=gfx1100 -c csrc/attention.hip',
   "nvcc flags for CUDA builds: ['--use_fast_math', '--extended-lambda']"])

c('WINDOWS_SDK_MISSING', [FC, 'C:\\Program Files\\Microsoft Visual Studio\\2022\\BuildTools\\VC\\Tools\\MSVC\\14.38.33130\\include\\crtdefs.h(10): fatal error C1083: Cannot open include file: \'corecrt.h\': No such file or directory'],
  ['C:\\src\\ext\\csrc\\ops.cpp(3): fatal error C1083: Cannot open include file: \'ops_impl.h\': No such file or directory'])

c('TORCH_CPU_ONLY_FOR_CUDA_EXT', ['g++ -shared build/temp.linux-x86_64-cpython-310/src/ext.o build/temp.linux-x86_64-cpython-310/src/ext_cuda.o -L/home/u/venv/lib/python3.10/site-packages/torch/lib -L/usr/local/cuda/lib64 -lc10 -ltorch -ltorch_cpu -ltorch_python -lcudart -lc10_cuda -ltorch_cuda -o build/lib.linux-x86_64-cpython-310/ext_cuda.so',
  '/usr/bin/ld: cannot find -lc10_cuda: No such file or directory', '/usr/bin/ld: cannot find -ltorch_cuda: No such file or directory', 'collect2: error: ld returned 1 exit status'],
  ['g++ -shared build/temp.linux-x86_64-cpython-310/src/ext.o -L/home/u/venv/lib/python3.10/site-packages/torch/lib -lc10 -ltorch -ltorch_cpu -ltorch_python -lc10_cuda -ltorch_cuda -o ext_cuda.so',
   'Finished linking ext_cuda.so against libc10_cuda.so and libtorch_cuda.so'])

c('CMAKE_CUDA_LIBRARY_NOTFOUND', ['-- Found CUDA: /usr/local/cuda (found suitable version "10.1", minimum required is "9.0")',
  'CMake Error: The following variables are used in this project, but they are set to NOTFOUND.',
  'Please set them or make sure they are set and tested correctly in the CMake files:',
  'CUDA_cublas_device_LIBRARY (ADVANCED)', '    linked by target "caffe2_gpu" in directory /home/u/pytorch/caffe2'],
  ['-- Found CUDA: /usr/local/cuda (found suitable version "10.1", minimum required is "9.0")',
   '-- CUDA_cublas_LIBRARY = /usr/lib/x86_64-linux-gnu/libcublas.so (found outside the toolkit dir)',
   '-- OpenCV_LIBS (ADVANCED) not needed for this target'])

c('WERROR_NEW_COMPILER_WARNING', [F, "/home/u/pytorch/third_party/fbgemm/src/UtilsAvx512.cc:970:35: error: 'r' may be used uninitialized [-Werror=maybe-uninitialized]",
  '  970 |   d[0] = _mm512_permutex2var_epi32(r[0], index1, r[1]);', "/home/u/pytorch/third_party/fbgemm/src/UtilsAvx512.cc:922:11: note: 'r' declared here",
  'cc1plus: all warnings being treated as errors'],
  ["/home/u/pytorch/third_party/fbgemm/src/UtilsAvx512.cc:970:35: warning: 'r' may be used uninitialized [-Wmaybe-uninitialized]",
   '/usr/bin/c++ -DFBGEMM_STATIC -Wall -Wextra -Werror -Wno-error=maybe-uninitialized -Werror=return-type -c UtilsAvx512.cc'])

c('DIST_STORE_PORT_IN_USE', ['  File "/home/u/venv/lib/python3.10/site-packages/torch/distributed/rendezvous.py", line 176, in _create_c10d_store',
  '    return TCPStore(', 'RuntimeError: Address already in use'],
  ['OSError: [Errno 98] Address already in use'])

c('CUDA_VISIBLE_DEVICES_NO_GPU', ['  File "/home/u/venv/lib/python3.10/site-packages/torch/cuda/__init__.py", line 293, in _lazy_init',
  '    torch._C._cuda_init()', 'RuntimeError: No CUDA GPUs are available'],
  ['torch.cuda.device_count(): 2 CUDA GPUs are available'])

c('TORCH_PY_API_REMOVED', ['  File "/home/u/proj/utils/misc.py", line 4, in <module>', '    from torch._six import inf',
  "ModuleNotFoundError: No module named 'torch._six'"],
  ["ModuleNotFoundError: No module named 'torchsix'"])

c('GPU_EXCLUSIVE_PROCESS_BUSY', ['  File "/home/u/proj/train.py", line 88, in main', '    model = model.to(device)',
  'RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable'],
  ['GPU 0: Compute Mode: Exclusive_Process (busy or unavailable devices are skipped by the scheduler)'])

c('LIBCUDA_SO_UNVERSIONED_NOT_FOUND', ['matrix multiply works',
  'Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory',
  'Please make sure libcudnn_cnn_infer.so.8 is in your library path!', 'Aborted'],
  ['ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link'])

c('OPENMP_RUNTIME_DUPLICATE', ['OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.',
  'OMP: Hint This means that multiple copies of the OpenMP runtime have been linked into the program.'],
  ['OMP: Info #276: omp_set_nested routine deprecated, please use omp_set_max_active_levels instead.'])

c('MACOS_LIBOMP_NOT_FOUND', ['ImportError: dlopen(/Users/u/venv/lib/python3.9/site-packages/torch/_C.cpython-39-darwin.so, 2): Library not loaded: /opt/homebrew/opt/libomp/lib/libomp.dylib',
  '  Referenced from: /Users/u/venv/lib/python3.9/site-packages/torch/lib/libtorch_cpu.dylib', '  Reason: image not found'],
  ['-- Found OpenMP_CXX: -Xpreprocessor -fopenmp -I/opt/homebrew/opt/libomp/include (found version "5.0")'])

c('MACOS_BINARY_ARCH_MISMATCH', ["OSError: dlopen(/Users/u/venv/lib/python3.11/site-packages/torch/lib/libtorch_global_deps.dylib, 0x000A): tried: '/Users/u/venv/lib/python3.11/site-packages/torch/lib/libtorch_global_deps.dylib' (mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64'))"],
  ['-- CMAKE_OSX_ARCHITECTURES: arm64 (host architecture arm64, not x86_64)'])

c('MPS_MACOS_TOO_OLD', ['  File "/Users/u/proj/train.py", line 12, in <module>', "    x = x.to('mps')",
  'RuntimeError: The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using `sw_vers`'],
  ['RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed: 6.77 GB). Tried to allocate 1024.00 MB on private pool.'])

c('NVIDIA_CONTAINER_TOOLKIT_MISSING', ['$ docker run --rm --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi',
  'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'],
  ['Runtimes: io.containerd.runc.v2 nvidia runc (device driver "nvidia" with capabilities gpu, compute, utility)'])

c('NVIDIA_CONTAINER_NVML_NOT_FOUND', ['$ docker run --rm --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi',
  "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'",
  'nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.'],
  ['I1202 15:15:34.445181 26518 nvc_info.c:173] selecting /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.54.03'])
c('MSVC_ALTERNATIVE_TOKENS', ['[3/5] cl /showIncludes /nologo /O2 /MD /EHsc -c C:\\src\\ext\\ops.cpp /FoC:\\src\\build\\ops.obj',
  "C:\\src\\ext\\ops.cpp(80): error C2146: syntax error: missing ')' before identifier 'and'",
  "C:\\src\\ext\\ops.cpp(80): error C2065: 'and': undeclared identifier"],
  ["C:\\src\\ext\\ops.cpp(80): error C2065: 'band': undeclared identifier"])

c('WINDOWS_LONG_IS_32BIT', ['   Creating library build\\temp.win-amd64-cpython-310\\Release\\ops.cp310-win_amd64.lib and object build\\temp.win-amd64-cpython-310\\Release\\ops.cp310-win_amd64.exp',
  'ops.obj : error LNK2001: unresolved external symbol "public: long * __cdecl at::Tensor::data_ptr<long>(void)const " (??$data_ptr@J@Tensor@at@@QEBAPEAJXZ)',
  'build\\lib.win-amd64-cpython-310\\ops.cp310-win_amd64.pyd : fatal error LNK1120: 1 unresolved externals'],
  ['ops.obj : error LNK2001: unresolved external symbol "public: __int64 * __cdecl at::Tensor::data_ptr<__int64>(void)const " (??$data_ptr@_J@Tensor@at@@QEBAPEA_JXZ)'])

c('MSVC_SOURCE_CODEPAGE', ["C:\\src\\ext\\ops.cpp : warning C4819: The file contains a character that cannot be represented in the current code page (936). Save the file in Unicode format to prevent data loss",
  'C:\\src\\ext\\ops.cpp(115): error C2001: newline in constant'],
  ["C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\\include\\cuda_fp16.hpp : warning C4819: The file contains a character that cannot be represented in the current code page (936). Save the file in Unicode format to prevent data loss"])

c('PYTHON_IMPORT_LIB_NOT_FOUND', ['[5/5] link.exe /nologo /DLL /LIBPATH:C:\\venv\\libs /LIBPATH:C:\\venv\\lib\\site-packages\\torch\\lib c10.lib torch.lib torch_python.lib /OUT:build\\ops.pyd',
  "LINK : fatal error LNK1104: cannot open file 'python310.lib'"],
  ["LINK : fatal error LNK1104: cannot open file 'pythoncom.lib'"])

c('MSVC_PLATFORM_TOOLSET_MISSING', ['Project "C:\\src\\ext\\ext.sln" (1) is building "C:\\src\\ext\\ext.vcxproj" (2) on node 1 (default targets).',
  "C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\MSBuild\\Microsoft\\VC\\v170\\Microsoft.CppBuild.targets(463,5): error MSB8020: The build tools for Visual Studio 2019 (Platform Toolset = 'v142') cannot be found. To build using the v142 build tools, please install Visual Studio 2019 build tools."],
  ['  PlatformToolset = v143 (the build tools for Visual Studio 2022 were found)'])

c('WINDOWS_PATH_TOO_LONG', ['[12/40] cl /showIncludes /nologo /O2 /MD -c C:\\Users\\u\\AppData\\Local\\Temp\\pip-install-abc\\pkg_0123456789abcdef\\csrc\\ops.cpp',
  "C:\\Users\\u\\AppData\\Local\\Temp\\pip-install-abc\\pkg_0123456789abcdef\\csrc\\ops.cpp : fatal error C1083: Cannot open compiler generated file: '': Invalid argument"],
  ["OSError: [Errno 22] Invalid argument: 'C:\\data\\frames\\0001.png'"])

c('NINJA_WINDOWS_RSP_TRUNCATED', ['  LINK: command "C:\\PROGRA~1\\MICROS~2\\2022\\ENTERP~1\\VC\\Tools\\MSVC\\1444~1.352\\bin\\Hostx64\\x64\\link.exe /nologo @CMakeFiles\\torch_cpu.rsp /out:bin\\torch_cpu.dll /dll" failed (exit code 1181) with the following output:',
  "  LINK : fatal error LNK1181: cannot open input file 'rch_cpu.dir\\__\\aten\\src\\ATen\\native\\Activation.cpp.obj'"],
  ["  LINK : fatal error LNK1181: cannot open input file 'caffe2\\CMakeFiles\\torch_cpu.dir\\__\\aten\\src\\ATen\\native\\Activation.cpp.obj'"])

c('MATH_CONSTANTS_UNDEFINED', ['[7/12] cl /showIncludes /nologo /O2 /MD /EHsc -c C:\\src\\ext\\fft.cpp /FoC:\\src\\build\\fft.obj',
  "C:\\src\\ext\\fft.cpp(28,29): error C2065: 'M_PI': undeclared identifier"],
  ["C:\\src\\ext\\fft.cpp(28,29): error C2065: 'M_PIXELS': undeclared identifier"])

c('MSVC_GCC_BUILTIN_UNSUPPORTED', ['[3/9] cl /showIncludes /nologo /O2 /MD /EHsc -c C:\\src\\ext\\forward.cpp /FoC:\\src\\build\\forward.obj',
  "C:\\src\\ext\\forward.cpp(280): error C3861: '__builtin_clz': identifier not found"],
  ["C:\\src\\ext\\forward.cpp(280): error C3861: 'my_clz': identifier not found"])

c('PIP_EXTERNALLY_MANAGED', ['$ pip3 install meson ninja --quiet --upgrade', 'error: externally-managed-environment', '',
  '× This environment is externally managed', '╰─> To install Python packages system-wide, try apt install',
  '    python3-xyz, where xyz is the package you are trying to', '    install.'],
  ['  --break-system-packages     Allow pip to modify an EXTERNALLY-MANAGED Python installation'])

c('CYTHON3_INCOMPATIBLE', ['[1/1] Cythonizing src/ext/_core.pyx', '', 'Error compiling Cython file:',
  '------------------------------------------------------------', '    qsort(buf, n, sizeof(int), cmp_int)', '                               ^',
  '------------------------------------------------------------', '',
  "src/ext/_core.pyx:88:31: Cannot assign type 'int (const void *, const void *) except? -1 nogil' to 'int (*)(const void *, const void *) noexcept nogil'"],
  ["src/ext/_core.pyx:91:20: Cannot assign type 'double' to 'unsigned int'"])

c('PACKAGING_TOO_OLD_FOR_SETUPTOOLS', ['  Preparing metadata (setup.py) ... error', '  error: subprocess-exited-with-error', '      running egg_info',
  '        File "/home/u/venv/lib/python3.10/site-packages/setuptools/_core_metadata.py", line 285, in _write_requirements',
  "      TypeError: canonicalize_version() got an unexpected keyword argument 'strip_trailing_zero'"],
  ["      TypeError: canonicalize_name() missing 1 required positional argument: 'name'"])

c('PACKAGING_INVALID_VERSION', ['  File "/home/u/venv/lib/python3.10/site-packages/pkg_resources/__init__.py", line 2685, in parsed_version',
  '    raise packaging.version.InvalidVersion(f"{str(ex)} {info}") from None',
  "pkg_resources.extern.packaging.version.InvalidVersion: Invalid version: '0.23ubuntu1' (package: distro-info)"],
  ["  warnings.warn(tmpl.format(**locals())) Normalizing '1.0.0-beta' to '1.0.0b0'"])

c('EDITABLE_BACKEND_UNSUPPORTED', ['Obtaining file:///home/u/proj', '  Installing build dependencies ... done', '  Checking if build backend supports build_editable ... done',
  "ERROR: Project file:///home/u/proj has a 'pyproject.toml' and its build backend is missing the 'build_editable' hook. Since it does not have a 'setup.py' nor a 'setup.cfg', it cannot be installed in editable mode. Consider using a build backend that supports PEP 660."],
  ['  Checking if build backend supports build_editable ... done'])

c('SETUPTOOLS_USE_2TO3_REMOVED', ['Collecting anyjson==0.3.3', '  Downloading anyjson-0.3.3.tar.gz (8.3 kB)', '    ERROR: Command errored out with exit status 1:',
  '    Complete output (1 lines):', '    error in anyjson setup command: use_2to3 is invalid.'],
  ["error in foo setup command: 'install_requires' must be a string or list of strings containing valid project/version requirement specifiers"])

c('AUDITWHEEL_LIB_NOT_LOCATED', ['INFO:auditwheel.main_repair:Repairing myext-0.1.0-cp310-cp310-linux_x86_64.whl',
  '  File "/opt/_internal/pipx/venvs/auditwheel/lib/python3.10/site-packages/auditwheel/repair.py", line 78, in repair_wheel',
  '    raise ValueError(', 'ValueError: Cannot repair wheel, because required library "libtorch_cpu.so" could not be located'],
  ['INFO:auditwheel.lddtree:Excluding libtorch_cpu.so'])

c('AUDITWHEEL_TOO_RECENT_SYMBOLS', ['INFO:auditwheel.main_repair:Repairing myext-0.1.0-cp312-cp312-linux_x86_64.whl', 'usage: auditwheel [-h] [-V] [-v] command ...',
  'auditwheel: error: cannot repair "dist/myext-0.1.0-cp312-cp312-linux_x86_64.whl" to "manylinux_2_17_x86_64" ABI because of the presence of too-recent versioned symbols. You\'ll need to compile the wheel on an older toolchain.'],
  ['This constrains the platform tag to "manylinux_2_35_x86_64". In order to achieve a more compatible tag, you would need to recompile a new wheel from source on a system with earlier versions of these libraries, such as a recent manylinux image.'])

c('SETUPTOOLS_TEST_COMMAND_REMOVED', ['  Getting requirements to build wheel ... error', '      Traceback (most recent call last):',
  '        File "/tmp/pip-install-x/vcrpy/setup.py", line 9, in <module>', '          from setuptools.command.test import test as TestCommand',
  "      ModuleNotFoundError: No module named 'setuptools.command.test'"],
  ["SetuptoolsDeprecationWarning: The test command is disabled and references to it are deprecated."])

c('CUDA_LAUNCH_OUT_OF_RESOURCES', ['  File "/home/u/proj/render.py", line 41, in forward', '    out = _C.rasterize(points, 1024)',
  'RuntimeError: CUDA error: too many resources requested for launch',
  'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.'],
  ['ptxas info    : Used 168 registers, 384 bytes cmem[0] (too many registers per thread are reported here, not a launch failure)'])

c('NCCL_SHM_UNAVAILABLE', ['node1:211:260 [1] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-Qz81ab to 9637892 bytes',
  'node1:211:260 [1] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Qz81ab (size 9637888)',
  'torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1'],
  ['node1:211:260 [1] NCCL INFO Channel 00 : 1[1] -> 0[0] via SHM/direct/direct'])

c('NCCL_SOCKET_INTERFACE_NOT_FOUND', ['node1:88:88 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth9',
  'node1:88:88 [0] bootstrap.cc:97 NCCL WARN Bootstrap : no socket interface found',
  'torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5'],
  ['node1:88:88 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.4<0>'])

c('CUDA_DEVICE_ASSERT_INDEX_OUT_OF_RANGE', ['../aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.',
  '  File "/home/u/proj/train.py", line 120, in train_step', '    loss.backward()',
  'RuntimeError: CUDA error: device-side assert triggered'],
  ['RuntimeError: CUDA error: device-side assert triggered'])

c('TRITON_GPU_TOO_OLD', ['torch._dynamo.exc.BackendCompilerFailed: backend=\'inductor\' raised:',
  'RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.0'],
  ['RuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old. More information on installing Triton can be found at https://github.com/openai/triton'])

c('TRITON_C_COMPILER_MISSING', ['  File "/venv/lib/python3.11/site-packages/triton/runtime/build.py", line 32, in _build',
  '    raise RuntimeError("Failed to find C compiler. Please specify via CC environment variable.")',
  'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.'],
  ['-- Check for working C compiler: /usr/bin/cc - skipped', 'export CC=/usr/bin/gcc  # the compiler triton builds its launcher with'])

c('NUMBA_SVML_UNRESOLVED', ['$ python -m cellpose', 'LLVM ERROR: Symbol not found: __svml_sqrt4_ha'],
  ['numba: Intel SVML found (svml_dispmd), vectorised math will call __svml_sqrt4_ha'])

c('TRITON_ARCH_UNSUPPORTED', ["[rank6]:     raise RuntimeError(f'Internal Triton PTX codegen error: \\n{log}')",
  '[rank6]: RuntimeError: Internal Triton PTX codegen error:', '',
  "[rank6]: ptxas fatal   : Value 'sm_100' is not defined for option 'gpu-name'"],
  ["ptxas fatal : Value 'sm_89' is not defined for option 'gpu-name'"])

# kvcache-ai/ktransformers#1930: an FP8 MoE kernel on an RTX 3090 (sm_86); the near miss lists fp8e4nv as supported.
c('TRITON_FP8_ARCH_UNSUPPORTED', ['triton.compiler.errors.CompilationError: at 1:0:', 'def fused_moe_kernel(', '^',
  "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")"],
  ["INFO: target sm_90a: the supported fp8 dtypes are ('fp8e4b15', 'fp8e4nv', 'fp8e5'), using fp8e4nv for the KV cache"])

# state-spaces/mamba#516: Triton 3.0.0's make_llir pass manager on a 2080 Ti; the near miss names the pass manager
# while it runs.
c('TRITON_COMPILER_INTERNAL_ERROR', ['  File "/home/u/anaconda3/lib/python3.12/site-packages/triton/backends/nvidia/compiler.py", line 228, in make_llir',
  '    pm.run(mod)', 'RuntimeError: PassManager::run failed'],
  ['TRITON_ENABLE_LLVM_DEBUG=1: printing every pass PassManager::run runs for make_llir'])

# state-spaces/mamba#387: Mamba2's chunk kernels with headdim 512 need more shared memory than any GPU has; the
# near miss is Triton's other resource, registers, which this cause is not.
c('TRITON_OUT_OF_SHARED_MEMORY', ['  File "/opt/conda/lib/python3.10/site-packages/triton/runtime/autotuner.py", line 108, in run',
  '    raise OutOfResources(self.metadata.shared, max_shared, "shared memory")',
  'triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 663808, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.'],
  ['INFO: autotuner pruned 3 configs: out of resource: registers, Required: 300, Hardware limit: 255'])

# triton-lang/triton#4197: tl.dot on 8x8 blocks; the near miss is a dot whose blocks are 16 and a log that names the rule.
c('TRITON_DOT_SHAPE_TOO_SMALL', ['triton.compiler.errors.CompilationError: at 12:8:', '    z = tl.dot(x, y)', '        ^',
  'AssertionError: All non-batch values in both first input shape ([constexpr[8], constexpr[8]]) and second input shape ([constexpr[8], constexpr[8]]) must be >= 16!'],
  ['# tl.dot needs every dimension of both inputs to be at least 16: using BLOCK_K = 16'])

# pytorch/pytorch#37577: gdb's SIGILL in torch's AVX2 copy of a kernel file, on a CPU without AVX; the near miss is
# a segfault in that copy (a bad access, not a missing instruction).
c('CPU_INSTRUCTION_SET_UNSUPPORTED', ['$ gdb -ex r --args python -c "import torch"', 'Program received signal SIGILL, Illegal instruction.',
  '0x00007fffe9076f17 in _GLOBAL__sub_I_BinaryOpsKernel.cpp.AVX2.cpp ()', '   from /home/j/src/pytorch/torch/lib/libtorch_cpu.so'],
  ['Program received signal SIGSEGV, Segmentation fault.', '0x00007fffe9076f17 in at::native::(anonymous namespace)::add_kernel_AVX2 ()'])

c('BITSANDBYTES_NATIVE_LIB_NOT_LOADED', ['CUDA SETUP: CUDA runtime path found: /usr/local/cuda-12.1/lib64/libcudart.so',
  'CUDA SETUP: Detected CUDA version 121',
  'CUDA SETUP: Required library version not found: libbitsandbytes_cuda121_nocublaslt.so. Maybe you need to ',
  'compile it from source?', 'CUDA SETUP: Defaulting to libbitsandbytes_cpu.so..'],
  ['CUDA SETUP: Loading binary /home/u/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cuda118.so...'])

c('PY_DEP_API_REMOVED', ['Traceback (most recent call last):',
  '  File "/home/u/venv/lib/python3.10/site-packages/diffusers/utils/dynamic_modules_utils.py", line 28, in <module>',
  '    from huggingface_hub import HfFolder, cached_download, hf_hub_download, model_info',
  "ImportError: cannot import name 'cached_download' from 'huggingface_hub' (/home/u/venv/lib/python3.10/site-packages/huggingface_hub/__init__.py)"],
  ["ImportError: cannot import name 'Mapping' from partially initialized module 'mypkg' (most likely due to a circular import)"])

# setup_requires, pip's metadata wrapper, setup.py's own imports (the long-tail bench's held-out logs: seamseg,
# inplace-abn, warp-ctc, dain-depthflowprojection).
c('SETUP_REQUIRES_FETCH_FAILED', [
  '    dist.fetch_build_eggs(dist.setup_requires)',
  '  ERROR: Could not find a version that satisfies the requirement setuptools_scm (from versions: none)',
  '  ERROR: No matching distribution found for setuptools_scm',
  '  Traceback (most recent call last):',
  '    File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/installer.py", line 121, in _fetch_build_egg_no_warn',
  '      subprocess.check_call(cmd)',
  '    File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/installer.py", line 123, in _fetch_build_egg_no_warn',
  '      raise DistutilsError(str(e)) from e',
  "  distutils.errors.DistutilsError: Command '['/opt/torch/.venv/bin/python3', '-m', 'pip', '--disable-pip-version-check', 'wheel', '--no-deps', '-w', '/tmp/tmpselzcb3a', '--quiet', 'setuptools_scm']' returned non-zero exit status 1."],
  # the user's own `pip wheel` failing is not setuptools' installer
  ["subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', 'pip', 'wheel', '--no-deps', '-w', 'dist', '.']' returned non-zero exit status 1."])

c('SETUP_REQUIRES_EGG_INCOMPLETE', [
  '  Traceback (most recent call last):',
  '    File "/tmp/longtail-ho/torchsmith-inplace-abn/out/src/setup.py", line 48, in <module>',
  '      setuptools.setup(',
  '    File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed',
  '    File "/tmp/longtail-ho/torchsmith-inplace-abn/out/src/.eggs/setuptools_scm-10.3.4-py3.11.egg/setuptools_scm/__init__.py", line 8, in <module>',
  '      from vcs_versioning import Configuration',
  "  ModuleNotFoundError: No module named 'vcs_versioning'"],
  # the same import failing in an installed setuptools_scm: not an egg setup_requires fetched
  ['  Traceback (most recent call last):',
   '    File "/usr/lib/python3/dist-packages/setuptools_scm/__init__.py", line 8, in <module>',
   '      from vcs_versioning import Configuration',
   "  ModuleNotFoundError: No module named 'vcs_versioning'"])

c('PIP_METADATA_GENERATION_FAILED', [], ['hint: See above for details.'])

c('SETUP_PY_MODULE_NOT_IN_TREE', [
  '  Traceback (most recent call last):',
  '    File "<string>", line 2, in <module>',
  '    File "<pip-setuptools-caller>", line 34, in <module>',
  '    File "/tmp/longtail/torchsmith-dain-depthflowprojection/out/src/setup.py", line 8, in <module>',
  '      from compiler_args import nvcc_args, cxx_args',
  "  ModuleNotFoundError: No module named 'compiler_args'"],
  # a program's import of the same module, no setup.py frame: not setup.py's sibling file
  ['Traceback (most recent call last):',
   '  File "/home/u/DAIN/demo_MiddleBury.py", line 8, in <module>',
   '    from compiler_args import nvcc_args, cxx_args',
   "ModuleNotFoundError: No module named 'compiler_args'"])

# A setup.py that prints why and exits 1, no traceback; pip's wrapper follows (the shape of warp-ctc's
# pytorch_binding, whose own message SETUP_PY_NEEDS_PREBUILT_LIBRARY names now).
c('SETUP_PY_METADATA_FAILED', [
  'Processing /tmp/longtail-ho/torchsmith-ext/out/src',
  '  Preparing metadata (setup.py): started',
  '  Running command python setup.py egg_info',
  '  Eigen 3.3 not found.',
  "  Install Eigen and set EIGEN_INCLUDE_DIR to the folder that holds Eigen/Core",
  '  error: subprocess-exited-with-error',
  '  ',
  '  × python setup.py egg_info did not run successfully.',
  '  │ exit code: 1',
  '  ╰─> See above for output.',
  '  ',
  '  note: This error originates from a subprocess, and is likely not a problem with pip.',
  "  cwd: /tmp/longtail-ho/torchsmith-warp-ctc/out/src/",
  "  Preparing metadata (setup.py): finished with status 'error'",
  'error: metadata-generation-failed',
  '',
  '× Encountered error while generating package metadata.',
  '╰─> See above for output.',
  '',
  'note: This is an issue with the package mentioned above, not pip.',
  'hint: See above for details.'],
  # the same wrapper with setup.py's traceback above it: the traceback is the cause
  ['  Running command python setup.py egg_info',
   '  Traceback (most recent call last):',
   '    File "/tmp/src/setup.py", line 3, in <module>',
   '      raise RuntimeError("unsupported platform")',
   '  RuntimeError: unsupported platform',
   '  error: subprocess-exited-with-error',
   "  Preparing metadata (setup.py): finished with status 'error'",
   'error: metadata-generation-failed'])
# CAFI's DAIN4Mic/my_package/FilterInterpolation/setup.py built alone (the long-tail bench, batch 8's dev):
# it reads ../../compiler_args.json, which the repository's build.py writes first.
c('SETUP_PY_FILE_ABOVE_NOT_FOUND', [
  '  File "/root/venv/lib/python3.11/site-packages/setuptools/build_meta.py", line 317, in run_setup',
  '    exec(code, locals())  # noqa: S102 # exec is intentional here',
  '    ^^^^^^^^^^^^^^^^^^^^',
  '  File "<string>", line 8, in <module>',
  "FileNotFoundError: [Errno 2] No such file or directory: '../../compiler_args.json'"],
  # a file of the package's own directory (an sdist that left it out): not a path above it
  ['  File "<string>", line 8, in <module>',
   "FileNotFoundError: [Errno 2] No such file or directory: 'requirements.txt'"])
# seamseg built from a git archive with setuptools_scm installed: no fetch, then no version to read.
c('SETUPTOOLS_SCM_NO_VERSION', [
  'Traceback (most recent call last):',
  '  File "/tmp/lt17/venv-sr/lib/python3.11/site-packages/vcs_versioning/_get_version_impl.py", line 306, in _version_missing',
  '    raise LookupError(error_msg)',
  'LookupError: setuptools-scm was unable to detect version for /tmp/lt17/sr-src.'],
  ['  SETUPTOOLS_SCM_PRETEND_VERSION=1.2.0 pip wheel --no-build-isolation .'])
# MinkowskiEngine's setup.py under plain pip (the long-tail bench, GPU machine, NumPy 2).
c('NUMPY_DISTUTILS_REMOVED', [
  '  Traceback (most recent call last):',
  '    File "<pip-setuptools-caller>", line 34, in <module>',
  '    File "/tmp/longtail/pip-minkowskiengine/src/setup.py", line 201, in <module>',
  '      import numpy.distutils.system_info as sysinfo',
  "  ModuleNotFoundError: No module named 'numpy.distutils'"],
  ['  Traceback (most recent call last):',
   '    File "/tmp/src/setup.py", line 3, in <module>',
   '      import numpy',
   "  ModuleNotFoundError: No module named 'numpy'"])
# A setup.py committed with a merge conflict in it (the long-tail bench, batch 1's dev dcnv2-latest).
c('SETUP_PY_NEEDS_PREBUILT_LIBRARY', ['torchsmith_pep517: building a wheel of /tmp/dv/torchsmith-warp-transducer/out/src with setuptools.build_meta:__legacy__ (no isolation, no dependencies)',
  '<string>:11: DeprecationWarning: distutils Version classes are deprecated. Use packaging.version instead.',
  'Could not find libwarprnnt.so in ../build.',
  "Build warp-rnnt and set WARP_RNNT_PATH to the location of libwarprnnt.so (default is '../build')"],
  ['-- Could not find libcudnn.so in /usr/lib, using the one torch ships', 'copying build/libwarprnnt.so -> warprnnt_pytorch'])
# torchmcubes' LTO link on the GPU machine (the long-tail bench, batch 2's dev): its GCC's driver found no lto-wrapper.
c('LTO_WRAPPER_CANNOT_RUN', ['[ts 6/6 0.0/s 158.558s] : && /opt/gcc/bin/g++ -fPIC -O3 -DNDEBUG -flto=auto -fno-fat-lto-objects  -shared -o cxx/torchmcubes_module.cpython-312-x86_64-linux-gnu.so cxx/CMakeFiles/torchmcubes_module.dir/mcubes.cpp.o',
  'FAILED: [code=1] cxx/torchmcubes_module.cpython-312-x86_64-linux-gnu.so ',
  '/usr/bin/ld: error: could not run lto-wrapper', 'collect2: error: ld returned 1 exit status'],
  ['lto-wrapper: warning: using serial compilation of 2 LTRANS jobs', 'lto-wrapper: note: see the \u2018-flto\u2019 option documentation for more information'])
# pytorch/pytorch#8195: cpuinfo's libclog.a, built without -fPIC, linked into libcaffe2.so.
c('LINK_STATIC_LIB_NOT_PIC', ['[47%] Linking CXX shared library ../lib/libcaffe2.so',
  "/usr/bin/ld: ../lib/libclog.a(clog.c.o): relocation R_X86_64_32 against `.rodata.str1.1' can not be used when making a shared object; recompile with -fPIC",
  '../lib/libclog.a: error adding symbols: Bad value', 'collect2: error: ld returned 1 exit status'],
  ["/usr/bin/ld: lib/libtensorpipe.a(listener_impl.cc.o): warning: relocation against `_ZTV3foo' in read-only section `.text'",
   '-- Performing Test COMPILER_HAS_FPIC - Success'])
# pytorch/vision#4476: an x86-64 libtorch linked on an aarch64 Jetson.
c('LINK_LIBRARY_WRONG_ARCH', ['[100%] Linking CXX shared library libtorchvision.so',
  '/home/user/pytorch/torch/lib/libtorch.so: error adding symbols: File in wrong format', 'collect2: error: ld returned 1 exit status'],
  ['/usr/bin/ld: skipping incompatible /usr/lib/libcuda.so when searching for -lcuda', '[100%] Built target torchvision'])
# pytorch/pytorch#26100: conda's libmagma.a (binutils 2.26+ relocations) linked by an older system ld.
c('LINKER_OLDER_THAN_ASSEMBLER', ['[86%] Linking CXX shared library ../lib/libtorch.so',
  "/usr/bin/ld: /home/u/anaconda3/envs/b/lib/libmagma.a(error.cpp.o): unrecognized relocation (0x2a) in section `.text'",
  '/usr/bin/ld: final link failed: Bad value', 'collect2: error: ld returned 1 exit status'],
  ["Relocation section '.rela.text' at offset 0x2a8 contains 3 entries:", '  Offset          Info           Type           Sym. Value    Sym. Name + Addend'])
# 3DLUT-interpolation's tetrahedral_cuda.cpp on the GPU machine (the long-tail bench, batch 7's dev): a launch in a .cpp.
c('CUDA_KERNEL_LAUNCH_IN_CXX_SOURCE', ['/tmp/w/out/src/src/tetrahedral_cuda.cpp: In lambda function:',
  '/tmp/w/out/src/src/tetrahedral_cuda.cpp:26:41: error: expected primary-expression before \u2018<\u2019 token',
  '   26 |                                       <<<(nElements + threads - 1) / threads, threads>>>(',
  '      |                                         ^'],
  ['/tmp/src/ops.cpp:12:40: error: expected primary-expression before \u2018>\u2019 token',
   '   12 |     auto p = x.data<scalar_t>();', '   13 |     std::cout << "<<<" << n << ">>>";'])
# torchpermutohedral (the long-tail bench, batch 9's held-out after its run): -DTORCH_VERSION=20110 in an #if.
c('PACKAGE_MACRO_CLASHES_WITH_TORCH', ['/tmp/w/out/src/permutohedral.cpp:32:5: note: in expansion of macro \u2018TORCH_VERSION\u2019',
  '/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/headeronly/version.h:16: warning: "TORCH_VERSION" redefined',
  '<command-line>: note: this is the location of the previous definition',
  '/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/headeronly/version.h:17:3: error: token ""2.11.0"" is not valid in preprocessor expressions',
  '   17 |   "2.11.0"'],
  ['/tmp/w/src/version_check.h:4:5: error: token ""1.0.0"" is not valid in preprocessor expressions',
   '    4 | #if MY_VERSION >= 10000'])
# Vox-Surf on the GPU machine (the long-tail bench, batch 7's dev): setup.py globbed another layout's paths.
c('EXTENSION_WITHOUT_SOURCES', ['Emitting ninja build file /tmp/w/torchsmith-vox-surf/out/src/build/temp.linux-x86_64-cpython-312/build.ninja...',
  'Traceback (most recent call last):',
  '  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/cpp_extension.py", line 3021, in _write_ninja_file',
  '    raise AssertionError("At least one source is required to build a library")',
  'AssertionError: At least one source is required to build a library'],
  ['  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/cpp_extension.py", line 3019, in _write_ninja_file',
   '    raise AssertionError("sources and objects lists must be the same length")',
   'AssertionError: sources and objects lists must be the same length'])
# depth-from-focus's gauss_psf (the long-tail bench, batch 10's dev): setup.py lists gauss_psf_kernel.cu, the tree has gauss_psf_cuda_kernel.cu.
c('EXTENSION_SOURCE_MISSING', ['building \'gauss_psf_cuda\' extension',
  "ninja: error: '/tmp/w/torchsmith-depth-from-focus-gauss/out/src/gauss_psf_kernel.cu', needed by '/tmp/w/torchsmith-depth-from-focus-gauss/out/src/build/temp.linux-x86_64-cpython-311/gauss_psf_kernel.o', missing and no known rule to make it",
  'Traceback (most recent call last):',
  '  File "/opt/torch/.venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 2980, in _run_ninja_build',
  'subprocess.CalledProcessError: Command \'[\'ninja\', \'-v\']\' returned non-zero exit status 1.'],
  ["ninja: error: 'protobuf/testgen.grpc.pb.h', needed by 'CMakeFiles/utbot.dir/main.cpp.o', missing and no known rule to make it",
   "cc1plus: fatal error: /tmp/tmpxft_0001a2b3_00000000-6_x.cudafe1.cpp: No such file or directory",
   "/home/u/src/ops.cpp:3:10: fatal error: ops_impl.cpp: No such file or directory"])
c('BOOST_COMPONENT_NOT_INSTALLED', ['CMake Error at /usr/lib/x86_64-linux-gnu/cmake/Boost-1.83.0/BoostConfig.cmake:141 (find_package):',
  '  Could not find a package configuration file provided by', '  "boost_program_options" (requested version 1.83.0) with any of the',
  '  following names:', '', '    boost_program_optionsConfig.cmake', '    boost_program_options-config.cmake', '',
  '  Add the installation prefix of "boost_program_options" to CMAKE_PREFIX_PATH or set',
  '  "boost_program_options_DIR" to a directory containing one of the above files.',
  'Call Stack (most recent call first):', '  CMakeLists.txt:24 (find_package)'],
  ['-- Found Boost: /usr/lib/x86_64-linux-gnu/cmake/Boost-1.83.0/BoostConfig.cmake (found version "1.83.0") found components: program_options',
   '-- Found boost_program_options 1.83.0 at /usr/lib/x86_64-linux-gnu/cmake/boost_program_options-1.83.0',
   '  Could NOT find Boost (missing: Boost_INCLUDE_DIR)'])
c('SOURCE_MERGE_CONFLICT_MARKERS', [
  '  Traceback (most recent call last):',
  '    File "<string>", line 2, in <module>',
  '    File "<pip-setuptools-caller>", line 34, in <module>',
  '    File "/tmp/lt/torchsmith-dcnv2-latest/out/src/setup.py", line 24',
  '      >>>>>>> 977dfd39b3536ba20baee06d1055d2bd5a5e9593',
  '                ^',
  '  SyntaxError: invalid decimal literal'],
  ['  ======= done =======', '>>>>>>> (pretty banner)', 'Auto-merging setup.py'])
# motion-sparsity-cuda's BuildExt (the long-tail bench, batch 11's dev) as pip's setup.py build prints it.
c('SETUP_PY_REMOVES_ABSENT_COMPILER_FLAG', [
  '  File "/tmp/pip-req-build-k2x8/setup.py", line 7, in build_extensions',
  "    self.compiler.compiler_so.remove('-Wstrict-prototypes')",
  'ValueError: list.remove(x): x not in list'],
  ['    flags.remove("-O2")',
   "    self.compiler.compiler_so.remove(flag)",
   "    if '-Wstrict-prototypes' in self.compiler.compiler_so: self.compiler.compiler_so.remove('-Wstrict-prototypes')"])
# sphconv (the long-tail bench, batch 11's dev): its CMakeLists.txt sets CMAKE_CUDA_COMPILER to its author's CUDA 10.2.
c('CMAKE_CUDA_COMPILER_PATH_MISSING', ['-- The CUDA compiler identification is unknown',
  'CMake Error at CMakeLists.txt:5 (project):', '  The CMAKE_CUDA_COMPILER:', '', '    /usr/local/cuda-10.2/bin/nvcc', '',
  '  is not a full path to an existing compiler tool.', '',
  '  Tell CMake where to find the compiler by setting either the environment',
  '  variable "CUDACXX" or the CMake cache entry CMAKE_CUDA_COMPILER to the full',
  '  path to the compiler, or to the compiler name if it is in the PATH.'],
  ['CMake Error at CMakeLists.txt:2 (project):', '  The CMAKE_CXX_COMPILER:', '', '    /usr/bin/clang++', '',
   '  is not a full path to an existing compiler tool.'])
# sphconv against torch 2.15 with CMake 3.25: torch's targets ask cuda_std_20, which CMake 3.25 has no nvcc flag for.
c('CMAKE_LANGUAGE_DIALECT_FLAGS_UNKNOWN', ['-- Configuring done',
  'CMake Error in src/sphconv/CMakeLists.txt:',
  '  Target "sphconv_cuda" requires the language dialect "CUDA20" (with compiler',
  '  extensions).  But the current compiler "NVIDIA" does not support this, or',
  '  CMake does not know the flags to enable it.', '', '-- Generating done'],
  ['CMake Error in CMakeLists.txt:', "  CUDA_STANDARD is set to invalid value '2a'"])
# A setup.py whose CUDAExtension has its name commented out (the long-tail bench, batch 6's dev mlp-maps-hashencoder).
c('SETUP_PY_EXTENSION_WITHOUT_NAME', [
  '  File "/opt/torch/.venv/lib/python3.12/site-packages/setuptools/build_meta.py", line 317, in run_setup',
  '    exec(code, locals())',
  '  File "<string>", line 16, in <module>',
  "TypeError: CUDAExtension() missing 1 required positional argument: 'name'"],
  ["TypeError: CUDAExtension() missing 1 required positional argument: 'sources'",
   "TypeError: load() missing 1 required positional argument: 'name'"])
# A vendored cuFFTDx with no SM<900> (the long-tail bench, batch 3's dev safari-fftconv on an H100).
c('HEADER_LIBRARY_NO_ARCH_SPECIALIZATION', [
  '/tmp/lt/torchsmith-safari-fftconv/out/src/fftconv_cuda.cu(791): error: incomplete type "cufftdx::SM<900U>" is not allowed',
  '      using FFT = decltype(cufftdx::Block() + cufftdx::Size<N>() + cufftdx::SM<Arch>());',
  '                                                                          ^'],
  ['/tmp/src/ops.cu(12): error: incomplete type "Foo" is not allowed',
   '/tmp/src/ops.cu(40): warning: SM<900U> is experimental'])
# Cases whose whole log is the real one (a rule reads its shape: no shared noise or tail around it).
OWN = {'SETUP_PY_METADATA_FAILED'}

def phase_of(sig_id, toml_text):
    # the first phase and severity of the signature's own table (other keys and comments may come between)
    block = re.search(r'^id = "%s"\n(.*?)(?=^\[\[signature\]\]|\Z)' % re.escape(sig_id), toml_text, re.M | re.S).group(1)
    return (re.search(r'^phase = "(\w+)"', block, re.M).group(1),
            re.search(r'^severity = "(\w+)"', block, re.M).group(1))

def wrapper_example(sig_id):
    # Wrapper signatures: a log whose only lines are the wrapper; root cause comes from elsewhere.
    return {
     'GENERIC_BUILD_WRAPPER': ['RuntimeError: Error compiling objects for extension'],
     'NINJA_BUILD_STOPPED': ['ninja: build stopped: subcommand failed.'],
     'SETUPTOOLS_COMMAND_FAILED': ["error: command '/usr/bin/g++' failed with exit code 1"],
     'MAKE_ERROR_WRAPPER': ['make[2]: *** [caffe2/CMakeFiles/torch_cpu.dir/build.make:1234: caffe2/CMakeFiles/torch_cpu.dir/foo.cpp.o] Error 1'],
     'CALLED_PROCESS_ERROR': ["subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1."],
     'CMAKE_CONFIGURE_INCOMPLETE': ['-- Configuring incomplete, errors occurred!'],
     'LD_RETURNED_1': ['collect2: error: ld returned 1 exit status'],
     'PIP_METADATA_GENERATION_FAILED': ['error: metadata-generation-failed'],
    }[sig_id]

def main():
    toml_text = open(os.path.join(HERE, '..', '..', 'data', 'kb', 'signatures.toml')).read()
    ids = re.findall(r'^id = "([A-Z0-9_]+)"', toml_text, re.M)
    missing = [i for i in ids if i not in C]
    if missing: sys.exit('no case for: ' + ', '.join(missing))
    out = os.path.join(HERE, 'cases')
    os.makedirs(out, exist_ok=True)
    for i in ids:
        phase, sev = phase_of(i, toml_text)
        core, near = C[i]
        if i in OWN:
            lines = core + ['']
        elif sev == 'wrapper':
            # The wrapper must be reported only as a wrapper: the case checks it is found but not root.
            lines = NOISE['compile'] + wrapper_example(i) + ['']
        elif sev in ('warning', 'info'):
            # A warning is the root only when nothing worse follows: no wrapper tail with errors.
            lines = NOISE[phase] + core + NOISE[phase][:2] + ['']
        else:
            lines = NOISE[phase] + core + TAIL[phase] + ['']
        open(os.path.join(out, i + '.log'), 'w').write('\n'.join(lines))
        open(os.path.join(out, i + '.near.log'), 'w').write('\n'.join(NOISE[phase] + near + NOISE[phase][:3] + ['']))
    print(len(ids), 'cases')

main()

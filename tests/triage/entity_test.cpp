// The entity rules (src/triage/entity.h) on real lines, each from the thread named beside it: a
// missing header names what provides it (and the cause, when the wording reached only the generic
// reading), `No module named X` is read by phase, an arch in a Triton compile names the release
// that knows it. Near misses: names the tables must not claim.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

std::string notes_of(const Finding& f) {
  std::string s;
  for (const auto& n : f.notes) s += n + "\n";
  return s;
}

struct HeaderLine {
  const char* thread;
  const char* line;
  const char* header;   // the entry the table gives
  const char* way_out;  // what the fix must name (a package, a submodule step)
  const char* root;     // the root cause's id, "" when the signature that read it stays whatever it is
};

// One real line per entry of data/kb/headers.toml.
constexpr HeaderLine kHeaderLines[] = {
    {"open-mmlab/mmdetection#71", "/usr/include/stdc-predef.h:59:1: fatal error: cuda_runtime.h: No such file or directory",
     "cuda_runtime.h", "nvidia-cuda-runtime-cu12", "CUDA_DEV_HEADER_MISSING"},
    {"tracel-ai/cubecl#1157", "    default_program(1): catastrophic error: cannot open source file \"cuda_runtime.h\"", "cuda_runtime.h",
     "nvidia-cuda-runtime-cu12", "CUDA_DEV_HEADER_MISSING"},
    {"phvu/cuda-smi#9", "cuda-smi.cpp:4:10: fatal error: 'cuda_runtime_api.h' file not found", "cuda_runtime_api.h",
     "cuda-cudart-dev", "CUDA_DEV_HEADER_MISSING"},
    {"wilicc/gpu-burn#91", "gpu_burn-drv.cpp:62:10: fatal error: cublas_v2.h: No such file or directory", "cublas_v2.h",
     "libcublas-dev", "CUDA_DEV_HEADER_MISSING"},
    {"facebookresearch/maskrcnn-benchmark#685",
     "/usr/local/lib/python3.6/dist-packages/torch/include/ATen/cuda/CUDAContext.h:6:22: fatal error: cusparse.h: No such file or directory",
     "cusparse.h", "nvidia-cusparse-cu12", "CUDA_DEV_HEADER_MISSING"},
    {"deepspeedai/DeepSpeed#2684",
     "/opt/conda/envs/bitten/lib/python3.8/site-packages/torch/include/ATen/cuda/CUDAContext.h:10:10: fatal error: cusolverDn.h: No such file or directory",
     "cusolverDn.h", "nvidia-cusolver-cu12", "CUDA_DEV_HEADER_MISSING"},
    {"mumax/3#18", "/home/deparkes/gocode/src/github.com/barnex/cuda5/cufft/mode.go:3:19: fatal error: cufft.h: No such file or directory",
     "cufft.h", "libcufft-dev", "CUDA_DEV_HEADER_MISSING"},
    // A toolkit without NPP (CUDA 13.0 here): the include is the package's only use of NPP.
    {"owensgroup/dynamic_sparsity_pytorch@a6e7c64:cpp/masking/ampere_mask/ampere_mask_cuda.cu",
     "ampere_mask/ampere_mask_cuda.cu:6:10: fatal error: nppdefs.h: No such file or directory", "nppdefs.h", "libnpp-dev",
     "CUDA_DEV_HEADER_MISSING"},
    {"AlexeyAB/darknet#6825", "include/darknet.h:42:10: fatal error: curand.h: No such file or directory", "curand.h",
     "nvidia-curand-cu12", "CUDA_DEV_HEADER_MISSING"},
    {"ComputationalRadiationPhysics/haseongpu#20", "include/mesh.hpp:33:48: fatal error: curand_kernel.h: No such file or directory",
     "curand_kernel.h", "libcurand-dev", "CUDA_DEV_HEADER_MISSING"},
    {"NVIDIA/thrust#1723",
     "thrust/system/cuda/detail/adjacent_difference.h:44:10: fatal error: cub/device/device_adjacent_difference.cuh: No such file or directory",
     "cub/", "cuda-cccl", "CUDA_DEV_HEADER_MISSING"},
    // CUDA 13 keeps libcu++ under include/cccl: a torch extension's .cpp compiled by c++ (cutlass's header).
    {"deepseek-ai/FlashMLA#121",
     "/root/workdir/FlashMLA/csrc/cutlass/include/cutlass/fast_math.h:42:10: fatal error: cuda/std/utility: No such file or directory",
     "cuda/std/", "include/cccl", "CUDA_DEV_HEADER_MISSING"},
    {"AlexeyAB/darknet#5141", "include/darknet.h:46:10: fatal error: cudnn.h: No such file or directory", "cudnn.h",
     "nvidia-cudnn-cu12", "CUDNN_NOT_FOUND"},
    {"MegviiRobot/MegBA#15", "/home/pengshuxue/Downloads/MegBA/include/resource/handle_manager.h:11:10: fatal error: nccl.h: No such file or directory",
     "nccl.h", "libnccl-dev", "NCCL_NOT_FOUND"},
    {"pytorch/pytorch#18387",
     "/home/xswang/workspace/FPM_init/libtorch/include/torch/csrc/python_headers.h:9:10: fatal error: Python.h: No such file or directory",
     "Python.h", "python3-dev", "PYTHON_H_MISSING"},
    {"alexdobin/STAR#923", "IncludeDefine.h:24:10: fatal error: omp.h: No such file or directory", "omp.h", "libomp-dev", ""},
    {"theimpostor/termux-vim-ycm#1", "python 3.6m/Python.h:39:10: fatal error: 'crypt.h' file not found", "crypt.h",
     "libcrypt-dev", ""},
    {"protocolbuffers/protobuf#5365", "DATA_PACKET.pb.h:10:10: fatal error: google/protobuf/port_def.inc: No such file or directory",
     "google/protobuf/", "libprotobuf-dev", ""},
    {"fph/bastet#26", "BlockPosition.cpp:23:10: fatal error: boost/foreach.hpp: No such file or directory", "boost/",
     "libboost-dev", ""},
    {"opencv/opencv#14868",
     "/home/chowkidar/projects/opencv/modules/core/include/opencv2/core/private.hpp:66:12: fatal error: Eigen/Core: No such file or directory",
     "Eigen/", "libeigen3-dev", ""},
    {"DEShawResearch/msys#8", "python/pymod.hxx:1:10: fatal error: pybind11/pybind11.h: No such file or directory",
     "pybind11/", "pip install pybind11", ""},
    {"ExpressionAnalysis/ea-utils#38", "fastq-mcf.cpp:29:81: fatal error: sparsehash/sparse_hash_map: No such file or directory",
     "sparsehash/", "libsparsehash-dev", ""},
    {"mit-han-lab/torchsparse#359",
     "torchsparse/backend/hashmap/hashmap_cpu.hpp:7:10: fatal error: google/dense_hash_map: No such file or directory",
     "google/dense_hash_map", "libsparsehash-dev", ""},
    {"BirolLab/arks#9", "Arks.h:30:35: fatal error: google/sparse_hash_map: No such file or directory", "google/sparse_hash_map",
     "libsparsehash-dev", ""},
    {"pierfied/shocc@984e111 (the corpus bench's GPU run)",
     "src/standard_transforms.cu:5:10: fatal error: healpix_cxx/healpix_base.h: No such file or directory", "healpix_cxx/",
     "libhealpix-cxx-dev", ""},
    {"spdk/spdk#178", "bdev_aio.h:39:20: fatal error: libaio.h: No such file or directory", "libaio.h", "libaio-dev", ""},
    {"sicxu/Deep3DFaceRecon_pytorch#55",
     "/anaconda3/envs/deep3d_pytorch/lib/python3.6/site-packages/nvdiffrast/torch/../common/glutil.h:36:10: fatal error: EGL/egl.h: No such file or directory",
     "EGL/", "libegl-dev", ""},
    {"NVlabs/instant-ngp#1024",
     "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_gl_interop.h:66:10: fatal error: GL/gl.h: No such file or directory",
     "GL/gl.h", "libgl-dev", ""},
    {"gpertea/stringtie#274", "./samtools-0.1.18/bgzf.h:29:10: fatal error: zlib.h: No such file or directory", "zlib.h",
     "zlib1g-dev", ""},
    {"CogRob/gcloud_speech#21",
     "/home/user/catkin_ws/src/gcloud_speech/gcloud_speech_utils/src/workspace/third_party/glog.h:30:26: fatal error: glog/logging.h: No such file or directory",
     "glog/", "libgoogle-glog-dev", ""},
    {"OAID/Tengine#126", "conv_2d_blas.cpp:35:19: fatal error: cblas.h: No such file or directory", "cblas.h", "libopenblas-dev", ""},
    {"XingangPan/seg_label_generate#23", "include/lane/util.hpp:4:10: fatal error: opencv2/core/core.hpp: No such file or directory",
     "opencv2/", "libopencv-dev", ""},
    {"pytorch/extension-cpp#22", "test.cpp:3:10: fatal error: torch/torch.h: No such file or directory", "torch/", "pip install torch",
     "TORCH_EXTENSION_H_MISSING"},
    {"aim-uofa/AdelaiDet#550", "AdelaiDet/adet/layers/csrc/ml_nms/ml_nms.cu:4:10: fatal error: THC/THC.h: No such file or directory",
     "THC/", "the source has to change", "THC_HEADERS_REMOVED"},
    // This project's GPU run of ShiftAddNAS' adder kernel (batch 10's dev, nvcc 13.0): THCUNN, gone with THC.
    {"ShiftAddNAS CV/retraining_hybrid/boss_candidates/adder/adder_cuda_kernel.cu",
     "/tmp/lt-b10dev/torchsmith-shiftaddnas-adder/out/src/adder_cuda_kernel.cu:5:10: fatal error: THCUNN/SharedMem.cuh: No such file or directory",
     "THCUNN/", "the source has to change", "THC_HEADERS_REMOVED"},
    // This project's GPU run of NVIDIA/retinanet-examples' csrc (nvcc 13.0): a header CCCL 3.0 removed.
    {"NVIDIA/retinanet-examples csrc/cuda/decode.cu",
     "/tmp/x/out/src/csrc/cuda/decode_rotate.cu:37:10: fatal error: cub/iterator/counting_input_iterator.cuh: No such file or directory",
     "cub/iterator/counting_input_iterator.cuh", "the source has to change", "CCCL_ITERATOR_REMOVED"},
    {"bytedance/ByteTransformer#6",
     "/root/ByteTransformer/bytetransformer/include/gemm_bias_act.h:23:10: fatal error: cutlass/cutlass.h: No such file or directory",
     "cutlass/", "git submodule update --init --recursive", "SUBMODULES_MISSING"},
    {"NVIDIA/FasterTransformer#496", "mixed_gemm_B_layout.h:12:10: fatal error: cutlass/layout/matrix.h: No such file or directory",
     "cutlass/", "git submodule update --init --recursive", "SUBMODULES_MISSING"},
    {"Dao-AILab/flash-attention#331", "csrc/flash_attn/src/flash_bwd_kernel.h:7:10: fatal error: cute/algorithm/copy.hpp: No such file or directory",
     "cute/", "git submodule update --init --recursive", "SUBMODULES_MISSING"},
    {"NVIDIA/cuda-samples#15",
     "/opt/libfreenect2/src/cuda_kde_depth_packet_processor.cu:39:25: fatal error: helper_math.h: No such file or directory",
     "helper_math.h", "NVIDIA/cuda-samples", "CUDA_SAMPLES_HEADER_MISSING"},
    {"cgtuebingen/Flex-Convolution#7",
     "HOME/Flex-Convolution/user_ops/kernels/knn_bruteforce_kernel_gpu.cu.cc:25:25: fatal error: helper_cuda.h: No such file or directory",
     "helper_cuda.h", "NVIDIA/cuda-samples", "CUDA_SAMPLES_HEADER_MISSING"},
    {"PacktPublishing/Learn-CUDA-Programming#2", "sgemm.cu:6:10: fatal error: helper_functions.h: No such file or directory",
     "helper_functions.h", "Common/", "CUDA_SAMPLES_HEADER_MISSING"},
    // GPU libraries neither CUDA nor torch installs: MAGMA (this project's GPU run of kilonerf's cuda
    // extension, nvcc 13.0; clang's wording in pytorch/pytorch#51332) and TensorRT (odtk's engine.h).
    {"creiser/kilonerf cuda/multimatmul.cu",
     "/tmp/x/out/src/multimatmul.cu:16:10: fatal error: magma_v2.h: No such file or directory", "magma_v2.h",
     "conda install -c conda-forge libmagma", "GPU_LIBRARY_HEADER_MISSING"},
    {"pytorch/pytorch#51332", "THCTensorMathMagma.cu:9:10: fatal error: 'magma_v2.h' file not found", "magma_v2.h",
     "libmagma", "GPU_LIBRARY_HEADER_MISSING"},
    {"dusty-nv/jetson-inference#281",
     "/home/jacob/jetson-inference/tensorNet.h:27:21: fatal error: NvInfer.h: No such file or directory", "NvInfer.h",
     "apt-get install libnvinfer-dev", "GPU_LIBRARY_HEADER_MISSING"},
    {"NVIDIA/retinanet-examples csrc/engine.h",
     "/tmp/x/out/src/csrc/engine.h:29:10: fatal error: NvInfer.h: No such file or directory", "NvInfer.h",
     "apt-get install libnvinfer-dev", "GPU_LIBRARY_HEADER_MISSING"},
    {"sair-lab/AirSLAM#47",
     "/home/kkk/workspace/llll/Thirdparty/TensorRTBuffer/include/logging.h:20:10: fatal error: NvInferRuntime.h: No such file or directory",
     "NvInferRuntime.h", "libnvinfer-dev", "GPU_LIBRARY_HEADER_MISSING"},
    {"city-super/Octree-AnyGS#34", "fatal error C1083: Cannot open include file: \"glm/glm.hpp\": No such file or directory", "glm/",
     "git submodule update --init --recursive", "SUBMODULES_MISSING"},
};

TEST(Entity, EveryHeaderEntryNamesItsProviderOnARealLine) {
  for (const auto& h : kHeaderLines) {
    SCOPED_TRACE(std::string(h.thread) + ": " + h.line);
    Diagnosis d = diagnose(h.line);
    ASSERT_TRUE(d.root());
    const Finding& f = *d.root();
    EXPECT_NE(notes_of(f).find("is provided by"), std::string::npos) << notes_of(f);
    EXPECT_NE(f.fix.find(h.way_out), std::string::npos) << f.fix;
    if (*h.root) EXPECT_EQ(f.id, h.root);
    else EXPECT_NE(f.sig, nullptr) << "a missing header is a known class, not unrecognised";
    const HeaderEntry* e = engine().set().entities.find_header(
        [&] { for (const auto& en : entities_of(h.line)) if (en.kind == "header") return en.value; return std::string(); }());
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->header, h.header);
  }
}

TEST(Entity, EveryHeaderEntryHasARealLine) {
  // An entry without a line above is a claim no test reads.
  for (const auto& e : engine().set().entities.headers) {
    bool tested = false;
    for (const auto& h : kHeaderLines) tested |= e.header == h.header;
    EXPECT_TRUE(tested) << e.header << " (" << e.file << ":" << e.line << ") has no real-line test";
  }
}

TEST(Entity, HeaderNearMissesAreNotClaimed) {
  // Other headers that share a prefix, a stem or a folder with an entry: no entry may answer for them.
  for (const char* line : {
           "/usr/local/cuda/include/cudnn.h:60:10: fatal error: cudnn_version.h: No such file or directory",  // pjreddie/darknet#2356
           "libs/sdl/gl.c:32:17: fatal error: GL/glu.h: No such file or directory",        // HaxeFoundation/hashlink#791
           "zlib.h:34:10: fatal error: zconf.h: No such file or directory",                // lijuzeng/dna2bit#1
           "src/filter.cu:3:10: fatal error: nppdefs_ext.h: No such file or directory",    // a package's own npp-named header
           "src/match_fault.cpp:16:26: fatal error: cryptopp/hex.h: No such file or directory",  // oxagast/ansvif#2
           "/home/lixing/src/FREN/instant-ngp/dependencies/eigen/Eigen/Dense:1:10: fatal error: Core: No such file or directory",  // NVlabs/instant-ngp#691
           "../src/HostDeviceCommon/Math.h(11): catastrophic error: cannot open source file \"hip/hip_runtime.h\"",  // TomClabault/HIPRT-Path-Tracer#13
           "fatal error: cuda/include/cuda.h: No such file or directory",  // HiKapok/PSROIAlign#3: a cuda/ that is not libcu++
           "src/sht.c:2:10: fatal error: chealpix.h: No such file or directory",  // HEALPix's C library, not healpix_cxx/
           // a helper_ stem that is not one of the CUDA samples' Common/ headers
           "src/helper.cu:3:10: fatal error: helper_math_functions.hpp: No such file or directory",
       }) {
    SCOPED_TRACE(line);
    Diagnosis d = diagnose(line);
    ASSERT_TRUE(d.root());
    EXPECT_EQ(notes_of(*d.root()).find("is provided by"), std::string::npos) << notes_of(*d.root());
  }
}

TEST(Entity, HeaderInMsvcsLocalizedWordingReachesItsCause) {
  // CMU-Perceptual-Computing-Lab/openpose#50: MSVC's C1083 with the header in typographic quotes.
  Diagnosis d = diagnose("fatal error C1083: Cannot open file included: \xe2\x80\x9c" "cudnn.h\xe2\x80\x9d: No such file or directory");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CUDNN_NOT_FOUND") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("nvidia-cudnn-cu12"), std::string::npos);
}

TEST(Entity, ASystemLibrarysHeaderInAnyWordingIsItsDevelopmentPackage) {
  // znort987/blockparser#42 (batch 24's development part): GCC's missing-header line with the C library's text in
  // other words ("File or directory not found."): the header is the table's, a system library's, so the cause is
  // its development package not installed, whatever the text after the name.
  Diagnosis d = diagnose(
      "In file included from cb/dumpTX.cpp:4:0:\n"
      "./util.h:215:45: fatal error: google/dense_hash_map: File or directory not found.\n"
      "             #include <google/dense_hash_map>\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "MISSING_HEADER_GENERIC") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("libsparsehash-dev"), std::string::npos) << d.root()->fix;
  // Near miss (BirolLab/abyss#225): an error inside the library's own header is no header missing.
  Diagnosis n = diagnose(
      "/apps/gentoo/usr/include/sparsehash/sparse_hash_map:240:67: error: request for member 'find' in "
      "'((const google::sparse_hash_map<Key, T, HashFcn>*)this)->google::sparse_hash_map<Key, T, HashFcn>::rep', which is of "
      "non-class type 'const ht {aka const int}'\n");
  if (n.root()) EXPECT_NE(n.root()->id, "MISSING_HEADER_GENERIC") << findings_text(n);
}

TEST(Entity, TorchsPlaceholderCudaClassIsATorchWithoutCuda) {
  // ImprintLab/MedSegDiff#101 (batch 24's development part): torch.cuda.Event on a torch built without CUDA.
  Diagnosis d = diagnose(
      "    start = th.cuda.Event(enable_timing=True)\n"
      "  File \"D:\\Program Files\\Anaconda\\envs\\py39\\lib\\site-packages\\torch\\cuda\\streams.py\", line 164, in __new__\n"
      "    return super(Event, cls).__new__(\n"
      "  File \"D:\\Program Files\\Anaconda\\envs\\py39\\lib\\site-packages\\torch\\cuda\\_utils.py\", line 46, in err_fn\n"
      "    raise RuntimeError(\n"
      "RuntimeError: Tried to instantiate dummy base class Event\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TORCH_NOT_COMPILED_WITH_CUDA") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("_dummy_type"), std::string::npos) << notes_of(*d.root());
  // Near miss (vllm-project/vllm-ascend#514): the same placeholder where no frame or class names CUDA (an NPU
  // build's torch._C): the backend is not read, so the cause is not claimed.
  Diagnosis n = diagnose(
      "ERROR 04-24 06:30:52 [core.py:390]   File \"/root/miniconda3/envs/test/lib/python3.10/site-packages/torch/_utils.py\", line 923, in err_fn\n"
      "ERROR 04-24 06:30:52 [core.py:390] RuntimeError: Tried to instantiate dummy base class _graph_pool_handle\n");
  if (n.root()) EXPECT_NE(n.root()->id, "TORCH_NOT_COMPILED_WITH_CUDA") << findings_text(n);
}

TEST(Entity, ALibraryTheLinkerCannotFindIsReadFromTheLibraryTable) {
  // davheld/GOTURN#27 (batch 24's development part): OpenCV's placeholder for the CUDA runtime on the link line.
  Diagnosis d = diagnose(
      "[ 77%] Linking CXX executable train\n"
      "/usr/bin/ld: cannot find -lopencv_dep_cudart\n"
      "collect2: error: ld returned 1 exit status\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CUDA_LINK_LIB_NOT_FOUND") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("CUDA_USE_STATIC_CUDA_RUNTIME=OFF"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("was not found by the linker"), std::string::npos) << notes_of(*d.root());
  // Near misses: a library no entry names (hlzz/libvot's OpenCV without CUDA has none: a made-up name is not
  // claimed), and the loader missing the CUDA runtime at run time (tonyyxliu/CUHKSZ-CSC4005#69), another phase.
  Diagnosis other = diagnose("/usr/bin/ld: cannot find -lopencv_dep_ippicv\ncollect2: error: ld returned 1 exit status\n");
  if (other.root()) EXPECT_EQ(notes_of(*other.root()).find("was not found by the linker"), std::string::npos) << findings_text(other);
  Diagnosis run = diagnose(
      "error while loading shared libraries: libcudart,so.11.0: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(run.root());
  EXPECT_EQ(run.root()->id, "SHARED_OBJECT_NOT_LOADABLE") << findings_text(run);
}

TEST(Entity, TorchMissingWhileAPackageBuildsIsBuildIsolation) {
  // pdm-project/pdm#2202: the PEP 517 hook's frames, then the module missing in the build environment.
  const char* log =
      "  File \"/home/michael/.local/share/pdm/venv/lib/python3.10/site-packages/pyproject_hooks/_impl.py\", line 166, in get_requires_for_build_wheel\n"
      "    return self._call_hook('get_requires_for_build_wheel', {\n"
      "  File \"/tmp/pdm-build-env-he4lxk8v-shared/lib/python3.10/site-packages/setuptools/build_meta.py\", line 341, in run_setup\n"
      "    exec(code, locals())\n"
      "  File \"<string>\", line 9, in <module>\n"
      "ModuleNotFoundError: No module named 'torch'\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "BUILD_ENV_TORCH_MISSING");
  EXPECT_NE(notes_of(*d.root()).find("missing while a package is built"), std::string::npos) << notes_of(*d.root());
  EXPECT_NE(d.root()->fix.find("--no-build-isolation"), std::string::npos);
}

TEST(Entity, UvsHintAfterTheErrorDatesItToTheBuild) {
  // whynlp/lckv#17 (uv): the build step is named only after the error, in uv's hint.
  const char* log =
      "ModuleNotFoundError: No module named 'torch'\n"
      "\n"
      "hint: This error likely indicates that `flash-attn@2.8.1` depends on `torch`, but doesn't declare it as a build dependency. "
      "If `flash-attn` is a first-party package, consider\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "BUILD_ENV_TORCH_MISSING");
  EXPECT_NE(notes_of(*d.root()).find("build step at line 3"), std::string::npos) << notes_of(*d.root());
}

// A package's own message naming the missing module, inside the build tool's report and word-wrapped at its
// width: uv's box under "x Failed to build" (astral-sh/uv#15098, auto-gptq's setup.py checking for torch).
// Near miss: the same words under a program's runtime failure (no build tool's verdict) are no build's.
TEST(Entity, AModuleNamedInABuildToolsWrappedReportIsTheBuildsMissingModule) {
  const char* log =
      "uv pip install --upgrade auto_gptq\n"
      "Resolved 66 packages in 1.25s\n"
      "  \xc3\x97 Failed to build `auto-gptq==0.7.1`\n"
      "  \xe2\x94\x9c\xe2\x94\x80\xe2\x96\xb6 The build backend returned an error\n"
      "  \xe2\x95\xb0\xe2\x94\x80\xe2\x96\xb6 Call to `setuptools.build_meta:__legacy__.build_wheel` failed (exit status: 1)\n"
      "\n"
      "      [stdout]\n"
      "      Building cuda extension requires PyTorch (>=1.13.0) being installed, please install PyTorch first: No\n"
      "      module named 'torch'\n"
      "\n"
      "      hint: This usually indicates a problem with the package or the build environment.\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "BUILD_ENV_TORCH_MISSING") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("missing while a package is built (line 7"), std::string::npos) << notes_of(*d.root());
  EXPECT_NE(d.root()->fix.find("--no-build-isolation"), std::string::npos);
  Diagnosis runtime = diagnose(
      "RuntimeError: model server exited\n"
      "      [stdout]\n"
      "      the optional backend is disabled: No\n"
      "      module named 'torch'\n");
  ASSERT_TRUE(runtime.root());
  EXPECT_NE(runtime.root()->id, "BUILD_ENV_TORCH_MISSING") << findings_text(runtime);
}

TEST(Entity, TorchMissingAtImportIsNotBuildIsolation) {
  // RootKit-Org/AI-Aimbot#67: a program's import, no build anywhere; the fix is installing torch in
  // the interpreter that runs it (patrickloeber/pytorch-chatbot#7: "make sure ... the correct environment").
  const char* log =
      "C:\\AI\\AI-Aimbot-main>python main.py\n"
      "Traceback (most recent call last):\n"
      "  File \"C:\\AI\\AI-Aimbot-main\\main.py\", line 2, in <module>\n"
      "    import torch\n"
      "ModuleNotFoundError: No module named 'torch'\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_NE(d.root()->cause.find("not installed in the Python that ran this"), std::string::npos) << d.root()->cause;
  EXPECT_EQ(d.root()->fix.find("--no-build-isolation"), std::string::npos) << d.root()->fix;
  EXPECT_NE(d.root()->fix.find("python -m pip install torch"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("missing at import"), std::string::npos);
}

TEST(Entity, ModuleMissingWithoutFramesOrBuildStepKeepsTheSignaturesReading) {
  // whynlp/lckv#17 without uv's hint: nothing dates the line, so the signature's reading stands unchanged.
  Diagnosis d = diagnose("ModuleNotFoundError: No module named 'torch'\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "BUILD_ENV_TORCH_MISSING");
  EXPECT_EQ(notes_of(*d.root()).find("module torch"), std::string::npos) << notes_of(*d.root());
}

TEST(Entity, NumpyMissingWhileAPackageBuildsIsABuildRequirement) {
  // airinnova/ambiance#16: setup.py imports numpy in pip's isolated build environment.
  const char* log =
      "  Getting requirements to build wheel ... error\n"
      "  error: subprocess-exited-with-error\n"
      "\n"
      "  \xc3\x97 Getting requirements to build wheel did not run successfully.\n"
      "  \xe2\x94\x82 exit code: 1\n"
      "  \xe2\x95\xb0\xe2\x94\x80> [35 lines of output]\n"
      "      Traceback (most recent call last):\n"
      "        File \"<string>\", line 26, in <module>\n"
      "      ModuleNotFoundError: No module named 'numpy'\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "PYTHON_BUILD_DEPS_MISSING") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("install numpy"), std::string::npos) << d.root()->fix;
}

TEST(Entity, ModuleNearMissesAreNotReadByPhase) {
  // pytorch/pytorch#3389-style source-tree import of torch._C, and a module the table does not hold.
  Diagnosis c = diagnose("ModuleNotFoundError: No module named 'torch._C'\n");
  ASSERT_TRUE(c.root());
  EXPECT_EQ(c.root()->id, "TORCH_C_LOADED_FROM_SOURCE_TREE");
  EXPECT_TRUE(c.root()->notes.empty() || notes_of(*c.root()).find("module torch") == std::string::npos);
}

TEST(Entity, ANameTheTableSaysWasRemovedNamesTheRelease) {
  // GaParmar/img2img-turbo#97 (fixed by huggingface_hub==0.24.7): diffusers imports what 0.26.0 removed.
  Diagnosis d = diagnose("ImportError: cannot import name 'cached_download' from 'huggingface_hub'\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "PY_DEP_API_REMOVED") << findings_text(d);
  EXPECT_NE(d.root()->cause.find("removed from huggingface_hub in 0.26.0"), std::string::npos) << d.root()->cause;
  EXPECT_NE(d.root()->fix.find("hf_hub_download"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("modules.toml"), std::string::npos) << notes_of(*d.root());
  // real-stanford/diffusion_policy#167: the same error as the repr hydra prints.
  Diagnosis h = diagnose(
      "[2026-08-20 20:11:26,158][hydra.utils][ERROR] - Error initializing class at diffusion_policy.workspace.train_diffusion_unet_hybrid_workspace.TrainDiffusionUnetHybridWorkspace: Error loading "
      "'diffusion_policy.workspace.train_diffusion_unet_hybrid_workspace.TrainDiffusionUnetHybridWorkspace':\n"
      "ImportError(\"cannot import name 'cached_download' from 'huggingface_hub' (/opt/data/private/yzx/anaconda3/envs/robodiff/lib/python3.9/site-packages/huggingface_hub/__init__.py)\")\n");
  ASSERT_TRUE(h.root());
  EXPECT_EQ(h.root()->id, "PY_DEP_API_REMOVED") << findings_text(h);
}

TEST(Entity, ANameTheTableDoesNotHoldKeepsTheGenericReading) {
  // Near misses: a name no removal lists (the generic reading, no release), a circular import
  // (Python says so; not a dependency's release), and the line where the import failed over to another.
  Diagnosis d = diagnose("ImportError: cannot import name 'sageattn_qk_int8_pv_fp16_triton' from 'sageattention'\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "PY_DEP_API_REMOVED");
  EXPECT_EQ(d.root()->cause.find("was removed"), std::string::npos) << d.root()->cause;
  Diagnosis c = diagnose("ImportError: cannot import name 'Mapping' from partially initialized module 'mypkg' (most likely due to a circular import)\n");
  EXPECT_TRUE(!c.root() || c.root()->id != "PY_DEP_API_REMOVED");
  // Alone and not the failure (a probe for an optional name), it is a warning, not the root cause.
  Diagnosis w = diagnose("Warning: cannot import name 'cached_download' from 'huggingface_hub', falling back to hf_hub_download\nDone.\n");
  EXPECT_FALSE(w.failed()) << findings_text(w);
}

TEST(Entity, ACudaLibraryTorchsOwnPreloadCannotOpenIsItsWheelDependency) {
  // pytorch/pytorch#131284 (bazel puts each wheel in its own site-packages): torch's _load_global_deps
  // cannot open libcudart.so.12 from nvidia-cuda-runtime-cu12.
  const char* log =
      "File /scratch/x/execroot/barrel/bazel-out/k8-opt/bin/tools/ipython3.runfiles/pip-core_torch/site-packages/torch/__init__.py:176, in _load_global_deps()\n"
      "    175 try:\n"
      "--> 176     ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)\n"
      "    177 except OSError as err:\n"
      "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TORCH_NVIDIA_WHEELS_SITE_DIR_SPLIT") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("_load_global_deps"), std::string::npos) << notes_of(*d.root());
  // Near miss: an extension's own libcudart (iSEE-Laboratory/LLMDet#32 style), no torch preload: the CUDA-major reading stays.
  Diagnosis e = diagnose(
      "  File \"/x/mmcv/utils/ext_loader.py\", line 13, in load_ext\n"
      "    ext = importlib.import_module('mmcv.' + name)\n"
      "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(e.root());
  EXPECT_EQ(e.root()->id, "EXT_CUDA_RUNTIME_MAJOR_MISMATCH") << findings_text(e);
}

TEST(Entity, UvFindingNoVersionWithASecondIndexIsItsFirstIndexStrategy) {
  // astral-sh/uv#10604: --extra-index-url https://pypi.nvidia.com has nvidia-cudnn-cu12 but not 9.1.0.70.
  const char* log =
      "$ uv pip install torch==2.4.1 --extra-index-url https://pypi.nvidia.com --verbose\n"
      "  \xc3\x97 No solution found when resolving dependencies:\n"
      "  \xe2\x95\xb0\xe2\x94\x80\xe2\x96\xb6 Because there is no version of nvidia-cudnn-cu12{platform_machine == 'x86_64' and sys_platform == 'linux'}==9.1.0.70 "
      "and torch==2.4.1 depends on nvidia-cudnn-cu12{platform_machine == 'x86_64' and sys_platform ==\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "UV_INDEX_STRATEGY_FIRST_INDEX") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("second index on its command line (line 1)"), std::string::npos) << notes_of(*d.root());
  // Near misses: one index only (--index-url replaces PyPI; astral-sh/uv#1497), and pip with an extra index.
  Diagnosis one = diagnose(
      "$ uv pip install torch==2.1.1 --index-url https://download.pytorch.org/whl/cpu\n"
      "  x No solution found when resolving dependencies:\n"
      "  `-> Because there is no version of torch==2.1.1 and you require torch==2.1.1, we can conclude that the requirements are unsatisfiable.\n");
  ASSERT_TRUE(one.root());
  EXPECT_NE(one.root()->id, "UV_INDEX_STRATEGY_FIRST_INDEX") << findings_text(one);
  Diagnosis pip = diagnose(
      "$ pip install torch==2.4.1 --extra-index-url https://pypi.nvidia.com\n"
      "ERROR: No matching distribution found for nvidia-cudnn-cu12==9.1.0.70\n");
  ASSERT_TRUE(pip.root());
  EXPECT_NE(pip.root()->id, "UV_INDEX_STRATEGY_FIRST_INDEX") << findings_text(pip);
}

TEST(Entity, ArchRefusedInsideATritonCompileIsTritonsArch) {
  // mlcommons/training#826: Triton's own wrapper around its bundled ptxas' refusal of sm_100.
  const char* log =
      "[rank6]:     raise RuntimeError(f'Internal Triton PTX codegen error: \\n{log}')\n"
      "[rank6]: RuntimeError: Internal Triton PTX codegen error:\n"
      "\n"
      "[rank6]: ptxas fatal   : Value 'sm_100' is not defined for option 'gpu-name'\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_ARCH_UNSUPPORTED") << findings_text(d);
  EXPECT_NE(d.root()->fix.find(">= 3.3.0"), std::string::npos) << d.root()->fix;
}

TEST(Entity, NewerBlackwellArchNamesTheReleaseThatKnowsIt) {
  // triton-lang/triton#8539: sm_121a on DGX Spark with Triton 3.5; triton-lang/triton#10331: 3.6.0 first assembles it.
  const char* log =
      "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n"
      "`ptxas` stderr:\n"
      "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n"
      "\n"
      "Repro command: /home/xxxx/miniforge3/envs/pt10/lib/python3.10/site-packages/triton/backends/nvidia/bin/ptxas -lineinfo -v --gpu-name=sm_121a /tmp/tmpkw7ug6t8.ptx -o /tmp/tmpkw7ug6t8.ptx.o\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_ARCH_UNSUPPORTED") << findings_text(d);
  EXPECT_NE(d.root()->fix.find(">= 3.6.0"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("triton.toml"), std::string::npos);
}

TEST(Entity, LlvmsUnknownProcessorIsTritonsArch) {
  // triton-lang/triton#5950: Triton 3.2's LLVM on an RTX 5080; 3.3.0 fixed it.
  Diagnosis d = diagnose("'sm_120' is not a recognized processor for this target (ignoring processor)\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_ARCH_UNSUPPORTED");
}

TEST(Entity, PtxasRefusalOutsideTritonStaysNvccs) {
  // ModelTC/LightLLM#176 quotes only the ptxas line: nothing says Triton ran it, so it stays nvcc's reading.
  Diagnosis d = diagnose("ptxas fatal : Value 'sm_89' is not defined for option 'gpu-name'\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "NVCC_UNSUPPORTED_GPU_ARCH");
}

// ptxas refusing an instruction for the GPU inside a Triton compile (triton-lang/triton#496: Colab's K80, #542: a
// Pascal TITAN X under pytest): the arch it needs is no newer than Triton's floor (triton.toml's [minimum]), so the
// GPU is below what Triton compiles for. Near misses: the same refusal in an nvcc compile (no Triton named) is
// not Triton's floor, and a feature of an arch above the floor (a kernel for a newer GPU) is another cause.
TEST(Entity, PtxasRefusingAnInstructionBelowTritonsFloorIsAGpuTooOld) {
  Diagnosis d = diagnose(
      "RuntimeError: Internal Triton PTX codegen error: \n"
      "ptxas /tmp/fileot19Lw, line 38; error   : Feature 'scopes on atomic operations' requires .target sm_60 or higher\n"
      "ptxas /tmp/fileot19Lw, line 93; error   : Feature 'scopes on atomic operations' requires .target sm_60 or higher\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_GPU_TOO_OLD") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("needs sm_60"), std::string::npos) << notes_of(*d.root());
  EXPECT_NE(notes_of(*d.root()).find("triton.toml"), std::string::npos);
  Diagnosis pytest = diagnose(
      "E       RuntimeError: Internal Triton PTX codegen error: \n"
      "E       ptxas /tmp/fileeECWP1, line 297; error   : Feature 'mma' requires .target sm_70 or higher\n"
      "E       ptxas /tmp/fileeECWP1, line 297; error   : Feature '.m8n8k4' requires .target sm_70 or higher\n");
  ASSERT_TRUE(pytest.root());
  EXPECT_EQ(pytest.root()->id, "TRITON_GPU_TOO_OLD") << findings_text(pytest);
  Diagnosis nvcc = diagnose(
      "ptxas /tmp/tmpxft_00002a1b_00000000-6_kernel.ptx, line 120; error   : Feature '.bf16' requires .target sm_80 or higher\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n");
  ASSERT_TRUE(nvcc.root());
  EXPECT_NE(nvcc.root()->id, "TRITON_GPU_TOO_OLD") << findings_text(nvcc);
  Diagnosis newer = diagnose(
      "RuntimeError: Internal Triton PTX codegen error: \n"
      "ptxas /tmp/tmpa1b2c3.ptx, line 210; error   : Feature '.bf16' requires .target sm_80 or higher\n");
  ASSERT_TRUE(newer.root());
  EXPECT_NE(newer.root()->id, "TRITON_GPU_TOO_OLD") << findings_text(newer);
}

// An FP8 type Triton refused names the capability it needs (data/kb/triton.toml's [[fp8]]).
TEST(Entity, TritonsRefusedFp8TypeNamesTheCapabilityItNeeds) {
  // kvcache-ai/ktransformers#1930: an FP8 MoE kernel on an RTX 3090 (sm_86).
  Diagnosis d = diagnose(
      "triton.compiler.errors.CompilationError: at 1:0:\n"
      "def fused_moe_kernel(\n"
      "^\n"
      "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_FP8_ARCH_UNSUPPORTED") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("8.9 or newer"), std::string::npos) << d.root()->fix;
  EXPECT_NE(d.root()->cause.find("float8_e4m3fn"), std::string::npos) << d.root()->cause;
  EXPECT_NE(notes_of(*d.root()).find("triton.toml"), std::string::npos);
  // triton-lang/triton#4319 quotes the assertion of earlier releases: the same type, the same capability.
  Diagnosis old = diagnose("AssertionError: fp8e4nv data type is not supported on CUDA arch < 89\n");
  ASSERT_TRUE(old.root());
  EXPECT_EQ(old.root()->id, "TRITON_FP8_ARCH_UNSUPPORTED") << findings_text(old);
  EXPECT_NE(old.root()->fix.find("8.9 or newer"), std::string::npos);
  // A type the table does not have keeps the signature's words, with no capability made up.
  Diagnosis other = diagnose("ValueError(\"type fp8e5b16 not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e4nv', 'fp8e5')\")\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "TRITON_FP8_ARCH_UNSUPPORTED");
  EXPECT_EQ(other.root()->fix.find("compute capability"), std::string::npos) << other.root()->fix;
}

// A compiler built on LLVM/MLIR that failed without words of cause: who crashed is read from the log's
// structure (the failure line's grammar, the frame above it, a crash report naming its program).
TEST(Entity, AnEmbeddedLlvmOrMlirCrashIsTritonsCompiler) {
  // microsoft/TRELLIS.2#89: Triton's TritonGPU backend on a V100, the whole excerpt.
  Diagnosis fatal = diagnose("LLVM ERROR: Failed to compute parent layout for slice layout.\n");
  ASSERT_TRUE(fatal.root());
  EXPECT_EQ(fatal.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(fatal);
  EXPECT_NE(notes_of(*fatal.root()).find("LLVM fatal error"), std::string::npos);
  // state-spaces/mamba#565: an assertion in Triton's MLIR analysis, in the python process.
  Diagnosis assertion = diagnose(
      "python: /project/lib/Analysis/Allocation.cpp:40: std::pair<llvm::SmallVector<unsigned int>, llvm::SmallVector<unsigned int> > "
      "mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute): Assertion `!(srcMmaLayout && dstMmaLayout) && \"Unexpected mma -> mma "
      "layout conversion\"' failed.\n"
      "Aborted (core dumped)\n");
  ASSERT_TRUE(assertion.root());
  EXPECT_EQ(assertion.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(assertion);
  // state-spaces/mamba#516: std::out_of_range through pybind11, straight under make_llir's pass manager.
  Diagnosis stage = diagnose(
      "  File \"/home/thientan/anaconda3/lib/python3.12/site-packages/triton/backends/nvidia/compiler.py\", line 228, in make_llir\n"
      "    pm.run(mod)\n"
      "IndexError: map::at\n");
  ASSERT_TRUE(stage.root());
  EXPECT_EQ(stage.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(stage);
  // lllyasviel/FramePack#350: Triton's binding says its pass manager failed (the signature's own pattern).
  Diagnosis pm = diagnose("RuntimeError: PassManager::run failed\n");
  ASSERT_TRUE(pm.root());
  EXPECT_EQ(pm.root()->id, "TRITON_COMPILER_INTERNAL_ERROR");
}

// An MLIR pass's own diagnostic as the first failure line, LLVM's fatal error that ends the process right under
// it (vllm-project/vllm#3878: Triton's ROCm backend lowering a vLLM kernel, abseil's handler reporting the abort).
TEST(Entity, AnMlirDiagnosticFollowedByLlvmsFatalErrorIsTritonsCompiler) {
  Diagnosis d = diagnose(
      "INFO 04-05 23:50:13 model_runner.py:104] Loading model weights took 30.6567 GB\n"
      "error: LLVM Translation failed for operation: builtin.unrealized_conversion_cast\n"
      "Failed to emit LLVM IR\n"
      "Translate to LLVM IR failedLLVM ERROR: Failed to translate TritonGPU to LLVM IR.\n"
      "*** SIGABRT received at time=1712361058 on cpu 4 ***\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("line 4"), std::string::npos) << notes_of(*d.root());
  // Near miss: a compiler's error far above an LLVM fatal error of another step is not read as one crash.
  Diagnosis apart = diagnose(
      "main.c:3:1: error: expected ';' before '}' token\n"
      "make: *** [main.o] Error 1\n"
      "building the docs\n"
      "rendering figures\n"
      "writing index\n"
      "LLVM ERROR: out of memory\n");
  ASSERT_TRUE(apart.root());
  EXPECT_NE(apart.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(apart);
}

TEST(Entity, ACrashOfAnotherProgramOrLibraryIsNotTritons) {
  // llvm/llvm-project#96789: clang's own crash report names clang as the program: a compiler driver's crash.
  Diagnosis clang = diagnose(
      "fatal error: error in backend: Cannot select: intrinsic %llvm.writecmrelease\n"
      "PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace, preprocessed source, and associated run script.\n"
      "Stack dump:\n"
      "0.\tProgram arguments: /home/nidhin/redefine_sdk/llvm-project-18.1.0.src/build/bin/clang -Wall -target riscv32-unknown-elf -O3 -c -o fib.o fib.c\n");
  ASSERT_TRUE(clang.root());
  EXPECT_NE(clang.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(clang);
  // An LLVM fatal error under numba's frames is numba's JIT, not Triton's.
  Diagnosis numba = diagnose(
      "  File \"/opt/conda/lib/python3.10/site-packages/numba/core/codegen.py\", line 1055, in _finalize_specific\n"
      "LLVM ERROR: Cannot select: 0x55d1c0 f64 = fcanonicalize\n");
  ASSERT_TRUE(numba.root());
  EXPECT_NE(numba.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(numba);
  // An assertion in a program's own code (no LLVM or MLIR named) is that program's.
  Diagnosis own = diagnose("demo: src/parser.c:120: parse: Assertion `n > 0' failed.\nAborted (core dumped)\n");
  ASSERT_TRUE(own.root());
  EXPECT_NE(own.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(own);
  // A built-in exception under Triton's frontend (the user's kernel source), not a backend compiler stage.
  Diagnosis frontend = diagnose(
      "  File \"/usr/lib/python3.10/site-packages/triton/compiler/code_generator.py\", line 1147, in ast_to_ttir\n"
      "    generator.visit(fn.parse())\n"
      "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'\n");
  ASSERT_TRUE(frontend.root());
  EXPECT_NE(frontend.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(frontend);
  // Triton's ptxas stage fails with its own exception class, which is not the backend's C++ failing.
  Diagnosis ptxas = diagnose(
      "  File \"/venv/lib/python3.11/site-packages/triton/backends/nvidia/compiler.py\", line 330, in make_cubin\n"
      "    raise PTXASError(f\"{error}\\n\"\n"
      "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n");
  ASSERT_TRUE(ptxas.root());
  EXPECT_NE(ptxas.root()->id, "TRITON_COMPILER_INTERNAL_ERROR") << findings_text(ptxas);
}

// ptxas refusing a newer PTX ISA: both versions name a CUDA release (data/kb/ptx.toml).
TEST(Entity, PtxasRefusingANewerIsaNamesTheCudaReleaseThatReadsIt) {
  // triton-lang/triton#5385: Triton's PTX (ISA 8.4) assembled with CUDA 11.8's nvcc.
  Diagnosis d = diagnose("nvcc -arch=sm_86 add_kernel.ptx --cubin\n"
                         "ptxas add_kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '7.8'\n"
                         "ptxas fatal   : Ptx assembly aborted due to errors\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CUDA_PTX_UNSUPPORTED_TOOLCHAIN") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("CUDA 12.4 or newer"), std::string::npos) << d.root()->fix;
  EXPECT_NE(d.root()->fix.find("CUDA 11.8's"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("ptx.toml"), std::string::npos) << notes_of(*d.root());
}

TEST(Entity, PtxIsaTheTableDoesNotKnowKeepsTheSignaturesFix) {
  // A version past the table's last row, and ptxas' other fatal lines: nothing is claimed.
  Diagnosis d = diagnose("ptxas kernel.ptx, line 5; fatal   : Unsupported .version 9.9; current version is '9.1'\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CUDA_PTX_UNSUPPORTED_TOOLCHAIN");
  EXPECT_EQ(notes_of(*d.root()).find("ptx.toml"), std::string::npos);
  EXPECT_EQ(d.root()->fix.find("The PTX is ISA"), std::string::npos);
  Diagnosis other = diagnose("ptxas fatal   : Unresolved extern function '_Z3foov'\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(notes_of(*other.root()).find("ptx.toml"), std::string::npos);
}

// A signal right under the command that imports one module: that module's compiled code crashed the
// interpreter while loading (Parskatt/RoMa#131: a wheel built for another torch). Near misses: torch
// itself crashing, an illegal instruction, a crash under a script rather than an import, a crash far below the import.
TEST(Entity, ACrashWhileImportingOneModuleIsItsBinary) {
  Diagnosis d = diagnose("(roma) vgpu@nvlink:~/RoMa$ python -c \"import local_corr\"\nSegmentation fault (core dumped)\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "EXT_BUILT_FOR_OTHER_TORCH") << findings_text(d);
  bool said = false;
  for (const auto& n : d.root()->notes) said |= n.find("local_corr") != std::string::npos;
  EXPECT_TRUE(said) << "the answer names the module";
  EXPECT_EQ(root_id(diagnose(">>> from fused_ops.kernels import attn\nSegmentation fault (core dumped)\n")), "EXT_BUILT_FOR_OTHER_TORCH");
  // An illegal instruction is the CPU lacking one the binary uses, not a binary for another torch.
  EXPECT_NE(root_id(diagnose(">>> import local_corr\nIllegal instruction (core dumped)\n")), "EXT_BUILT_FOR_OTHER_TORCH");
  EXPECT_NE(root_id(diagnose("$ python -c \"import torch\"\nSegmentation fault (core dumped)\n")), "EXT_BUILT_FOR_OTHER_TORCH");
  EXPECT_NE(root_id(diagnose("$ python train.py --epochs 3\nSegmentation fault (core dumped)\n")), "EXT_BUILT_FOR_OTHER_TORCH");
  EXPECT_NE(root_id(diagnose("$ python -c \"import local_corr\"\nloading\nstep 1\nstep 2\nstep 3\nSegmentation fault (core dumped)\n")),
            "EXT_BUILT_FOR_OTHER_TORCH");
}

// A GLIBCXX version the loader did not find names the GCC whose libstdc++ first exports it
// (libstdcxx.toml), the library that requires it and the one that was loaded (pytorch/pytorch#87279).
// Near misses: a version the table does not list keeps the signature's fix; GLIBC (the C library) is
// another finding.
TEST(Entity, AMissingGlibcxxVersionNamesTheGccThatHasIt) {
  Diagnosis d = diagnose("ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found "
                         "(required by /home/u/lib/python3.10/site-packages/torch/lib/libtorch_python.so)\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "GLIBCXX_VERSION_NOT_FOUND");
  EXPECT_NE(d.root()->fix.find("GLIBCXX_3.4.30 first came with GCC 12.1.0's libstdc++: /home/u/lib/python3.10/site-packages/torch/lib/"
                               "libtorch_python.so was built with GCC 12.1.0 or newer, and the libstdc++ loaded "
                               "(/usr/lib/x86_64-linux-gnu/libstdc++.so.6) is older"),
            std::string::npos) << d.root()->fix;
  bool cited = false;
  for (const auto& n : d.root()->notes) cited |= n.find("libstdcxx.toml:") != std::string::npos;
  EXPECT_TRUE(cited);
  Diagnosis unknown = diagnose("ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.99' not found (required by x.so)\n");
  ASSERT_TRUE(unknown.root());
  EXPECT_EQ(unknown.root()->id, "GLIBCXX_VERSION_NOT_FOUND");
  EXPECT_EQ(unknown.root()->fix.find("first came with GCC"), std::string::npos);
  Diagnosis glibc = diagnose("ImportError: /lib64/libc.so.6: version `GLIBC_2.34' not found (required by x.so)\n");
  ASSERT_TRUE(glibc.root());
  EXPECT_EQ(glibc.root()->fix.find("first came with GCC"), std::string::npos);
}

// A std member used without its header, named in each compiler's words and not the header (nvcc 13.0
// on fairseq's lightconv: `namespace "std" has no member "cout"`): stdlib.toml's header becomes the
// force-include remedy's header. Near misses: a member the table does not have leaves the remedy with
// no header, a namespace that is not std itself (`mystd`, `std::chrono`) is not read, and a line that
// names the header keeps it.
TEST(Entity, AStdMemberWithoutItsHeaderNamesTheHeaderToForceInclude) {
  struct Case { const char* line; const char* header; };
  const Case cases[] = {
      {"../cuda_utils.cu(29): error: namespace \"std\" has no member \"cout\"", "iostream"},
      {"lightconv_cuda.cu(12): error: namespace \"std\" has no member \"memcpy\"", "cstring"},
      {"k.cpp:3:8: error: \xe2\x80\x98" "cerr\xe2\x80\x99 is not a member of \xe2\x80\x98" "std\xe2\x80\x99", "iostream"},
      {"k.cpp:3:8: error: 'numeric_limits' is not a member of 'std'", "limits"},
      {"k.cpp:3:8: error: no member named 'runtime_error' in namespace 'std'", "stdexcept"},
      {"k.cpp(3): error C2039: 'ostringstream': is not a member of 'std'", "sstream"},
  };
  for (const auto& c : cases) {
    Diagnosis d = diagnose(std::string(c.line) + "\n");
    ASSERT_TRUE(d.root()) << c.line;
    EXPECT_EQ(d.root()->id, "MISSING_STD_HEADER") << c.line;
    EXPECT_EQ(d.root()->remedy.kind, RemedyKind::force_include) << c.line;
    EXPECT_EQ(expand_captures(d.root()->remedy.header, d.root()->captures), c.header) << c.line;
    EXPECT_NE(d.root()->fix.find(std::string("add '#include <") + c.header + ">'"), std::string::npos) << d.root()->fix;
    EXPECT_NE(notes_of(*d.root()).find("stdlib.toml:"), std::string::npos) << notes_of(*d.root());
  }
  // The fixed-width types keep their own signature and header.
  Diagnosis ints = diagnose("k.cpp:3:8: error: 'uintptr_t' is not a member of 'std'\n");
  ASSERT_TRUE(ints.root());
  EXPECT_EQ(expand_captures(ints.root()->remedy.header, ints.root()->captures), "cstdint");
  // GCC's note names the header itself: that one is kept.
  Diagnosis note = diagnose("k.cpp:3:8: note: 'std::setw' is defined in header '<iomanip>'; did you forget to '#include <iomanip>'?\n"
                            "k.cpp:3:8: error: 'setw' is not a member of 'std'\n");
  ASSERT_TRUE(note.root());
  EXPECT_EQ(expand_captures(note.root()->remedy.header, note.root()->captures), "iomanip");

  Diagnosis unknown = diagnose("k.cu(3): error: namespace \"std\" has no member \"frobnicate\"\n");
  ASSERT_TRUE(unknown.root());
  EXPECT_FALSE(valid_header_name(expand_captures(unknown.root()->remedy.header, unknown.root()->captures)));
  EXPECT_NE(notes_of(*unknown.root()).find("std::frobnicate (line 1) is not in the table"), std::string::npos)
      << notes_of(*unknown.root());
  for (const char* other : {"k.cpp:3:8: error: 'cout' is not a member of 'mystd'\n",
                            "k.cpp:3:8: error: 'cout' is not a member of 'std::chrono'\n",
                            "k.cu(3): error: namespace \"mystd\" has no member \"cout\"\n",
                            "k.cpp:3:8: error: no member named 'cout' in namespace 'my::std'\n"}) {
    Diagnosis d = diagnose(other);
    if (!d.root()) continue;
    EXPECT_NE(expand_captures(d.root()->remedy.header, d.root()->captures), "iostream") << other;
    EXPECT_EQ(notes_of(*d.root()).find("stdlib.toml"), std::string::npos) << other;
  }
}

// A Thrust/CUB name used without its header (CUDA 13's CCCL 3.0 and newer torch headers include fewer
// of them), in nvcc's, GCC's (UTF-8 quotes), clang's and MSVC's words, the namespace and the member read
// as entities: stdlib.toml's header becomes the force-include remedy's header, for nvcc only. nvcc's
// versioned inline namespace (thrust::THRUST_300001_SM_900_NS::cuda) is the source's thrust::cuda.
// Near misses: a Thrust name the table lacks (a note, no header), the source's own `thrust_utils` and
// `my::thrust` (not read), and CUB's removed iterators (their own signature).
TEST(Entity, AThrustOrCubMemberWithoutItsHeaderNamesTheHeaderForNvcc) {
  struct Case { const char* line; const char* header; };
  const Case cases[] = {
      {"/tmp/b/src/nms.cu(37): error: namespace \"thrust\" has no member \"device\"", "thrust/execution_policy.h"},
      {"kdtree.h(390): error: namespace \"thrust\" has no member \"get\"", "thrust/tuple.h"},
      {"k.cu(7): error: namespace \"thrust::THRUST_300001_SM_900_NS::cuda\" has no member \"par\"",
       "thrust/system/cuda/execution_policy.h"},
      {"k.cu(9): error: identifier \"thrust::device_ptr\" is undefined", "thrust/device_ptr.h"},
      {"k.cpp:4:11: error: \xe2\x80\x98" "sort\xe2\x80\x99 is not a member of \xe2\x80\x98" "thrust\xe2\x80\x99", "thrust/sort.h"},
      {"k.cpp:7:8: error: 'cub::DeviceRadixSort' has not been declared", "cub/device/device_radix_sort.cuh"},
      {"k.cpp:5:11: error: no member named 'device_vector' in namespace 'thrust'", "thrust/device_vector.h"},
      {"k.cu(3): error C2039: 'reduce': is not a member of 'thrust'", "thrust/reduce.h"},
  };
  for (const auto& c : cases) {
    Diagnosis d = diagnose(std::string(c.line) + "\n");
    ASSERT_TRUE(d.root()) << c.line;
    EXPECT_EQ(d.root()->id, "MISSING_CCCL_HEADER") << c.line;
    EXPECT_EQ(d.root()->remedy.kind, RemedyKind::force_include) << c.line;
    EXPECT_EQ(d.root()->remedy.compiler, "nvcc") << c.line;
    EXPECT_EQ(expand_captures(d.root()->remedy.header, d.root()->captures), c.header) << c.line;
    EXPECT_NE(d.root()->fix.find(std::string("add '#include <") + c.header + ">'"), std::string::npos) << d.root()->fix;
    EXPECT_NE(notes_of(*d.root()).find("stdlib.toml:"), std::string::npos) << notes_of(*d.root());
  }
  Diagnosis unknown = diagnose("k.cu(3): error: namespace \"thrust\" has no member \"frobnicate\"\n");
  ASSERT_TRUE(unknown.root());
  EXPECT_EQ(unknown.root()->id, "MISSING_CCCL_HEADER");
  EXPECT_FALSE(valid_header_name(expand_captures(unknown.root()->remedy.header, unknown.root()->captures)));
  EXPECT_NE(notes_of(*unknown.root()).find("thrust::frobnicate (line 1) is not in the table"), std::string::npos)
      << notes_of(*unknown.root());
  for (const char* other : {"k.cu(3): error: namespace \"thrust_utils\" has no member \"device\"\n",
                            "k.cpp:3:8: error: 'device' is not a member of 'thrust_utils'\n",
                            "k.cpp:3:8: error: 'device' is not a member of 'my::thrust'\n",
                            "k.cpp:3:8: error: no member named 'device' in namespace 'mythrust'\n"}) {
    Diagnosis d = diagnose(other);
    if (!d.root()) continue;
    EXPECT_NE(d.root()->id, "MISSING_CCCL_HEADER") << other;
    EXPECT_EQ(notes_of(*d.root()).find("stdlib.toml"), std::string::npos) << other;
  }
  Diagnosis removed = diagnose("k.cu(3): error: namespace \"cub\" has no member \"CountingInputIterator\"\n");
  ASSERT_TRUE(removed.root());
  EXPECT_EQ(removed.root()->id, "CCCL_ITERATOR_REMOVED");
}

// A CUDA library entry point a CUDA release removed (cuda_api.toml), named by nvcc, GCC (ASCII and
// UTF-8 quotes) and clang as undeclared, or by ld as an undefined reference: the answer names the entry
// point, the release and the replacement from the table's row, and the port where one exists.
// gnn-robustness-kernels' nvcc 13 line, a csrmv call g++ could not find, a csr2csc the linker could not.
TEST(Entity, ARemovedCudaLibraryEntryPointNamesTheReleaseAndTheReplacement) {
  struct Case { const char* log; const char* name; const char* release; const char* use; const char* phase; bool port; };
  const Case cases[] = {
      {"/tmp/g/csrc/custom_kernel.cu(126): error: identifier \"cusparseSgthr\" is undefined\n", "cusparseSgthr", "12.0",
       "cusparseGather", "compile", true},
      {"/tmp/b/csrc/spmv.cpp:41:5: error: 'cusparseScsrmv' was not declared in this scope; did you mean 'cusparseScsr2csr'?\n",
       "cusparseScsrmv", "11.0", "cusparseSpMV", "compile", false},
      {"k.cpp:9:5: error: \xe2\x80\x98" "cusparseZaxpyi\xe2\x80\x99 was not declared in this scope\n", "cusparseZaxpyi", "12.0",
       "cusparseAxpby", "compile", true},
      {"k.cpp:9:5: error: use of undeclared identifier 'cusparseDcsrsv2_solve'\n", "cusparseDcsrsv2_solve", "12.0", "cusparseSpSV",
       "compile", false},
      {"/usr/bin/ld: spmm.o: in function `csr_transpose(at::Tensor)':\nspmm.cpp:(.text+0x1a4): undefined reference to `cusparseScsr2csc'\n"
       "collect2: error: ld returned 1 exit status\n",
       "cusparseScsr2csc", "11.0", "cusparseCsr2cscEx2", "link", false},
  };
  for (const auto& c : cases) {
    Diagnosis d = diagnose(c.log);
    ASSERT_TRUE(d.root()) << c.log;
    EXPECT_EQ(d.root()->id, "CUDA_LIBRARY_API_REMOVED") << c.log;
    EXPECT_EQ(d.root()->phase, c.phase) << c.log;
    const std::string said = d.root()->cause + "\n" + d.root()->fix;
    EXPECT_NE(said.find(std::string("`") + c.name + "`"), std::string::npos) << said;
    EXPECT_NE(said.find(std::string("CUDA ") + c.release + " removed"), std::string::npos) << said;
    EXPECT_NE(said.find(c.use), std::string::npos) << said;
    EXPECT_EQ(said.find("port.cusparse-level1") != std::string::npos, c.port) << said;
    EXPECT_NE(notes_of(*d.root()).find("cuda_api.toml:"), std::string::npos) << notes_of(*d.root());
    EXPECT_EQ(notes_of(*d.root()).find("loaded first"), std::string::npos) << notes_of(*d.root());
  }
}

// Near misses: entry points every cuSPARSE 12/13 still has (undeclared for another reason, or left
// off the link line), a package's own function named like a legacy one, and a removed name only
// inside a longer identifier, keep whatever reading they had.
TEST(Entity, ACudaLibraryEntryPointStillThereIsNotARemoval) {
  for (const char* log : {"/tmp/g/csrc/spmv.cu(41): error: identifier \"cusparseSpMV\" is undefined\n",
                          "k.cpp:3:5: error: 'cusparseXcsrsort' was not declared in this scope\n",
                          "k.cpp:3:5: error: 'my_cusparseSgthr' was not declared in this scope\n",
                          "k.cu(3): error: identifier \"cusparseSgthr_compat\" is undefined\n",
                          "spmv.cpp:(.text+0x1a4): undefined reference to `cusparseSpMV'\ncollect2: error: ld returned 1 exit status\n"}) {
    Diagnosis d = diagnose(log);
    if (!d.root()) continue;
    EXPECT_NE(d.root()->id, "CUDA_LIBRARY_API_REMOVED") << log;
    EXPECT_EQ(notes_of(*d.root()).find("cuda_api.toml"), std::string::npos) << log;
  }
  EXPECT_EQ(engine().set().entities.find_removed_entry_point("cusparseSpMV"), nullptr);
  EXPECT_EQ(engine().set().entities.find_removed_entry_point("cusparseSgthrz")->removed_in, "12.0");
}

// A torch pin conflict names its parties: pip's post-install check (torch/torch7#1249) and the resolver's
// "The user requested" beside a companion's exact pin (dmar-bonn/ipp-al#1). Near misses: a range pin
// (">=") is no exact requirement, and the same torch on both sides says nothing to pick.
TEST(Entity, ATorchPinConflictNamesItsParties) {
  Diagnosis d = diagnose("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
                         "This behaviour is the source of the following dependency conflicts.\n"
                         "torchvision 0.18.0 requires torch==2.3.0, but you have torch 2.2.1 which is incompatible.\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TORCH_COMPANION_VERSION_CONFLICT");
  EXPECT_EQ(d.root()->fix.rfind("torchvision 0.18.0 requires torch 2.3.0 and the environment has torch 2.2.1: install the torchvision "
                                "release made for torch 2.2.1, or torch 2.3.0 with it. ", 0), 0u) << d.root()->fix;
  Diagnosis r = diagnose("ERROR: Cannot install -r requirements.txt (line 3), -r requirements.txt (line 7) and torch==1.10.2 because these "
                         "package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
                         "    The user requested torch==1.10.2\n    pytorch-lightning 1.5.10 depends on torch>=1.7.*\n"
                         "    torchvision 0.11.2 depends on torch==1.10.1\n");
  ASSERT_TRUE(r.root());
  EXPECT_EQ(r.root()->id, "TORCH_COMPANION_VERSION_CONFLICT");
  EXPECT_EQ(r.root()->fix.rfind("torchvision 0.11.2 depends on torch 1.10.1 while torch 1.10.2 was requested", 0), 0u) << r.root()->fix;
  Diagnosis range = diagnose("    The user requested torch==1.10.2\n    pytorch-lightning 1.5.10 depends on torch>=1.7.*\n"
                             "    accelerate 1.0.1 depends on torch==1.10.2\n");
  ASSERT_TRUE(range.root());
  EXPECT_EQ(range.root()->fix.find(" was requested: "), std::string::npos) << range.root()->fix;
}

}  // namespace
}  // namespace ts::triage::testing

namespace ts::triage::testing {
namespace {

TEST(Entity, ExternallyManagedInsideABuildStepIsTheBuildScriptsPip) {
  // The long-tail bench's MinkowskiEngine (session 16, GPU machine): its setup.py runs `pip uninstall`,
  // and the `pip` PATH gave it was the OS's.
  const char* log =
      "Processing /tmp/longtail/torchsmith-minkowskiengine/out/src\n"
      "  Preparing metadata (setup.py): started\n"
      "  Running command python setup.py egg_info\n"
      "  error: externally-managed-environment\n"
      "\n"
      "  \xc3\x97 This environment is externally managed\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "PIP_EXTERNALLY_MANAGED");
  EXPECT_NE(d.root()->fix.find("runs `pip` itself"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("inside a package's build step"), std::string::npos) << notes_of(*d.root());
  // Near miss: the user's own `pip install` in a shell, no build step: the venv advice stands alone.
  Diagnosis s = diagnose("$ pip3 install meson ninja --quiet --upgrade\nerror: externally-managed-environment\n");
  ASSERT_TRUE(s.root());
  EXPECT_EQ(s.root()->id, "PIP_EXTERNALLY_MANAGED");
  EXPECT_EQ(s.root()->fix.find("runs `pip` itself"), std::string::npos) << s.root()->fix;
}

TEST(Entity, ABuildDependencyUnderSetupPyIsNotASiblingFile) {
  // numpy under setup.py's own frame is the build-isolation class, not a file beside setup.py.
  const char* log =
      "  Running command python setup.py egg_info\n"
      "  Traceback (most recent call last):\n"
      "    File \"<pip-setuptools-caller>\", line 34, in <module>\n"
      "    File \"/tmp/src/setup.py\", line 8, in <module>\n"
      "      import numpy\n"
      "  ModuleNotFoundError: No module named 'numpy'\n"
      "  error: subprocess-exited-with-error\n";
  Diagnosis d = diagnose(log);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "PYTHON_BUILD_DEPS_MISSING") << findings_text(d);
}

// configure's "Could NOT find CUDNN" (sparticlesteve/nersc-pytorch-build#5) above another header's failure
// (open-mmlab/mmdetection#1973) is not its cause: the missing header decides, through headers.toml. Near
// miss: above cudnn.h's own failure (pytorch/pytorch#8787) it is.
TEST(Entity, ConfiguresMissingCudnnIsNotAnotherHeadersCause) {
  const std::string configure = "-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH)\n-- Configuring done\n";
  Diagnosis other = diagnose(configure + "fatal error: cuda_runtime_api.h: No such file or directory\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "CUDA_DEV_HEADER_MISSING");
  Diagnosis own = diagnose(configure +
                           "/autofs/nccs-svm1_home1/shubhankar/pytorch/caffe2/core/common_cudnn.h:7:19: fatal error: cudnn.h: No such file or directory\n");
  ASSERT_TRUE(own.root());
  EXPECT_EQ(own.root()->id, "CUDNN_NOT_FOUND");
}

// An undefined symbol no signature names is read for what it is (symbol.h): a CUDA driver API entry
// point is a driver older than the module's CUDA (sgl-project/sglang#8701's line). Near miss: a plain C
// symbol of another library stays unrecognised.
TEST(Entity, AnUndefinedDriverEntryPointIsAnOldDriver) {
  Diagnosis d = diagnose("from sgl_kernel import common_ops\n"
                         "ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: cuGreenCtxDestroy\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "NVIDIA_DRIVER_TOO_OLD");
  bool said = false;
  for (const auto& n : d.root()->notes) said |= n.find("cuGreenCtxDestroy") != std::string::npos && n.find("CUDA driver API") != std::string::npos;
  EXPECT_TRUE(said);
  Diagnosis other = diagnose("ImportError: /usr/lib/vapoursynth/libx.so: undefined symbol: getVapourSynthAPI\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised");
}

// A program that could not be started, by name (programs.toml): Python's exec of nvcc under FlashInfer's
// JIT (flashinfer-ai/flashinfer#1781), torch Inductor's compiler check on Windows (pytorch/pytorch#157458),
// a shell's "command not found". Near misses: a data file (not in the table) stays unrecognised, and
// a path to nvcc is no program name.
TEST(Entity, AProgramThatCouldNotStartNamesWhatProvidesIt) {
  Diagnosis d = diagnose("FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "NVCC_NOT_FOUND");
  EXPECT_NE(d.root()->fix.find("`nvcc` could not be started: it is not on PATH. It comes from the CUDA toolkit"), std::string::npos)
      << d.root()->fix;
  bool cited = false;
  for (const auto& n : d.root()->notes) cited |= n.find("programs.toml:") != std::string::npos;
  EXPECT_TRUE(cited);
  Diagnosis cl = diagnose("    raise RuntimeError(f\"Compiler: {compiler} is not found.\") from exc\n"
                          "torch._dynamo.exc.InternalTorchDynamoError: RuntimeError: Compiler: cl is not found.\n");
  ASSERT_TRUE(cl.root());
  EXPECT_EQ(cl.root()->id, "MSVC_CL_NOT_FOUND");
  Diagnosis ninja = diagnose("FileNotFoundError: [Errno 2] No such file or directory: 'ninja'\n");
  ASSERT_TRUE(ninja.root());
  EXPECT_EQ(ninja.root()->id, "NINJA_REQUIRED");
  Diagnosis data = diagnose("FileNotFoundError: [Errno 2] No such file or directory: 'config.yaml'\n");
  ASSERT_TRUE(data.root());
  EXPECT_EQ(data.root()->id, "unrecognised");
  // A path is no program name: the table is not read for it (a signature's own wording may still name it).
  Diagnosis path = diagnose("FileNotFoundError: [Errno 2] No such file or directory: '/opt/tools/bin/nvcc'\n");
  ASSERT_TRUE(path.root());
  for (const auto& n : path.root()->notes) EXPECT_EQ(n.find("programs.toml:"), std::string::npos) << n;
}

// The C compiler driver setuptools starts by the name the interpreter records (sysconfig's CC) could not be
// started (SarahwXU/HiSup#22: a conda Python's "CC"; a plain "cc"): programs.toml's compiler entries name the
// extension build's missing compiler, whatever the case of the name. Near misses: the driver ran and failed
// (its exit status: setuptools' wrapper of the compiler's error above), and a program the table does not hold
// (ccache) stays unrecognised, a failure still.
TEST(Entity, TheCompilerDriverSetuptoolsCouldNotStartIsTheMissingCompiler) {
  Diagnosis d = diagnose("error: command 'CC' failed: No such file or directory\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CPP_EXT_CXX_NOT_FOUND") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("`CC` could not be started: it is not on PATH. It comes from the system C/C++ compiler"),
            std::string::npos)
      << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("programs.toml:"), std::string::npos) << notes_of(*d.root());
  Diagnosis cc = diagnose("unable to execute 'cc': No such file or directory\n");
  ASSERT_TRUE(cc.root());
  EXPECT_EQ(cc.root()->id, "CPP_EXT_CXX_NOT_FOUND") << findings_text(cc);
  Diagnosis ran = diagnose("error: command 'CC' failed with exit status 1\n");
  ASSERT_TRUE(ran.root());
  EXPECT_NE(ran.root()->id, "CPP_EXT_CXX_NOT_FOUND") << findings_text(ran);
  Diagnosis other = diagnose("error: command 'ccache' failed: No such file or directory\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised") << findings_text(other);
  // A program distutils could not start is the failure, not a summary of one above it: configure's
  // warnings in front do not turn the log into "no error found".
  Diagnosis noisy = diagnose("-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH)\n"
                             "error: command 'CC' failed: No such file or directory\n");
  ASSERT_TRUE(noisy.root());
  EXPECT_EQ(noisy.root()->id, "CPP_EXT_CXX_NOT_FOUND") << findings_text(noisy);
  EXPECT_TRUE(diagnose("-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH)\n"
                       "error: command 'ccache' failed: No such file or directory\n")
                  .failed());
}

// A program run by its GNU target-prefixed name is that tool (programs.toml's [[prefix]]): make could not start
// conda's C++ compiler, which conda's R names in its Makeconf (RcppCore/Rcpp#770); the fix names conda's compiler
// packages. A Debian cross compiler's name is g++ too, from the system. Near misses: a dashed name with no OS
// field is no target prefix, and a header named between angle brackets is read as the missing header it is
// (aliyun/conditional-lane-detection#35: THC, removed in torch 1.11).
TEST(Entity, AProgramNamedWithATargetPrefixIsItsTool) {
  Diagnosis d = diagnose(
      "/ebio/abt3_projects/software/dev/miniconda3/envs/test/bin/x86_64-conda_cos6-linux-gnu-c++  -I/x/lib/R/include -DNDEBUG -c Date.cpp -o Date.o\n"
      "make: /ebio/abt3_projects/software/dev/miniconda3/envs/test/bin/x86_64-conda_cos6-linux-gnu-c++: Command not found\n"
      "/ebio/abt3_projects/software/dev/miniconda3/envs/test/lib/R/etc/Makeconf:167: recipe for target 'Date.o' failed\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CPP_EXT_CXX_NOT_FOUND") << findings_text(d);
  EXPECT_NE(d.root()->fix.find("gxx_linux-64"), std::string::npos) << d.root()->fix;
  EXPECT_NE(notes_of(*d.root()).find("target prefix x86_64-conda_cos6-linux-gnu-"), std::string::npos) << notes_of(*d.root());
  Diagnosis debian = diagnose("make: aarch64-linux-gnu-g++: Command not found\n");
  ASSERT_TRUE(debian.root());
  EXPECT_EQ(debian.root()->id, "CPP_EXT_CXX_NOT_FOUND") << findings_text(debian);
  EXPECT_NE(debian.root()->fix.find("apt-get install g++"), std::string::npos) << debian.root()->fix;
  Diagnosis own = diagnose("make: my-own-c++: Command not found\n");
  ASSERT_TRUE(own.root());
  EXPECT_EQ(own.root()->id, "unrecognised") << findings_text(own);
  Diagnosis thc = diagnose("<THC/THCDeviceUtils.cuh> not found for PyTorch 1.11 with Cuda 11.4 Compilation error after calling `python setup.py develop`\n");
  ASSERT_TRUE(thc.root());
  EXPECT_EQ(thc.root()->id, "THC_HEADERS_REMOVED") << findings_text(thc);
}

// A dependency the build's finder could not find, by the name it prints (dependencies.toml): a CMake
// Error block whose message is the project's own check (Megvii-BaseDetection/YOLOX#650, MegEngine's
// cmake/cudnn.cmake), Caffe2's config check (facebookresearch/DensePose#147). The failure stays one where
// the cause's signature is a warning. Near misses: a name the table has not (a compiler) stays
// unrecognised, "could not find a package ..." names no dependency, and configure going on without MAGMA
// is no failure.
TEST(Entity, ADependencyTheBuildCouldNotFindNamesItsCause) {
  Diagnosis d = diagnose("CMake Error at cmake/cudnn.cmake:31 (message):\n  Can not find CuDNN Library\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CUDNN_NOT_FOUND");
  EXPECT_TRUE(d.failed());
  EXPECT_NE(d.root()->fix.find("The build could not find CuDNN: it comes from NVIDIA cuDNN"), std::string::npos) << d.root()->fix;
  bool cited = false;
  for (const auto& n : d.root()->notes) cited |= n.find("dependencies.toml:") != std::string::npos;
  EXPECT_TRUE(cited);
  Diagnosis caffe2 = diagnose("CMake Error at /home/linkinpark213/Source/pytorch/build/Caffe2Config.cmake:96 (message):\n"
                              "  Your installed Caffe2 version uses cuDNN but I cannot find the cuDNN\n"
                              "  libraries.  Please set the proper cuDNN prefixes and / or install cuDNN.\n");
  ASSERT_TRUE(caffe2.root());
  EXPECT_EQ(caffe2.root()->id, "CUDNN_NOT_FOUND");
  Diagnosis compiler = diagnose("CMake Error at CMakeLists.txt:12 (message):\n  Could not find compiler\n");
  ASSERT_TRUE(compiler.root());
  EXPECT_EQ(compiler.root()->id, "unrecognised");
  // CMake's Config-mode failure with the package's name wrapped off: the class, and no dependency named "a".
  Diagnosis package = diagnose("CMake Error at CMakeLists.txt:8 (find_package):\n  Could not find a package configuration file provided by\n");
  ASSERT_TRUE(package.root());
  EXPECT_EQ(package.root()->id, "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND");
  EXPECT_EQ(notes_of(*package.root()).find("dependencies.toml:"), std::string::npos) << notes_of(*package.root());
  EXPECT_FALSE(diagnose("-- MAGMA not found. Compiling without MAGMA support\n").failed());
}

// CMake's find_package in Config mode names the package it found no <Package>Config.cmake of
// (cmFindPackageCommand.cxx): any package is that class, and a package the dependency table has (cuDNN,
// libtorch) is the table's cause, whose signature supersedes the class. Near misses: a config found but of
// another version, and the same message as a CMake Warning of an optional package that configure went on
// without, with the build's real error after it.
TEST(Entity, ACMakeConfigModeFailureIsItsPackagesCause) {
  auto block = [](const std::string& pkg) {
    return "CMake Error at CMakeLists.txt:14 (find_package):\n"
           "  By not providing \"Find" + pkg + ".cmake\" in CMAKE_MODULE_PATH this project has\n"
           "  asked CMake to find a package configuration file provided by \"" + pkg + "\", but\n"
           "  CMake did not find one.\n\n"
           "  Could not find a package configuration file provided by \"" + pkg + "\" with any of\n"
           "  the following names:\n\n    " + pkg + "Config.cmake\n\n-- Configuring incomplete, errors occurred!\n";
  };
  Diagnosis any = diagnose(block("spdlog"));
  ASSERT_TRUE(any.root());
  EXPECT_EQ(any.root()->id, "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND") << findings_text(any);
  Diagnosis cudnn = diagnose(block("CUDNN"));
  ASSERT_TRUE(cudnn.root());
  EXPECT_EQ(cudnn.root()->id, "CUDNN_NOT_FOUND") << findings_text(cudnn);
  EXPECT_NE(notes_of(*cudnn.root()).find("dependencies.toml:"), std::string::npos) << notes_of(*cudnn.root());
  Diagnosis torch = diagnose(block("Torch"));
  ASSERT_TRUE(torch.root());
  EXPECT_EQ(torch.root()->id, "TORCHCONFIG_NOT_FOUND") << findings_text(torch);
  Diagnosis version = diagnose("CMake Error at CMakeLists.txt:14 (find_package):\n"
                               "  Could not find a configuration file for package \"spdlog\" that is compatible\n"
                               "  with requested version \"1.12\".\n");
  ASSERT_TRUE(version.root());
  EXPECT_NE(version.root()->id, "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND") << findings_text(version);
  Diagnosis optional = diagnose("CMake Warning at CMakeLists.txt:402 (find_package):\n"
                                "  Could not find a package configuration file provided by \"pybind11\"\n"
                                "  (requested version 2.2) with any of the following names:\n\n"
                                "-- Configuring done\n-- Generating done\n"
                                "[12/40] Building CXX object src/CMakeFiles/core.dir/parse.cpp.o\n"
                                "/src/parse.cpp:31:5: error: 'optional' in namespace 'std' does not name a template type\n"
                                "ninja: build stopped: subcommand failed.\n");
  ASSERT_TRUE(optional.root());
  EXPECT_NE(optional.root()->id, "CMAKE_DEPENDENCY_CONFIG_NOT_FOUND") << findings_text(optional);
}

// A CUDA header missing in a HIP compile (clang's include chain starting at a .hip source, "when compiling for
// gfx90a", hipcc the failed command) is ROCm reaching CUDA's header: an unhipified source, not a toolkit
// without headers (ROCm/apex#102's shape, torch's ATen/cuda header under a hipified kernel). Near misses: the
// same header missing under nvcc, and a HIP compile missing a header that is not CUDA's.
TEST(Entity, ACudaHeaderMissingInAHipCompileIsAnUnhipifiedSource) {
  const std::string missing = "/opt/venv/lib/python3.10/site-packages/torch/include/ATen/cuda/CUDAContext.h:5:10: "
                              "fatal error: 'cuda_runtime_api.h' file not found\n#include <cuda_runtime_api.h>\n"
                              "         ^~~~~~~~~~~~~~~~~~~~\n";
  Diagnosis hip = diagnose("In file included from /src/ext/csrc/layer_norm_kernel.hip:9:\n" + missing +
                           "1 error generated when compiling for gfx90a.\n"
                           "error: command '/opt/rocm-6.1.0/bin/hipcc' failed with exit code 1\n");
  ASSERT_TRUE(hip.root());
  EXPECT_EQ(hip.root()->id, "ROCM_CUDA_HEADER_IN_HIP_BUILD") << findings_text(hip);
  EXPECT_NE(notes_of(*hip.root()).find("the compile is HIP's (line 1"), std::string::npos) << notes_of(*hip.root());
  Diagnosis nvcc = diagnose("In file included from /src/ext/csrc/layer_norm_kernel.cu:9:\n" + missing +
                            "1 error generated.\nerror: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n");
  ASSERT_TRUE(nvcc.root());
  EXPECT_NE(nvcc.root()->id, "ROCM_CUDA_HEADER_IN_HIP_BUILD") << findings_text(nvcc);
  Diagnosis own = diagnose("In file included from /src/ext/csrc/layer_norm_kernel.hip:9:\n"
                           "/src/ext/csrc/utils.h:3:10: fatal error: 'sparsehash/dense_hash_map' file not found\n"
                           "1 error generated when compiling for gfx90a.\n");
  ASSERT_TRUE(own.root());
  EXPECT_NE(own.root()->id, "ROCM_CUDA_HEADER_IN_HIP_BUILD") << findings_text(own);
}

// A project that checks for a CUDA compiler before enable_language(CUDA) stops with its own CMake error after
// CMake's check_language(CUDA) found none (puzzlepaint/camera_calibration#35): the failure is CMake's missing
// CUDA compiler. Near misses: the check found nvcc, the project's error names no CUDA (Boost), and the check
// failing with configure going on (CUDA optional) is no failure.
TEST(Entity, AProjectsCudaErrorAfterCMakeFoundNoCudaCompilerIsTheMissingCompiler) {
  const std::string check = "-- Detecting CXX compile features - done\n-- Looking for a CUDA compiler\n";
  const std::string error = "CMake Error at CMakeLists.txt:60 (message):\n"
                            "  CMake does not find the CUDA SDK, which is required to build this\n"
                            "  application (even in case CUDA itself will not or cannot be used).\n\n"
                            "-- Configuring incomplete, errors occurred!\n";
  Diagnosis d = diagnose(check + "-- Looking for a CUDA compiler - NOTFOUND\n" + error);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CMAKE_CUDA_COMPILER_NOT_FOUND") << findings_text(d);
  EXPECT_NE(notes_of(*d.root()).find("check_language(CUDA) found no CUDA compiler (line 3"), std::string::npos)
      << notes_of(*d.root());
  Diagnosis found = diagnose(check + "-- Looking for a CUDA compiler - /usr/local/cuda/bin/nvcc\n" + error);
  ASSERT_TRUE(found.root());
  EXPECT_NE(found.root()->id, "CMAKE_CUDA_COMPILER_NOT_FOUND") << findings_text(found);
  Diagnosis boost = diagnose(check + "-- Looking for a CUDA compiler - NOTFOUND\n"
                             "CMake Error at CMakeLists.txt:12 (message):\n  Boost 1.70 is required to build this application.\n");
  ASSERT_TRUE(boost.root());
  EXPECT_NE(boost.root()->id, "CMAKE_CUDA_COMPILER_NOT_FOUND") << findings_text(boost);
  EXPECT_FALSE(diagnose(check + "-- Looking for a CUDA compiler - NOTFOUND\n-- CUDA not found: building the CPU version\n"
                        "-- Configuring done\n-- Generating done\n")
                   .failed());
}

// A distribution an installer found no file of, by name (dependencies.toml's [[distribution]]): pip's first
// verdict line quoted alone (jhj0517/Whisper-WebUI#71), uv's installer with its sentence wrapped
// (astral-sh/uv#11418). Near misses: a distribution the table has not stays unrecognised, and uv failing
// to build torch is a build, not a missing file.
TEST(Entity, ADistributionTheInstallerFoundNoFileOfNamesItsCause) {
  Diagnosis d = diagnose("When I run install.sh, it says \n\n\"Could not find a version that satisfies the requirement torch\"\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON");
  EXPECT_NE(d.root()->fix.find("The installer found no file of `torch` it can install for this Python, OS and architecture: "
                               "it comes from PyTorch's wheels only"),
            std::string::npos)
      << d.root()->fix;
  bool cited = false;
  for (const auto& n : d.root()->notes) cited |= n.find("dependencies.toml:") != std::string::npos;
  EXPECT_TRUE(cited) << notes_of(*d.root());
  Diagnosis uv = diagnose("$ uv sync --extra gpu\n"
                          "error: Distribution `torch==2.5.1 @ registry+https://download.pytorch.org/whl/cu124` can't be installed \n"
                          "because it doesn't have a source distribution or wheel for the current platform\n"
                          "hint: You're on Linux (`manylinux_2_39_x86_64`), \n"
                          "but `torch` (v2.5.1) only has wheels for the following platform: `linux_aarch64`\n");
  ASSERT_TRUE(uv.root());
  EXPECT_EQ(uv.root()->id, "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON");
  Diagnosis other = diagnose("ERROR: No matching distribution found for mmcv-full==1.7.1\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised");
  Diagnosis build = diagnose("  \xc3\x97 Failed to build `torch==2.0.0`\n");
  ASSERT_TRUE(build.root());
  EXPECT_NE(build.root()->id, "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON");
}

// A tool whose failure report has one cause (its grammar names it): bitsandbytes' CUDA setup, in
// cextension's verdict quoted alone (bitsandbytes-foundation/bitsandbytes#572) and in its own report
// (#589), is its native library not loaded. Near miss: its warning before it searches the backup paths
// is no failure.
TEST(Entity, BitsandbytesSetupFailureIsItsNativeLibrary) {
  Diagnosis d = diagnose("I'm getting this error:\n`CUDA Setup failed despite GPU being available`\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "BITSANDBYTES_NATIVE_LIB_NOT_LOADED");
  EXPECT_NE(notes_of(*d.root()).find("failure line of bitsandbytes"), std::string::npos) << notes_of(*d.root());
  // The verdict names no library: the cause's " ($1)" is left out, not printed empty.
  EXPECT_EQ(d.root()->cause.find("()"), std::string::npos) << d.root()->cause;
  EXPECT_EQ(expand_captures("it looks for ($1) and ($2)", {"libbitsandbytes_cuda121.so"}), "it looks for (libbitsandbytes_cuda121.so) and");
  Diagnosis report = diagnose("CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.\n"
                              "CUDA SETUP: Solution 1: To solve the issue the libcudart.so location needs to be added to the LD_LIBRARY_PATH variable\n"
                              "CUDA SETUP: Setup Failed!\n");
  ASSERT_TRUE(report.root());
  EXPECT_EQ(report.root()->id, "BITSANDBYTES_NATIVE_LIB_NOT_LOADED");
  EXPECT_FALSE(diagnose("CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n").failed());
}

// An extension built for another torch, loaded with a CPU-only torch: xFormers' "built for PyTorch
// 2.2.0+cu121 ... (you have 2.2.0+cpu)" (facebookresearch/xformers#982, invoke-ai/InvokeAI#4788) is
// the CPU torch. Near misses: a CUDA torch of another release stays a wheel/torch mismatch, and the
// Python line's "(you have ...)" is not the torch.
TEST(Entity, AnExtensionUnderACpuOnlyTorchIsTheCpuTorch) {
  Diagnosis d = diagnose("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
                         "    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.2.0+cpu)\n"
                         "    Python  3.11.7 (you have 3.11.0)\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TORCH_NOT_COMPILED_WITH_CUDA");
  EXPECT_NE(d.root()->fix.find("2.2.0+cpu, a CPU-only build"), std::string::npos) << d.root()->fix;
  Diagnosis cuda = diagnose("WARNING:xformers:WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
                            "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.0+cu121)\n");
  ASSERT_TRUE(cuda.root());
  EXPECT_NE(cuda.root()->id, "TORCH_NOT_COMPILED_WITH_CUDA");
  Diagnosis python = diagnose("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
                              "    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.2.0+cu121)\n"
                              "    Python  3.11.7 (you have 3.11.0+cpu)\n");
  ASSERT_TRUE(python.root());
  EXPECT_NE(python.root()->id, "TORCH_NOT_COMPILED_WITH_CUDA");
}

// uv's installer and resolver name the distribution they found no file of in every release's words: uv < 0.3's
// lower case without backticks (astral-sh/uv#5182), and the resolver's reason under its verdict, in the ASCII box
// of a terminal without Unicode and with the requirement's markers (fspecii/ace-step-ui#31). Near misses: "a source
// distribution or wheel" names no distribution, and one the table lacks (astral-sh/uv#4377's torchaudio, a lock
// entry "with neither wheels nor source distribution") stays unrecognised with uv's failure line quoted.
TEST(Entity, UvNamesTheDistributionInEveryReleasesWords) {
  for (const char* log :
       {"error: distribution torch==2.3.1+cpu @ registry+https://download.pytorch.org/whl/cpu can't be installed because it doesn't "
        "have a source distribution or wheel for the current platform\n",
        "  x No solution found when resolving dependencies for split (platform_machine == 'AMD64' and sys_platform == 'win32'):\n"
        "  `-> Because torch{sys_platform == 'win32'}==2.7.1+cu128 has no `platform_machine == 'AMD64' and sys_platform ==\n"
        "      'win32'`-compatible wheels and only the following versions of torch{sys_platform == 'win32'} are available:\n"}) {
    Diagnosis d = diagnose(log);
    ASSERT_TRUE(d.root()) << log;
    EXPECT_EQ(d.root()->id, "TORCH_WHEEL_UNAVAILABLE_FOR_PYTHON") << log;
    EXPECT_NE(d.root()->fix.find("The installer found no file of `torch"), std::string::npos) << d.root()->fix;
  }
  for (const auto& en : entities_of("because it doesn't have a source distribution or wheel for the current platform"))
    EXPECT_NE(en.kind, "distribution") << en.value;
  Diagnosis other = diagnose("$ uv sync\nerror: found distribution torchaudio==2.0.0 @ registry+https://download.pytorch.org/whl/cu121 "
                             "with neither wheels nor source distribution\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised");
  EXPECT_NE(notes_of(*other.root()).find("failure line of uv"), std::string::npos) << notes_of(*other.root());
}

// A SIGILL whose frame names the x86 vector ISA the code was built for is that ISA missing from the CPU:
// pytorch/pytorch#37577 (gdb in torch's AVX2 copy of a kernel file) and #22338 (a QEMU CPU without AVX in
// THFloatVector_normal_fill_AVX2). Near misses: a SIGILL with no ISA named keeps its grammar's reading, and
// a segfault in an AVX2 frame is no missing instruction.
TEST(Entity, ASigillInAnIsasCodeIsThatIsaMissing) {
  Diagnosis d = diagnose("`gdb -ex r --args python -c \"import torch\"` gives\n\nProgram received signal SIGILL, Illegal instruction.\n"
                         "0x00007fffe9076f17 in _GLOBAL__sub_I_BinaryOpsKernel.cpp.AVX2.cpp ()\n"
                         "   from /home/j/src/pytorch/torch/lib/libtorch_cpu.so\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CPU_INSTRUCTION_SET_UNSUPPORTED");
  EXPECT_NE(d.root()->cause.find("AVX2"), std::string::npos) << d.root()->cause;
  Diagnosis qemu = diagnose("I'm getting Illegal instruction (core dumped)\n\n"
                            "Thread 1 \"python\" received signal SIGILL, Illegal instruction.\n"
                            "0x00007fffa8ec2486 in THFloatVector_normal_fill_AVX2 () from /U01/anaconda3/envs/pyt1/lib/python3.7/"
                            "site-packages/torch/lib/libcaffe2.so\n");
  EXPECT_EQ(root_id(qemu), "CPU_INSTRUCTION_SET_UNSUPPORTED");
  EXPECT_EQ(root_id(diagnose(">>> import torch\nIllegal instruction (core dumped)\n")), "JETSON_OPENBLAS_ILLEGAL_INSTRUCTION");
  EXPECT_NE(root_id(diagnose("Program received signal SIGSEGV, Segmentation fault.\n"
                             "0x00007fffe9076f17 in _GLOBAL__sub_I_BinaryOpsKernel.cpp.AVX2.cpp ()\n")),
            "CPU_INSTRUCTION_SET_UNSUPPORTED");
}

// An undefined torch symbol in a package's own compiled module is that package's cause when the table knows it
// (dependencies.toml [[extension]], read with the symbol in rank.cpp): torchvision's _C (pytorch/pytorch#23585,
// torchvision 0.3.0 under a torch nightly). Near miss: a module at site-packages' top
// (Dao-AILab/flash-attention#723's flash_attn_2_cuda) is no package's and stays an extension built for another torch.
TEST(Entity, AnUndefinedTorchSymbolInTorchvisionsOwnLibraryIsTorchvisions) {
  Diagnosis d = diagnose("    from torchvision import _C\nImportError: /opt/anaconda/lib/python3.7/site-packages/torchvision/"
                         "_C.cpython-37m-x86_64-linux-gnu.so: undefined symbol: _ZN2at7ge\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TORCHVISION_OPS_NOT_LOADED");
  EXPECT_NE(notes_of(*d.root()).find("dependencies.toml:"), std::string::npos) << notes_of(*d.root());
  EXPECT_EQ(root_id(diagnose("ImportError: /usr/local/lib/python3.8/dist-packages/flash_attn_2_cuda.cpython-38-x86_64-linux-gnu.so: "
                             "undefined symbol: _ZN3c104cuda9SetDeviceEi\n")),
            "EXT_BUILT_FOR_OTHER_TORCH");
}

// Triton's OutOfResources has no Error in its class name: a log with only it still has its failure line
// (OpenSpaceAI/DEST3D#2), and its numbers are the cause's. Near miss: the other resource, registers, is a
// failure of the same grammar but not this cause.
TEST(Grammar, TritonsOutOfResourcesIsAFailureLine) {
  Diagnosis d = diagnose("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 589824, Hardware limit: "
                         "101376. Reducing block sizes or num_stages may help.\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "TRITON_OUT_OF_SHARED_MEMORY");
  EXPECT_NE(d.root()->cause.find("589824"), std::string::npos) << d.root()->cause;
  EXPECT_NE(d.root()->cause.find("101376"), std::string::npos) << d.root()->cause;
  Diagnosis regs = diagnose("triton.runtime.errors.OutOfResources: out of resource: registers, Required: 300, Hardware limit: 255\n");
  ASSERT_TRUE(regs.root());
  EXPECT_EQ(regs.root()->id, "unrecognised");
}

// tl.dot's shape check in both of Triton's wordings (triton-lang/triton#2266's repr of the old one; the
// min_dot_size one of python/triton/language/semantic.py). Near miss: its other shape check, operands that do
// not fit for a matmul, is not this cause.
TEST(Grammar, TritonsDotBelowSixteenIsItsShape) {
  EXPECT_EQ(root_id(diagnose("AssertionError('All values in both first input shape ([constexpr[16], constexpr[16]]) and second input "
                             "shape ([constexpr[16], constexpr[1]]) must be >= 16!')\n")),
            "TRITON_DOT_SHAPE_TOO_SMALL");
  EXPECT_EQ(root_id(diagnose("AssertionError: Input shapes should have M >= 16, N >= 16 and K >= 16\n")), "TRITON_DOT_SHAPE_TOO_SMALL");
  EXPECT_NE(root_id(diagnose("AssertionError: First input shape (['constexpr[16]', 'constexpr[32]']) and second input shape "
                             "['constexpr[16]', 'constexpr[16]'] are not compatible for matmul\n")),
            "TRITON_DOT_SHAPE_TOO_SMALL");
}

// conda-build's DependencyNeedsBuildingError names its unsatisfiable specs: MAGMA's cause only when one is
// magma-cuda. conda-forge/pytorch-cpu-feedstock#372's names pytorch-gpu and pytorch builds, a package no channel
// has (its "nothing provides" line).
TEST(Entity, CondaBuildsUnsatisfiableSpecsNameTheirPackage) {
  Diagnosis d = diagnose(
      "conda_libmamba_solver.conda_build_exceptions.ExplainedDependencyNeedsBuildingError: Unsatisfiable dependencies for platform "
      "linux-64: {MatchSpec(\"pytorch-gpu==2.4.1=cuda118py311hf8a3b2d_306\"), MatchSpec(\"pytorch=2.4.1[build=cuda*_mkl*306]\")}\n"
      "Encountered problems while solving:\n"
      "  - nothing provides pytorch 2.4.1 cuda*_mkl*306 needed by pytorch-gpu-2.4.1-cuda118py311hf8a3b2d_306\n");
  EXPECT_EQ(root_id(d), "CONDA_PACKAGE_NOT_IN_CHANNELS");
  EXPECT_EQ(root_id(diagnose("conda_build.exceptions.DependencyNeedsBuildingError: Unsatisfiable dependencies for platform linux-64: "
                             "{'magma-cuda110'}\n")),
            "MAGMA_CONDA_PACKAGE_UNAVAILABLE");
}

}  // namespace
}  // namespace ts::triage::testing

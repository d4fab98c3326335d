// Package managers (conda, uv) and the toolchains a program runs at run time (Triton's C launcher,
// ptxas, LLVM's NVPTX backend): their verdicts in the wordings real threads quote (issue 36, batch
// 7's development part), and near misses that share the words but report no such failure.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

class InstallJitWording : public ::testing::TestWithParam<Wording> {};

TEST_P(InstallJitWording, NamesTheRootCause) {
  EXPECT_TRUE(expect_root_cause(GetParam()).failed()) << GetParam().line;
}

const Wording kInstallJitWordings[] = {
    // conda's verdict before solving: the spec is in none of the channels (pytorch/pytorch#58681).
    {"PackagesNotFoundError: The following packages are not available from current channels:", "CONDA_PACKAGE_NOT_IN_CHANNELS"},
    // A damaged package in conda's cache: the verification error's first half (easydiffusion/easydiffusion#472),
    // its second half, the size check's wording (pytorch/pytorch#115498), an unreadable archive
    // printed as the exception's repr (j-marple-dev/model_compression#14).
    {"CondaVerificationError: The package for pytorch located at C:\\stable deffusion\\stable-diffusion-ui-windows\\stable-diffusion-ui\\installer_files\\env\\pkgs\\pytorch-1.11.0-py3.8_cuda11.3_cudnn8_0",
     "CONDA_PACKAGE_CORRUPTED"},
    {"appears to be corrupted. The path 'Lib/site-packages/caffe2/python/serialized_test/data/operator_test/cosine_embedding_criterion_op_test.test_cosine_embedding_criterion.zip'",
     "CONDA_PACKAGE_CORRUPTED"},
    {"> SafetyError: The package for pytorch located at /home/lixuelian/opt/miniconda/pkgs/pytorch-2.4.1-py3.9_cuda12.4_cudnn9.1.0_0",
     "CONDA_PACKAGE_CORRUPTED"},
    {"InvalidArchiveError(\"Error with archive /home/hj/anaconda3/pkgs/pytorch-1.5.1-py3.7_cuda10.2.89_cudnn7.6.5_0.tar.bz2.  You probably need to delete and re-download or re-create this file.  Message from libarchive was:\\n\\nFailed to open '/home/hj/anaconda3/pkgs/pytorch-1.5.1-py3.7_cuda10.2.89_cudnn7.6.5_0.tar.bz2'\"",
     "CONDA_PACKAGE_CORRUPTED"},
    // pip with no network: its last retry of the index page, the resolver's "(from versions: none)" after it
    // (numerai/numerai-cli#60; the long-tail run's build-requires step, offline).
    {"WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by "
     "'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f79c4d7aed0>: Failed to establish "
     "a new connection: [Errno -3] Temporary failure in name resolution')': /simple/scikit-build-core/",
     "PIP_INDEX_UNREACHABLE"},
    // uv's first-index strategy, told by its hint (lllyasviel/FramePack#315).
    {"      hint: `pillow` was found on https://download.pytorch.org/whl/cu126, but not at the requested version (pillow==11.1.0). A compatible version may be available",
     "UV_INDEX_STRATEGY_FIRST_INDEX"},
    // Triton's run-time launcher build without a C compiler, its old and new wording
    // (kijai/ComfyUI-HunyuanVideoWrapper#23; triton-lang/triton's runtime/build.py since triton.knobs).
    {"RuntimeError: Failed to find C compiler. Please specify via CC environment variable.", "TRITON_C_COMPILER_MISSING"},
    {"RuntimeError: Failed to find C compiler. Please specify via CC environment variable or set triton.knobs.build.impl.", "TRITON_C_COMPILER_MISSING"},
    // torch's C++17 guard quoted without its '#' and colon (NVIDIA/FasterTransformer#779).
    {"error C++17 or later compatible compiler is required to use PyTorch.", "CXX17_REQUIRED"},
    // A CUDA toolkit's ptxas given a file of a newer PTX ISA (triton-lang/triton#5385).
    {"ptxas add_kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '7.8'", "CUDA_PTX_UNSUPPORTED_TOOLCHAIN"},
    // LLVM's NVPTX backend on Triton's warp shuffles for a Pascal GPU (akatz-ai/ComfyUI-X-Portrait-Nodes#10).
    {"LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32", "TRITON_GPU_TOO_OLD"},
    // Batch 8's development part: DeepSpeed's op builder without a toolkit (jingyaogong/minimind#48,
    // enhuiz/vall-e#78), nvcc's own Visual Studio check (CERN/TIGRE#414), pip finding no triton at all on
    // Windows (KlingAIResearch/LivePortrait#124), a library only torch 1.8-1.13 shipped (pyg-team/pytorch_geometric#8365).
    {"CUDA_HOME does not exist, unable to compile CUDA op(s)", "CUDA_HOME_NOT_SET"},
    {"AssertionError: CUDA_HOME does not exist, unable to compile CUDA op(s)", "CUDA_HOME_NOT_SET"},
    {"nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions between 2017 and 2019 (inclusive) are supported! The nvcc flag",
     "MSVC_UNSUPPORTED_BY_NVCC"},
    {"ERROR: No matching distribution found for triton==2.3.0", "TRITON_NOT_AVAILABLE"},
    {"OSError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory", "EXT_BUILT_FOR_OTHER_TORCH"},
    // Batch 10's development part: bitsandbytes' loader without the CUDA library it looks for, in its
    // 0.43+ wording (bitsandbytes-foundation/bitsandbytes#1559, over the CPU fallback's missing .so) and
    // its cuda_setup wording (#386).
    {"Could not find the bitsandbytes CUDA binary at PosixPath('/notebooks/bitsandbytes/bitsandbytes/libbitsandbytes_cuda124.so')\n"
     "Could not load bitsandbytes native library: /notebooks/bitsandbytes/bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object file: No such file or directory",
     "BITSANDBYTES_NATIVE_LIB_NOT_LOADED"},
    {"CUDA SETUP: Required library version not found: libbitsandbytes_cuda121_nocublaslt.so. Maybe you need to ",
     "BITSANDBYTES_NATIVE_LIB_NOT_LOADED"},
};

INSTANTIATE_TEST_SUITE_P(All, InstallJitWording, ::testing::ValuesIn(kInstallJitWordings));

TEST(InstallJitNearMiss, DoesNotTrigger) {
  for (const Wording& n : {
           // bitsandbytes finding its CUDA library, and its CPU-only notice on a machine without a GPU.
           Wording{"CUDA SETUP: Loading binary /home/u/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cuda118.so...",
                   "BITSANDBYTES_NATIVE_LIB_NOT_LOADED"},
           Wording{"The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers and GPU quantization are unavailable.",
                   "BITSANDBYTES_NATIVE_LIB_NOT_LOADED"},
           // pip's earlier retries (more to come) and a retry after a read timeout, not a failed connection.
           Wording{"WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection "
                   "broken by 'NewConnectionError('<x>: Failed to establish a new connection: [Errno -3] Temporary failure "
                   "in name resolution')': /simple/scikit-build-core/", "PIP_INDEX_UNREACHABLE"},
           Wording{"WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection "
                   "broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out.\")': "
                   "/simple/torch/", "PIP_INDEX_UNREACHABLE"},
           // conda's other PackagesNotFoundError: removing what is not installed.
           Wording{"PackagesNotFoundError: The following packages are missing from the target environment:", "CONDA_PACKAGE_NOT_IN_CHANNELS"},
           Wording{"PackagesNotFoundError: The following packages are missing from the target environment:", "MAGMA_CONDA_PACKAGE_UNAVAILABLE"},
           Wording{"Verifying transaction: done", "CONDA_PACKAGE_CORRUPTED"},
           Wording{"from conda.exceptions import InvalidArchiveError, SafetyError", "CONDA_PACKAGE_CORRUPTED"},
           Wording{"  hint: Packages were unavailable because the network was disabled.", "UV_INDEX_STRATEGY_FIRST_INDEX"},
           Wording{"-- Check for working C compiler: /usr/bin/cc - skipped", "TRITON_C_COMPILER_MISSING"},
           Wording{"Note: a C++17 or later compatible compiler is required to use PyTorch 2.1 and later.", "CXX17_REQUIRED"},
           Wording{"ptxas info    : Used 32 registers, 380 bytes cmem[0]", "CUDA_PTX_UNSUPPORTED_TOOLCHAIN"},
           // Another intrinsic this GPU lacks: a kernel written for sm_100 (triton-lang/triton#8481), not an old GPU.
           Wording{"LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.tcgen05.wait.st", "TRITON_GPU_TOO_OLD"},
           Wording{"CUDA_HOME = /usr/local/cuda-12.1", "CUDA_HOME_NOT_SET"},
           Wording{"-- The CUDA compiler identification is NVIDIA 11.8.89 (host compiler MSVC 19.29, Visual Studio 2019)", "MSVC_UNSUPPORTED_BY_NVCC"},
           // Another package pip cannot find; triton-windows is a distribution of its own.
           Wording{"ERROR: No matching distribution found for tritonclient==2.99", "TRITON_NOT_AVAILABLE"},
           Wording{"ERROR: No matching distribution found for triton-windows==9.9", "TRITON_NOT_AVAILABLE"},
           // torch's own library before import torch ran stays the import-order reading.
           Wording{"ImportError: libc10.so: cannot open shared object file: No such file or directory", "EXT_BUILT_FOR_OTHER_TORCH"},
       })
    expect_not_named(n);
}

// The entity decides between the two conda readings: the package conda could not find. Only a
// magma-cuda package is the MAGMA cause; any other spec is conda's generic "not in the channels".
TEST(CondaPackagesNotFound, TheListedPackageDecides) {
  const char* head = "PackagesNotFoundError: The following packages are not available from current channels:\n\n";
  EXPECT_EQ(root_id(diagnose(std::string(head) + "  - magma-cuda121\n")), "MAGMA_CONDA_PACKAGE_UNAVAILABLE");
  EXPECT_EQ(root_id(diagnose(std::string(head) + "  - cudatoolkit=11.7\n")), "CONDA_PACKAGE_NOT_IN_CHANNELS");
}

// mamba/libmamba say the same thing in libsolv's words: nothing in the channels provides a requested spec or a
// candidate's dependency (guoyww/AnimateDiff#293: pytorch-cuda on osx-arm64, whose cuda 11.7 no channel has for
// that platform). It names the cause under libmamba's LibMambaUnsatisfiableError. Near misses: a virtual package
// (the machine's, "__cuda") nothing provides is the solve's conflict, and a conflict between packages that exist.
// conda's ResolvePackageNotFound is its NoPackagesFoundError by another name (conda/exceptions.py aliases
// them): the specs listed under it exist in no channel for this platform, the cause conda's other
// not-found verdict names; a conflict between packages that exist is UnsatisfiableError's. Real logs of
// batch 19's development part (sbi-dev/sbi#5: cudatoolkit on a Mac; polimi-ispl/GAN-image-detection#4: a
// Linux export's build strings on Windows). Near misses: the class named in code or prose, with no colon
// after it, is no verdict.
TEST(CondaPackagesNotFound, ResolvePackageNotFoundIsASpecNoChannelHas) {
  EXPECT_EQ(root_id(diagnose("conda env create -f environment.yml\nSolving environment: failed\n\nResolvePackageNotFound: \n"
                             "  - cudatoolkit=10\n")),
            "CONDA_PACKAGE_NOT_IN_CHANNELS");
  EXPECT_EQ(root_id(diagnose("(base) PS D:\\gan-image-detection> conda env create -f environment.yml\n"
                             "Collecting package metadata (repodata.json): done\nSolving environment: failed\n\nResolvePackageNotFound:\n"
                             "  - cudatoolkit==10.2.89=hfd86e86_1\n  - pytorch==1.5.1=py3.6_cuda10.2.89_cudnn7.6.5_0\n")),
            "CONDA_PACKAGE_NOT_IN_CHANNELS");
  EXPECT_EQ(root_id(diagnose("UnsatisfiableError: The following specifications were found to be incompatible with each other:\n")),
            "CONDA_SOLVE_CONFLICT");
  for (const char* prose : {"from conda.exceptions import ResolvePackageNotFound\n",
                            "NoPackagesFound = NoPackagesFoundError = ResolvePackageNotFound  # NOQA\n"})
    EXPECT_NE(root_id(diagnose(prose)), "CONDA_PACKAGE_NOT_IN_CHANNELS") << prose;
}

TEST(CondaPackagesNotFound, LibsolvsNothingProvidesIsAPackageNoChannelHas) {
  const char* head = "LibMambaUnsatisfiableError: Encountered problems while solving:\n";
  EXPECT_EQ(root_id(diagnose(std::string(head) + "  - nothing provides cuda 11.7.* needed by pytorch-cuda-11.7-h67b0de4_0\n")),
            "CONDA_PACKAGE_NOT_IN_CHANNELS");
  EXPECT_EQ(root_id(diagnose(std::string(head) + "  - nothing provides requested _libgcc_mutex ==0.1 conda_forge\n")),
            "CONDA_PACKAGE_NOT_IN_CHANNELS");
  EXPECT_EQ(root_id(diagnose("Could not solve for environment specs\nThe following package could not be installed\n"
                             "\xe2\x94\x94\xe2\x94\x80 pytorch-cuda 11.7**  is not installable because it requires\n"
                             "   \xe2\x94\x94\xe2\x94\x80 cuda 11.7.* , which does not exist (perhaps a missing channel).\n")),
            "CONDA_PACKAGE_NOT_IN_CHANNELS");
  EXPECT_EQ(root_id(diagnose("Encountered problems while solving:\n"
                             "  - nothing provides __cuda needed by pytorch-1.11.0-cuda102py310hdf4a2db_202\n")),
            "CONDA_SOLVE_CONFLICT");
  EXPECT_EQ(root_id(diagnose(std::string(head) + "  - package torchaudio-2.0.2-py310_cu117 requires pytorch-cuda 11.7.*, "
                                                 "but none of the providers can be installed\n")),
            "CONDA_SOLVE_CONFLICT");
}

// conda prints a damaged package's message over two lines; a log holding either half names it.
TEST(CondaPackageCorrupted, EitherHalfOfTheMessage) {
  Diagnosis d = diagnose(
      "Verifying transaction: failed\n\n"
      "CondaVerificationError: The package for pytorch located at /opt/conda/pkgs/pytorch-1.11.0-py3.8_cuda11.3_cudnn8_0\n"
      "appears to be corrupted. The path 'lib/python3.8/site-packages/torch/lib/libtorch_cuda.so'\n"
      "specified in the package manifest cannot be found.\n");
  EXPECT_EQ(root_id(d), "CONDA_PACKAGE_CORRUPTED");
}

// A find-links page given as an index: the resolver's failure is unrecognised by its words, and the
// command line's option explains it (a warning with explains = "resolve", astral-sh/uv#12980).
TEST(IndexUrlIsFindLinksPage, ExplainsTheResolversFailure) {
  const char* cmd = "uv add torch==1.6.0+cu101 torchvision==0.7.0+cu101 --index https://download.pytorch.org/whl/torch_stable.html\n";
  const char* verdict =
      "  \xc3\x97 No solution found when resolving dependencies:\n"
      "  \xe2\x95\xb0\xe2\x94\x80\xe2\x96\xb6 Because there is no version of torch==1.6.0+cu101 and your project depends on "
      "torch==1.6.0+cu101, we can conclude that your project's requirements are unsatisfiable.\n";
  EXPECT_EQ(root_id(diagnose(std::string(cmd) + verdict)), "INDEX_URL_IS_FIND_LINKS_PAGE");
  // The same option where nothing failed is a warning, not a failure.
  Diagnosis ok = diagnose(std::string(cmd) + "Resolved 23 packages in 1.2s\n");
  EXPECT_FALSE(ok.failed());
  // The same verdict with an index root, or the page given to --find-links: the option explains nothing.
  EXPECT_NE(root_id(diagnose(std::string("uv add torch==1.6.0+cu101 --index https://download.pytorch.org/whl/cu101\n") + verdict)),
            "INDEX_URL_IS_FIND_LINKS_PAGE");
  EXPECT_NE(root_id(diagnose(std::string("uv pip install torch==1.6.0+cu101 -f https://download.pytorch.org/whl/torch_stable.html\n") + verdict)),
            "INDEX_URL_IS_FIND_LINKS_PAGE");
  // A failure of another phase (a compile) is not explained by an index option.
  EXPECT_NE(root_id(diagnose(std::string(cmd) + "x.cpp:1:10: error: 'foo' was not declared in this scope\n")),
            "INDEX_URL_IS_FIND_LINKS_PAGE");
}

// uv given a plain torch pin for PyTorch's per-variant index, which has only local versions (+cpu,
// +cu121): the resolver's verdict is unrecognised by its words, and the command explains it (a
// warning with explains = "resolve", astral-sh/uv#2538, uv's pip-compatibility notes).
TEST(UvLocalVersionRequired, ExplainsTheResolversFailure) {
  const char* cmd = "~ # uv pip install torch==2.2.0 --index-url https://download.pytorch.org/whl/cpu\n";
  const char* verdict =
      "  x No solution found when resolving dependencies:\n"
      "  `-> Because torch==2.2.0 is unusable because no wheels are available with a matching Python implementation and "
      "you require torch==2.2.0, we can conclude that the requirements are unsatisfiable.\n";
  EXPECT_EQ(root_id(diagnose(std::string(cmd) + verdict)), "UV_LOCAL_VERSION_REQUIRED");
  // The index before the pin, and uv add: the same reading.
  EXPECT_EQ(root_id(diagnose(std::string("uv add --index https://download.pytorch.org/whl/cu121 torchvision==0.17.0\n") + verdict)),
            "UV_LOCAL_VERSION_REQUIRED");
  // Where nothing failed, the command alone is no failure.
  EXPECT_FALSE(diagnose(std::string(cmd) + "Resolved 12 packages in 1.1s\n").failed());
  // Near misses: the local version pinned, pip instead of uv, PyPI as the index, another package pinned.
  for (const char* other : {"uv pip install torch==2.2.0+cpu --index-url https://download.pytorch.org/whl/cpu\n",
                            "pip install torch==2.2.0 --index-url https://download.pytorch.org/whl/cpu\n",
                            "uv pip install torch==2.2.0 --index-url https://pypi.org/simple\n",
                            "uv pip install numpy==1.26.4 --index-url https://download.pytorch.org/whl/cpu\n"})
    EXPECT_NE(root_id(diagnose(std::string(other) + verdict)), "UV_LOCAL_VERSION_REQUIRED") << other;
}

// CUDA_HOME extended like PATH, seen in the compile command ninja echoes under FAILED: (its program is
// ':/usr/local/cuda/bin/nvcc', MVIG-SJTU/AlphAction#26); a Windows drive path or a plain one is no match.
TEST(CudaHomeIsPathList, ReadsTheEchoedCommand) {
  const std::string failed = "FAILED: /w/build/temp.linux-x86_64-3.7/k.o\n";
  EXPECT_EQ(root_id(diagnose(failed + "    :/usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -I:/usr/local/cuda/include -c k.cu -o k.o\n")),
            "CUDA_HOME_IS_PATH_LIST");
  EXPECT_EQ(root_id(diagnose(failed + "/usr/local/cuda-11.3:/usr/local/cuda/bin/nvcc -I/x -c k.cu -o k.o\n")), "CUDA_HOME_IS_PATH_LIST");
  for (const char* cmd : {"/usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c k.cu -o k.o\n",
                          "C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.1/bin/nvcc -c k.cu -o k.obj\n",
                          "export PATH=/usr/local/cuda/bin/nvcc:$PATH -x\n",
                          "[1/11] /usr/local/cuda-12.8/bin/nvcc --generate-dependencies-with-compile -c k.cu -o k.o\n",
                          "ERROR [core.py:1100] C:/CUDA/v12.8/bin/nvcc --generate-dependencies-with-compile -c k.cu\n"})
    EXPECT_NE(root_id(diagnose(failed + cmd)), "CUDA_HOME_IS_PATH_LIST") << cmd;
}

// The same command after what prefixes it, with no FAILED: line in the excerpt: ninja's progress and a
// logger's line head (vllm-project/vllm#36077, FlashInfer's JIT under vLLM's worker log).
TEST(CudaHomeIsPathList, ReadsTheCommandAfterItsPrefix) {
  EXPECT_EQ(root_id(diagnose("(EngineCore_DP0 pid=1359765) ERROR 03-05 09:56:09 [core.py:1100] :/usr/local/cuda-12.8/bin/nvcc "
                             "--generate-dependencies-with-compile --dependency-output x.cuda.o.d -isystem :/usr/local/cuda-12.8/include\n")),
            "CUDA_HOME_IS_PATH_LIST");
  EXPECT_EQ(root_id(diagnose("(Worker_TP1 pid=1360047) ERROR 03-05 09:56:09 [multiproc_executor.py:880] [1/11] :/usr/local/cuda-12.8/bin/nvcc "
                             "--generate-dependencies-with-compile --dependency-output y.cuda.o.d\n")),
            "CUDA_HOME_IS_PATH_LIST");
}

// A lazy import's failure (diffusers re-raising transformers' ImportError, huggingface/diffusers#11343)
// is an import failure no signature names; the name missing from the module on the next line is its
// cause (PY_DEP_API_REMOVED explains = "import"). Near miss: a circular import under the same framing.
TEST(LazyImportFailure, TheMissingNameIsTheCause) {
  const char* framing = "Failed to import diffusers.loaders.lora_pipeline because of the following error (look up to see its traceback):\n";
  Diagnosis d = diagnose(std::string(framing) + "cannot import name 'shard_checkpoint' from 'transformers.modeling_utils' \n");
  EXPECT_TRUE(d.failed());
  EXPECT_EQ(root_id(d), "PY_DEP_API_REMOVED") << findings_text(d);
  Diagnosis circular = diagnose(std::string(framing) +
                                "cannot import name 'X' from partially initialized module 'diffusers.loaders' (most likely due to a circular import)\n");
  EXPECT_TRUE(circular.failed());
  EXPECT_NE(root_id(circular), "PY_DEP_API_REMOVED");
}

}  // namespace
}  // namespace ts::triage::testing

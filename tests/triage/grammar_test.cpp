// Failure grammars on real lines: each line is quoted from the public thread named beside it. A
// line of a grammar must be read as that tool's failure line, and a log holding only it (and its
// surroundings) must get an answer, never "no error found"; near misses (the same words in a line
// that reports no failure) must not be read as failures.
#include <filesystem>
#include <fstream>

#include "test_util.h"
#include "triage/grammar.h"
#include "triage/line.h"

namespace ts::triage::testing {
namespace {

struct Real { const char* line; const char* tool; const char* source; };

const Real kReal[] = {
    // pytest's framing of an exception in a collection error.
    {"E   ImportError: /home/tkloczko/rpmbuild/BUILDROOT/vapoursynth-65-3.fc35.x86_64/usr/lib64/python3.8/site-packages/vapoursynth.cpython-38-x86_64-linux-gnu.so: undefined symbol: getVapourSynthAPI",
     "pytest", "https://github.com/vapoursynth/vapoursynth/issues/1022"},
    // pip's resolver.
    {"ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts",
     "pip", "https://github.com/invoke-ai/InvokeAI/issues/532"},
    {"ERROR: Cannot install -r requirements.txt (line 3), -r requirements.txt (line 7) and torch==1.10.2 because these package versions have conflicting dependencies.",
     "pip", "https://github.com/dmar-bonn/ipp-al/issues/1"},
    // uv's miette box.
    {"  \xc3\x97 No solution found when resolving dependencies:", "uv", "https://github.com/astral-sh/uv/issues/1497"},
    {"  \xe2\x95\xb0\xe2\x94\x80\xe2\x96\xb6 Because there is no version of torch==2.1.0+cpu and you require torch==2.1.0+cpu, we can conclude that the requirements are unsatisfiable.",
     "uv", "https://github.com/astral-sh/uv/issues/1497"},
    {"  \xc3\x97 Failed to build `flash-attn==2.8.2`", "uv", "https://github.com/GeeeekExplorer/nano-vllm/issues/96"},
    // uv's installer refusing a locked distribution, its sentence wrapped at the terminal's width.
    {"error: Distribution `torch==2.5.1 @ registry+https://download.pytorch.org/whl/cu124` can't be installed ", "uv",
     "https://github.com/astral-sh/uv/issues/11418"},
    // pip's progress line of a build step that failed (the box of the child's output follows it).
    {"  Getting requirements to build wheel ... error", "pip", "https://github.com/dreamgaussian/dreamgaussian/issues/73"},
    {"  Preparing metadata (setup.py) ... error", "pip", "https://github.com/llm-jp/llm-jp-sft/pull/41"},
    // pip's first verdict line, quoted alone.
    {"\"Could not find a version that satisfies the requirement torch\"", "pip", "https://github.com/jhj0517/Whisper-WebUI/issues/71"},
    // bitsandbytes' CUDA setup report and cextension's verdict.
    {"CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.", "bitsandbytes",
     "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/589"},
    {"CUDA SETUP: Setup Failed!", "bitsandbytes", "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/589"},
    {"CUDA SETUP: CUDA detection failed! Possible reasons:", "bitsandbytes",
     "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/915"},
    {"`CUDA Setup failed despite GPU being available`", "bitsandbytes", "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/572"},
    // conda and mamba.
    {"#0 60.43 LibMambaUnsatisfiableError: Encountered problems while solving:", "conda",
     "https://github.com/nicklashansen/tdmpc2/issues/13"},
    {"UnsatisfiableError: The following specifications were found to be incompatible with your system:", "conda",
     "https://github.com/conda/conda/issues/12489"},
    {"  - nothing provides _python_rc needed by python-3.12.0rc3-rc3_h2628c8c_1_cpython", "conda",
     "https://github.com/mamba-org/mamba/issues/3208"},
    // conda's transaction errors: a damaged package, an unreadable archive printed as a repr.
    {"CondaVerificationError: The package for pytorch located at C:\\stable deffusion\\stable-diffusion-ui-windows\\stable-diffusion-ui\\installer_files\\env\\pkgs\\pytorch-1.11.0-py3.8_cuda11.3_cudnn8_0",
     "conda", "https://github.com/easydiffusion/easydiffusion/issues/472"},
    {"InvalidArchiveError(\"Error with archive /home/hj/anaconda3/pkgs/pytorch-1.5.1-py3.7_cuda10.2.89_cudnn7.6.5_0.tar.bz2.  You probably need to delete and re-download or re-create this file.\"",
     "conda", "https://github.com/j-marple-dev/model_compression/issues/14"},
    // LLVM's fatal error (from Triton, and from numba's llvmlite).
    {"LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.tcgen05.wait.st", "llvm", "https://github.com/triton-lang/triton/issues/8481"},
    {"Pass execution failedLLVM ERROR: Failed to translate TritonGPU to LLVM IR.", "llvm", "https://github.com/pytorch/pytorch/issues/95445"},
    {"LLVM ERROR: Symbol not found: __svml_cosf8_ha", "llvm", "https://github.com/timsainb/noisereduce/issues/79"},
    // An assertion inside Triton's MLIR passes.
    {"python: ../../../lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp:36: int mlir::triton::gpu::(anonymous namespace)::getMMAVersionSafe(int, DotOp): Assertion `false && \"computeCapability not supported\"' failed.",
     "c-assert", "https://github.com/triton-lang/triton/issues/6087"},
    // Signals.
    {"Fatal Python error: Aborted", "python", "https://github.com/triton-lang/triton/issues/8481"},
    {"Aborted (core dumped)", "signal", "https://github.com/numba/numba/issues/6012"},
    {"Segmentation fault (core dumped)", "signal", "https://github.com/Parskatt/RoMa/issues/131"},
    {"Segmentation fault", "signal", "https://github.com/pytorch/pytorch/issues/107371"},
    {"[1]    123484 killed     python3 -m sglang.launch_server --model Qwen/Qwen3-30B-A3B --tp-size 2 --port", "signal",
     "https://github.com/triton-lang/triton/issues/7594"},
    {"Thread 1 \"python3\" received signal SIGSEGV, Segmentation fault.", "signal", "https://github.com/pytorch/pytorch/issues/4111"},
    // SIGILL in each shell's words, and as a user retypes it.
    {"illegal instruction (core dumped)", "signal", "https://github.com/dusty-nv/jetson-inference/issues/1094"},
    {"Illegal instruction (core dumped)", "signal", "https://github.com/qengineering/Jetson-Nano-Ubuntu-20-image/issues/13"},
    {"zsh: illegal hardware instruction  python", "signal", "https://github.com/apple/tensorflow_macos/issues/153"},
    // Python exceptions whose class names do not end in Error/Exception.
    {"torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old.",
     "python", "https://github.com/triton-lang/triton/issues/7594"},
    // MSBuild and nvcc.
    {"C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\MSBuild\\Microsoft\\VC\\v170\\BuildCustomizations\\CUDA 12.3.targets(799,9): error MSB3721: The command \"nvcc.exe\" exited with code 2.",
     "msbuild", "https://github.com/FLAMEGPU/FLAMEGPU2/issues/1211"},
    {"ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'", "ptxas", "https://github.com/triton-lang/triton/issues/8539"},
    {"RuntimeError: Internal Triton PTX codegen error: ptxas fatal : Value 'sm_120' is not defined for option 'gpu-name'", "triton",
     "https://github.com/InternLM/lmdeploy/issues/3410"},
    // CUDA/HIP runtime.
    {":3:hip_module.cpp           :669 : 14629861952 us: [pid:31113 tid:0x7fa5a37fe700] hipLaunchKernel: Returned hipErrorInvalidDeviceFunction : ",
     "cuda-runtime", "https://github.com/ROCm/legacy-rocm-build/issues/2527"},
    {"RuntimeError: CUDA error: no kernel image is available for execution on the device", "cuda-runtime",
     "https://github.com/Janrupf/stable-diffusion-webui-nix/issues/9"},
    // An exception printed as its repr by the framework that caught it (hydra).
    {"ImportError(\"cannot import name 'cached_download' from 'huggingface_hub' (/opt/data/private/yzx/anaconda3/envs/robodiff/lib/python3.9/site-packages/huggingface_hub/__init__.py)\")",
     "python", "https://github.com/real-stanford/diffusion_policy/issues/167"},
    // A lazily imported module's failure as diffusers (and transformers) re-raise it, the message on the next line.
    {"Failed to import diffusers.loaders.lora_pipeline because of the following error (look up to see its traceback):", "python",
     "https://github.com/huggingface/diffusers/issues/11343"},
    // Windows' loader without the OSError in front.
    {"[WinError 126] The specified module could not be found. Error loading \"E:\\PL-v0.0.5.2\\python-3.10.11-embed\\lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.",
     "loader", "https://github.com/Pathos14489/Pantella/issues/14"},
    // CPython's words for Windows' loader wherever they stand: inside a library's re-raised message
    // (llama-cpp-python's RuntimeError), after a logger's "time:module: ", and an extension module's
    // import failure without "ImportError: " (batch 19's development part).
    {"RuntimeError: Failed to load shared library 'D:\\My_Tech\\GenAIPlay\\venv\\Lib\\site-packages\\llama_cpp\\llama.dll': Could not find module 'D:\\My_Tech\\GenAIPlay\\venv\\Lib\\site-packages\\llama_cpp\\llama.dll' (or one of its dependencies). Try using the full path with constructor syntax.",
     "loader", "https://github.com/abetlen/llama-cpp-python/issues/1280"},
    {"02:08:15:llama_chat_adapter.py: RuntimeError: Failed to load shared library 'C:\\x\\llama_cpp\\lib\\llama.dll': Could not find module 'C:\\x\\llama_cpp\\lib\\llama.dll' (or one of its dependencies). Try using the full path with constructor syntax.",
     "loader", "https://github.com/abetlen/llama-cpp-python/issues/981"},
    {"DLL load failed while importing onnxruntime_pybind11_state: \xE5\x8A\xA8\xE6\x80\x81\xE9\x93\xBE\xE6\x8E\xA5\xE5\xBA\x93(DLL)\xE5\x88\x9D\xE5\xA7\x8B\xE5\x8C\x96\xE4\xBE\x8B\xE7\xA8\x8B\xE5\xA4\xB1\xE8\xB4\xA5\xE3\x80\x82",
     "loader", "https://github.com/Kedreamix/Linly-Dubbing/issues/58"},
    // glibc's loader, after the program's name and quoted without it (batch 24's development part).
    {"hack/dfhack-run: error while loading shared libraries: libz.so.1: cannot open shared object file: No such file or directory",
     "loader", "https://github.com/DFHack/dfhack/issues/164"},
    {"error while loading shared libraries: libcudart,so.11.0: cannot open shared object file: No such file or directory", "loader",
     "https://github.com/tonyyxliu/CUHKSZ-CSC4005/issues/69"},
    {"error while loading shared libraries: libnl-genl-3.so.200: wrong ELF class: ELFCLASS64", "loader",
     "https://github.com/remonlam/rpi-arch-builder/issues/21"},
    // conda's conflict report quoted without its "UnsatisfiableError: " line.
    {"anaconda==2020.11 -> pkginfo==1.6.1[build='py38h06a4308_0|py37h06a4308_0']The following specifications were found to be incompatible with your system:",
     "conda", "https://github.com/pytorch/pytorch/issues/55007"},
    {"Package pkginfo conflicts for:", "conda", "https://github.com/pytorch/pytorch/issues/55007"},
    // An exception whose message begins on the next line (bitsandbytes' cextension.py raises a block).
    {"RuntimeError: ", "python", "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1522"},
    // Abseil's failure signal handler in the Python process (vLLM on ROCm, Triton's LLVM aborting).
    {"*** SIGABRT received at time=1712361058 on cpu 4 ***", "signal", "https://github.com/vllm-project/vllm/issues/3878"},
    // ptxas' diagnostics located in the PTX it assembles (Triton's), plain and under pytest's "E".
    {"ptxas /tmp/fileot19Lw, line 38; error   : Feature 'scopes on atomic operations' requires .target sm_60 or higher", "ptxas",
     "https://github.com/triton-lang/triton/issues/496"},
    {"E       ptxas /tmp/fileeECWP1, line 297; error   : Feature 'mma' requires .target sm_70 or higher", "ptxas",
     "https://github.com/triton-lang/triton/issues/542"},
    // GNU make unable to start a recipe's program (conda's R naming conda's compiler).
    {"make: /ebio/abt3_projects/software/dev/miniconda3/envs/test/bin/x86_64-conda_cos6-linux-gnu-c++: Command not found", "make",
     "https://github.com/RcppCore/Rcpp/issues/770"},
    // A missing header told between its angle brackets.
    {"<THC/THCDeviceUtils.cuh> not found for PyTorch 1.11 with Cuda 11.4 Compilation error after calling `python setup.py develop`",
     "compiler", "https://github.com/aliyun/conditional-lane-detection/issues/35"},
};

// The same words where nothing failed.
const char* const kNearMisses[] = {
    "Solving environment: failed with initial frozen solve. Retrying with flexible solve.",
    "Tried installing torch==1.7.1 but it's not available anywhere",
    "  hint: This error likely indicates that `flash-attn@2.8.1` depends on `torch`",
    "WARNING: Retrying (Retry(total=4)) after connection broken",
    "E0205 09:51:38.047000 18628 site-packages/torch/_inductor/runtime/triton_heuristics.py:810] [0/0]     tmp62 = libdevice.rsqrt(tmp61)",
    "-- Looking for pthread_create in pthreads - not found",
    "the segmentation fault handler is installed",
    "Killed 3 zombie workers",
    // SIGILL's words that report no signal: a counter, a sentence about one.
    "Illegal instruction count: 0",
    "It crashes with an illegal instruction on ARM",
    // nvcc's host-compiler bound in a sentence that reports no failure.
    "README: gcc versions later than 5.3 are not supported by CUDA 8.0 (use gcc-5)",
    "Resolved 44 packages in 978ms",
    "    ...<3 lines>...",
    "from conda.exceptions import InvalidArchiveError, SafetyError",
    // The lazy-import words without the framing: a progress message, a log of what was tried.
    "Failed to import optional module apex, falling back to native AMP",
    // A traceback's source line that raises: code, not the exception it printed.
    "    raise ValueError(\"unknown GPU architecture, set TORCH_CUDA_ARCH_LIST\")",
    // bitsandbytes' setup where it goes on: its progress, its advice, a warning before the backup paths.
    "CUDA SETUP: Loading binary AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\bitsandbytes\\libbitsandbytes_cpu.so...",
    "CUDA SETUP: Solution 1): Your paths are probably not up-to-date. You can update them via: sudo ldconfig.",
    "CUDA SETUP: CUDA runtime path found: /usr/local/cuda-12.1/lib64/libcudart.so",
    "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...",
    // pip's progress lines of steps that went through, and a step's name in prose.
    "  Installing build dependencies ... done",
    "  Getting requirements to build wheel ... done",
    "  Building wheel for torch-scatter (setup.py) ... \\",
    "  Building wheel for flash-attn (setup.py) ... error",
    "Getting requirements to build wheel failed with an error in setup.py",
    // uv's hint under its installer's refusal, and pip finding what it was asked for.
    "hint: You're on Linux (`manylinux_2_39_x86_64`), ",
    "Requirement already satisfied: torch in ./venv/lib/python3.10/site-packages (2.1.0)",
    // conda's words where it went on, a package name in prose; an exception class named in a sentence;
    // abseil's handler being installed, not a signal received.
    "Solving environment: done",
    "Package pkginfo conflicts for: none",
    "Catching RuntimeError: is how the retry loop works",
    "I0405 23:49:47 failure_signal_handler.cc:105] Installed SIGABRT handler",
    // The loader's words where nothing failed to load: code that tests for them (a library's handler), a note.
    "        if \"Try using the full path with constructor syntax.\" in str(err):",
    "Fixes 'DLL load failed' on Windows by adding the CUDA bin directory",
    "Could not find module named vcruntime140 in the registry cache, searching PATH",
    // ptxas' information and warnings, make going on, configure checks that report a header absent.
    "ptxas info    : Used 32 registers, 368 bytes cmem[0]",
    "ptxas /tmp/tmpxft_00001234_00000000-5_kernel.ptx, line 12; warning : Double is not supported. Demoting to float",
    "make[2]: Entering directory '/home/user/pytorch/third_party/nccl/nccl/src'",
    "make: Nothing to be done for 'all'.",
    "checking for <sys/mman.h>... not found",
    "-- Looking for include file pthread.h - not found",
};

TEST(Grammar, RealFailureLinesAreReadAsTheirToolsFailure) {
  for (const auto& r : kReal) {
    std::string buf;
    auto got = read_failure_line(sanitize_line(r.line, buf));
    ASSERT_TRUE(got) << r.line << " (" << r.source << ")";
    EXPECT_STREQ(got->grammar->tool, r.tool) << r.line << " (" << r.source << ")";
  }
}

TEST(Grammar, ALogOfOneFailureLineGetsAnAnswer) {
  for (const auto& r : kReal) {
    Diagnosis d = diagnose(std::string("some output before\n") + r.line + "\n");
    EXPECT_TRUE(d.failed()) << r.line << " (" << r.source << ")";
  }
}

TEST(Grammar, NearMissesAreNotFailures) {
  for (const char* line : kNearMisses) {
    std::string buf;
    EXPECT_FALSE(read_failure_line(sanitize_line(line, buf))) << line;
    EXPECT_FALSE(diagnose(std::string(line) + "\n").failed()) << line;
  }
}

TEST(Grammar, EntitiesOfRealLines) {
  auto has = [](const std::vector<Entity>& es, std::string_view kind, std::string_view value) {
    for (const auto& e : es)
      if (e.kind == kind && e.value == value) return true;
    return false;
  };
  EXPECT_TRUE(has(entities_of("      ModuleNotFoundError: No module named 'torch'"), "module", "torch"));
  EXPECT_TRUE(has(entities_of("ImportError: /opt/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"),
                  "symbol", "_ZN3c104cuda9SetDeviceEi"));
  EXPECT_TRUE(has(entities_of("C:\\Users\\AnY\\AppData\\Local\\Temp\\tmp_z9f6r7d\\cuda_utils.c(12): fatal error C1083: Cannot open include file: 'Python.h': No such file or directory"),
                  "header", "Python.h"));
  EXPECT_TRUE(has(entities_of("C:/Users/ADMINI~1/AppData/Local/Temp/tmpr56dckpw/cuda_utils.c:13: error: include file 'Python.h' not found"),
                  "header", "Python.h"));
  // A C++ header without an extension, as gcc names it.
  EXPECT_TRUE(has(entities_of("src/dense.cc:3:10: fatal error: sparsehash/dense_hash_map: No such file or directory"), "header", "sparsehash/dense_hash_map"));
  EXPECT_TRUE(has(entities_of("x.cpp:1:10: fatal error: cuda_runtime.h: No such file or directory"), "header", "cuda_runtime.h"));
  // gcc in another locale (graphdeco-inria/gaussian-splatting#758): the message is translated, the name is not.
  EXPECT_TRUE(has(entities_of("fatal error: torch/extension.h: \xe6\xb2\xa1\xe6\x9c\x89\xe9\x82\xa3\xe4\xb8\xaa\xe6\x96\x87\xe4\xbb\xb6\xe6\x88\x96\xe7\x9b\xae\xe5\xbd\x95"),
                  "header", "torch/extension.h"));
  EXPECT_TRUE(has(entities_of("src/a.cc:3:10: fatal error: sparsehash/dense_hash_map: Datei oder Verzeichnis nicht gefunden"), "header",
                  "sparsehash/dense_hash_map"));
  // ... and with "fatal error" translated as well (jjwang/HanOS#1, zh_CN, full-width colons).
  EXPECT_TRUE(has(entities_of("ib/command.c:4:10: 致命错误：lib/re.h：没有那个文件或目录"), "header", "lib/re.h"));
  // Near misses: gcc's fatal errors that name no header.
  for (const char* line : {"c++: fatal error: Killed signal terminated program cc1plus",
                           "gcc: fatal error: no input files"})
    for (const auto& e : entities_of(line)) EXPECT_NE(e.kind, "header") << line;
  EXPECT_TRUE(has(entities_of("ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'"), "arch", "sm_121a"));
  // The oldest arch that has an instruction ptxas refused (triton-lang/triton#496), and the program make could not start
  // by its name, not its path (RcppCore/Rcpp#770), and a header named between angle brackets.
  EXPECT_TRUE(has(entities_of("ptxas /tmp/fileot19Lw, line 93; error   : Feature 'scopes on atomic operations' requires .target sm_60 or higher"),
                  "arch_needed", "sm_60"));
  EXPECT_TRUE(has(entities_of("make: /ebio/abt3_projects/software/dev/miniconda3/envs/test/bin/x86_64-conda_cos6-linux-gnu-c++: Command not found"),
                  "program", "x86_64-conda_cos6-linux-gnu-c++"));
  EXPECT_TRUE(has(entities_of("<THC/THCDeviceUtils.cuh> not found for PyTorch 1.11"), "header", "THC/THCDeviceUtils.cuh"));
  for (const auto& e : entities_of("ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_70'")) EXPECT_NE(e.kind, "arch_needed");
  EXPECT_TRUE(has(entities_of("ImportError: /usr/local/miniconda3/envs/ktransformers/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found"),
                  "version", "GLIBCXX_3.4.30"));
  EXPECT_TRUE(has(entities_of("import selective_scan_cuda\nImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory"),
                  "library", "libcudart.so.11.0"));
  EXPECT_TRUE(has(entities_of("  \xc3\x97 Failed to build `flash-attn==2.8.2`"), "package", "flash-attn"));
  EXPECT_TRUE(has(entities_of("ImportError: cannot import name 'cached_download' from 'huggingface_hub'"), "name", "cached_download"));
  // The DLL ctypes' Windows loader could not load, inside the message of the library that re-raised it.
  EXPECT_TRUE(has(entities_of("RuntimeError: Failed to load shared library 'C:\\x\\llama.dll': Could not find module 'C:\\x\\llama.dll' (or one of its dependencies). Try using the full path with constructor syntax."),
                  "library", "C:\\x\\llama.dll"));
  EXPECT_TRUE(entities_of("Resolved 44 packages in 978ms").empty());
  // A program that could not be started, by name, in each grammar that says so (a path is none).
  EXPECT_TRUE(has(entities_of("FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'"), "program", "nvcc"));
  EXPECT_TRUE(has(entities_of("torch._dynamo.exc.InternalTorchDynamoError: RuntimeError: Compiler: cl is not found."), "program", "cl"));
  EXPECT_TRUE(has(entities_of("/bin/sh: 1: nvcc: not found"), "program", "nvcc"));
  EXPECT_TRUE(has(entities_of("bash: ninja: command not found"), "program", "ninja"));
  EXPECT_TRUE(has(entities_of("'cl.exe' is not recognized as an internal or external command,"), "program", "cl.exe"));
  EXPECT_TRUE(has(entities_of("error: command 'g++' failed: No such file or directory"), "program", "g++"));
  EXPECT_FALSE(has(entities_of("FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'"), "program", "nvcc"));
  // The torch the environment has, beside another torch (xFormers' line, pip's check); Python's is not it.
  EXPECT_TRUE(has(entities_of("    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.2.0+cpu)"), "torch_installed", "2.2.0+cpu"));
  EXPECT_TRUE(has(entities_of("vllm 0.6.3 requires torch==2.4.0, but you have torch 2.2.0 which is incompatible."), "torch_installed", "2.2.0"));
  for (const auto& e : entities_of("    Python  3.11.7 (you have 3.11.0)")) EXPECT_NE(e.kind, "torch_installed");
}

TEST(Grammar, TheAnswerNamesTheToolAndTheEntity) {
  Diagnosis d = diagnose("python -c \"import local_corr\"\nSegmentation fault (core dumped)\n");
  ASSERT_TRUE(d.root());
  ASSERT_FALSE(d.root()->notes.empty());
  EXPECT_NE(d.root()->notes.front().find("failure line of signal"), std::string::npos) << d.root()->notes.front();
}

TEST(Grammar, CollectorPrefixesDoNotHideAFailure) {
  std::string buf;
  EXPECT_EQ(sanitize_line("#0 60.43 LibMambaUnsatisfiableError: Encountered problems while solving:", buf),
            "LibMambaUnsatisfiableError: Encountered problems while solving:");
  EXPECT_EQ(sanitize_line("Oct 04 15:02:41 llm sd-webui-forge-start[394]: RuntimeError: CUDA error: no kernel image is available", buf),
            "RuntimeError: CUDA error: no kernel image is available");
  EXPECT_EQ(sanitize_line("E0303 11:40:42.533000 713 site-packages/torch/_inductor/runtime/triton_heuristics.py:533] Traceback (most recent call last):", buf),
            "Traceback (most recent call last):");
  EXPECT_EQ(sanitize_line("E0205 09:51:38.047000 18628 site-packages\\torch\\_inductor\\runtime\\triton_heuristics.py:810] [0/0]     tmp62 = x", buf),
            "    tmp62 = x");
  // A CI runner's ISO time on every line (GitHub Actions' raw log; the message is Jimver/cuda-toolkit#374's job's)
  // and a bracketed time.
  EXPECT_EQ(sanitize_line("2024-11-14T09:41:27.1234567Z   OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.", buf),
            "  OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.");
  EXPECT_EQ(sanitize_line("2024-11-14T09:41:27+01:00 error: command 'nvcc' failed", buf), "error: command 'nvcc' failed");
  EXPECT_EQ(sanitize_line("[2024-03-12 10:11:12,345] RuntimeError: CUDA error: out of memory", buf), "RuntimeError: CUDA error: out of memory");
  // A Markdown block quote, as a thread quotes a log (pytorch/pytorch#17572: "> -- Found CUDA: ..."), once or nested.
  EXPECT_EQ(sanitize_line("> -- Found CUDA: /cm/shared/apps/cuda91/toolkit/9.1.85 (found version \"9.1\")", buf),
            "-- Found CUDA: /cm/shared/apps/cuda91/toolkit/9.1.85 (found version \"9.1\")");
  EXPECT_EQ(sanitize_line("> > ModuleNotFoundError: No module named 'torch'", buf), "ModuleNotFoundError: No module named 'torch'");
  // Lines that only look like it stay whole (a Python prompt, a merge conflict's marker, a '>' without a space).
  for (const char* kept : {"#include <cuda.h>", "#12 building", "Oct 2024 release notes: fixed", "E1234 is an error code", "[rank]: x",
                           ">>> import torch", ">>>>>>> feature-branch", ">x", "2024-03-12 10:11:12 starting the build",
                           "[2024-03-12] notes", "2024-03-12T10:11:12Z"})
    EXPECT_EQ(sanitize_line(kept, buf), kept) << kept;
}

// SIGILL, however a shell words it, is an instruction this CPU does not have (the grammar's cause);
// near miss: the CUDA runtime's "illegal instruction" is the GPU's, a failure of another grammar.
TEST(Grammar, SigillInAnyShellsWordsIsTheCpusInstruction) {
  for (const char* log : {"python3 train_ssd.py --data=data/object\nillegal instruction (core dumped)\n",
                          ">>> import tensorflow as tf\nzsh: illegal hardware instruction  python\n"}) {
    Diagnosis d = diagnose(log);
    ASSERT_TRUE(d.root()) << log;
    EXPECT_EQ(d.root()->id, "JETSON_OPENBLAS_ILLEGAL_INSTRUCTION") << log;
  }
  Diagnosis gpu = diagnose("RuntimeError: CUDA error: an illegal instruction was encountered\n");
  ASSERT_TRUE(gpu.root());
  EXPECT_NE(gpu.root()->id, "JETSON_OPENBLAS_ILLEGAL_INSTRUCTION");
}

// A grammar that names the cause of its failure lines names a signature the knowledge base has.
TEST(Grammar, AGrammarsCauseIsASignature) {
  std::size_t named = 0;
  for (const auto& g : grammars()) {
    if (!g.signature) continue;
    ++named;
    EXPECT_NE(engine().set().find(g.signature), nullptr) << g.tool << ": " << g.signature;
  }
  EXPECT_GE(named, 2u);
}

TEST(Grammar, TheLoaderNotFindingALibraryIsItsPathWhateverTheLibrarysSpelling) {
  // The loader's "cannot open shared object file" has one cause: the library is not on its path. The name is
  // whatever the quote spells (a comma for the dot in tonyyxliu/CUHKSZ-CSC4005#69); the program may be cut off.
  for (const char* line : {
           "error while loading shared libraries: libcudart,so.11.0: cannot open shared object file: No such file or directory",
           "hack/dfhack-run: error while loading shared libraries: libz.so.1: cannot open shared object file: No such file or directory",
       }) {
    SCOPED_TRACE(line);
    Diagnosis d = diagnose(std::string(line) + "\n");
    ASSERT_TRUE(d.root());
    EXPECT_EQ(d.root()->id, "SHARED_OBJECT_NOT_LOADABLE") << findings_text(d);
  }
  // Near misses: the loader's other reasons for the same library (another ELF class, DFHack/dfhack#164 and
  // remonlam/rpi-arch-builder#21) are failures, but not a library missing from the path.
  for (const char* line : {
           "hack/dfhack-run: error while loading shared libraries: libz.so.1: wrong ELF class: ELFCLASS64",
           "error while loading shared libraries: libnl-genl-3.so.200: wrong ELF class: ELFCLASS64",
       }) {
    SCOPED_TRACE(line);
    Diagnosis d = diagnose(std::string(line) + "\n");
    ASSERT_TRUE(d.failed());
    if (d.root()) EXPECT_NE(d.root()->id, "SHARED_OBJECT_NOT_LOADABLE") << findings_text(d);
  }
}

TEST(Grammar, ATracebackCutBeforeItsExceptionIsReadAtItsLastRaise) {
  // Lornatang/CycleGAN-PyTorch#14 (batch 24's development part): the quote ends at the frame that raised.
  const char* cut =
      "  File \"F:\\anaconda\\envs\\cycle\\lib\\site-packages\\torch\\cuda\\streams.py\", line 34, in __new__\n"
      "    return super().__new__(cls, priority=priority, **kwargs)\n"
      "  File \"F:\\anaconda\\envs\\cycle\\lib\\site-packages\\torch\\cuda\\_utils.py\", line 49, in err_fn\n"
      "    raise RuntimeError(f\"Tried to instantiate dummy base class {class_name}\")\n";
  Diagnosis d = diagnose(cut);
  ASSERT_TRUE(d.failed()) << findings_text(d);
  ASSERT_TRUE(d.root());
  bool raise_read = false;
  for (const auto& e : d.root()->evidence) raise_read |= e.text.find("raise RuntimeError") != std::string::npos;
  EXPECT_TRUE(raise_read) << findings_text(d);
  // Near miss (pytorch/pytorch#157458): the exception line under the raise is the failure's own report, read
  // first though it comes later.
  const char* whole =
      "  File \"C:\\Users\\HolyWu\\Downloads\\torch_2.9.dev\\Lib\\site-packages\\torch\\_inductor\\cpp_builder.py\", line 138, in check_compiler_exist_windows\n"
      "    raise RuntimeError(f\"Compiler: {compiler} is not found.\") from exc\n"
      "torch._dynamo.exc.InternalTorchDynamoError: RuntimeError: Compiler: cl is not found.\n";
  Diagnosis w = diagnose(whole);
  ASSERT_TRUE(w.root());
  EXPECT_EQ(w.root()->id, "MSVC_CL_NOT_FOUND") << findings_text(w);
  // Code outside a traceback's frame (a raise at a line's start, as in a quoted source file) is no failure line.
  std::string buf;
  EXPECT_FALSE(read_failure_line(sanitize_line("raise RuntimeError(\"CUDA is required\")", buf)));
}

// Over the whole real corpus, development and held-out: every log holding a failure line of the
// grammars gets an answer. Reads no label and reports no score: only whether an answer exists.
TEST(Grammar, EveryRealLogWithAFailureLineGetsAnAnswer) {
  const auto dir = std::filesystem::path(TS_SOURCE_DIR) / "tests/triage/real";
  std::ifstream manifest(dir / "MANIFEST.tsv");
  ASSERT_TRUE(manifest);
  std::string row;
  std::size_t logs = 0, with_failure = 0;
  std::vector<std::string> unanswered;
  while (std::getline(manifest, row)) {
    if (row.empty() || row[0] == '#') continue;
    std::string id = row.substr(0, row.find('\t'));
    const std::string text = read_file(dir / "cases" / (id + ".log"));
    ++logs;
    std::istringstream lines(text);
    std::string line, buf;
    bool failure = false;
    while (!failure && std::getline(lines, line)) failure = read_failure_line(sanitize_line(line, buf)).has_value();
    if (!failure) continue;
    ++with_failure;
    if (!diagnose(text).failed()) unanswered.push_back(id);
  }
  EXPECT_GE(logs, 900u);
  EXPECT_GE(with_failure, logs / 2);
  std::string list;
  for (const auto& u : unanswered) list += " " + u;
  EXPECT_TRUE(unanswered.empty()) << unanswered.size() << " log(s) with a failure line read as no error:" << list;
}

}  // namespace
}  // namespace ts::triage::testing

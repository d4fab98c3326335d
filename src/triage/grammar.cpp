#include "triage/grammar.h"

#include <memory>

#include <re2/re2.h>

namespace ts::triage {
namespace {

// One table: the engine's markers and read_failure_line both ask it. Spelled so that each pattern
// keeps a necessary literal of 6+ bytes: an optional group would leave RE2's prefilter only
// "error", and short literals shorten the prefilter's stride (prefilter.h).
constexpr Grammar kGrammars[] = {
    // MSBuild's task failure ("...CUDA 12.2.targets(799,9): error MSB3721: The command ... exited"),
    // first: MSVC's "file(line): error C2065:" pattern below would read it as the compiler's.
    {Marker::failure_line, "msbuild", "compile", R"(\berror MSB[0-9]+\s*:)"},
    // ninja's failed edge; pip indents a build's output (two spaces with -v, six in its failure dump).
    {Marker::failed_target, "ninja", "compile", R"(^\s*FAILED: )"},
    // Compilers and linkers: gcc/clang/ld "file:line: error:", MSVC "x.cpp(3): error C2065:",
    // nvcc's EDG front end "x.cu(12): error", and the drivers' own fatal lines.
    {Marker::compiler_error, "compiler", "compile", R"(: error:)"},
    {Marker::compiler_error, "msvc", "compile", R"(: error [A-Z]+[0-9]+\s*:)"},
    {Marker::compiler_error, "compiler", "compile", R"(: fatal error(?: [A-Z]+[0-9]+)?\s*:)"},
    {Marker::compiler_error, "compiler", "compile", R"(^\s*fatal error(?: [A-Z]+[0-9]+)?\s*:)"},  // excerpt without the file
    {Marker::compiler_error, "nvcc", "compile", R"(\([0-9]+\): error)"},
    {Marker::compiler_error, "nvcc", "compile", R"(\([0-9]+\): catastrophic error)"},
    {Marker::compiler_error, "nvcc", "compile", R"(^\s*nvcc fatal\s*:)"},
    {Marker::compiler_error, "ptxas", "compile", R"(^\s*(?:ptxas|nvlink) (?:fatal|error)\s*:)"},
    // ptxas' diagnostics located in the PTX file it assembles ("ptxas /tmp/x.ptx, line 562; error   : Feature
    // 'mma' requires .target sm_70 or higher"), as Triton and nvcc print them, under pytest's "E" too.
    {Marker::compiler_error, "ptxas", "compile", R"(\bptxas \S+, line [0-9]+; (?:error|fatal)\s*:)"},
    {Marker::cmake_error, "cmake", "configure", R"(^\s*CMake Error)"},
    // GNU make could not start a recipe's program (make 3.x/4.x: "make: g++: Command not found"; 4.3+ with the
    // C library's words, "make: /opt/x/bin/x86_64-conda-linux-gnu-c++: No such file or directory").
    {Marker::failure_line, "make", "compile", R"(\bmake(?:\[[0-9]+\])?: \S+: (?:Command not found|No such file or directory)\s*$)"},
    // An included header a report names between its angle brackets as not found ("<THC/THCDeviceUtils.cuh> not
    // found for PyTorch 1.11"): how a build's missing header is told when the compiler's own line is not quoted.
    {Marker::failure_line, "compiler", "compile", R"(<[\w./+-]+\.(?:h|hh|hpp|hxx|cuh|inc)> not found)"},
    {Marker::traceback, "python", "any", R"(^\s*Traceback \(most recent call last\):)"},

    // Resolvers: the verdict lines of pip, uv (its miette box: "× No solution found", "╰─▶ Because
    // ..."), conda and mamba. Before the generic "ERROR: " so they name their tool.
    {Marker::failure_line, "pip", "resolve", R"(\bResolutionImpossible\b)"},
    {Marker::failure_line, "pip", "resolve", R"(because these package versions have conflicting dependencies)"},
    {Marker::failure_line, "pip", "resolve", R"(\bNo matching distribution found for )"},
    // pip's first verdict line, which an excerpt may quote without the second ("No matching ...").
    {Marker::failure_line, "pip", "resolve", R"(\bCould not find a version that satisfies the requirement )"},
    {Marker::failure_line, "uv", "resolve", R"(\bNo solution found when resolving dependencies)"},
    // pip's progress line of a step before the build that failed ("Getting requirements to build wheel ...
    // error", "Preparing metadata (setup.py) ... error"): the package's build backend (its setup.py) raised
    // while pip asked it for its requirements or metadata, before anything was compiled. The build's own
    // step ("Building wheel for x ... error") is not one: the compiler's error in its output is the failure.
    {Marker::failure_line, "pip", "build",
     R"(^\s*(?:Getting requirements to build (?:wheel|editable)|Preparing (?:editable )?metadata \(\S+\)|Installing build dependencies) \.\.\. error\s*$)"},
    {Marker::failure_line, "uv", "build", "^\\s*(?:\xc3\x97|x) Failed to (?:build|download|install|prepare) "},
    {Marker::failure_line, "uv", "any", "^\\s*\xe2\x95\xb0\xe2\x94\x80\xe2\x96\xb6 "},  // "╰─▶ ": the cause under uv's "×"
    // uv's installer (sync, run) refusing a locked distribution: no file of it for this platform or
    // interpreter. uv wraps the sentence at the terminal's width, so "because ..." may be the next line.
    // uv before 0.3 wrote it lower case and without backticks ("error: distribution torch==2.3.1+cpu @ registry+...
    // can't be installed"), and its lock's entry with no file at all "with neither wheels nor source distribution".
    {Marker::failure_line, "uv", "install", R"(\b[Dd]istribution `?[^`\s]+(?: @ [^`\s]+)?`? can't be installed\b)"},
    {Marker::failure_line, "uv", "install", R"(\bfound distribution \S+ @ \S+ with neither wheels nor source distribution)"},
    {Marker::failure_line, "conda", "resolve", R"(\b(?:LibMamba)?UnsatisfiableError\b)"},
    {Marker::failure_line, "conda", "resolve", R"(\b(?:PackagesNotFoundError|ResolvePackageNotFound)\b)"},
    {Marker::failure_line, "conda", "resolve", R"(\bCould not solve for environment specs)"},
    {Marker::failure_line, "conda", "resolve", R"(\bnothing provides \S+ needed by )"},
    // conda's conflict report (conda/resolve.py's find_conflicts), which an excerpt may quote without the
    // "UnsatisfiableError: " it follows: its verdict sentence (glued to "Available versions" when a section
    // is empty) and each section's "Package X conflicts for:" header.
    {Marker::failure_line, "conda", "resolve", R"(\bThe following specifications? (?:were|was) found to be incompatible with )"},
    {Marker::failure_line, "conda", "resolve", R"(^\s*Package \S+ conflicts for:\s*$)"},
    // conda's transaction errors, raised after the solve (a damaged package in its cache, two packages
    // writing one path); an archive's error is printed as the exception's repr, with no ": ".
    {Marker::failure_line, "conda", "install", R"(\b(?:InvalidArchiveError|CondaVerificationError|SafetyError|ClobberError)(?:\(|: ))"},

    // Python: an exception line as CPython prints it, as pytest frames it ("E   ImportError: ..."),
    // and exception classes whose names do not end in Error/Exception (inductor's, a process pool's).
    {Marker::failure_line, "pytest", "any", R"(^E\s+(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception): )"},
    {Marker::failure_line, "python", "any",
     R"(^\s*(?:[A-Za-z_][\w.]*\.)?(?:BrokenProcessPool|BackendCompilerFailed|TritonMissing|ProcessRaisedException|ProcessExitedException)\b)"},
    // A lazily imported module's failure as transformers and diffusers re-raise it ("Failed to import
    // diffusers.loaders.lora_pipeline because of the following error (look up to see its traceback):",
    // the underlying message on the next line): the failure of an import, with or without "RuntimeError: ".
    {Marker::failure_line, "python", "import", R"(\bFailed to import [\w.]+ because of the following error\b)"},
    {Marker::failure_line, "python", "any", R"(^Fatal Python error: )"},
    // An exception whose message begins on the next line: CPython prints str(exc) as it is, and a message
    // written as a block ("RuntimeError('''\n    CUDA Setup failed ...''')") leaves the class alone on its line.
    {Marker::failure_line, "python", "any", R"(^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception):\s*$)"},
    // An exception printed as its repr by the framework that caught it (hydra's "Error loading
    // '...':" is followed by `ImportError("cannot import name ...")`); at the line's start, so a
    // traceback's source line (`raise ValueError("...")`) is not one.
    {Marker::failure_line, "python", "any", R"(^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)\(["'])"},

    // A traceback quoted without its exception line: its last frame's source line raising the exception (a frame's
    // `raise`, indented under its `File "..."` line) is the failure line left (Marker::frame_raise).
    {Marker::frame_raise, "python", "any", R"(^\s{2,}raise (?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)\()"},

    // LLVM and what is built on it (Triton, numba, MLIR passes): a fatal error, an assertion, a crash.
    {Marker::failure_line, "llvm", "compile", R"(LLVM ERROR: )"},
    {Marker::failure_line, "llvm", "compile", R"(\bPLEASE submit a bug report to )"},
    {Marker::failure_line, "triton", "compile", R"(\bInternal Triton PTX codegen error)"},
    // Triton's OutOfResources (python/triton/runtime/errors.py), under whatever module path re-raised it
    // (triton.runtime.errors, triton.runtime.autotuner): its class name has no Error suffix.
    {Marker::failure_line, "triton", "runtime", R"(\bOutOfResources: out of resource: )"},
    {Marker::failure_line, "c-assert", "runtime", R"(: Assertion .{1,300} failed\.?\s*$)"},

    {Marker::failure_line, "nvcc", "compile", R"(^\s*nvcc error\s*:)"},

    // bitsandbytes' CUDA setup (cuda_setup/main.py, 0.37-0.42) reports its failure under its own prefix, and
    // cextension.py raises one verdict: each means its native CUDA library did not load. Its warnings
    // ("CUDA_SETUP: WARNING! libcudart.so not found ... Searching in backup paths") go on searching.
    {Marker::failure_line, "bitsandbytes", "import",
     R"(^\s*CUDA SETUP: (?:Problem: |CUDA detection failed|Setup Failed|Required library version not found))",
     "BITSANDBYTES_NATIVE_LIB_NOT_LOADED"},
    {Marker::failure_line, "bitsandbytes", "import", R"(\bCUDA Setup failed despite GPU being available\b)",
     "BITSANDBYTES_NATIVE_LIB_NOT_LOADED"},


    // Signals: a shell's or the kernel's report of a process that died. SIGILL first: however a shell
    // words it (bash "Illegal instruction (core dumped)", zsh "zsh: illegal hardware instruction", a
    // user retyping it in lower case), the process ran an instruction this CPU does not have.
    {Marker::failure_line, "signal", "runtime",
     R"((?i)^\s*(?:(?:zsh: )?illegal hardware instruction(?: \(core dumped\))?\s|illegal instruction(?: \(core dumped\))?\s*$))",
     "JETSON_OPENBLAS_ILLEGAL_INSTRUCTION"},
    {Marker::failure_line, "signal", "runtime", R"(^\s*(?:Illegal instruction|Segmentation fault|Bus error) \(core dumped\))"},
    {Marker::failure_line, "signal", "runtime",
     R"(^\s*(?:Aborted|Segmentation fault|Illegal instruction|Floating point exception)(?: \(core dumped\))?\s*$)"},
    {Marker::failure_line, "signal", "runtime", R"(: line \d+: +\d+ (?:Aborted|Segmentation fault|Illegal instruction|Killed)\b)"},
    {Marker::failure_line, "signal", "runtime", R"(^\[\d+\] +\d+ (?:killed|segmentation fault|abort) )"},  // zsh's job line
    {Marker::failure_line, "signal", "runtime", R"(\b(?:received signal |exitcode=-|died with <Signals\.)SIG(?:SEGV|ABRT|BUS|ILL|FPE|KILL)\b)"},
    // Abseil's failure signal handler (absl/debugging/failure_signal_handler.cc), installed by libraries
    // that link abseil into the Python process: "*** SIGABRT received at time=1712361058 on cpu 4 ***".
    {Marker::failure_line, "signal", "runtime", R"(^\s*\*\*\* SIG[A-Z]+ received at time=)"},

    // An uncaught C++ exception: libstdc++'s two lines (a log cut after the first keeps the second)
    // and libc++'s one (old and new wording).
    {Marker::failure_line, "c++-runtime", "runtime", R"(^\s*terminate called after throwing an instance of )"},
    {Marker::failure_line, "c++-runtime", "runtime", R"(^\s*what\(\):  )"},
    {Marker::failure_line, "c++-runtime", "runtime", R"(libc\+\+abi(?:\.dylib)?: terminating (?:with|due to) uncaught exception )"},
    {Marker::failure_line, "cuda-runtime", "runtime", R"(\b(?:CUDA|HIP|cuDNN|rocBLAS|NCCL) [Ee]rror\b)"},
    // A CUDA runtime call's status as the CUDA samples print it (deviceQuery: "cudaGetDeviceCount
    // returned 3"), any call and any code; the runtimes' error enums by name.
    {Marker::failure_line, "cuda-runtime", "runtime", R"(\b(?:cuda|cu|hip)[A-Z]\w* returned [0-9]+\b)"},
    {Marker::failure_line, "cuda-runtime", "runtime", R"(\b(?:cuda|hip)Error(?:NoKernelImageForDevice|InvalidDeviceFunction|NoDevice|InsufficientDriver|IllegalAddress|LaunchFailure)\b)"},
    {Marker::failure_line, "loader", "import", R"(^\s*\[WinError [0-9]+\] )"},
    // Windows' loader as CPython words it, wherever an exception class or a wrapper puts it: an extension
    // module's import (Python/dynload_win.c: "DLL load failed while importing _C: <the system's text>", "...
    // with error code N while importing", "DLL load failed: " before 3.8) and ctypes loading a DLL
    // (Modules/_ctypes/callproc.c: "Could not find module 'x.dll' (or one of its dependencies). Try using the
    // full path with constructor syntax."), which a library re-raises inside its own message (llama-cpp-python's
    // "RuntimeError: Failed to load shared library '...': Could not find module ...", a JSON report's "error").
    {Marker::failure_line, "loader", "import", R"(\bDLL load failed(?::| while importing | with error code ))"},
    {Marker::failure_line, "loader", "import",
     R"(\bCould not find module '[^']+'(?: \(or one of its dependencies\)|\. Try using the full path))"},
    // glibc's loader (elf/dl-load.c): "PROG: error while loading shared libraries: LIB: REASON", quoted with or
    // without the program. A library it could not open has one cause, whatever LIB is spelled: it is not on
    // the loader's path (a wrong ELF class or a missing version is another reason, read by its own words).
    {Marker::failure_line, "loader", "runtime",
     R"((?:^\s*|: )error while loading shared libraries: [^:]+: cannot open shared object file)", "SHARED_OBJECT_NOT_LOADABLE"},
    {Marker::failure_line, "loader", "runtime", R"((?:^\s*|: )error while loading shared libraries: )"},
    {Marker::failure_line, "linker", "link", R"(\bld: cannot find )"},
    {Marker::failure_line, "linker", "link", R"(undefined reference to )"},
    // GNU ld's verdict on the whole link and on an input it could not read ("final link failed: Bad value",
    // "libclog.a: error adding symbols: Bad value"): an excerpt may quote them without collect2's exit line.
    {Marker::failure_line, "linker", "link", R"(\bfinal link failed: )"},
    {Marker::failure_line, "linker", "link", R"(: error adding symbols: )"},
    // The generic forms last, so a line also in a specific grammar is read as that tool's. Literals
    // of 7+ bytes each ("error: ", "exception: "), for the prefilter's stride.
    {Marker::failure_line, "msvc", "compile", R"(^\s*error (?:C|LNK|D)[0-9]+\s*:)"},  // MSVC without a file name
    {Marker::failure_line, "python", "any", R"(^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception): )"},
    {Marker::failure_line, "tool", "any", R"(^\s*error: )"},
    {Marker::failure_line, "tool", "any", R"(^\s*ERROR: )"},
};

struct EntityPattern { const char* kind; const char* re; };

// The entities a failure line names, each from its first capture group.
constexpr EntityPattern kEntities[] = {
    {"module", R"(No module named '?([\w.]+))"},
    {"module", R"(cannot import name '\w+' from '([\w.]+)')"},
    {"name", R"(cannot import name '(\w+)' from ')"},
    {"module", R"(DLL load failed while importing (\w+))"},
    {"library", R"(Could not find module '([^']+)')"},  // ctypes' Windows loader: the DLL it could not load
    {"header", "([\\w./+-]+\\.(?:h|hpp|hh|hxx|cuh|inc))(?:['\"]|\xe2\x80\x9d)?\\s*:\\s*No such file"},
    {"header", R"((?:fatal error|error): ([\w./+-]+): No such file)"},  // gcc: any header, extension or not
    // gcc in any locale ("fatal error: torch/extension.h: 没有那个文件或目录"): the message is translated, the
    // name is not; a header's extension, or a path after the including file's line:column, says it is one.
    {"header", R"(fatal error: ([\w./+-]+\.(?:h|hh|hpp|hxx|cuh|inc|inl)): \S)"},
    {"header", R"(:\d+:\d+: fatal error: ([\w.+-]+(?:/[\w.+-]+)+): \S)"},
    // gcc with "fatal error" translated too (zh_CN "致命错误：lib/re.h：没有那个文件或目录"): the C library's
    // ENOENT text in the locales MISSING_HEADER_GENERIC reads, after an ASCII or full-width colon.
    {"header", R"(([\w./+-]+\.(?:h|hh|hpp|hxx|cuh|inc|inl)) ?(?::|：) ?(?:没有那个文件或目录|沒有此一檔案或目錄|Datei oder Verzeichnis nicht gefunden|Aucun fichier ou dossier de ce type|No existe el archivo o el directorio|Нет такого файла или каталога|そのようなファイルやディレクトリはありません))"},
    {"header", R"(Cannot open include file: '([^']+)')"},
    {"header", R"re(Cannot open include file: "([^"]+)")re"},  // MSVC quoting with double quotes
    {"header", R"re(cannot open source file "([^"]+)")re"},     // nvcc's EDG front end, NVRTC
    {"header", "\xe2\x80\x9c([\\w./+-]+\\.(?:h|hpp|cuh))\xe2\x80\x9d"},  // MSVC in Chinese: “Python.h”
    {"header", R"(include file '([^']+)' not found)"},
    {"header", R"('([\w./+-]+\.(?:h|hpp|hh|cuh))' file not found)"},
    {"header", R"(<([\w./+-]+\.(?:h|hh|hpp|hxx|cuh|inc))> not found)"},
    // A mangled name is [\w.$@]: a quote or parenthesis after it is the framing (an exception's repr
    // "ImportError('...: undefined symbol: _ZN...')", a quoted message), not part of the symbol.
    {"symbol", R"(undefined symbol: ([\w.$@]+))"},
    {"symbol", R"(undefined reference to [`'](.+?)')"},
    {"symbol", "undefined reference to \xe2\x80\x98(.+?)\xe2\x80\x99"},  // gcc with UTF-8 quotes
    {"symbol", R"(Symbol not found: ([\w.$@]+))"},
    // A name the compiler found no declaration of: nvcc's EDG front end, GCC (ASCII or UTF-8 quotes), clang.
    {"identifier", R"re(identifier "(\w+)" is undefined)re"},
    {"identifier", R"('(\w+)' was not declared in this scope)"},
    {"identifier", "\xe2\x80\x98(\\w+)\xe2\x80\x99 was not declared in this scope"},
    {"identifier", R"(use of undeclared identifier '(\w+)')"},
    {"library", R"((lib[\w+.-]*\.so[\d.]*): cannot open shared object file)"},
    {"library", R"re(Error loading "([^"]+\.dll)")re"},
    {"library", R"(cannot find -l(\S+))"},
    {"version", R"(version `((?:GLIBC|GLIBCXX|CXXABI)_[\d.]+)' not found)"},
    {"arch", R"(\b((?:sm|compute)_\d+[af]?|gfx\d+\w*)\b)"},
    // ptxas refusing an instruction for the GPU it assembles for names the oldest arch that has it: the GPU is older.
    {"arch_needed", R"(\bFeature '[^']+' requires \.target (sm_\d+)[af]? or higher)"},
    // ptxas refusing a newer PTX ISA names two versions: the file's and the newest it knows.
    {"ptx_isa", R"(Unsupported \.version (\d+\.\d+);)"},
    {"ptx_isa_known", R"(; current version is '(\d+\.\d+)')"},
    // A program that could not be started, by name (a path is not one: CUDA_HOME's list is its own cause),
    // in the grammar of what ran it: Python's exec, a shell, cmd.exe, distutils, torch Inductor's check.
    {"program", R"(No such file or directory: '([\w.+-]+)')"},
    {"program", R"(\b([\w.+-]+): command not found)"},
    {"program", R"((?:^|[\s:])([\w.+-]+): not found\s*$)"},
    {"program", R"('([\w.+-]+)' is not recognized as an internal or external command)"},
    {"program", R"(unable to execute '?([\w.+-]+)'?: No such file or directory)"},
    {"program", R"(\bcommand '([\w.+-]+)' failed: No such file or directory)"},
    {"program", R"(\bCompiler: ([\w.+-]+) is not found)"},
    {"program", R"(\bmake(?:\[[0-9]+\])?: (?:\S*/)?([\w.+-]+): (?:Command not found|No such file or directory)\s*$)"},
    // The torch the environment has, as a line beside another torch names it: an extension's "built for
    // PyTorch A ... (you have B)" (xFormers), pip's check "requires torch==A, but you have torch B".
    {"torch_installed", R"((?i)\b(?:py)?torch\b[^()]{0,80}\(you have ([0-9][^)\s]*)\))"},
    {"torch_installed", R"(\bbut you have torch ([0-9]\S*))"},
    // A library or package a build's finder could not find, by the name the finder prints: CMake's
    // FindPackageHandleStandardArgs ("Could NOT find CUDNN (missing: ...)"), a config package ("... provided
    // by "Torch""), a project's own check ("Can not find CuDNN Library", "MAGMA not found"). The name is
    // a word of 3+ characters: "could not find a package" names none.
    {"dependency", R"((?i)\b(?:can ?not|could not|unable to|failed to) find (?:the )?([a-z]\w{2,})\b)"},
    {"dependency", R"re(package configuration file provided by "(\w+)")re"},
    {"dependency", R"((?i)\b([a-z]\w{2,}) (?:librar(?:y|ies) )?(?:was )?not found\b)"},
    {"package", R"(Failed to (?:build|download) `?([\w.-]+))"},
    {"package", R"(No matching distribution found for (\S+))"},
    {"package", R"(satisfies the requirement (\S+))"},
    // A distribution an installer found no installable file of, by name (its requirement's name, without
    // version, extras or quotes): pip's two verdict lines, uv's installer.
    {"distribution", R"(No matching distribution found for ([A-Za-z0-9][\w.-]*))"},
    {"distribution", R"(satisfies the requirement ([A-Za-z0-9][\w.-]*))"},
    // uv's installer in either case, with or without backticks; the name is followed by its version or index,
    // so "a source distribution or wheel" names none.
    {"distribution", R"(\b[Dd]istribution `?([A-Za-z0-9][\w.-]*)(?:==| @ ))"},
    // uv's resolver: a requirement (with its markers in braces) none of whose files fit this platform ("torch==2.6.0
    // has no wheels with a matching platform tag", "torch{sys_platform == 'win32'}==2.7.1+cu128 has no `...`-compatible
    // wheels").
    {"distribution", R"(\b([A-Za-z0-9][\w.-]*)(?:\{[^}]*\})?==\S+ has no (?:wheels with a matching |`))"},
    // The package whose own compiled module a loader names ("site-packages/torchvision/_C.so: undefined symbol"):
    // its top-level package directory; a module at site-packages' top (flash_attn_2_cuda.so) is no package's.
    {"extension", R"([/\\](?:site|dist)-packages[/\\]([A-Za-z_]\w*)[/\\][^\s:'"]*?\.(?:so|pyd)\b)"},
    // An x86 vector ISA that code was compiled for, as a symbol or file name carries it: torch's per-ISA kernel
    // copies (cmake/Codegen.cmake: NAME.AVX2.cpp, -DCPU_CAPABILITY=AVX2) and functions suffixed with their ISA.
    {"cpu_isa", R"((?i)[._](avx512[a-z]*|avx2|avx|fma|sse4_[12])(?:[._ (]|$))"},
};

RE2::Options latin1() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

template <class T, std::size_t N>
const std::vector<std::unique_ptr<RE2>>& compiled(const T (&table)[N]) {
  static const auto all = [&] {
    std::vector<std::unique_ptr<RE2>> v;
    for (const auto& g : table) v.push_back(std::make_unique<RE2>(g.re, latin1()));
    return v;
  }();
  return all;
}

}  // namespace

std::span<const Grammar> grammars() { return kGrammars; }

std::vector<Entity> entities_of(std::string_view line) {
  std::vector<Entity> out;
  const auto& res = compiled(kEntities);
  for (std::size_t i = 0; i < res.size(); ++i) {
    re2::StringPiece in(line.data(), line.size()), value;
    while (RE2::FindAndConsume(&in, *res[i], &value)) {
      Entity e{kEntities[i].kind, std::string(value.data(), value.size())};
      bool seen = false;
      for (const auto& o : out) seen |= o.kind == e.kind && o.value == e.value;
      if (!seen) out.push_back(std::move(e));
      if (value.empty()) break;
    }
  }
  return out;
}

std::optional<FailureLine> read_failure_line(std::string_view line) {
  const auto& res = compiled(kGrammars);
  for (std::size_t i = 0; i < res.size(); ++i)
    if (kGrammars[i].marker != Marker::frame_raise && RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *res[i]))
      return FailureLine{&kGrammars[i], entities_of(line)};
  return std::nullopt;
}

}  // namespace ts::triage

// Ranking: the root cause, not the last error.
#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace ts::triage::testing {
namespace {

TEST(Ranking, OomBeatsTheWrappersAfterIt) {
  auto d = diagnose(
      "[100/200] Building CXX object a.o\n"
      "FAILED: a.o\n"
      "c++: fatal error: Killed signal terminated program cc1plus\n"
      "compilation terminated.\n"
      "ninja: build stopped: subcommand failed.\n"
      "error: command '/usr/bin/g++' failed with exit code 1\n"
      "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n");
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  EXPECT_EQ(d.root()->first_line(), 3u);
  EXPECT_EQ(d.root()->remedy.kind, RemedyKind::halve_jobs);
  EXPECT_TRUE(has_finding(d, "NINJA_BUILD_STOPPED"));
  EXPECT_TRUE(has_finding(d, "SETUPTOOLS_COMMAND_FAILED"));
  EXPECT_TRUE(has_finding(d, "CALLED_PROCESS_ERROR"));
}

TEST(Ranking, CascadeIsOneFindingWithACount) {
  std::string log = "FAILED: x.o\n/src/x.cpp:1:10: fatal error: cupti.h: No such file or directory\n";
  for (int i = 0; i < 40; ++i) log += "/src/x.cpp:" + std::to_string(20 + i) + ":5: error: 'CUpti_Activity' does not name a type\n";
  for (int i = 0; i < 5; ++i) log += "/src/y.cpp:3:1: fatal error: cupti.h: No such file or directory\n";
  log += "ninja: build stopped: subcommand failed.\n";
  auto d = diagnose(log);
  EXPECT_EQ(root_id(d), "MISSING_HEADER_GENERIC");
  EXPECT_EQ(d.root()->count, 6u);  // the same failure on six lines: one finding
  EXPECT_EQ(d.root()->first_line(), 2u);
  EXPECT_EQ(d.error_lines, 46u);
  std::string ids;
  for (const auto& f : d.findings) ids += f.id + " ";
  EXPECT_EQ(d.findings.size(), 2u) << ids;  // the root and the ninja wrapper, nothing per error line
}

TEST(Ranking, SupersedesDropsTheGenericOne) {
  auto d = diagnose("FAILED: x.o\nc++: fatal error: Killed signal terminated program cc1plus\nKilled\nmake: *** [all] Error 137\n");
  EXPECT_EQ(root_id(d), "OOM_CC1PLUS_KILLED");
  bool generic_moot = false;
  for (const auto& f : d.findings)
    if (f.id == "OOM_GENERIC_KILLED") generic_moot = f.superseded_by == "OOM_CC1PLUS_KILLED";
  EXPECT_TRUE(generic_moot);
}

TEST(Ranking, ErrorBeatsAnEarlierWarning) {
  auto d = diagnose("-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH)\n"
                    "CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n"
                    "  CMake 3.18 or higher is required.  You are running version 3.10.2\n");
  EXPECT_EQ(root_id(d), "CMAKE_TOO_OLD");
  EXPECT_EQ(d.findings.size(), 2u);
}

// A warning-class signature that matched the failing line itself names that failure; one on
// another line stays a note under the unrecognised first error.
TEST(Ranking, WarningOnTheFailingLineIsTheError) {
  auto d = diagnose("-- Could NOT find CUDNN (missing: CUDNN_INCLUDE_DIR)\n"
                    "FAILED: conv.o\n"
                    "src/conv.cpp:3:10: fatal error: cudnn.h: No such file or directory\n"
                    "ninja: build stopped: subcommand failed.\n");
  EXPECT_EQ(root_id(d), "CUDNN_NOT_FOUND");
  EXPECT_TRUE(d.failed());
  EXPECT_EQ(d.root()->severity, Severity::error);

  auto other = diagnose("-- Could NOT find CUDNN (missing: CUDNN_INCLUDE_DIR)\n"
                        "FAILED: conv.o\n"
                        "src/conv.cpp:3:10: error: 'foo' was not declared in this scope\n");
  EXPECT_EQ(root_id(other), "unrecognised");
  EXPECT_EQ(other.root()->first_line(), 3u);
  EXPECT_TRUE(has_finding(other, "CUDNN_NOT_FOUND"));

  // A REQUIRED find_package: the same words are the message of the CMake Error block.
  auto block = diagnose("CMake Error at /usr/share/cmake/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
                        "  Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS) (found version \"11.4\")\n"
                        "Call Stack (most recent call first):\n"
                        "  CMakeLists.txt:67 (find_package)\n");
  EXPECT_EQ(root_id(block), "CUDA_NOT_DETECTED_AT_CONFIGURE");
  EXPECT_TRUE(block.failed());
}

TEST(Ranking, EarliestErrorWins) {
  auto d = diagnose("/usr/bin/ld: cannot find -lcudart: No such file or directory\n"
                    "ptxas fatal   : Memory allocation failure\n");
  EXPECT_EQ(root_id(d), "CUDA_LINK_LIB_NOT_FOUND");
}

TEST(Unrecognised, FirstCompilerErrorUnderTheFirstFailedTarget) {
  auto d = diagnose("/a.cpp:1:1: warning: something [-Wfoo]\n"
                    "[1/9] Building CXX object a.o\n"
                    "FAILED: b.o\n"
                    "/usr/bin/c++ -c b.cpp\n"
                    "/src/b.cpp:7:3: error: 'frobnicate' was not declared in this scope\n"
                    "/src/b.cpp:9:3: error: expected ';' before '}' token\n"
                    "ninja: build stopped: subcommand failed.\n");
  EXPECT_EQ(root_id(d), "unrecognised");
  EXPECT_FALSE(d.known());
  EXPECT_EQ(d.root()->first_line(), 5u);
  EXPECT_EQ(d.root()->count, 2u);
  ASSERT_GE(d.root()->context.size(), 3u);
  EXPECT_EQ(d.root()->context.front().line, 2u);  // three lines before it
}

TEST(Unrecognised, CMakeErrorBlock) {
  auto d = diagnose("-- Looking for a - found\nCMake Error at foo/CMakeLists.txt:3 (message):\n  Something odd is\n  going on here.\n\n-- Configuring incomplete, errors occurred!\n");
  EXPECT_EQ(root_id(d), "unrecognised");
  EXPECT_EQ(d.root()->first_line(), 2u);
  ASSERT_GE(d.root()->evidence.size(), 3u);
  EXPECT_EQ(d.root()->evidence[1].text, "  Something odd is");
}

TEST(Unrecognised, PythonTracebackLastFrame) {
  auto d = diagnose("running build\nTraceback (most recent call last):\n  File \"setup.py\", line 3, in <module>\n    main()\n"
                    "  File \"/x/build.py\", line 88, in main\n    raise KeyError(k)\nKeyError: 'TORCH_FOO'\n");
  EXPECT_EQ(root_id(d), "unrecognised");
  ASSERT_EQ(d.root()->evidence.size(), 2u);
  EXPECT_EQ(d.root()->evidence[0].line, 5u);  // the last frame
  EXPECT_EQ(d.root()->evidence[1].text, "KeyError: 'TORCH_FOO'");
}

TEST(Unrecognised, WrappersAloneFallBackToTheFailedLine) {
  auto d = diagnose("FAILED: lib/libx.so\nninja: build stopped: subcommand failed.\n");
  EXPECT_EQ(root_id(d), "unrecognised");
  EXPECT_EQ(d.root()->first_line(), 1u);
}

// pip wheel -v passes the build's output through two spaces in; its failure dump, six.
TEST(Unrecognised, IndentedByPipTheSameFindings) {
  auto d = diagnose("  [1/9] Building CXX object a.o\n"
                    "  FAILED: b.o\n"
                    "  /usr/bin/c++ -c b.cpp\n"
                    "  /src/b.cpp:7:3: error: 'frobnicate' was not declared in this scope\n"
                    "  ninja: build stopped: subcommand failed.\n");
  EXPECT_EQ(root_id(d), "unrecognised");
  EXPECT_EQ(d.root()->first_line(), 4u);
  auto t = diagnose("      running build_ext\n"
                    "      Traceback (most recent call last):\n"
                    "        File \"setup.py\", line 3, in <module>\n"
                    "          main()\n"
                    "        File \"/x/build.py\", line 88, in main\n"
                    "          raise KeyError(k)\n"
                    "      KeyError: 'TORCH_FOO'\n"
                    "      [end of output]\n");
  EXPECT_EQ(root_id(t), "unrecognised");
  ASSERT_EQ(t.root()->evidence.size(), 2u);
  EXPECT_EQ(t.root()->evidence[0].line, 5u);  // the last frame
  EXPECT_EQ(t.root()->evidence[1].text, "      KeyError: 'TORCH_FOO'");
  auto w = diagnose("  FAILED: lib/libx.so\n  ninja: build stopped: subcommand failed.\n");
  EXPECT_EQ(root_id(w), "unrecognised");
  EXPECT_EQ(w.root()->first_line(), 1u);
}

TEST(Unrecognised, CleanLogHasNoRoot) {
  auto d = diagnose("[1/2] Building CXX object a.o\n[2/2] Linking CXX executable a\n");
  EXPECT_EQ(d.root(), nullptr);
  EXPECT_EQ(d.lines, 2u);
}

// Only a tool's summary lines failed (the real error was cut from the excerpt): still a failure,
// answered "unrecognised" at the earliest summary line, never "no error found".
TEST(Ranking, OnlyWrapperLinesStillFail) {
  auto d = diagnose("[3/4] Linking CXX shared library libfoo.so\n"
                    "collect2: error: ld returned 1 exit status\n"
                    "ninja: build stopped: subcommand failed.\n");
  ASSERT_NE(d.root(), nullptr);
  EXPECT_EQ(root_id(d), "unrecognised");
  EXPECT_TRUE(d.failed());
  EXPECT_EQ(d.root()->first_line(), 2u);
  EXPECT_NE(d.root()->cause.find("LD_RETURNED_1"), std::string::npos) << d.root()->cause;
  EXPECT_TRUE(has_finding(d, "NINJA_BUILD_STOPPED"));
  // A known error still wins over the summary lines after it.
  auto k = diagnose("/usr/bin/ld: cannot find -lcudart: No such file or directory\n"
                    "collect2: error: ld returned 1 exit status\n");
  EXPECT_EQ(root_id(k), "CUDA_LINK_LIB_NOT_FOUND");
}

TEST(Ranking, WarningsAloneAreNoError) {
  auto d = diagnose("warning: unused variable 'x' [-Wunused-variable]\nBuilt target foo\n");
  EXPECT_FALSE(d.failed());
}

}  // namespace
}  // namespace ts::triage::testing

namespace ts::triage::testing {
namespace {

// A failure line a terminal hard-wrapped at its width (byte-voyager/network-ball-gtk#1's CMake error, cut at
// 120 columns as a console copy cuts it) is read joined: its cause, not "unrecognised". Near miss: two long
// lines that joined name no known cause stay the unrecognised failure they are.
TEST(Ranking, AFailureLineCutAtTheTerminalsWidthIsReadJoined) {
  Diagnosis d = diagnose(
      "CMake Error: The current CMakeCache.txt directory /home/gaoya/Applications/network-ball-gtk/CMakeCache.txt is different \n"
      "than the directory /home/alonebo/CLionProjects/network-ball-gtk where CMakeCache.txt was created. This may result in bin\n"
      "aries being created in the wrong place. If you are not sure, reedit the CMakeCache.txt\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "STALE_CMAKE_CACHE_DIR");
  Diagnosis other = diagnose(
      "error: frobnicator failed to open the configuration database at /var/lib/frobnicator/state/current/db.sqlite3\n"
      "  while loading plugin set 'default' from /usr/share/frobnicator/plugins.d with 14 plugins enabled in total\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised");
}

// CMake prints a message indented under its "CMake Error in FILE:" line, so the sentence that names the cause
// is the next line (ICLDisco/parsec#555, CMP0104 under CMake 3.26): the block is read as one line. Near misses:
// the same sentence in CMake's CMP0104 developer warning (the build goes on), and a CMake Error block whose
// joined message names no known cause stays the unrecognised failure it is.
TEST(Ranking, ACMakeErrorsIndentedMessageIsReadWithItsHeader) {
  Diagnosis d = diagnose(
      "CMake Error in build/_deps/parsec-src/tests/dsl/dtd/CMakeLists.txt:\n"
      "  CUDA_ARCHITECTURES is empty for target \"dtd_test_new_tile\".\n\n\n"
      "-- Generating done\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "CMAKE_CUDA_ARCHITECTURES_EMPTY");
  Diagnosis warning = diagnose(
      "CMake Warning (dev) in tests/unit/CMakeLists.txt:\n"
      "  Policy CMP0104 is not set: CMAKE_CUDA_ARCHITECTURES now detected for NVCC,\n"
      "  empty CUDA_ARCHITECTURES not allowed.\n\n"
      "  CUDA_ARCHITECTURES is empty for target \"core-unittests-ttg-mad\".\n"
      "This warning is for project developers.  Use -Wno-dev to suppress it.\n");
  EXPECT_FALSE(warning.root() && warning.root()->id == "CMAKE_CUDA_ARCHITECTURES_EMPTY");
  Diagnosis other = diagnose(
      "CMake Error at CMakeLists.txt:12 (message):\n"
      "  The frobnicator plugin set could not be loaded from the configured\n"
      "  directory.\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised");
}

// A Python exception whose message begins on the next line: CPython prints str(exc) as it is, so a message
// written as a block leaves "RuntimeError: " alone on its line (bitsandbytes-foundation/bitsandbytes#1522, its
// cextension.py's verdict). The block is read as one line with the exception. Near misses: an exception alone on
// its line followed by the program's next log record (not its message), and a block naming no known cause.
TEST(Ranking, AnExceptionsMessageOnTheLinesUnderItIsReadWithIt) {
  Diagnosis d = diagnose(
      "RuntimeError: \n"
      "        CUDA Setup failed despite GPU being available. Inspect the CUDA SETUP outputs above to fix your environment!\n"
      "        If you cannot find any issues and suspect a bug, please open an issue with detals about your environment:\n"
      "        https://github.com/TimDettmers/bitsandbytes/issues\n");
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "BITSANDBYTES_NATIVE_LIB_NOT_LOADED") << findings_text(d);
  EXPECT_EQ(d.root()->first_line(), 1u);
  Diagnosis record = diagnose(
      "RuntimeError:\n"
      "INFO 04-05 23:49:47 CUDA Setup failed despite GPU being available was a message of the old release\n");
  ASSERT_TRUE(record.root());
  EXPECT_EQ(record.root()->first_line(), 1u);
  EXPECT_EQ(record.root()->id, "unrecognised") << findings_text(record);
  // pip's box indents the exception and its box's end alike: the end is no part of the message.
  Diagnosis boxed = diagnose(
      "      RuntimeError:\n"
      "      CUDA Setup failed despite GPU being available was a message of the old release\n");
  ASSERT_TRUE(boxed.root());
  EXPECT_EQ(boxed.root()->id, "unrecognised") << findings_text(boxed);
  Diagnosis other = diagnose(
      "ValueError: \n"
      "    the frobnicator plugin set could not be loaded\n");
  ASSERT_TRUE(other.root());
  EXPECT_EQ(other.root()->id, "unrecognised");
}

// An exception a program caught, logged at WARNING with its traceback, and went on from is not the failure:
// xFormers' optional Triton import as rich prints the record (derrian-distro/LoRA_Easy_Training_Scripts#287)
// and as logging's default format does, above sgl-project/sglang#8701's failure. Near misses: the same
// traceback under no record (uncaught), or under a compiler's lower-case "warning:", is the failure.
TEST(Ranking, ATracebackLoggedAtWarningIsNotTheFailure) {
  const std::string tb =
      "Traceback (most recent call last):\n"
      "  File \"D:\\AI\\venv\\Lib\\site-packages\\xformers\\__init__.py\", line 57, in _is_triton_available\n"
      "    import triton  # noqa\n"
      "    ^^^^^^^^^^^^^\n"
      "ModuleNotFoundError: No module named 'triton'\n";
  const std::string failure =
      "from sgl_kernel import common_ops\n"
      "ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: cuGreenCtxDestroy\n";
  for (const char* record : {"WARNING  A matching Triton is not available, some optimizations will not be enabled   __init__.py:61\n",
                             "WARNING:xformers:A matching Triton is not available, some optimizations will not be enabled\n"}) {
    Diagnosis d = diagnose(record + tb + failure);
    ASSERT_TRUE(d.root()) << record;
    EXPECT_EQ(d.root()->id, "NVIDIA_DRIVER_TOO_OLD") << record;
    EXPECT_FALSE(diagnose(record + tb).failed()) << record;  // alone: the program went on
  }
  for (const char* above : {"", "x.cpp:3:1: warning: unused variable 'y' [-Wunused-variable]\n"}) {
    Diagnosis d = diagnose(above + tb + "Running on local URL:  http://127.0.0.1:7860\n");
    ASSERT_TRUE(d.root()) << above;
    EXPECT_EQ(d.root()->id, "TRITON_NOT_AVAILABLE") << above;
    EXPECT_TRUE(d.failed()) << above;
  }
}

// A real build log carries configure's and the extension builder's warnings above its failure: each
// development log whose answer is an error keeps that answer with them in front (configure going on
// without cuDNN and MAGMA, pytorch/pytorch#9820 and sparticlesteve/nersc-pytorch-build#5; the ninja
// fallback; nvcc's deprecation notice). Reads the development part only, and no label.
// The development logs whose answer is an error whose answer changes with `prefix` in front ("" when none),
// or, with `quote`, with every line quoted as Markdown ("> ").
std::string answers_changed_by(const std::string& prefix, std::size_t& checked, bool quote = false, std::size_t wrap = 0) {
  const auto dir = std::filesystem::path(TS_SOURCE_DIR) / "tests/triage/real";
  std::ifstream manifest(dir / "MANIFEST.tsv");
  std::string row, changed;
  while (std::getline(manifest, row)) {
    if (row.empty() || row[0] == '#' || row.find("\tdev\t") == std::string::npos) continue;
    std::string id = row.substr(0, row.find('\t'));
    const std::string text = read_file(dir / "cases" / (id + ".log"));
    Diagnosis plain = diagnose(text);
    if (!plain.root() || plain.root()->severity != Severity::error) continue;
    ++checked;
    std::string quoted;
    if (quote) {
      std::size_t at = 0;
      while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
        quoted += "> " + text.substr(at, end - at);
        at = end;
      }
    }
    std::string cut;  // every line longer than `wrap` bytes cut into pieces of `wrap`, as a console copy cuts it
    if (wrap) {
      std::size_t at = 0;
      while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        std::size_t end = nl == std::string::npos ? text.size() : nl;
        for (std::size_t p = at; p < end || p == at; p += wrap) {
          cut += text.substr(p, std::min(wrap, end - p));
          cut += '\n';
          if (end - p <= wrap) break;
        }
        at = end + 1;
      }
    }
    Diagnosis noisy = diagnose(wrap ? cut : quote ? quoted : prefix + text);
    if (!noisy.root() || noisy.root()->id != plain.root()->id)
      changed += " " + id + " (" + plain.root()->id + " -> " + (noisy.root() ? noisy.root()->id : "none") + ")";
  }
  return changed;
}

TEST(Ranking, ConfigureWarningsAboveAFailureDoNotChangeItsAnswer) {
  const std::string prefix =
      "-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH CUDNN_INCLUDE_PATH)\n"
      "-- MAGMA not found. Compiling without MAGMA support\n"
      "/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:381: UserWarning: Attempted to use ninja as the "
      "BuildExtension backend but we could not find ninja.. Falling back to using the slow distutils backend.\n"
      "nvcc warning : The 'compute_35', 'compute_37', 'sm_35', and 'sm_37' architectures are deprecated, and may be "
      "removed in a future release (Use -Wno-deprecated-gpu-targets to suppress warning).\n";
  std::size_t checked = 0;
  std::string changed = answers_changed_by(prefix, checked);
  EXPECT_GE(checked, 700u);
  EXPECT_TRUE(changed.empty()) << changed;
}

// A log an issue thread quotes as Markdown ("> " on every line) keeps its answer.
TEST(Ranking, AMarkdownQuotedLogKeepsItsAnswer) {
  std::size_t checked = 0;
  std::string changed = answers_changed_by("", checked, true);
  EXPECT_GE(checked, 700u);
  EXPECT_TRUE(changed.empty()) << changed;
}

// A log a console copy hard-wrapped at its width (each longer line cut into pieces of that many bytes) keeps
// its answer: the longest line's length is the width, and the tail is read again with the cut lines joined
// when the plain reading found no known failure or its failure's own line was cut (a mangled symbol cut
// mid-name, read for another torch). Before this reading 57 of 1020 changed at 120 columns (33 to "no error").
// Left: two logs at 100 and two at 200 columns (a cut piece that is a known error of its own).
TEST(Ranking, AHardWrappedLogKeepsItsAnswer) {
  for (std::size_t width : {80u, 100u, 120u, 160u, 200u}) {
    std::size_t checked = 0;
    std::string changed = answers_changed_by("", checked, false, width);
    EXPECT_GE(checked, 700u);
    std::size_t n = static_cast<std::size_t>(std::count(changed.begin(), changed.end(), '('));
    EXPECT_LE(n, 2u) << "wrapped at " << width << ":" << changed;
    std::printf("wrapped at %zu: %zu of %zu change\n", width, n, checked);
  }
}

// The same for a program's start-up lines: a library's UserWarning and xFormers' optional Triton import
// logged at WARNING with its traceback (derrian-distro/LoRA_Easy_Training_Scripts#287).
TEST(Ranking, StartupWarningsAboveAFailureDoNotChangeItsAnswer) {
  const std::string prefix =
      "/venv/lib/python3.10/site-packages/transformers/utils/generic.py:441: UserWarning: torch.utils._pytree._register_pytree_node "
      "is deprecated. Please use torch.utils._pytree.register_pytree_node instead.\n"
      "  _torch_pytree._register_pytree_node(\n"
      "WARNING  A matching Triton is not available, some optimizations will not be enabled   __init__.py:61\n"
      "Traceback (most recent call last):\n"
      "  File \"/venv/lib/python3.10/site-packages/xformers/__init__.py\", line 57, in _is_triton_available\n"
      "    import triton  # noqa\n"
      "ModuleNotFoundError: No module named 'triton'\n";
  std::size_t checked = 0;
  std::string changed = answers_changed_by(prefix, checked);
  EXPECT_GE(checked, 700u);
  EXPECT_TRUE(changed.empty()) << changed;
}

}  // namespace
}  // namespace ts::triage::testing
namespace ts::triage::testing {
namespace {

// A record a program logged at WARNING right above the traceback it then died of (a warning logged just
// before raising, another library's record above an uncaught traceback) leaves the traceback the failure
// where the log's failure wrapper closes on it: pip's child-output box ("subprocess-exited-with-error" above,
// "[end of output]" below), or setup.py's CalledProcessError after it. Near misses: the same record and
// traceback alone, or followed by the program's own output (it went on), are no failure (the tests above).
TEST(Ranking, AWarningRecordAboveTheTracebackAProgramDiedOfKeepsItsCause) {
  const std::string box =
      "  error: subprocess-exited-with-error\n\n"
      "  \xc3\x97 python setup.py egg_info did not run successfully.\n"
      "  \xe2\x94\x82 exit code: 1\n"
      "  \xe2\x95\xb0\xe2\x94\x80> [12 lines of output]\n"
      "      WARNING:root:CUDA is not available, falling back to the CPU\n"
      "      Traceback (most recent call last):\n"
      "        File \"/tmp/pip-install-r4uz0u_i/flash-attn_32a89c6d2cd64a458e47c873c4dc9a8a/setup.py\", line 164, in <module>\n"
      "          raise RuntimeError(\n"
      "      RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.  Note: make sure nvcc has a supported "
      "version by running nvcc -V.\n"
      "      [end of output]\n";
  Diagnosis d = diagnose(box);
  ASSERT_TRUE(d.root());
  EXPECT_EQ(d.root()->id, "FLASH_ATTN_CUDA_TOO_OLD");
  Diagnosis after = diagnose(
      "WARNING  Failed to load the custom kernels, using the reference path   loader.py:31\n"
      "Traceback (most recent call last):\n"
      "  File \"setup.py\", line 9, in <module>\n"
      "ModuleNotFoundError: No module named 'torch'\n"
      "subprocess.CalledProcessError: Command '['python', 'setup.py', 'build_ext']' returned non-zero exit status 1.\n");
  ASSERT_TRUE(after.root());
  EXPECT_EQ(after.root()->id, "BUILD_ENV_TORCH_MISSING");
}

// A console's hard wrap read from the log's tail: the undefined symbol of Dao-AILab/flash-attention#1832 cut at
// 120 columns mid-name keeps the answer of the whole line, which the pieces read without the second readings
// do not give. Near misses: a log that went on (a record at WARNING above a caught
// traceback, the longest line alone) stays no failure, and two lines of the same length whose join names
// nothing stay a clean log.
TEST(Ranking, AConsolesHardWrapIsReadFromTheLogsTail) {
  const std::string line = "ImportError: /opt/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
                           "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE";
  const std::string head = "$ python -c \"import flash_attn\"\nTraceback (most recent call last):\n"
                           "  File \"<string>\", line 1, in <module>\n";
  Diagnosis whole = diagnose(head + line + "\n");
  ASSERT_TRUE(whole.known());
  const std::string text = head + line.substr(0, 120) + "\n" + line.substr(120) + "\n";
  Diagnosis cut = diagnose(text);
  ASSERT_TRUE(cut.root());
  EXPECT_EQ(cut.root()->id, whole.root()->id);
  Scanner plain(engine(), false, 1);  // the same log without the second readings: the cut piece reads otherwise
  plain.set_rejoin(false);
  plain.feed(text);
  Diagnosis p = plain.finish();
  EXPECT_FALSE(p.root() && p.root()->id == whole.root()->id);
  Diagnosis went_on = diagnose(
      "WARNING:xformers:A matching Triton is not available, some optimizations will not be enabled, see the docs\n"
      "Traceback (most recent call last):\n  File \"/venv/lib/python3.10/site-packages/xformers/__init__.py\", line 57\n"
      "ModuleNotFoundError: No module named 'triton'\nRunning on local URL:  http://127.0.0.1:7860\n");
  EXPECT_FALSE(went_on.failed());
  const std::string a(100, 'a'), b(100, 'b');
  EXPECT_FALSE(diagnose(a + "\nundefined \n" + b + "\nsymbol\n").failed());
}

// An earlier error a console cut mid-word reads as none, and a later one stands in for it: OpenGVLab/OmniQuant#23's
// nvcc output cut at 100 columns splits "error: id|entifier \"__hfma2\" is undefined", and the atomicAdd error
// under it, whose own line is whole, was the answer. Read joined, the first error is the root again. Near miss:
// a cut line above a known error whose join names no earlier error keeps that error's answer.
TEST(Ranking, AnEarlierErrorCutAtTheConsolesWidthIsTheRootAgain) {
  const std::string hfma = "  /OmniQuants/AutoGPTQ-bugfix/autogptq_extension/cuda_64/autogptq_cuda_kernel_64.cu(1419): "
                           "error: identifier \"__hfma2\" is undefined";
  const std::string add_line = "  /OmniQuants/AutoGPTQ-bugfix/autogptq_extension/cuda_64/autogptq_cuda_kernel_64.cu(332): "
                               "error: no instance of overloaded function \"atomicAdd\" matches the argument list";
  auto cut = [](const std::string& l) { return l.size() > 100 ? l.substr(0, 100) + "\n" + l.substr(100) : l; };
  const std::string tail = "              argument types are: (double *, double)\n        atomicAdd(&mul[b * width + w], res);\n";
  Diagnosis whole = diagnose(hfma + "\n\n" + add_line + "\n" + tail);
  ASSERT_TRUE(whole.known());
  EXPECT_EQ(whole.root()->id, "NVCC_HALF_INTRINSIC_ARCH_TOO_LOW");
  Diagnosis wrapped = diagnose(cut(hfma) + "\n\n" + cut(add_line) + "\n" + tail);
  ASSERT_TRUE(wrapped.known());
  EXPECT_EQ(wrapped.root()->id, "NVCC_HALF_INTRINSIC_ARCH_TOO_LOW") << findings_text(wrapped);
  EXPECT_EQ(wrapped.root()->first_line(), 1u);
  const std::string note(100, 'n');
  Diagnosis near = diagnose(note + "\nmore of the note\n\n" + cut(add_line) + "\n" + tail);
  ASSERT_TRUE(near.known());
  EXPECT_EQ(near.root()->id, "NVCC_ATOMICADD_ARCH_TOO_LOW") << findings_text(near);
}

// Over the development part: a WARNING record inserted right above the first traceback (at its indentation)
// of each log whose answer is an error keeps that answer, except where the record and traceback are the
// whole excerpt (the program may have gone on: pytorch/pytorch#42117, clovaai/deep-text-recognition-benchmark#416,
// ImprintLab/MedSegDiff#101): a traceback that opens the excerpt is not counted.
TEST(Ranking, AWarningRecordAboveAFailingTracebackKeepsTheAnswer) {
  const auto dir = std::filesystem::path(TS_SOURCE_DIR) / "tests/triage/real";
  for (const char* p : {"WARNING:root:CUDA is not available, falling back to the CPU\n",
                        "WARNING  Failed to load the custom kernels, using the reference path   loader.py:31\n",
                        "ERROR:root:Failed to load the extension\n", "Error: the model could not be loaded\n"}) {
    std::ifstream manifest(dir / "MANIFEST.tsv");
    std::string row, changed;
    std::size_t checked = 0, n = 0;
    while (std::getline(manifest, row)) {
      if (row.empty() || row[0] == '#' || row.find("\tdev\t") == std::string::npos) continue;
      std::string id = row.substr(0, row.find('\t'));
      const std::string text = read_file(dir / "cases" / (id + ".log"));
      std::size_t at = text.find("Traceback (most recent call last):");
      if (at == std::string::npos) continue;
      at = text.rfind('\n', at);
      at = at == std::string::npos ? 0 : at + 1;
      Diagnosis plain = diagnose(text);
      if (!plain.root() || plain.root()->severity != Severity::error) continue;
      ++checked;
      std::string indent = text.substr(at, text.find_first_not_of(' ', at) - at);
      Diagnosis noisy = diagnose(text.substr(0, at) + indent + p + text.substr(at));
      // The record and a traceback that opens the excerpt are the whole excerpt: the program may have gone on.
      if (at > 0 && (!noisy.root() || noisy.root()->id != plain.root()->id)) {
        ++n;
        changed += " " + id + " (" + plain.root()->id + " -> " + (noisy.root() ? noisy.root()->id : "none") + ")";
      }
    }
    EXPECT_GE(checked, 100u) << p;
    EXPECT_EQ(n, 0u) << p << changed;
  }
}

// hipcc as CMake's C++ compiler: CMake's compiler check fails on the HIP clang's own error and reports the
// compiler's identification unknown, a consequence; the clang's error (no ROCm device library) is the cause
// (ROCm/hipCUB#179's shape). Near miss: a compiler check failing with no such error stays the missing compiler.
TEST(Ranking, TheHipClangsErrorInCMakesCompilerCheckIsTheCause) {
  const std::string head = "-- The CXX compiler identification is unknown\n"
                           "-- Check for working CXX compiler: /opt/rocm/bin/hipcc - broken\n"
                           "CMake Error at /usr/share/cmake-3.22/Modules/CMakeTestCXXCompiler.cmake:62 (message):\n"
                           "  The C++ compiler\n\n    \"/opt/rocm/bin/hipcc\"\n\n  is not able to compile a simple test program.\n\n"
                           "  It fails with the following output:\n\n";
  Diagnosis rocm = diagnose(head + "    clang: error: cannot find ROCm device library; provide its path via '--rocm-path' or "
                                   "'--rocm-device-lib-path', or pass '-nogpulib' to build without ROCm device library\n"
                                   "-- Configuring incomplete, errors occurred!\n");
  ASSERT_TRUE(rocm.root());
  EXPECT_EQ(rocm.root()->id, "ROCM_PATH_NOT_FOUND") << findings_text(rocm);
  Diagnosis none = diagnose("-- The CXX compiler identification is unknown\n"
                            "CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CXX_COMPILER could be found.\n"
                            "-- Configuring incomplete, errors occurred!\n");
  ASSERT_TRUE(none.root());
  EXPECT_EQ(none.root()->id, "NO_CXX_COMPILER") << findings_text(none);
}

}  // namespace
}  // namespace ts::triage::testing

// What patterns see of a line: a distributed launcher's rank prefix is not part of it, so a rank's
// error line is found and ranked like the same line from a single process.
#include "test_util.h"
#include "triage/line.h"

namespace ts::triage::testing {
namespace {

TEST(SanitizeLine, DropsALaunchersRankPrefix) {
  std::string buf;
  EXPECT_EQ(sanitize_line("[rank7]: ImportError: cannot import name 'x' from 'y'", buf), "ImportError: cannot import name 'x' from 'y'");
  EXPECT_EQ(sanitize_line("[rank12]:   File \"t.py\", line 3, in <module>", buf), "  File \"t.py\", line 3, in <module>");
  EXPECT_EQ(sanitize_line("[default0]:Traceback (most recent call last):\r", buf), "Traceback (most recent call last):");
  // With a colour code the prefix goes too (the escape-stripping path).
  EXPECT_EQ(sanitize_line("\x1b[31m[rank0]: RuntimeError: boom\x1b[0m", buf), "RuntimeError: boom");
  // Anything else in brackets stays: log levels, ninja progress, a rank word without a number.
  for (const char* kept : {"[W socket.cpp:401] [c10d] x", "[12/40] Building CXX object a.o", "[rank]: x", "[rank3] x",
                           "[default0] x", "[ranked]: x"})
    EXPECT_EQ(sanitize_line(kept, buf), kept) << kept;
}

TEST(SanitizeLine, RankPrefixedErrorsAreFoundAndRanked) {
  // torchrun prints every line of a failing rank with its prefix; the error must still be the answer.
  Diagnosis d = diagnose(
      "[rank7]:     from triton.compiler.compiler import triton_key\n"
      "[rank7]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "[rank7]: ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler'\n");
  EXPECT_EQ(root_id(d), "TRITON_NOT_AVAILABLE");
  Diagnosis u = diagnose("[rank0]: Traceback (most recent call last):\n[rank0]:   File \"t.py\", line 1, in <module>\n"
                         "[rank0]: FrobnicatorError: out of order\n");
  ASSERT_TRUE(u.root());
  EXPECT_EQ(u.root()->id, "unrecognised");
  EXPECT_TRUE(u.failed());
}

TEST(SanitizeLine, DropsCiRunnersAndCollectorsPrefixes) {
  std::string buf;
  // GitLab Runner's timestamp with its stream tag (stdout/stderr, '+' for a continued line).
  EXPECT_EQ(sanitize_line("2024-05-01T12:34:56.789012Z 01E error: command 'gcc' failed", buf), "error: command 'gcc' failed");
  EXPECT_EQ(sanitize_line("2024-05-01T12:34:56.789012Z 00O+ ninja: build stopped", buf), "ninja: build stopped");
  // kubectl logs --prefix, alone and before --timestamps.
  EXPECT_EQ(sanitize_line("[pod/trainer-7d9f4-x2k/main] RuntimeError: CUDA error", buf), "RuntimeError: CUDA error");
  EXPECT_EQ(sanitize_line("[pod/t-0/main] 2024-05-01T12:34:56.789012345Z Traceback (most recent call last):", buf),
            "Traceback (most recent call last):");
  // GitHub Actions, Jenkins' timestamper, BuildKit, journald: unchanged readings.
  EXPECT_EQ(sanitize_line("2024-05-01T12:34:56.7890123Z   File \"a.py\", line 1", buf), "  File \"a.py\", line 1");
  EXPECT_EQ(sanitize_line("[2024-05-01T12:34:56.789Z] collect2: error: ld returned 1 exit status", buf),
            "collect2: error: ld returned 1 exit status");
  // Near misses: the log's own text that looks like a prefix stays.
  EXPECT_EQ(sanitize_line("2024-05-01T12:34:56Z 0OE x", buf), "0OE x");    // the runner's time goes, not a stream tag
  EXPECT_EQ(sanitize_line("2024-05-01T12:34:56Z 12E3 x", buf), "12E3 x");  // nor a number
  for (const char* kept : {
           "2024-05-01 12:34:56 ERROR 12E failures",             // a logger's own time (no 'T'), its level
           "RuntimeError: checkpoint 2024-05-01T12:34:56Z not found",  // a timestamp that is the error's data
           "[pod/trainer] x", "[pod/a b/c] x", "[podman] x",     // not kubectl's pod/NAME/CONTAINER
           "#include <cuda_runtime.h>", "# Building from source", "#12 [builder 5/9] RUN pip install .",
           "12 files changed, 3 insertions(+)", "3.456 seconds elapsed", "section_start: 3 items", "``` not a fence"})
    EXPECT_EQ(sanitize_line(kept, buf), kept) << kept;
}

TEST(SanitizeLine, AFramesOwnLineIsEmpty) {
  std::string buf;
  // A Markdown code fence around a pasted log, quoted or not.
  for (const char* fence : {"```", "```console", "```shell-session", "~~~", "> ```", "````"})
    EXPECT_EQ(sanitize_line(fence, buf), "") << fence;
  // GitLab's section markers: the terminal shows what follows the '\r' (a header, or nothing).
  EXPECT_EQ(sanitize_line("section_start:1714566896:step_script\r\x1b[0K\x1b[36;1mExecuting \"step_script\"\x1b[0;m", buf),
            "Executing \"step_script\"");
  EXPECT_EQ(sanitize_line("section_end:1714566999:step_script\r\x1b[0K", buf), "");
}

TEST(SanitizeLine, ACutTracebackClosedByAFrameStaysCut) {
  // A log pasted in a fence that ends on "Traceback (most recent call last):": the fence is no exception line.
  const std::string log = "ImportError: libtorch_cpu.so: undefined symbol: sgesdd\nTraceback (most recent call last):\n";
  EXPECT_EQ(root_id(diagnose("```console\n" + log + "```\n")), root_id(diagnose(log)));
  EXPECT_EQ(root_id(diagnose(log + "section_end:1714566999:step_script\r\x1b[0K\n")), root_id(diagnose(log)));
}

}  // namespace
}  // namespace ts::triage::testing

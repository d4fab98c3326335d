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

}  // namespace
}  // namespace ts::triage::testing

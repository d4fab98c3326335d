// bench/speed/arches.sh's refusals: it compares a native and an all-arch CUDA build, so a plan that
// compiles no CUDA, or bad input, stops it before any build with the reason (exit 2).
#include <gtest/gtest.h>

#include "util/process.h"

namespace ts::testing {
namespace {

util::RunResult bench(std::map<std::string, std::string> env, std::vector<std::string> args,
                      const char* script = "arches.sh") {
  std::vector<std::string> argv{"/bin/bash", std::string(TS_SOURCE_DIR) + "/bench/speed/" + script};
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  o.cwd = TS_SOURCE_DIR;
  o.env = std::map<std::string, std::string>{{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR},
                                             {"NO_COLOR", "1"}, {"LC_ALL", "C"}};
  for (auto& [k, v] : env) (*o.env)[k] = v;
  return util::run(argv, o);
}

TEST(BenchArches, APlanWithNoCudaIsRefusedBeforeAnyBuild) {
  auto probe = util::run({"/usr/bin/python3", "-c", "import torch"}, {std::chrono::seconds(60)});
  if (!probe.ok()) GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch)";
  auto r = bench({}, {"examples/hello_ext", TS_BINARY, "/usr/bin/python3"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("compiles no CUDA code (no TORCH_CUDA_ARCH_LIST)"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("round 1"), std::string::npos) << r.out;  // nothing was built
}

TEST(BenchArches, BadInputNamesTheProblem) {
  auto none = bench({}, {});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("Usage: bench/speed/arches.sh TREE"), std::string::npos) << none.err;
  auto tree = bench({}, {"/no/such/tree", TS_BINARY});
  EXPECT_EQ(tree.exit_code, 2);
  EXPECT_NE(tree.err.find("no such tree: /no/such/tree"), std::string::npos) << tree.err;
  auto rounds = bench({{"ROUNDS", "two"}}, {"examples/hello_ext", TS_BINARY});
  EXPECT_EQ(rounds.exit_code, 2);
  EXPECT_NE(rounds.err.find("ROUNDS must be a whole number >= 1, not 'two'"), std::string::npos) << rounds.err;
}

// bench/speed/vs_pip.sh: a missing tree or torchsmith stops it before anything is built (exit 2).
TEST(BenchVsPip, BadInputNamesTheProblem) {
  auto none = bench({}, {}, "vs_pip.sh");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("Usage: bench/speed/vs_pip.sh TREE..."), std::string::npos) << none.err;
  auto tree = bench({{"TORCHSMITH", TS_BINARY}}, {"examples/hello_ext", "/no/such/tree"}, "vs_pip.sh");
  EXPECT_EQ(tree.exit_code, 2);
  EXPECT_NE(tree.err.find("no such tree: /no/such/tree"), std::string::npos) << tree.err;
  auto ts = bench({{"TORCHSMITH", "/no/such/torchsmith"}}, {"examples/hello_ext"}, "vs_pip.sh");
  EXPECT_EQ(ts.exit_code, 2);
  EXPECT_NE(ts.err.find("torchsmith not found at /no/such/torchsmith"), std::string::npos) << ts.err;
  auto rounds = bench({{"TORCHSMITH", TS_BINARY}, {"ROUNDS", "0"}}, {"examples/hello_ext"}, "vs_pip.sh");
  EXPECT_EQ(rounds.exit_code, 2);
  EXPECT_NE(rounds.err.find("ROUNDS must be a whole number >= 1, not '0'"), std::string::npos) << rounds.err;
  EXPECT_EQ(rounds.out.find("round 1"), std::string::npos) << rounds.out;  // nothing was built
}

// bench/speed/timeline.py: each phase from the first line that names it to the next one's, in
// the order they came; no command is bad usage (exit 2).
TEST(BenchTimeline, PhasesFromTheLinesACommandPrints) {
  const std::string tl = std::string(TS_SOURCE_DIR) + "/bench/speed/timeline.py";
  util::RunOptions o;
  o.timeout = std::chrono::seconds(60);
  auto none = util::run({"/usr/bin/python3", tl}, o);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("Usage: bench/speed/timeline.py"), std::string::npos) << none.err;
  auto r = util::run({"/usr/bin/python3", tl, "--", "/bin/sh", "-c",
                      "echo '  running egg_info'; sleep 0.4; echo '  running build_ext'; sleep 0.6; "
                      "echo \"  creating 'x.whl' and adding 'build' to it\""},
                     o);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto meta = r.out.find("metadata (egg_info / prepare_metadata)");
  auto ext = r.out.find("bdist_wheel: build_ext (compile + link)");
  auto zip = r.out.find("bdist_wheel: zip");
  ASSERT_NE(meta, std::string::npos) << r.out;
  ASSERT_NE(ext, std::string::npos) << r.out;
  ASSERT_NE(zip, std::string::npos) << r.out;
  EXPECT_LT(meta, ext);
  EXPECT_LT(ext, zip);
  // build_ext's line: its start after the 0.4 s sleep, its length the 0.6 s one.
  double start = 0, secs = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str() + ext + 40, "%lf %lf", &start, &secs), 2) << r.out;
  EXPECT_GE(start, 0.35) << r.out;
  EXPECT_GE(secs, 0.55) << r.out;
  auto fail = util::run({"/usr/bin/python3", tl, "--", "/bin/sh", "-c", "echo boom; exit 3"}, o);
  EXPECT_EQ(fail.exit_code, 3) << fail.out;  // the command's own exit
}

}  // namespace
}  // namespace ts::testing

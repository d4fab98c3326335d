// Bad input never crashes or hangs: Pythons that hang, crash or print garbage; a missing root.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>

#include "fixture_util.h"

using namespace ts;
using namespace ts::probe;
using namespace ts::probe::testing;
using namespace std::chrono_literals;

TEST(BadInput, BadPythonsGetVerdictsWithinTheTimeout) {
  ProbeOptions o;
  o.python_timeout = 1s;
  auto t0 = std::chrono::steady_clock::now();
  auto f = probe_fixture("bad-python", o);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 3.0);  // all four in parallel, the hanging one cut at 1 s
  ASSERT_EQ(f.pythons.size(), 4u);
  EXPECT_EQ(python(f, "/usr/bin/python3")->error, "timed out after 1 s");
  EXPECT_EQ(python(f, "/usr/bin/python3.9")->error,
            "killed by signal 11 (Segmentation fault): Fatal Python error: Segmentation fault");
  EXPECT_EQ(python(f, "/usr/bin/python3.10")->error, "printed no JSON");
  EXPECT_EQ(python(f, "/usr/bin/python3.11")->error,
            "exit 1: ModuleNotFoundError: No module named 'encodings'");
  for (auto& p : f.pythons) EXPECT_EQ(p.version, "") << p.path;
}

TEST(BadInput, DefaultPythonTimeoutIs15s) {
  EXPECT_EQ(ProbeOptions{}.python_timeout, 15s);
}

TEST(BadInput, MissingRootIsAClearError) {
  EXPECT_EQ(check_root("/nonexistent/torchsmith-root"), "--root /nonexistent/torchsmith-root: no such directory");
  EXPECT_EQ(check_root("/etc/hostname"), "--root /etc/hostname: not a directory");
  EXPECT_EQ(check_root("/"), "");
  EXPECT_EQ(check_root(fixture_dir("no-gpu")), "");
  std::string err;
  EXPECT_FALSE(Host::at("/nonexistent/torchsmith-root", &err));
  EXPECT_EQ(err, "--root /nonexistent/torchsmith-root: no such directory");
  // probe() on a Host whose root vanished still returns, with the error as a note.
  Host h = Host::real();
  h.root = "/nonexistent/torchsmith-root";
  auto f = ts::probe::probe(h);
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].find("no such directory"), std::string::npos);
}

TEST(BadInput, ExplicitPythonThatDoesNotExist) {
  ProbeOptions o;
  o.pythons = {"/opt/nowhere/bin/python3"};
  auto f = probe_fixture("no-gpu", o);
  bool noted = false;
  for (auto& n : f.notes) noted |= n.find("/opt/nowhere/bin/python3") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(BadInput, FakeRootNeverRunsTheRealMachinesCommands) {
  // A runner that records what the probe ran: every command must be under the fixture root.
  std::string err;
  auto h = Host::at(fixture_dir("s1-rtx4090-cuda118"), &err);
  ASSERT_TRUE(h);
  auto root = h->root;
  std::vector<std::string> outside;
  std::mutex m;
  h->runner = [&](const std::vector<std::string>& argv, const util::RunOptions& o) {
    if (!argv[0].starts_with(root + "/")) {
      std::lock_guard<std::mutex> l(m);
      outside.push_back(argv[0]);
    }
    return util::run(argv, o);
  };
  auto f = ts::probe::probe(*h);
  EXPECT_TRUE(outside.empty()) << outside[0];
  EXPECT_FALSE(f.compilers.empty());
}

// Issue 21 through the real binary: no command, path or byte of input reaches further than it
// should. Each test keeps a canary directory (outside every output and cache directory) whose
// contents are hashed before and after and must not change.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "formats/zip_writer.h"
#include "run/mirror.h"
#include "run/tree_lock.h"
#include "testkit/canary.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"
#include "util/fs.h"
#include "util/sha256.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using ts::testing::run_torchsmith;
using Dir = ::ts::testkit::TempDir;
using namespace std::chrono_literals;

using Canary = ::ts::testkit::Canary;  // nothing may touch it

// torchsmith run in `cwd` with the same clean environment as run_torchsmith.
util::RunResult run_in(const std::string& cwd, const std::vector<std::string>& args,
                       std::map<std::string, std::string> extra = {}, std::chrono::milliseconds t = 120s) {
  std::vector<std::string> argv{TS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = t;
  o.cwd = cwd;
  o.env = std::map<std::string, std::string>{
      {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR}, {"NO_COLOR", "1"}, {"LC_ALL", "C"}};
  for (auto& [k, v] : extra) (*o.env)[k] = v;
  return util::run(argv, o);
}

bool have_git() { return fs::exists("/usr/bin/git"); }

std::string make_repo(const std::string& dir) {
  util::RunOptions o;
  o.timeout = 60s;
  fs::create_directories(dir);
  std::ofstream(dir + "/README") << "x\n";
  o.cwd = dir;
  for (std::vector<std::string> argv : {std::vector<std::string>{"git", "init", "-q", "-b", "main"}, {"git", "add", "-A"},
                                        {"git", "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "x"}})
    if (!util::run(argv, o).ok()) return "";
  return dir;
}

// 1. `fetch "REPO@--upload-pack=CMD;git-upload-pack"` ran CMD (it would create the marker).
TEST(Harden, FetchRefThatIsAnOptionIsRefusedAndRunsNothing) {
  if (!have_git()) GTEST_SKIP() << "needs git";
  Dir d;
  Canary canary(d / "canary");
  std::string repo = make_repo(d / "repo");
  ASSERT_FALSE(repo.empty());
  const std::string marker = d / "marker";
  auto r = run_torchsmith({"fetch", "file://" + repo + "@--upload-pack=touch " + marker + ";git-upload-pack", "--dir",
                           d / "out"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("starts with '-'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_FALSE(fs::exists(d / "out"));
  // An ssh host that ssh would read as an option, and git's ext:: transport, are refused the same way.
  r = run_torchsmith({"fetch", "ssh://-oProxyCommand=touch%20" + marker + "/r@main", "--dir", d / "out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_torchsmith({"fetch", "file://" + repo + "@main", "--mirror", "file://=ext::sh -c touch% " + marker, "--dir",
                      d / "out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(marker));
  // The default --dir is named after the URL: one directory here, never '..'.
  r = run_in(canary.path() + "/sub", {"fetch", "file://" + repo + "/.."});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("give -o DIR"), std::string::npos) << r.err;
  // A torch build's --source URL@REF is refused at plan time, before any step.
  r = run_torchsmith({"plan", "torch==2.4.1", "--python", "/usr/bin/python3", "--without", "cuda", "--source",
                      "file://" + repo + "@--upload-pack=touch " + marker + ";git-upload-pack"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--source"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_TRUE(canary.unchanged());
}

// A lock whose one step stands in for the compile: it copies nothing and runs nothing but what
// the test gives, so the tree copy, locks and options are exercised without a real build.
std::string write_lock(const std::string& path, const std::string& source_dir, const nlohmann::json& steps,
                       const std::map<std::string, std::string>& env = {}, const std::string& url = "") {
  nlohmann::json j = {{"schema", "torchsmith-plan/1"},
                      {"spec", nlohmann::json::object()},
                      {"import_name", "hello_ext"},
                      {"env", env},
                      {"steps", steps},
                      {"source", {{"dir", source_dir}, {"url", url}}}};
  util::write_file_atomic(path, j.dump(2));
  return path;
}

nlohmann::json list_step() {
  return nlohmann::json::array({{{"name", "build"}, {"argv", {"/bin/sh", "-c", "find . -name '*.cpp' | sort"}}, {"cwd", "{src}"}}});
}

// 2 and 3. `cd ext && torchsmith build .` (the default --out inside the tree) copied the tree into
// itself; a file deleted from the source stayed in OUT/src and was compiled.
TEST(Harden, OutInsideTheSourceIsLeftOutAndDeletionsReachTheCopy) {
  Dir d;
  Canary canary(d / "canary");
  const std::string ext = d / "ext";
  fs::create_directories(ext + "/csrc");
  std::ofstream(ext + "/setup.py") << "setup()\n";
  std::ofstream(ext + "/csrc/a.cpp") << "int a;\n";
  std::ofstream(ext + "/csrc/gone.cpp") << "int gone;\n";
  write_lock(d / "lock.json", ".", list_step());
  auto r = run_in(ext, {"build", "--trust-lock", "--lock", d / "lock.json", "--compile-cache", "none", "--no-governor"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string out = ext + "/torchsmith-build";
  EXPECT_TRUE(fs::exists(out + "/src/csrc/a.cpp"));
  EXPECT_FALSE(fs::exists(out + "/src/torchsmith-build"));  // not copied into itself
  EXPECT_TRUE(fs::exists(out + "/.torchsmith-out"));        // the marker clean recognises
  auto a_time = fs::last_write_time(out + "/src/csrc/a.cpp");

  fs::remove(ext + "/csrc/gone.cpp");
  std::this_thread::sleep_for(20ms);
  r = run_in(ext, {"build", "--trust-lock", "--lock", d / "lock.json", "--compile-cache", "none", "--no-governor"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(fs::exists(out + "/src/csrc/gone.cpp"));
  EXPECT_EQ(fs::last_write_time(out + "/src/csrc/a.cpp"), a_time);  // unchanged: not copied again
  EXPECT_FALSE(fs::exists(out + "/src/torchsmith-build"));
  // The step saw the tree as the source is now.
  auto log = util::read_file(out + "/last/logs/01-build.log").value_or("");
  EXPECT_EQ(log.find("gone.cpp"), std::string::npos) << log;
  EXPECT_NE(log.find("a.cpp"), std::string::npos) << log;

  // --out the source tree itself is refused before anything is written.
  r = run_in(ext, {"build", "--trust-lock", "--lock", d / "lock.json", "--compile-cache", "none", "--out", "."});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is the source tree itself"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(ext + "/src"));
  EXPECT_TRUE(canary.unchanged());
}

// Smaller ones: options checked before any work; a refused concurrent run leaves no runs/<id>.
TEST(Harden, BadCompileCacheAndALockedTreeLeaveNothingBehind) {
  Dir d;
  Canary canary(d / "canary");
  fs::create_directories(d / "ext");
  std::ofstream(d / "ext/a.cpp") << "int a;\n";
  write_lock(d / "lock.json", d / "ext", list_step());
  auto r = run_torchsmith({"build", "--trust-lock", "--lock", d / "lock.json", "--out", d / "out", "--compile-cache", "bogus"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--compile-cache bogus"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(d / "out"));  // nothing copied, nothing created

  fs::create_directories(d / "out");
  ASSERT_EQ(run::write_out_marker(d / "out"), "");  // an output an earlier build made, now in use
  std::string err;
  auto held = run::TreeLock::acquire(d / "out", "a test", false, &err);
  ASSERT_TRUE(held.held()) << err;
  r = run_torchsmith({"build", "--trust-lock", "--lock", d / "lock.json", "--out", d / "out", "--compile-cache", "none"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(fs::exists(d / "out/runs"));
  EXPECT_FALSE(fs::exists(d / "out/src"));
  EXPECT_TRUE(canary.unchanged());
}

// 4. `clean ../..` removed it; `clean /` printed "removed " and exited 0.
TEST(Harden, CleanRemovesOnlyABuildDirectory) {
  Dir d;
  Canary canary(d / "canary");
  auto r = run_in(canary.path() + "/sub", {"clean", "../.."});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("current directory, or a directory above it"), std::string::npos) << r.err;
  r = run_torchsmith({"clean", "/"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("the root directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("removed"), std::string::npos);
  r = run_torchsmith({"clean", canary.path()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds no build"), std::string::npos) << r.err;
  r = run_torchsmith({"clean", canary.path(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(canary.unchanged());

  fs::create_directories(d / "src/build/CMakeFiles");
  std::ofstream(d / "src/build/CMakeCache.txt") << "CMAKE_HOME_DIRECTORY:INTERNAL=" << d.path() << "/src\n";
  r = run_torchsmith({"clean", d / "src/build", "--keep-logs", d / "logs"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(d / "src/build"));
  EXPECT_TRUE(fs::exists(d / "logs/CMakeCache.txt"));
  EXPECT_TRUE(canary.unchanged());
}

std::string shared_object(const Dir& d) {
  std::ofstream(d / "m.cpp") << "extern \"C\" int m() { return 1; }\n";
  util::RunOptions ro;
  ro.timeout = 120s;
  auto cc = util::run({"g++", "-shared", "-fPIC", "-o", d / "m.so", d / "m.cpp"}, ro);
  return cc.ok() ? d / "m.so" : "";
}

// 5. A WHEEL Tag: line with ../ made repair write outside -o; a version '..' and a dist name with
// ';' were accepted.
TEST(Harden, RepairKeepsEveryNameFromTheWheelInsideItsOutput) {
  Dir d;
  Canary canary(d / "canary");
  std::string so = shared_object(d);
  ASSERT_FALSE(so.empty());
  const std::string wheel = d / "mini-0.1-cp311-cp311-linux_x86_64.whl";
  {
    formats::ZipWriter w(wheel);
    w.add_file("mini/_m.so", so);
    w.add("mini-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: mini\nVersion: 0.1\n");
    w.add("mini-0.1.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: x/../../canary/evil-cp311-linux_x86_64\n");
    testkit::add_record(w, "mini-0.1.dist-info");
    ASSERT_TRUE(w.finish()) << w.error();
  }
  fs::create_directories(d / "out");
  auto r = run_torchsmith({"repair", wheel, "-o", d / "out", "--local-version", "cpu"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("WHEEL: tag 'x/../../canary/evil' holds '/'"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(d / "out")) << "repair left files in -o";

  for (const char* name : {"mini-..-cp311-cp311-linux_x86_64.whl", "mi;ni-0.1-cp311-cp311-linux_x86_64.whl"}) {
    fs::copy_file(wheel, d / name);
    r = run_torchsmith({"repair", d / name, "-o", d / "out", "--local-version", "cpu"});
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.out << r.err;
  }
  EXPECT_TRUE(canary.unchanged());
}

// 5. `conda --python '3.11/../../…'` (and --cuda) wrote outside its output and left files.
TEST(Harden, CondaRefusesPathsInItsVersionOptions) {
  Dir d;
  Canary canary(d / "canary");
  const std::string wheel = d / "pure-0.1-py3-none-linux_x86_64.whl";
  {
    formats::ZipWriter w(wheel);
    w.add("pure/__init__.py", "x = 1\n");
    w.add("pure-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: pure\nVersion: 0.1\n");
    w.add("pure-0.1.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: py3-none-linux_x86_64\n");
    testkit::add_record(w, "pure-0.1.dist-info");
    ASSERT_TRUE(w.finish()) << w.error();
  }
  fs::create_directories(d / "out/deep");
  auto r = run_torchsmith({"conda", wheel, "-o", d / "out/deep", "--python", "3.11/../../../canary/x"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--python"), std::string::npos) << r.err;
  r = run_torchsmith({"conda", wheel, "-o", d / "out/deep", "--python", "3.11", "--cuda", "12.8/../../../../canary/y"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--cuda"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(d / "out/deep")) << "conda left files after failing";
  EXPECT_TRUE(canary.unchanged());
  r = run_torchsmith({"conda", wheel, "-o", d / "out/deep", "--python", "3.11"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// 10. An --out with a space failed the build with ccache (cpp_extension splits CXX at spaces):
// the compiler link goes to a path without one. The step runs $CXX unquoted, as cpp_extension does.
TEST(Harden, OutWithASpaceKeepsTheCompileCacheWorking) {
  if (!fs::exists("/usr/bin/ccache") || !fs::exists("/usr/bin/g++")) GTEST_SKIP() << "needs ccache and g++";
  Dir d;
  Canary canary(d / "canary");
  fs::create_directories(d / "ext");
  std::ofstream(d / "ext/a.c") << "int a(void) { return 1; }\n";
  nlohmann::json steps = nlohmann::json::array(
      {{{"name", "build"}, {"argv", {"/bin/sh", "-c", "$CXX -x c++ -c a.c -o a.o && echo compiled with $CXX"}}, {"cwd", "{src}"}}});
  write_lock(d / "lock.json", d / "ext", steps, {{"CXX", "/usr/bin/g++"}, {"PATH", "/usr/bin:/bin"}});
  auto r = run_in(d.path(), {"build", "--trust-lock", "--lock", d / "lock.json", "--out", d / "my out", "--compile-cache", "ccache",
                             "--no-governor"},
                  {{"XDG_CACHE_HOME", d / "cache"}, {"CCACHE_DIR", d / "cache/ccache"}});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(d / "my out/src/a.o"));
  auto log = util::read_file(d / "my out/last/logs/01-build.log").value_or("");
  EXPECT_NE(log.find("compiled with " + d / "cache/torchsmith/cache-bin/"), std::string::npos) << log;
  EXPECT_TRUE(canary.unchanged());
}

// 11. An interrupted verify left /tmp/torchsmith-verify-* behind.
TEST(Harden, InterruptedVerifyLeavesNoTemporaryDirectory) {
  Dir d;
  Canary canary(d / "canary");
  fs::create_directories(d / "tmp");
  std::ofstream(d / "py") << "#!/bin/sh\nexec sleep 20\n";
  fs::permissions(d / "py", fs::perms::owner_all);
  const std::string wheel = d / "mini-0.1-py3-none-any.whl";
  {
    // A whole wheel: the archive check refuses a bare zip before any scratch directory exists.
    formats::ZipWriter w(wheel);
    w.add("mini/__init__.py", "");
    w.add("mini-0.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: mini\nVersion: 0.1\n");
    w.add("mini-0.1.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n");
    ASSERT_TRUE(testkit::add_record(w, "mini-0.1.dist-info"));
    ASSERT_TRUE(w.finish());
  }
  for (int sig : {SIGTERM, SIGINT}) {
    pid_t pid = fork();
    if (pid == 0) {
      setenv("TMPDIR", (d / "tmp").c_str(), 1);
      execl(TS_BINARY, TS_BINARY, "verify", "--python", (d / "py").c_str(), wheel.c_str(), (char*)nullptr);
      _exit(127);
    }
    // Until its scratch directory exists (verify is then waiting on the hanging Python).
    bool made = false;
    for (int i = 0; i < 200 && !made; ++i) {
      std::this_thread::sleep_for(50ms);
      for (const auto& e : fs::directory_iterator(d / "tmp")) made |= e.path().filename().string().rfind("torchsmith-verify-", 0) == 0;
    }
    ASSERT_TRUE(made);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_TRUE(fs::is_empty(d / "tmp")) << "left behind in " << d / "tmp";
  }
  EXPECT_TRUE(canary.unchanged());
}

// 12. A token in a git URL was written to plan.lock.json, run.json and stderr.
TEST(Harden, TokensInUrlsAreNeverPrintedOrStored) {
  Dir d;
  Canary canary(d / "canary");
  fs::create_directories(d / "ext");
  std::ofstream(d / "ext/a.cpp") << "int a;\n";
  const std::string url = "https://user:SECRET1@example.invalid/org/ext.git?access_token=SECRET2";
  nlohmann::json steps = nlohmann::json::array(
      {{{"name", "build"}, {"argv", {"/bin/echo", url}}, {"cwd", "{src}"}}});
  write_lock(d / "lock.json", d / "ext", steps, {}, url);
  auto r = run_torchsmith({"build", "--trust-lock", "--lock", d / "lock.json", "--out", d / "out", "--compile-cache", "none", "--no-governor"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const auto& f : {d / "out/plan.lock.json", d / "out/last/run.json"}) {
    auto text = util::read_file(f);
    ASSERT_TRUE(text) << f;
    EXPECT_EQ(text->find("SECRET"), std::string::npos) << f << ":\n" << *text;
    EXPECT_NE(text->find("user:***@example.invalid"), std::string::npos) << f;
  }
  EXPECT_EQ(r.err.find("SECRET"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("SECRET"), std::string::npos) << r.out;
  r = run_torchsmith({"build", "--trust-lock", "--lock", d / "lock.json", "--out", d / "out", "--compile-cache", "none", "--json",
                      "--no-governor"});
  EXPECT_EQ(r.out.find("SECRET"), std::string::npos);

  // fetch: its progress and git's failure, on a URL that cannot connect.
  r = run_torchsmith({"fetch", "https://user:SECRET3@127.0.0.1:9/x.git@main", "--dir", d / "f", "--retries", "0"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.find("SECRET"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("user:***@127.0.0.1"), std::string::npos) << r.err;
  EXPECT_TRUE(canary.unchanged());
}

// Smaller: escape codes from a torch tree's version.txt were echoed raw.
TEST(Harden, ControlCharactersFromFilesAreEscaped) {
  Dir d;
  fs::create_directories(d / "tree");
  std::ofstream(d / "tree/version.txt") << "\x1b]0;pwned\x07\x1b[31m2.4\n";
  auto r = run_torchsmith({"fix", d / "tree", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x1b]0;pwned\\x07"), std::string::npos) << r.err;
}

// Smaller: --spec DIR was accepted; kb check ignored a directory named cuda.toml; doctor said
// "not found" for a Python that is there but not executable.
TEST(Harden, SpecDirKbDirectoryAndNonExecutablePythonAreNamed) {
  Dir d;
  auto r = run_torchsmith({"plan", "--spec", d.path()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("a directory, not a torchsmith.toml file"), std::string::npos) << r.err;

  fs::create_directories(d / "kb/cuda.toml");
  r = run_torchsmith({"--kb", d / "kb", "kb", "check"});
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("cuda.toml: named like a KB file but not a regular file"), std::string::npos)
      << r.out << r.err;

  std::ofstream(d / "python3") << "#!/bin/sh\n";
  fs::permissions(d / "python3", fs::perms::owner_read | fs::perms::owner_write);
  r = run_torchsmith({"doctor", "--python", d / "python3"});
  EXPECT_NE((r.out + r.err).find("not executable"), std::string::npos) << r.out << r.err;
}

}  // namespace
}  // namespace ts::cli

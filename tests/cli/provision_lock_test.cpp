// A torch plan on this machine with its CUDA toolkit and CMake provisioned from a wheelhouse of
// wheels laid out as NVIDIA's and Kitware's (fake contents; no network): the run provisions them,
// records each wheel's sha256 and file in its lock, and spawns the build with an environment that
// names the provisioned toolkit everywhere (CUDA_HOME, CUDA_PATH, CUDACXX, PATH). A second build
// from that lock reuses the cache (the provision steps' time is measured), and a lock whose hash
// differs from the cached toolkit's files fails the provision step, naming the wheel.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"
#include "testkit/fake_wheels.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "testkit/version_of.h"

namespace ts::cli {
namespace {

namespace fs = std::filesystem;
using testing::run_torchsmith;

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(util::read_file(path).value_or("null"), nullptr, false);
}

// Each provision step's seconds in OUT/last/run.json.
std::map<std::string, double> provision_seconds(const std::string& out) {
  std::map<std::string, double> s;
  auto j = read_json(out + "/last/run.json");
  if (j.is_object())
    for (const auto& st : j["steps"])
      if (st.value("name", "").rfind("provision-", 0) == 0) s[st.value("name", "")] = st.value("seconds", -1.0);
  return s;
}

std::string logs_of(const std::string& out) {
  std::string all;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(out + "/last/logs", ec), end; !ec && it != end; it.increment(ec))
    all += util::read_file(it->path().string()).value_or("");
  return all;
}

TEST(ProvisionLock, ProvisionedToolkitReachesTheBuildEnvAndTheLockPinsItsWheels) {
  testkit::TempDir t;
  std::string wh = t / "wheels", cache = t / "cache";
  fs::create_directories(wh);
  auto r = run_torchsmith({"plan", "torch==2.9.0", "--arch", "9.0", "--python", "/usr/bin/python3", "--toolkit",
                           "wheelhouse:" + wh, "--cache-dir", cache, "-o", t / "lock.json"});
  if (r.exit_code != 0) GTEST_SKIP() << "no torch 2.9.0 plan with /usr/bin/python3 on this machine: " << r.out << r.err;
  auto lock = read_json(t / "lock.json");
  ASSERT_TRUE(lock.contains("provisioned")) << lock.dump(2);
  // The wheelhouse holds exactly what the lock names (the catalog's pins), in the wheels' layouts.
  bool cuda = false;
  for (const auto& p : lock["provisioned"]) {
    plan::ToolRelease rel;
    rel.kind = p["kind"].get<std::string>();
    rel.version = testkit::version_of(p["version"].get<std::string>());
    for (const auto& w : p["wheels"]) {
      rel.wheels.push_back({w["name"].get<std::string>(), w["version"].get<std::string>(), "", ""});
      EXPECT_EQ(w["sha256"], "") << "a plan cannot know the hashes before the files are seen";
    }
    if (rel.kind == "cuda") {
      cuda = true;
      testkit::fake_cu13_wheelhouse(wh, rel);
    } else if (rel.kind == "cmake") {
      testkit::fake_cmake_wheel(wh, rel.version.original());
    } else {
      testkit::fake_wheel(wh, rel.kind, rel.version.original(), {{rel.kind + "-" + rel.version.original() + ".data/scripts/" + rel.kind, "x"}});
    }
  }
  ASSERT_TRUE(cuda) << lock["provisioned"].dump(2);
  std::string home = lock["cuda_home"];
  ASSERT_EQ(home.rfind(cache + "/toolkits/cuda-", 0), 0u) << home;
  // The build step is a stand-in that writes the environment it was spawned with.
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : lock["steps"])
    if (s["name"].get<std::string>().rfind("provision-", 0) == 0) steps.push_back(s);
  steps.push_back({{"name", "build"},
                   {"argv", {"/usr/bin/python3", "-c", "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'))",
                             t / "env.json"}},
                   {"cwd", ""},
                   {"note", "a stand-in that records its environment"}});
  lock["steps"] = steps;
  ASSERT_EQ(util::write_file_atomic(t / "lock.json", lock.dump(2)), "");

  r = run_torchsmith({"build", "--trust-lock", "--lock", t / "lock.json", "--out", t / "out", "--compile-cache", "none"},
                     std::chrono::minutes(10));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << logs_of(t / "out");
  auto env = read_json(t / "env.json");
  ASSERT_TRUE(env.is_object());
  EXPECT_EQ(env["CUDA_HOME"], home);
  EXPECT_EQ(env["CUDA_PATH"], home);
  EXPECT_EQ(env["CUDACXX"], home + "/bin/nvcc");
  EXPECT_TRUE(fs::exists(home + "/bin/nvcc"));  // provisioned before the build ran
  std::string path = ":" + env["PATH"].get<std::string>() + ":";
  EXPECT_NE(path.find(":" + home + "/bin:"), std::string::npos) << path;
  EXPECT_EQ(path.find(":/usr/local/cuda/bin:"), std::string::npos) << "the system's toolkit must not be on PATH: " << path;

  // The run's lock pins every provisioned wheel: name, version, file, sha256.
  auto filled = read_json(t / "out/plan.lock.json");
  int wheels = 0;
  for (const auto& p : filled["provisioned"])
    for (const auto& w : p["wheels"]) {
      ++wheels;
      EXPECT_EQ(w["sha256"].get<std::string>().size(), 64u) << w.dump();
      EXPECT_TRUE(fs::exists(wh + "/" + w["file"].get<std::string>())) << w.dump();
    }
  EXPECT_GE(wheels, 5);  // the five CUDA wheels, and CMake's where the machine's is too old

  // A second plan+build from that lock: the toolkit is reused, its hashes checked against the lock.
  r = run_torchsmith({"build", "--trust-lock", "--lock", t / "out/plan.lock.json", "--out", t / "out2", "--compile-cache", "none"},
                     std::chrono::minutes(10));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << logs_of(t / "out2");
  EXPECT_NE(logs_of(t / "out2").find("sha256 checked against the lock"), std::string::npos) << logs_of(t / "out2");
  auto first = provision_seconds(t / "out"), second = provision_seconds(t / "out2");
  for (const auto& [name, s] : second) {
    std::printf("%s: %.2f s provisioned, %.2f s reused from the cache\n", name.c_str(), first[name], s);
    EXPECT_LT(s, 1.0) << name << " reused from the cache";
  }

  // A lock that pins another file than the cached toolkit was made from: the step fails, naming it.
  auto bad = filled;
  std::string tampered;
  for (auto& p : bad["provisioned"])
    if (p["kind"] == "cuda") {
      p["wheels"][0]["sha256"] = std::string(64, 'f');
      tampered = p["wheels"][0]["name"].get<std::string>();
    }
  fs::remove(t / "env.json");
  ASSERT_EQ(util::write_file_atomic(t / "bad.json", bad.dump(2)), "");
  r = run_torchsmith({"build", "--trust-lock", "--lock", t / "bad.json", "--out", t / "out3", "--compile-cache", "none"},
                     std::chrono::minutes(10));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::string said = r.out + r.err + logs_of(t / "out3");
  EXPECT_NE(said.find("other files than the lock pins"), std::string::npos) << said;
  EXPECT_NE(said.find(tampered), std::string::npos) << said;
  EXPECT_FALSE(fs::exists(t / "env.json")) << "the build step ran after a failed provision";
}

}  // namespace
}  // namespace ts::cli

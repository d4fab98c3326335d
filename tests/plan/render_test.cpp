// Output formats: the sourced shell environment is exactly the plan's; the Dockerfile parses;
// JSON and the lock file round-trip.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "plan/render.h"
#include "plan_fixtures.h"
#include "util/process.h"

namespace ts::plan {
namespace {

using testing::fixture;
using testing::knowledge;
using testing::spec_of;

std::string temp_file(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / ("ts-plan-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p.string();
}

// bash -c 'set -a; source FILE; env' in an empty environment, minus what bash sets itself.
std::map<std::string, std::string> sourced_env(const std::string& file) {
  util::RunOptions o;
  o.env = std::map<std::string, std::string>{};
  auto r = util::run({"/bin/bash", "-c", "set -a; source \"$0\"; env -0", file}, o);
  EXPECT_TRUE(r.ok()) << r.err;
  std::map<std::string, std::string> env;
  std::stringstream ss(r.out);
  std::string kv;
  while (std::getline(ss, kv, '\0')) {
    auto eq = kv.find('=');
    std::string k = kv.substr(0, eq);
    if (k == "PWD" || k == "SHLVL" || k == "_" || k == "OLDPWD") continue;
    env[k] = kv.substr(eq + 1);
  }
  return env;
}

TEST(RenderSh, SourcingSetsExactlyThePlansEnvironment) {
  for (const auto& [req, host, opts] :
       std::vector<std::tuple<std::string, std::string, std::map<std::string, std::string>>>{
           {"torch==2.4.1", "s3-rtx5090-cmake4", {}},
           {"torch==1.8.0", "s2-cuda110-conda", {{"--arch", "6.1;7.0;7.5;8.0"}, {"--package", "conda,wheel"}}},
           {"torch==2.0.0", "s4-wsl2-cuda117", {{"--package", "libtorch"}, {"--arch", "7.5"}}}}) {
    auto r = make_plan(spec_of(req, opts), fixture(host), knowledge());
    ASSERT_TRUE(r.ok()) << render_conflicts(r.conflicts);
    std::string file = temp_file("plan.sh", render_sh(r.plan));
    EXPECT_EQ(sourced_env(file), r.plan.env) << host;
    std::filesystem::remove(file);
  }
}

TEST(RenderSh, QuotesWhatTheShellWouldExpand) {
  Plan p;
  p.env = {{"A", "it's $HOME `x` \"q\""}, {"B", "-Xfatbin -compress-all"}};
  std::string file = temp_file("quote.sh", render_sh(p));
  EXPECT_EQ(sourced_env(file), p.env);
  std::filesystem::remove(file);
}

// Instructions of a Dockerfile, continuation lines joined; comments dropped.
std::vector<std::pair<std::string, std::string>> parse_dockerfile(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::stringstream ss(text);
  std::string line, cur;
  while (std::getline(ss, line)) {
    if (cur.empty() && (line.empty() || line[0] == '#')) continue;
    bool cont = !line.empty() && line.back() == '\\';
    cur += cont ? line.substr(0, line.size() - 1) + " " : line;
    if (cont) continue;
    auto sp = cur.find(' ');
    out.push_back({cur.substr(0, sp), sp == std::string::npos ? "" : cur.substr(sp + 1)});
    cur.clear();
  }
  EXPECT_TRUE(cur.empty()) << "dangling continuation";
  return out;
}

TEST(RenderDockerfile, S5ImageAndTheSameBuild) {
  HostFacts f = fixture("s5-gtx1660ti-container");
  for (auto& p : f.pythons) p.packages["cmake"] = "3.24.2";  // what the seed did: a newer CMake
  auto r = make_plan(spec_of("torch==1.12.1", {{"--build-type", "debug"}}), f, knowledge());
  ASSERT_TRUE(r.ok()) << render_conflicts(r.conflicts);
  std::string err;
  std::string d = render_dockerfile(r.plan, knowledge().build, f, &err);
  ASSERT_FALSE(d.empty()) << err;
  auto ins = parse_dockerfile(d);
  ASSERT_FALSE(ins.empty());
  EXPECT_EQ(ins.front().first, "FROM");
  EXPECT_EQ(ins.front().second, "nvidia/cuda:11.7.0-cudnn8-devel-ubuntu18.04");
  std::set<std::string> known{"FROM", "ARG", "RUN", "ENV", "WORKDIR", "COPY"};
  bool env_seen = false, build_seen = false;
  for (const auto& [k, v] : ins) {
    EXPECT_TRUE(known.count(k)) << k;
    EXPECT_EQ(v.find("/root/anaconda3"), std::string::npos) << "host path leaked: " << v;
    if (k == "ENV") {
      env_seen = true;
      EXPECT_NE(v.find("DEBUG=\"1\""), std::string::npos);
      EXPECT_NE(v.find("TORCH_CUDA_ARCH_LIST=\"7.5\""), std::string::npos);
      EXPECT_NE(v.find("CUDA_HOME=/usr/local/cuda"), std::string::npos);
      EXPECT_NE(v.find("CUDACXX=/usr/local/cuda/bin/nvcc"), std::string::npos) << v;  // the image's, not the host's
    }
    if (k == "RUN" && v.find("setup.py") != std::string::npos) {
      build_seen = true;
      auto j = nlohmann::json::parse(v);  // exec form: a JSON array
      EXPECT_EQ(j[0], "/opt/env/bin/python");
    }
  }
  EXPECT_TRUE(env_seen && build_seen) << d;
}

TEST(RenderDockerfile, S2ImageFromTheContainersOwnVersion) {
  auto r = make_plan(spec_of("torch==1.8.0", {{"--arch", "6.1;7.0;7.5;8.0"}, {"--package", "conda,wheel"}}),
                     fixture("s2-cuda110-conda"), knowledge());
  ASSERT_TRUE(r.ok());
  std::string err;
  EXPECT_EQ(docker_image(r.plan, knowledge().build, fixture("s2-cuda110-conda"), &err),
            "nvidia/cuda:11.0.3-cudnn8-devel-ubuntu20.04");
}

TEST(Json, PlanRoundTripsAndTheLockCarriesFixHashes) {
  auto r = make_plan(spec_of("torch==2.4.1"), fixture("s3-rtx5090-cmake4"), knowledge());
  ASSERT_TRUE(r.ok());
  nlohmann::json j = r.plan;
  Plan back = j.get<Plan>();
  EXPECT_EQ(nlohmann::json(back), j);
  auto lock = lock_json(r.plan);
  EXPECT_EQ(lock["lock"]["fix_hashes"]["torch-select-compute-arch-sm120"].get<std::string>().size(), 64u);
  EXPECT_EQ(lock["source"]["ref"], "v2.4.1");
  EXPECT_EQ(lock.at("env").at("CMAKE_POLICY_VERSION_MINIMUM"), "3.5");
}

TEST(Json, ConflictsAreInTheResult) {
  auto r = make_plan(spec_of("torch==2.6.0"), fixture("s3-rtx5090-cmake4"), knowledge());
  nlohmann::json j = r;
  EXPECT_FALSE(j["ok"].get<bool>());
  EXPECT_FALSE(j["conflicts"].empty());
  auto c = j["conflicts"][0].get<Conflict>();
  EXPECT_FALSE(c.fixes.empty());
}

}  // namespace
}  // namespace ts::plan

// Issue 32, class 4: every rendering quotes for its target. The same hostile strings (shell
// substitutions, quotes, newlines, ninja's '$' and '|', CMake's ';', escapes, DEL) go into every
// value a user or a source provides, and each renderer either carries them exactly (sh: sourced and
// run by bash; Dockerfile: exec-form JSON read back) or refuses with the value named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "plan/render.h"
#include "plan_fixtures.h"
#include "testkit/temp_dir.h"
#include "util/process.h"
#include "util/safe_path.h"

namespace ts::plan {
namespace {

namespace fs = std::filesystem;

// Each would run `touch pwned` (or break a line, a list, a ninja path) if it reached a parser unquoted.
const std::vector<std::string> kHostile = {
    "weird$(touch pwned)", "`touch pwned`",  "a'b\"c\\d",      "x\ntouch pwned",   "x\rtouch pwned",
    "$HOME|a;b",           "a$ b:c|d",       "\x1b]0;t\x07",  "del\x7f",           "-c touch pwned",
    "x; touch pwned #",    "${IFS}touch${IFS}pwned", "a\\\nRUN touch pwned", "\tRUN touch pwned"};

Plan hostile_plan(const std::string& h) {
  Plan p;
  p.torch_version = h;
  p.build_version = h;
  p.source_url = "https://example.com/" + h;
  p.source_ref = h;
  p.numpy_version = h;
  p.cmake_range = h;
  p.python = "/usr/bin/python3";
  p.env = {{"VALUE", h}, {"OTHER", "plain"}};
  p.fixes.push_back({h, "", "", ""});
  p.steps.push_back({"build", {"printf", "[%s]", h, "{src}/" + h}, "{src}", h});
  return p;
}

// sh: sourcing sets exactly the plan's values; running prints exactly the argv; nothing else runs.
TEST(RenderHostile, ShCarriesEveryValueExactly) {
  for (const auto& h : kHostile) {
    testkit::TempDir t;
    Plan p = hostile_plan(h);
    p.source_dir = t / "src";
    fs::create_directories(p.source_dir);
    std::ofstream(t / "plan.sh") << render_sh(p);
    util::RunOptions o;
    o.cwd = t.path();
    o.env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}};
    auto r = util::run({"/bin/bash", "-c", "set -a; . ./plan.sh; set +a; printf '%s' \"$VALUE\""}, o);
    EXPECT_TRUE(r.ok()) << r.err;
    EXPECT_EQ(r.out, h);
    (*o.env)["TORCHSMITH_RUN"] = "1";
    r = util::run({"/bin/bash", "./plan.sh"}, o);
    EXPECT_TRUE(r.ok()) << r.err;
    EXPECT_EQ(r.out, "[" + h + "][" + p.source_dir + "/" + h + "]");
    EXPECT_FALSE(fs::exists(t / "pwned")) << h;
    EXPECT_FALSE(fs::exists(t / "src/pwned")) << h;
    // An environment key that is no shell name is never exported (it would be shell code).
    Plan k;
    k.env = {{"A=1; touch pwned; B", "x"}, {h, "y"}};
    std::ofstream(t / "keys.sh") << render_sh(k);
    r = util::run({"/bin/bash", "-c", "set -a; . ./keys.sh"}, o);
    EXPECT_FALSE(fs::exists(t / "pwned")) << h;
  }
}

// Dockerfile: each line is an instruction, a comment or an ENV continuation; each RUN in exec
// form reads back as the argv meant; values that cannot be written are refused, named.
TEST(RenderHostile, DockerfileQuotesOrRefusesEveryValue) {
  HostFacts f = testing::fixture("s5-gtx1660ti-container");
  for (auto& py : f.pythons) py.packages["cmake"] = "3.24.2";  // as RenderDockerfile.S5ImageAndTheSameBuild
  auto base = make_plan(testing::spec_of("torch==1.12.1"), f, testing::knowledge());
  ASSERT_TRUE(base.ok());
  const std::set<std::string> known{"FROM", "ARG", "RUN", "ENV", "WORKDIR", "COPY"};
  for (const auto& h : kHostile) {
    Plan p = base.plan;
    p.torch_version = p.build_version = h;
    p.source_ref = h;
    p.source_url = "https://example.com/" + h;
    p.fixes = {{h, "", "", ""}};
    std::string err;
    bool control = std::any_of(h.begin(), h.end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; });
    // Shell-form values (pip's arguments) are single-quoted; a line break there has no spelling: refused.
    Plan q = p;
    q.numpy_version = h;
    q.cmake_range = h;
    std::string dq = render_dockerfile(q, testing::knowledge().build, f, &err);
    if (control) {
      EXPECT_EQ(dq, "") << h;
      EXPECT_NE(err.find("control character"), std::string::npos) << err;
    } else {
      p = q;
    }
    std::string d = render_dockerfile(p, testing::knowledge().build, f, &err);
    ASSERT_FALSE(d.empty()) << err;
    bool clone_seen = false;
    std::stringstream ss(d);
    std::string line;
    bool cont = false;
    while (std::getline(ss, line)) {
      bool was_cont = cont;
      cont = !line.empty() && line.back() == '\\';
      if (was_cont || line.empty() || line[0] == '#') continue;
      std::string ins = line.substr(0, line.find(' '));
      EXPECT_TRUE(known.count(ins)) << "a line that is no instruction: " << line;
      if (ins == "RUN" && line.size() > 4 && line[4] == '[') {
        auto j = nlohmann::json::parse(line.substr(4));  // exec form, read as Docker reads it
        if (j[0] == "git") {
          clone_seen = true;
          EXPECT_EQ(j, nlohmann::json({"git", "clone", "--branch", h, "--recursive", "--shallow-submodules", "--depth",
                                       "1", "--", "https://example.com/" + h, "/src"}));
        }
        if (j[0] == "torchsmith") {
          EXPECT_EQ(j.back(), h);
        }
      } else if (ins == "RUN") {
        // A shell-form RUN carries the hostile value only inside single quotes.
        for (const char* bad : {"$(touch", "`touch", "; touch"})
          if (auto at = line.find(bad); at != std::string::npos) {
            EXPECT_EQ(std::count(line.begin(), line.begin() + static_cast<long>(at), '\'') % 2, 1) << line;
          }
      }
    }
    EXPECT_TRUE(clone_seen) << d;
    // In an ENV value a newline or other control character has no spelling: refused, named.
    p.env["VALUE"] = h;
    d = render_dockerfile(p, testing::knowledge().build, f, &err);
    if (control) {
      EXPECT_EQ(d, "") << h;
      EXPECT_NE(err.find("VALUE"), std::string::npos) << err;
    } else {
      EXPECT_NE(d.find("VALUE=\""), std::string::npos);
    }
  }
}

// ninja and CMake: the build directory reaches torch's build.ninja, CMake lists and PATH
// unquoted, so a path holding one of their characters is refused with the character named.
TEST(RenderHostile, BuildPathsWithNinjaOrCMakeCharactersAreRefusedNamed) {
  for (const auto& h : kHostile) {
    if (h == "-c touch pwned") continue;  // inside an absolute path a leading '-' is no option and no syntax
    std::string why = util::build_path_problem("/home/u/" + h);
    EXPECT_NE(why, "") << h;
    EXPECT_NE(why.find("choose a directory"), std::string::npos) << why;
  }
  for (const std::string ok : {"/home/u/torchsmith-build", "/tmp/my out/x", "/data/ü/build-1.2+cu128", "/a/b_c,d=e"})
    EXPECT_EQ(util::build_path_problem(ok), "") << ok;
  EXPECT_NE(util::build_path_problem("/x/a$b").find("'$'"), std::string::npos);
  EXPECT_NE(util::build_path_problem("/x/a|b").find("'|'"), std::string::npos);
}

}  // namespace
}  // namespace ts::plan

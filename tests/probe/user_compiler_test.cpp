// The user's $CC/$CXX: probed like the compilers on PATH and marked from_env, so the plan can
// build with what plain pip (setuptools, cpp_extension's nvcc -ccbin $CC) would use.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture_util.h"

using namespace ts;
using namespace ts::probe;
using namespace ts::probe::testing;

namespace {

// A gcc/g++ pair at dir that reports `version` (-dumpfullversion) and x86_64-linux-gnu (-dumpmachine).
void gcc_pair(TempRoot& r, const std::string& dir, const std::string& c_name, const std::string& version) {
  std::string stub = "#!/bin/sh\nif [ \"$1\" = -dumpmachine ]; then echo x86_64-linux-gnu; else echo " + version + "; fi\n";
  r.write(dir + "/" + c_name, stub, true);
  std::string cxx = c_name;
  cxx.replace(cxx.rfind("gcc"), 3, "g++");
  r.write(dir + "/" + cxx, stub, true);
}

HostFacts probe_root(TempRoot& r, const std::string& env) {
  r.write("/.host/env", "PATH=/usr/bin\n" + env);
  std::string err;
  auto h = Host::at(r.dir.string(), &err);
  EXPECT_TRUE(h) << err;
  return h ? probe::probe(*h, ProbeOptions{}) : HostFacts{};
}

bool any_from_env(const HostFacts& f) {
  for (const auto& c : f.compilers)
    if (!c.from_env.empty()) return true;
  return false;
}

std::string notes_of(const HostFacts& f) {
  std::string s;
  for (const auto& n : f.notes) s += n + "\n";
  return s;
}

}  // namespace

TEST(UserCompiler, CcOffPathIsAddedWithItsGppSibling) {
  TempRoot r;
  gcc_pair(r, "/usr/bin", "gcc", "12.2.0");
  gcc_pair(r, "/opt/gcc/bin", "gcc", "14.2.0");
  auto f = probe_root(r, "CC=/opt/gcc/bin/gcc\n");
  ASSERT_EQ(f.compilers.size(), 2u) << notes_of(f);
  const CompilerFacts* user = compiler(f, "/opt/gcc/bin/gcc");
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(user->cxx, "/opt/gcc/bin/g++");  // CXX unset: CC's sibling, as a gcc/g++ pair on PATH
  EXPECT_EQ(user->version, "14.2.0");
  EXPECT_EQ(user->target, "x86_64-linux-gnu");
  EXPECT_EQ(user->family, "gcc");
  EXPECT_EQ(user->from_env, "CC");
  EXPECT_EQ(compiler(f, "/usr/bin/gcc")->from_env, "");
}

TEST(UserCompiler, CcNamedOnPathMarksThatCompiler) {
  TempRoot r;
  gcc_pair(r, "/usr/bin", "gcc", "13.3.0");
  gcc_pair(r, "/usr/bin", "gcc-12", "12.3.0");
  auto f = probe_root(r, "CC=gcc-12\nCXX=/usr/bin/g++-12\n");
  ASSERT_EQ(f.compilers.size(), 2u);  // not a third entry
  EXPECT_EQ(compiler(f, "/usr/bin/gcc-12")->from_env, "CC CXX");
  EXPECT_EQ(compiler(f, "/usr/bin/gcc")->from_env, "");
}

TEST(UserCompiler, CxxAloneIsProbedThroughItself) {
  TempRoot r;
  gcc_pair(r, "/usr/bin", "gcc", "13.3.0");
  r.write("/opt/gcc/bin/g++", "#!/bin/sh\necho 11.5.0\n", true);
  auto f = probe_root(r, "CXX=/opt/gcc/bin/g++\n");
  ASSERT_EQ(f.compilers.size(), 2u);
  const CompilerFacts& user = f.compilers.back();
  EXPECT_EQ(user.cc, "");
  EXPECT_EQ(user.cxx, "/opt/gcc/bin/g++");
  EXPECT_EQ(user.version, "11.5.0");
  EXPECT_EQ(user.from_env, "CXX");
}

TEST(UserCompiler, MissingCcIsANoteNotACompiler) {
  TempRoot r;
  gcc_pair(r, "/usr/bin", "gcc", "13.3.0");
  auto f = probe_root(r, "CC=/opt/nope/bin/gcc\nCXX=no-such-g++\n");
  ASSERT_EQ(f.compilers.size(), 1u);
  EXPECT_FALSE(any_from_env(f));
  std::string notes = notes_of(f);
  EXPECT_NE(notes.find("CC=/opt/nope/bin/gcc: no such file"), std::string::npos) << notes;
  EXPECT_NE(notes.find("CXX=no-such-g++: not found on PATH"), std::string::npos) << notes;
}

TEST(UserCompiler, CommandLineCcIsANote) {
  TempRoot r;
  gcc_pair(r, "/usr/bin", "gcc", "13.3.0");
  auto f = probe_root(r, "CC=ccache gcc\n");
  EXPECT_FALSE(any_from_env(f));
  EXPECT_NE(notes_of(f).find("CC=ccache gcc: a command line"), std::string::npos) << notes_of(f);
}

TEST(UserCompiler, UnsetLeavesThePathCompilersAlone) {
  TempRoot r;
  gcc_pair(r, "/usr/bin", "gcc", "13.3.0");
  auto f = probe_root(r, "");
  ASSERT_EQ(f.compilers.size(), 1u);
  EXPECT_FALSE(any_from_env(f));
  EXPECT_EQ(notes_of(f).find("CC"), std::string::npos) << notes_of(f);
}

// The compilers' search paths the user exported are facts (a plan carries them into the build);
// empty ones and other variables are not, and a facts file round-trips them.
TEST(UserSearchPaths, ExportedOnesAreFacts) {
  TempRoot r;
  auto f = probe_root(r, "CPATH=/opt/sh/include\nLIBRARY_PATH=\nCFLAGS=-O2\n");
  EXPECT_EQ(f.search_paths, (std::map<std::string, std::string>{{"CPATH", "/opt/sh/include"}}));
  nlohmann::json j = f;
  EXPECT_EQ(j["search_paths"]["CPATH"], "/opt/sh/include");
  EXPECT_EQ(j.get<HostFacts>().search_paths, f.search_paths);
  auto none = probe_root(r, "");
  EXPECT_TRUE(none.search_paths.empty());
  nlohmann::json k = none;
  EXPECT_FALSE(k.contains("search_paths"));  // a machine without them writes the facts it wrote before
}

// torchsmith's Python build helper (src/run/pyshim): written as embedded, named through {pyshim},
// and, run by a real setup.py with Debian's torch, building extensions side by side within the
// slots, each with its own objects, with the same modules as one after another.
#include "run/pyshim.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "build/ninja_status.h"
#include "util/process.h"
#include "testkit/temp_dir.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Pyshim, WritesTheEmbeddedHelper) {
  ::ts::testkit::TempDir tmp("ts-pyshim");
  const std::string& dir = tmp.path();
  ASSERT_FALSE(dir.empty());
  EXPECT_EQ(write_pyshim(dir + "/a/pyshim"), "");
  std::string src = read(std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(read(dir + "/a/pyshim/sitecustomize.py"), src);
  EXPECT_EQ(pyshim_sitecustomize(), src);
}

TEST(Pyshim, NamesTheHelperDirectoryInEnvValues) {
  std::map<std::string, std::string> env{{"PYTHONPATH", "{pyshim}:/x"}, {"MAX_JOBS", "4"}};
  EXPECT_TRUE(expand_pyshim(env, "/out/.torchsmith/pyshim"));
  EXPECT_EQ(env["PYTHONPATH"], "/out/.torchsmith/pyshim:/x");
  EXPECT_EQ(env["MAX_JOBS"], "4");
  std::map<std::string, std::string> none{{"PATH", "/usr/bin"}};
  EXPECT_FALSE(expand_pyshim(none, "/d"));
  EXPECT_EQ(none["PATH"], "/usr/bin");
}

TEST(Pyshim, ABadWritePlaceIsAnError) {
  EXPECT_NE(write_pyshim("/proc/ts-no-such/pyshim"), "");
}

// The helper's slot rule, called in the helper itself: the compiles an extension keeps running.
TEST(Pyshim, ACudaExtensionHoldsItsNvccThreadsAndNotItsShortCxxSources) {
  std::string shim = std::string(TS_SOURCE_DIR) + "/src/run/pyshim/sitecustomize.py";
  std::string code =
      "import importlib.util as u\n"
      "spec = u.spec_from_file_location('ts_shim', '" + shim + "')\n"
      "m = u.module_from_spec(spec); spec.loader.exec_module(m)\n"
      "scatter = ['csrc/scatter.cpp', 'csrc/cpu/scatter_cpu.cpp', 'csrc/cuda/scatter_cuda.cu']\n"
      "print(m._weight(scatter, 6, 18), m._weight(scatter, 1, 16), m._weight(['a.cpp', 'b.cpp'], 6, 18),\n"
      "      m._weight(['a.cu', 'b.cu', 'c.cuh', 'd.cpp'], 6, 16), m._weight([], 6, 18), m._weight(['a.cpp'] * 9, 1, 4))\n";
  auto r = util::run({"/usr/bin/python3", "-c", code}, {std::chrono::seconds(60)});
  ASSERT_TRUE(r.ok()) << r.err;
  // torch-scatter for 6 arches: each CUDA extension 6, so its three fit 18 slots at once (not 8 + 8);
  // one arch: 1; C++ only: a slot a source; capped at the slots; never below 1.
  EXPECT_EQ(r.out, "6 1 2 16 1 4\n");
}

// The fixture tests/fixtures/projects/multi_ext built by /usr/bin/python3 setup.py build_ext.
struct Built {
  util::RunResult run;
  std::vector<long> values;  // each module's value(), -1 when it did not import
  int most_at_once = 0;      // compiles running at the same time, from tools/slow_cc.sh's log
};

class PyshimBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    auto probe = util::run({"/usr/bin/python3", "-c", "import torch.utils.cpp_extension"}, {std::chrono::seconds(60)});
    if (!probe.ok()) GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch): " << probe.err;
    if (util::find_program("ninja", util::split_path(getenv("PATH") ? getenv("PATH") : "")).empty())
      GTEST_SKIP() << "no ninja on PATH";
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
  }

  Built build(const std::string& name, std::map<std::string, std::string> env) {
    Built b;
    fs::path tree = fs::path(dir_) / name;
    fs::copy(fs::path(TS_SOURCE_DIR) / "tests/fixtures/projects/multi_ext", tree, fs::copy_options::recursive);
    std::string log = (fs::path(dir_) / (name + ".cc.log")).string();
    util::RunOptions o;
    o.timeout = std::chrono::seconds(240);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    o.extra_env["CXX"] = (tree / "tools/slow_cc.sh").string();  // torch's ninja path compiles with $CXX
    o.extra_env["CC"] = o.extra_env["CXX"];                       // distutils' serial path with $CC
    o.extra_env["REAL_CXX"] = "g++";
    o.extra_env["SLOW_CC_LOG"] = log;
    b.run = util::run({"/usr/bin/python3", "setup.py", "build_ext", "--inplace"}, o);
    auto modules = util::run({"/usr/bin/python3", "-c",
                              "import importlib\nfor i in range(4):\n"
                              "  try: print(importlib.import_module('multi_ext._m%d' % i).value())\n"
                              "  except Exception: print(-1)\n"},
                             {std::chrono::seconds(60), std::nullopt, {}, tree.string()});
    std::istringstream in(modules.out);
    for (long v; in >> v;) b.values.push_back(v);
    std::vector<std::pair<double, int>> events;
    std::ifstream lf(log);
    std::string what;
    for (double t; lf >> what >> t;) events.push_back({t, what == "start" ? 1 : -1});
    std::sort(events.begin(), events.end());  // an end and a start at one instant: the end first
    int now = 0;
    for (const auto& e : events) b.most_at_once = std::max(b.most_at_once, now += e.second);
    return b;
  }

  ::ts::testkit::TempDir tmp_{"ts-pyshim"};
  std::string dir_;
};

const std::vector<long> kValues{10010, 11011, 12012, 13013};

TEST_F(PyshimBuild, SideBySideWithinTheSlotsAndEachModuleItsOwnObjects) {
  Built b = build("par", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_EXT_JOBS", "4"}, {"MAX_JOBS", "4"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err << b.run.out;
  EXPECT_NE(b.run.err.find("building 4 extensions side by side in 4 compile slots"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.values, kValues);  // one shared build_temp would give a module another's value.o
  // Each module has 2 sources, so 2 modules at once fill the 4 slots; never more than 4 compiles.
  EXPECT_GE(b.most_at_once, 3);
  EXPECT_LE(b.most_at_once, 4);
}

TEST_F(PyshimBuild, ProgressCountsEveryExtensionsSources) {
  std::string status(build::kNinjaStatus);
  Built b = build("progress", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_EXT_JOBS", "4"}, {"MAX_JOBS", "4"},
                               {"NINJA_STATUS", status}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  std::vector<build::NinjaProgress> seen;
  std::istringstream lines(b.run.out + b.run.err);
  for (std::string line; std::getline(lines, line);)
    if (auto p = build::parse_ninja_status(line)) seen.push_back(*p);
  // Only the helper's lines count: 4 modules x 2 sources, in steps of one module's 2.
  ASSERT_EQ(seen.size(), 4u) << b.run.out << b.run.err;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].total, 8);
    EXPECT_EQ(seen[i].done, 2 * static_cast<long>(i + 1));
  }
  EXPECT_NE((b.run.out + b.run.err).find("[ext 1/2] "), std::string::npos);  // each ninja's own, apart
}

TEST_F(PyshimBuild, OneSlotPerModuleSourceIsTheBound) {
  Built b = build("two", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_EXT_JOBS", "2"}, {"MAX_JOBS", "2"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_EQ(b.values, kValues);
  EXPECT_LE(b.most_at_once, 2);
}

TEST_F(PyshimBuild, WithoutTheHelperTheSameModulesOneAfterAnother) {
  Built b = build("serial", {{"MAX_JOBS", "4"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_EQ(b.run.err.find("side by side"), std::string::npos);
  EXPECT_EQ(b.values, kValues);
  EXPECT_LE(b.most_at_once, 2);  // one module's two sources through its own ninja
}

TEST_F(PyshimBuild, TheSerialPathIsLeftSerial) {
  Built b = build("noninja", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_EXT_JOBS", "4"}, {"NINJA", "0"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_NE(b.run.err.find("4 extensions built one after another: use_ninja=False"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.values, kValues);
  EXPECT_EQ(b.most_at_once, 1);
}

// build.ninja files torch's ninja path wrote under the tree's build/ (its serial path writes none).
int ninja_files(const std::string& tree) {
  int n = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(fs::path(tree) / "build", ec), end; !ec && it != end; it.increment(ec))
    n += it->path().filename() == "build.ninja";
  return n;
}

// NINJA=0: the fixture's setup.py passes BuildExtension.with_options(use_ninja=False).
TEST_F(PyshimBuild, TheNinjaRuleTurnsUseNinjaFalseBackOn) {
  Built b = build("ninja_on", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_NINJA", "1"}, {"MAX_JOBS", "4"},
                               {"NINJA", "0"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err << b.run.out;
  EXPECT_NE(b.run.err.find("setup.py turns ninja off (use_ninja=False): compiling through ninja instead"),
            std::string::npos) << b.run.err;
  EXPECT_EQ(b.values, kValues);
  EXPECT_EQ(ninja_files(dir_ + "/ninja_on"), 1);  // one build_temp, rewritten for each module in turn
  EXPECT_EQ(b.most_at_once, 2);                   // a module's two sources at once, through ninja
}

TEST_F(PyshimBuild, WithTheNinjaRuleTheModulesAlsoGoSideBySide) {
  Built b = build("ninja_par", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_NINJA", "1"},
                                {"TORCHSMITH_EXT_JOBS", "4"}, {"MAX_JOBS", "4"}, {"NINJA", "0"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err << b.run.out;
  EXPECT_NE(b.run.err.find("building 4 extensions side by side in 4 compile slots"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.values, kValues);
  EXPECT_EQ(ninja_files(dir_ + "/ninja_par"), 4);  // each module its own build_temp
  EXPECT_GE(b.most_at_once, 3);
}

TEST_F(PyshimBuild, WithoutTheNinjaRuleUseNinjaFalseStaysSerial) {
  Built b = build("ninja_unset", {{"PYTHONPATH", dir_ + "/pyshim"}, {"MAX_JOBS", "4"}, {"NINJA", "0"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_EQ(b.run.err.find("torchsmith:"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.values, kValues);
  EXPECT_EQ(ninja_files(dir_ + "/ninja_unset"), 0);
  EXPECT_EQ(b.most_at_once, 1);
}

TEST_F(PyshimBuild, ALibraryOthersMayLinkKeepsTheSerialOrder) {
  Built b = build("library", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_EXT_JOBS", "4"}, {"MAX_JOBS", "4"},
                              {"MULTI_EXT_LIBRARY", "1"}});
  ASSERT_TRUE(b.run.ok()) << b.run.err;
  EXPECT_EQ(b.run.err.find("side by side"), std::string::npos) << b.run.err;
  EXPECT_EQ(b.values, kValues);
  EXPECT_LE(b.most_at_once, 2);
}

TEST_F(PyshimBuild, AFailingModuleFailsTheBuildAndIsNamed) {
  Built b = build("broken", {{"PYTHONPATH", dir_ + "/pyshim"}, {"TORCHSMITH_EXT_JOBS", "4"}, {"MAX_JOBS", "4"},
                             {"MULTI_EXT_BROKEN", "1"}});
  EXPECT_FALSE(b.run.ok());
  EXPECT_FALSE(b.run.timed_out);
  EXPECT_NE(b.run.err.find("extension multi_ext._broken: failed"), std::string::npos) << b.run.err;
}

}  // namespace
}  // namespace ts::run

// build.no-lto (the linker could not run GCC's lto-wrapper, signatures.toml LTO_WRAPPER_CANNOT_RUN) on
// the tiny packages of tests/fixtures/projects/long_tail: cmake_lto (a target's own IPO, pybind11's
// pybind11::lto, its own -flto) and lto_flags (setup.py's -flto). The compiler is this machine's GCC
// driver copied beside links to its programs minus lto-wrapper, the state the GPU machine's GCC was
// in: every LTO link fails with "could not run lto-wrapper" (as there) without the remedy, links with
// it, and a package without LTO is left alone. One C++ file each, no C++ library header (~2 s).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "run/pyshim.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::run {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/";
constexpr const char* kCannotRun = "could not run lto-wrapper";

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// DIR/bin/g++: the GCC driver copied, its program directories mirrored as links without lto-wrapper
// (the driver finds them relative to itself); "" with why when this machine's g++ is no such GCC.
std::string gcc_without_lto_wrapper(const std::string& dir, std::string* why) {
  auto q = [](std::vector<std::string> a) { return first_line(util::run(a).out); };
  std::string which = q({"sh", "-c", "command -v g++"});
  std::string wrapper = q({"g++", "-print-prog-name=lto-wrapper"});
  std::string cc1plus = q({"g++", "-print-prog-name=cc1plus"});
  std::string libgcc = q({"g++", "-print-libgcc-file-name"});
  if (which.empty() || wrapper.empty() || wrapper[0] != '/' || cc1plus.empty() || cc1plus[0] != '/' || libgcc.empty()) {
    *why = "g++ is not a GCC with lto-wrapper";
    return "";
  }
  std::error_code ec;
  fs::path driver = fs::canonical(which, ec);
  fs::path prefix = driver.parent_path().parent_path();
  fs::create_directories(dir + "/bin", ec);
  fs::copy_file(driver, dir + "/bin/g++", ec);
  if (ec) { *why = "cannot copy " + driver.string(); return ""; }
  for (const fs::path& d : {fs::path(cc1plus).parent_path(), fs::path(libgcc).parent_path()}) {
    fs::path rel = d.lexically_relative(prefix);
    if (rel.empty() || rel.string().rfind("..", 0) == 0) { *why = d.string() + " is not under " + prefix.string(); return ""; }
    fs::create_directories(fs::path(dir) / rel, ec);
    for (const auto& e : fs::directory_iterator(d, ec))
      if (e.path().filename() != "lto-wrapper" && !fs::exists(fs::path(dir) / rel / e.path().filename()))
        fs::create_symlink(e.path(), fs::path(dir) / rel / e.path().filename(), ec);
  }
  return dir + "/bin/g++";
}

class NoLto : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!util::run({"cmake", "--version"}).ok()) GTEST_SKIP() << "no cmake";
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    ASSERT_EQ(write_pyshim(dir_ + "/pyshim"), "");
    std::string why;
    gxx_ = gcc_without_lto_wrapper(dir_ + "/gcc", &why);
    if (gxx_.empty()) GTEST_SKIP() << why;
    // The copy must link without LTO and fail with LTO the GPU machine's way, else it proves nothing.
    std::ofstream(dir_ + "/probe.cpp") << "int main() { return 0; }\n";
    util::RunOptions o;
    o.cwd = dir_;
    if (!util::run({gxx_, "probe.cpp", "-o", "probe"}, o).ok()) GTEST_SKIP() << "the copied g++ cannot link";
    auto lto = util::run({gxx_, "-flto", "probe.cpp", "-o", "probe-lto"}, o);
    if (lto.ok() || lto.err.find(kCannotRun) == std::string::npos) GTEST_SKIP() << "the copied g++ still runs LTO";
  }

  // LT_LTO=mode of cmake_lto, configured with the copied g++ (remedy: TORCHSMITH_NO_LTO=1 and the
  // helper's CMake include, as the retry's environment gives them).
  util::RunResult cmake(const std::string& mode, bool remedy, std::vector<std::string> defines = {}) {
    std::string out = dir_ + "/" + mode + (remedy ? "-fixed" : "-plain") + std::to_string(n_++);
    std::vector<std::string> argv{"cmake", "-S", kFixtures + "cmake_lto", "-B", out, "-G", "Ninja",
                                  "-DCMAKE_CXX_COMPILER=" + gxx_, "-DLT_LTO=" + mode};
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    if (remedy) {
      o.extra_env["TORCHSMITH_NO_LTO"] = "1";
      if (auto d = cmake_include_define(argv, o.extra_env, dir_ + "/pyshim"); !d.empty()) argv.push_back(d);
    }
    argv.insert(argv.end(), defines.begin(), defines.end());
    auto c = util::run(argv, o);
    if (!c.ok()) return c;
    auto b = util::run({"cmake", "--build", out}, o);
    b.err = c.err + b.err;  // the include's notes come at configure
    return b;
  }

  ::ts::testkit::TempDir tmp_{"ts-no-lto"};
  std::string dir_, gxx_;
  int n_ = 0;
};

TEST_F(NoLto, EveryWayOfAskingLtoFailsToLinkWithoutTheRemedy) {
  for (const char* mode : {"property", "pybind11", "pybind11-direct", "flags"}) {
    auto b = cmake(mode, false);
    EXPECT_FALSE(b.ok()) << mode;
    EXPECT_NE((b.out + b.err).find(kCannotRun), std::string::npos) << mode << ": " << b.out << b.err;
  }
}

// torchmcubes' way: set_target_properties(... INTERPROCEDURAL_OPTIMIZATION ON). A command-line
// -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF only sets the default of targets that set none.
TEST_F(NoLto, ACommandLineIpoOffDoesNotReachATargetsOwnProperty) {
  auto b = cmake("property", false, {"-DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF"});
  EXPECT_FALSE(b.ok());
  EXPECT_NE((b.out + b.err).find(kCannotRun), std::string::npos) << b.out << b.err;
}

TEST_F(NoLto, TheTargetsOwnIpoIsTurnedOff) {
  auto b = cmake("property", true);
  ASSERT_TRUE(b.ok()) << b.out << b.err;
  EXPECT_NE(b.err.find("torchsmith: [build.no-lto] lt_lto: INTERPROCEDURAL_OPTIMIZATION ON -> OFF"), std::string::npos)
      << b.err;
}

TEST_F(NoLto, Pybind11AddsNoLtoOnceIpoIsDefined) {
  auto b = cmake("pybind11", true);
  ASSERT_TRUE(b.ok()) << b.out << b.err;
  EXPECT_EQ(b.out.find("-flto"), std::string::npos) << b.out;
}

TEST_F(NoLto, Pybind11LtoLinkedByThePackageIsUnlinked) {
  auto b = cmake("pybind11-direct", true);
  ASSERT_TRUE(b.ok()) << b.out << b.err;
  EXPECT_NE(b.err.find("[build.no-lto] lt_lto: pybind11::lto unlinked"), std::string::npos) << b.err;
}

TEST_F(NoLto, OwnLtoFlagsAreDropped) {
  auto b = cmake("flags", true);
  ASSERT_TRUE(b.ok()) << b.out << b.err;
  EXPECT_NE(b.err.find("compile options -flto=auto;-fno-fat-lto-objects"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("[build.no-lto] lt_lto: link options -flto=auto"), std::string::npos) << b.err;
}

// Near misses: a project without LTO says nothing under the remedy; the include given for another
// remedy (the standard) leaves LTO as the project asked.
TEST_F(NoLto, NearMissesAreLeftAlone) {
  auto none = cmake("none", true);
  ASSERT_TRUE(none.ok()) << none.out << none.err;
  EXPECT_EQ(none.err.find("[build.no-lto]"), std::string::npos) << none.err;
  std::vector<std::string> argv{"cmake", "-S", kFixtures + "cmake_lto", "-B", dir_ + "/std-only", "-G", "Ninja",
                                "-DCMAKE_CXX_COMPILER=" + gxx_, "-DLT_LTO=property",
                                "-DCMAKE_PROJECT_INCLUDE_BEFORE=" + dir_ + "/pyshim/torchsmith_project.cmake"};
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  o.extra_env["TORCHSMITH_CMAKE_STD"] = "11";
  ASSERT_TRUE(util::run(argv, o).ok());
  auto b = util::run({"cmake", "--build", dir_ + "/std-only"}, o);
  EXPECT_FALSE(b.ok());
  EXPECT_NE((b.out + b.err).find(kCannotRun), std::string::npos) << b.out << b.err;
}

// setup.py's own -flto in extra_compile_args/extra_link_args, built by Debian's torch with the copied g++.
class NoLtoSetuptools : public NoLto {
 protected:
  void SetUp() override {
    NoLto::SetUp();
    if (IsSkipped()) return;
    auto probe = util::run({"/usr/bin/python3", "-c", "import torch.utils.cpp_extension"}, {std::chrono::seconds(60)});
    if (!probe.ok()) GTEST_SKIP() << "/usr/bin/python3 has no torch (python3-torch): " << probe.err;
  }

  util::RunResult build(const std::string& name, std::map<std::string, std::string> env) {
    fs::path tree = fs::path(dir_) / name;
    fs::copy(kFixtures + "lto_flags", tree, fs::copy_options::recursive);
    util::RunOptions o;
    o.timeout = std::chrono::seconds(120);
    o.cwd = tree.string();
    o.extra_env = std::move(env);
    o.extra_env["PYTHONPATH"] = dir_ + "/pyshim";
    for (const char* k : {"CC", "CXX"}) o.extra_env[k] = gxx_;
    o.extra_env["LDSHARED"] = gxx_ + " -shared";
    auto r = util::run({"/usr/bin/python3", "setup.py", "build_ext", "--inplace"}, o);
    if (r.ok()) r.out += util::run({"/usr/bin/python3", "-c", "import lt_lto_flags as m; print('value', m.value())"},
                                   {std::chrono::seconds(60), std::nullopt, {}, tree.string()}).out;
    return r;
  }
};

TEST_F(NoLtoSetuptools, OwnLtoFlagsFailToLinkWithoutTheRemedy) {
  auto r = build("plain", {});
  EXPECT_FALSE(r.ok());
  EXPECT_NE((r.out + r.err).find(kCannotRun), std::string::npos) << r.out << r.err;
}

TEST_F(NoLtoSetuptools, OwnLtoFlagsAreDroppedFromCompileAndLink) {
  auto r = build("fixed", {{"TORCHSMITH_NO_LTO", "1"}});
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.err.find("[build.no-lto] lt_lto_flags: dropped -flto=auto -fno-fat-lto-objects from extra_compile_args"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[build.no-lto] lt_lto_flags: dropped -flto=auto from extra_link_args"), std::string::npos);
  EXPECT_NE(r.out.find("value 7"), std::string::npos) << r.out;
}

TEST_F(NoLtoSetuptools, APackageWithoutLtoIsLeftAlone) {
  auto r = build("none", {{"TORCHSMITH_NO_LTO", "1"}, {"LTO_FLAGS", ""}});
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_EQ(r.err.find("[build.no-lto]"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ts::run

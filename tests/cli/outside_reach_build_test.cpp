// fairseq's modules/lightconv_layer builds a kernel that does `#include "../cuda_utils.cu"`: the run's
// copy of the package must hold that file at the same place relative to the package. Near miss: a
// package that reaches nothing outside is copied into OUT/src as before.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
const char* kPy = "/usr/bin/python3";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// Plans `pkg`, then runs one step in the copy ({src}) that reads what the package includes.
util::RunResult build_reading(const testkit::TempDir& t, const fs::path& pkg, const std::string& out,
                              const std::string& read) {
  auto p = run_torchsmith({"plan", pkg.string(), "--torch", kPy, "-o", t / (out + ".lock.json")});
  EXPECT_EQ(p.exit_code, 0) << p.out << p.err;
  json lock = json::parse(util::read_file(t / (out + ".lock.json")).value_or("{}"));
  lock["steps"] = json::array({{{"name", "check"},
                                {"argv", {kPy, "-c", "import sys; print(open(sys.argv[1]).read())", read}},
                                {"cwd", "{src}"},
                                {"note", "the test's"}}});
  EXPECT_TRUE(util::write_file_atomic(t / (out + ".lock.json"), lock.dump(2)).empty());
  return run_torchsmith({"build", "--trust-lock", "--lock", t / (out + ".lock.json"), "--out", t / out},
                        std::chrono::seconds(120));
}

TEST(OutsideReachBuild, TheCopyHoldsWhatThePackageIncludesAboveItsDirectory) {
  if (!debian_torch()) GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  fs::path modules = fs::path(t.path()) / "repo/modules";
  write(modules / "cuda_utils.cu", "// the shared helper\n");
  write(modules / "lightconv_layer/setup.py",
        "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CppExtension\n"
        "setup(name='lightconv_layer', ext_modules=[CppExtension('lightconv_layer', ['kernel.cpp'])],\n"
        "      cmdclass={'build_ext': BuildExtension})\n");
  write(modules / "lightconv_layer/kernel.cpp", "#include \"../cuda_utils.cu\"\nint f() { return 1; }\n");
  auto r = build_reading(t, modules / "lightconv_layer", "out", "../cuda_utils.cu");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("the package reaches 1 file(s) above its directory (kernel.cpp:1: #include \"../cuda_utils.cu\")"),
            std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(t / "out/src/lightconv_layer/kernel.cpp"));
  EXPECT_TRUE(fs::exists(t / "out/src/cuda_utils.cu"));
  EXPECT_FALSE(fs::exists(t / "out/src/unrelated.cu"));

  // Near miss: nothing above it is included, so the copy is OUT/src itself and nothing else is copied.
  write(modules / "plain/setup.py", "from setuptools import setup\nsetup(name='plain')\n");
  write(modules / "plain/kernel.cpp", "#include \"local.h\"\n");
  write(modules / "plain/local.h", "// local\n");
  auto n = build_reading(t, modules / "plain", "out2", "local.h");
  EXPECT_EQ(n.exit_code, 0) << n.out << n.err;
  EXPECT_EQ(n.err.find("above its directory"), std::string::npos) << n.err;
  EXPECT_TRUE(fs::exists(t / "out2/src/kernel.cpp"));
  EXPECT_FALSE(fs::exists(t / "out2/src/cuda_utils.cu"));
}

}  // namespace
}  // namespace ts::testing

// torchsmith diagnose always answers: a known root cause, "unrecognised" with the first real error
// line, or "no error found" (text) / "error": false (--json) for a log without one.
#include <algorithm>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_util.h"
#include "testkit/temp_dir.h"

namespace ts::testing {
namespace {

using TempDir = ::ts::testkit::TempDir;

std::string write_log(const TempDir& d, const std::string& name, const std::string& text) {
  std::string p = d.path() + "/" + name;
  EXPECT_EQ(util::write_file_atomic(p, text), "");
  return p;
}

TEST(Diagnose, NoErrorSaysSoInTextAndJson) {
  TempDir d;
  std::string log = write_log(d, "ok.log", "running build_ext\nbuilding 'x' extension\ncopying x.so -> build/lib\n");
  auto t = run_torchsmith({"diagnose", log});
  EXPECT_EQ(t.exit_code, 1) << t.err;
  EXPECT_NE(t.out.find("no error found"), std::string::npos) << t.out;
  auto j = run_torchsmith({"diagnose", "--json", log});
  auto js = nlohmann::json::parse(j.out);
  EXPECT_EQ(js["error"], false);
  EXPECT_TRUE(js["root_cause"].is_null());
}

TEST(Diagnose, AnErrorLineNoSignatureKnowsIsUnrecognisedWithThatLine) {
  TempDir d;
  std::string log = write_log(d, "bad.log", "step 1\nFrobnicatorError: the frobnicator broke\nstep 2\n");
  auto j = run_torchsmith({"diagnose", "--json", log});
  EXPECT_EQ(j.exit_code, 1) << j.err;
  auto js = nlohmann::json::parse(j.out);
  EXPECT_EQ(js["error"], true);
  EXPECT_EQ(js["root_cause"]["id"], "unrecognised");
  EXPECT_EQ(js["root_cause"]["evidence"][0]["line"], 2);
  auto t = run_torchsmith({"diagnose", log});
  EXPECT_NE(t.out.find("root cause: unrecognised"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("FrobnicatorError: the frobnicator broke"), std::string::npos) << t.out;
}

TEST(Diagnose, NvccWordingOfAMissingStdHeaderIsKnown) {
  TempDir d;
  std::string log = write_log(d, "nvcc.log",
                              "[3/9] Building CUDA object scan.cu.o\n"
                              "src/scan_setup.cu(52): error: namespace \"std\" has no member \"numeric_limits\"\n"
                              "1 error detected in the compilation of \"src/scan_setup.cu\".\n");
  auto j = run_torchsmith({"diagnose", "--json", log});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  auto js = nlohmann::json::parse(j.out);
  EXPECT_EQ(js["root_cause"]["id"], "MISSING_STD_HEADER");
  EXPECT_EQ(js["error"], true);
}

// A generic signature names the module the log names, and --json lists the ids merged into it.
TEST(Diagnose, GenericExtensionSignatureNamesTheModuleAndItsFormerIds) {
  TempDir d;
  std::string log = write_log(d, "ext.log",
                              "Traceback (most recent call last):\n"
                              "  File \"train.py\", line 3, in <module>\n"
                              "ModuleNotFoundError: No module named 'mmcv._ext'\n");
  auto j = run_torchsmith({"diagnose", "--json", log});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  auto js = nlohmann::json::parse(j.out);
  EXPECT_EQ(js["root_cause"]["id"], "EXT_MODULE_NOT_BUILT");
  EXPECT_NE(js["root_cause"]["cause"].get<std::string>().find("'mmcv._ext'"), std::string::npos) << j.out;
  EXPECT_NE(js["root_cause"]["remedy"]["note"].get<std::string>().find("'mmcv._ext'"), std::string::npos) << j.out;
  auto former = js["root_cause"]["formerly"];
  EXPECT_NE(std::find(former.begin(), former.end(), "MMCV_EXT_NOT_BUILT"), former.end()) << j.out;
  auto t = run_torchsmith({"diagnose", log});
  EXPECT_NE(t.out.find("EXT_MODULE_NOT_BUILT"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("'mmcv._ext'"), std::string::npos) << t.out;
}

}  // namespace
}  // namespace ts::testing

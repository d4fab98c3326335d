// torchsmith diagnose always answers: a known root cause, "unrecognised" with the first real error
// line, or "no error found" (text) / "error": false (--json) for a log without one.
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

}  // namespace
}  // namespace ts::testing

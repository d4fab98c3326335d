#include "run/early_verify.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "testkit/temp_dir.h"

namespace ts::run {
namespace {

plan::Plan extension_plan(std::vector<std::string> verify_argv) {
  plan::Plan p;
  p.import_name = "hello_ext";
  p.steps.push_back({"build", {"/usr/bin/python3", "-m", "pip", "wheel", "."}, "{src}", ""});
  p.steps.push_back({"verify", std::move(verify_argv), "", ""});
  return p;
}

// What the build step starts is what the verify step will ask for: its --python and --gpu.
TEST(EarlyVerify, ReadsTheVerifyStepsPythonAndGpu) {
  auto r = early_verify_request(extension_plan({"torchsmith", "verify", "{wheel}", "--python", "/opt/py/bin/python",
                                                "--plan", "{lock}", "--gpu"}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->python, "/opt/py/bin/python");
  EXPECT_TRUE(r->gpu);
  r = early_verify_request(extension_plan({"torchsmith", "verify", "{wheel}", "--python", "/usr/bin/python3"}));
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->gpu);
}

// Nothing to start: a torch plan (its wheel brings the torch to import), a verify of files only,
// a verify without a wheel.
TEST(EarlyVerify, NothingForTorchPlansOrFileChecks) {
  auto torch = extension_plan({"torchsmith", "verify", "{wheel}", "--python", "/usr/bin/python3"});
  torch.import_name.clear();
  EXPECT_FALSE(early_verify_request(torch));
  EXPECT_FALSE(early_verify_request(extension_plan({"torchsmith", "verify", "{src}/build-torchsmith", "--plan", "{lock}"})));
  EXPECT_FALSE(early_verify_request(extension_plan({"torchsmith", "verify", "--python", "/usr/bin/python3"})));
}

// Stopped before verify ran (a failed build): the waiting script is told "no go", ends, and its
// directory is removed.
TEST(EarlyVerify, StopEndsAWaitingCheckerAndRemovesItsDirectory) {
  testkit::TempDir t;
  EarlyVerify ev;
  ev.start({"/usr/bin/python3", false}, t / "early", {});
  ASSERT_TRUE(ev.started());
  EXPECT_TRUE(std::filesystem::exists(t / "early/early.json"));
  ev.stop();
  EXPECT_FALSE(ev.started());
  EXPECT_FALSE(std::filesystem::exists(t / "early"));
}

}  // namespace
}  // namespace ts::run

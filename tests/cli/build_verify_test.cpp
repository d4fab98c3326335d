// A failed verify in `torchsmith build`: the summary, run.json and report.html name the failing
// check (read from verify's JSON), not just "exit 1". The plan's only step verifies a tiny wheel
// whose smoke code fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
const char* kPy = "/usr/bin/python3";

TEST(BuildVerifyCli, AFailedVerifyNamesItsFailingChecks) {
  if (util::run({kPy, "-c", "import torch"}, {std::chrono::seconds(60)}).exit_code != 0)
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  auto p = run_torchsmith({"plan", std::string(TS_SOURCE_DIR) + "/examples/hello_ext", "--torch", kPy, "-o", t / "lock.json"});
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  std::string whl = t / "tinypkg-0.1-py3-none-any.whl";
  auto w = util::run({kPy, "-c",
                      "import base64, hashlib, sys, zipfile\n"
                      "files = {'tinypkg/__init__.py': b'X = 1\\n',\n"
                      "         'tinypkg-0.1.dist-info/METADATA': b'Metadata-Version: 2.1\\nName: tinypkg\\nVersion: 0.1\\n',\n"
                      "         'tinypkg-0.1.dist-info/WHEEL': b'Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}\n"
                      "rec = ''.join('%s,sha256=%s,%d\\n' % (n, base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode(), len(d)) for n, d in files.items())\n"
                      "with zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
                      "    for n, d in files.items(): z.writestr(n, d)\n"
                      "    z.writestr('tinypkg-0.1.dist-info/RECORD', rec + 'tinypkg-0.1.dist-info/RECORD,,\\n')\n",
                      whl});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  json lock = json::parse(util::read_file(t / "lock.json").value_or("{}"));
  lock["import_name"] = "tinypkg";
  lock["smoke"] = "raise RuntimeError('the op was not built')\n";
  lock["steps"] = json::array({{{"name", "verify"},
                                {"argv", {"torchsmith", "verify", whl, "--python", kPy, "--plan", "{lock}"}},
                                {"cwd", ""},
                                {"note", "the test's"}}});
  ASSERT_TRUE(util::write_file_atomic(t / "lock.json", lock.dump(2)).empty());
  auto r = run_torchsmith({"build", "--trust-lock", "--lock", t / "lock.json", "--out", t / "out"}, std::chrono::seconds(300));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("verify failed: 1 check failed: smoke (RuntimeError: the op was not built)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("FAIL  smoke"), std::string::npos) << r.out;  // the table, from verify's JSON
  json run = json::parse(util::read_file(t / "out/last/run.json").value_or("null"), nullptr, false);
  ASSERT_TRUE(run.is_object());
  ASSERT_TRUE(run["checks"].is_array());
  bool smoke_failed = false;
  for (const auto& c : run["checks"]) smoke_failed |= c["check"] == "smoke" && c["outcome"] == "fail";
  EXPECT_TRUE(smoke_failed) << run["checks"].dump();
  std::string html = util::read_file(t / "out/last/report.html").value_or("");
  auto table = html.find("<table id=\"verdicts\">");
  ASSERT_NE(table, std::string::npos);
  EXPECT_NE(html.find("<tr class=\"v-bad\"><td class=\"bad\"><b>FAIL</b></td><td>smoke</td>", table), std::string::npos);
}

// The verify step's Python is started with the build step (early_verify.h): verify installs the
// wheel into that process's target, it runs the checks, and the run removes its directory.
TEST(BuildVerifyCli, VerifysCheckerStartsWithTheBuildStep) {
  if (util::run({kPy, "-c", "import torch"}, {std::chrono::seconds(60)}).exit_code != 0)
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  auto p = run_torchsmith({"plan", std::string(TS_SOURCE_DIR) + "/examples/hello_ext", "--torch", kPy, "-o", t / "lock.json"});
  ASSERT_EQ(p.exit_code, 0) << p.out << p.err;
  const std::string make_wheel =
      "import base64, hashlib, os, sys, zipfile\n"
      "files = {'tinypkg/__init__.py': b'X = 1\\n',\n"
      "         'tinypkg-0.1.dist-info/METADATA': b'Metadata-Version: 2.1\\nName: tinypkg\\nVersion: 0.1\\n',\n"
      "         'tinypkg-0.1.dist-info/WHEEL': b'Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}\n"
      "rec = ''.join('%s,sha256=%s,%d\\n' % (n, base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode(), len(d)) for n, d in files.items())\n"
      "os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)\n"
      "with zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
      "    for n, d in files.items(): z.writestr(n, d)\n"
      "    z.writestr('tinypkg-0.1.dist-info/RECORD', rec + 'tinypkg-0.1.dist-info/RECORD,,\\n')\n";
  json lock = json::parse(util::read_file(t / "lock.json").value_or("{}"));
  lock["import_name"] = "tinypkg";
  lock["smoke"] = "import tinypkg\nassert tinypkg.X == 1\n";
  lock["steps"] = json::array(
      {{{"name", "build"}, {"argv", {kPy, "-c", make_wheel, "{dist}/tinypkg-0.1-py3-none-any.whl"}}, {"cwd", ""}, {"note", ""}},
       {{"name", "verify"},
        {"argv", {"torchsmith", "verify", "{wheel}", "--python", kPy, "--plan", "{lock}"}},
        {"cwd", ""},
        {"note", "the test's"}}});
  ASSERT_TRUE(util::write_file_atomic(t / "lock.json", lock.dump(2)).empty());
  auto r = run_torchsmith({"build", "--trust-lock", "--lock", t / "lock.json", "--out", t / "out"}, std::chrono::seconds(300));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("--early-check"), std::string::npos) << r.out << r.err;  // verify's command line
  std::string log = util::read_file(t / "out/last/logs/02-verify.log").value_or("");
  EXPECT_NE(log.find("/verify-early/install/target by torchsmith"), std::string::npos) << log;
  EXPECT_NE(log.find("ok    smoke"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(t / "out/last/verify-early")) << "the run removes the checker's directory";
}

}  // namespace
}  // namespace ts::testing

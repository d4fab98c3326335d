// A real package from PyPI, end to end: mmcv-full 1.7.2's sdist (hash checked against the index)
// built by torchsmith against Debian's torch 1.13 (CPU, MMCV_WITH_OPS=1 from its recipe), then
// verified with its real runtime dependencies from PyPI (addict, yapf, the opencv its setup.py
// chose, ...) installed into verify's own venv, torchvision (the recipe's runtime_requires: mmcv.ops
// imports it undeclared) used from Debian's python3-torchvision, and the smoke calling the compiled
// mmcv.ops.nms. Needs the network: skipped when the index cannot be reached. Its own ctest entry
// (label "network", a long TIMEOUT): the build is 73 C++ files.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "source/pypi.h"
#include "testkit/temp_dir.h"
#include "util/cache_dir.h"

namespace ts::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
const char* kPy = "/usr/bin/python3";

const json* check(const json& checks, const std::string& name) {
  for (const auto& c : checks)
    if (c.value("check", "") == name) return &c;
  return nullptr;
}

TEST(RealPackagesNet, MmcvFullSdistBuildsAndVerifiesWithItsRuntimeDependencies) {
  util::RunOptions quick;
  quick.timeout = std::chrono::seconds(60);
  if (util::run({kPy, "-c", "import torch"}, quick).exit_code != 0 || util::run({kPy, "-m", "pip", "--version"}, quick).exit_code != 0)
    GTEST_SKIP() << "needs Debian's python3-torch and python3-pip (tools/bootstrap.sh installs them)";
  if (util::run({"curl", "--version"}, quick).exit_code != 0) GTEST_SKIP() << "no curl (tools/bootstrap.sh installs it)";
  if (util::run({kPy, "-c", "import torchvision"}, quick).exit_code != 0)
    GTEST_SKIP() << "needs Debian's python3-torchvision, the one built for Debian's torch (tools/bootstrap.sh installs it)";
  std::string err;
  bool unreachable = false;
  auto s = source::find_sdist("mmcv-full", "1.7.2", {}, &err, &unreachable);
  if (!s && unreachable) GTEST_SKIP() << "PyPI is not reachable from here (offline?): " << err;
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->filename, "mmcv-full-1.7.2.tar.gz");
  const std::string cache = util::cache_dir();
  ASSERT_FALSE(cache.empty()) << "no HOME or TORCHSMITH_CACHE";
  std::string sdist = source::fetch_sdist(*s, cache, std::chrono::minutes(5), &err);
  if (sdist.empty() && err.find("downloading") == 0) GTEST_SKIP() << "files.pythonhosted.org is not reachable: " << err;
  ASSERT_FALSE(sdist.empty()) << err;

  testkit::TempDir t;
  fs::create_directories(t / "src");
  auto x = util::run({"tar", "-xzf", sdist, "-C", t / "src"}, quick);
  ASSERT_EQ(x.exit_code, 0) << x.err;
  util::RunOptions ro;
  ro.timeout = std::chrono::minutes(38);
  // The user's cache, so pip's downloads (opencv is 50 MB) are kept between runs; no KB overlay.
  ro.env = std::map<std::string, std::string>{{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR},
                                              {"TORCHSMITH_CACHE", cache}, {"NO_COLOR", "1"}, {"LC_ALL", "C"}};
  auto start = std::chrono::steady_clock::now();
  auto r = util::run({TS_BINARY, "build", t / "src/mmcv-full-1.7.2", "--torch", kPy, "--compile-cache", "none",
                      "--out", t / "out"},
                     ro);
  auto secs = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("build_and_verify_seconds", std::to_string(secs));
  std::printf("mmcv-full 1.7.2: torchsmith build + verify took %lld s\n", static_cast<long long>(secs));
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(r.out.size() > 6000 ? r.out.size() - 6000 : 0) << r.err.substr(r.err.size() > 4000 ? r.err.size() - 4000 : 0);

  json run = json::parse(util::read_file(t / "out/last/run.json").value_or("null"), nullptr, false);
  ASSERT_TRUE(run.is_object() && run["checks"].is_array()) << r.err;
  const json& checks = run["checks"];
  // What setup.py declared, read from the wheel it built: each line without a marker must have
  // installed (regex is win32 only). With no cv2 and no opencv-python-headless in Debian's Python at
  // build time (bootstrap.sh installs neither), setup.py asks for opencv-python; METADATA
  // writes it "opencv-python (>=3)".
  auto meta = util::run({kPy, "-c",
                         "import glob, sys, zipfile\n"
                         "w = zipfile.ZipFile(glob.glob(sys.argv[1] + '/*.whl')[0])\n"
                         "m = [n for n in w.namelist() if n.endswith('.dist-info/METADATA')][0]\n"
                         "for l in w.read(m).decode().splitlines():\n"
                         "    if l.startswith('Requires-Dist: ') and ';' not in l: print(l[15:])\n",
                         t / "out/dist"},
                        quick);
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  std::vector<std::string> declared;
  for (std::size_t at = 0, nl; (nl = meta.out.find('\n', at)) != std::string::npos; at = nl + 1)
    declared.push_back(meta.out.substr(at, nl - at));
  EXPECT_NE(std::find(declared.begin(), declared.end(), "opencv-python (>=3)"), declared.end()) << meta.out;
  std::vector<std::string> names{"dependency addict",     "dependency yapf",   "dependency numpy",
                                 "dependency Pillow",     "dependency pyyaml", "dependency packaging",
                                 "dependency torchvision", "import mmcv",      "smoke"};
  for (const auto& d : declared) names.push_back("dependency " + d.substr(0, d.find_first_of("<>=!~ [(")));
  for (const auto& name : names) {
    const json* c = check(checks, name);
    ASSERT_TRUE(c) << name << " missing in " << checks.dump(1);
    EXPECT_EQ(c->value("outcome", ""), "pass") << name << ": " << c->dump();
  }
  // torchvision: the recipe's, and Debian's own (a PyPI one would want PyPI's torch), not installed.
  const std::string tv = check(checks, "dependency torchvision")->value("detail", "");
  EXPECT_NE(tv.find("already satisfied by /usr/bin/python3"), std::string::npos) << tv;
  EXPECT_NE(tv.find("runtime_requires"), std::string::npos) << tv;
  // Installed for verify only: the user's interpreter still has no addict.
  EXPECT_NE(util::run({kPy, "-c", "import addict"}, quick).exit_code, 0);
}

}  // namespace
}  // namespace ts::testing

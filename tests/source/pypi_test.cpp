// Sources by name from the package index: the sdist found in recorded index answers
// (tests/fixtures/pypi/), downloaded into the cache with its sha256 checked (file:// URLs offline),
// and once live against PyPI for torch-scatter 2.1.2 (skipped when PyPI cannot be reached).
#include "source/pypi.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::source {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json fixture(const std::string& name) {
  std::ifstream f(std::string(TS_SOURCE_DIR) + "/tests/fixtures/pypi/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

const char* kSha212 = "69b3aa435f2424ac6a1bfb6ff702da6eb73b33ca0db38fb26989c74159258e47";

TEST(Pypi, SdistFromTheJsonApi) {
  std::string err;
  auto s = sdist_from_release_json(fixture("torch-scatter-2.1.2.json"), &err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->filename, "torch_scatter-2.1.2.tar.gz");
  EXPECT_EQ(s->sha256, kSha212);
  EXPECT_EQ(s->url.rfind("https://files.pythonhosted.org/", 0), 0u) << s->url;
  EXPECT_EQ(s->size, 108045);
  json wheels_only = fixture("torch-scatter-2.1.2.json");
  wheels_only["urls"][0]["packagetype"] = "bdist_wheel";
  EXPECT_FALSE(sdist_from_release_json(wheels_only, &err));
  EXPECT_NE(err.find("has no sdist on the index (wheels only)"), std::string::npos) << err;
  json no_hash = fixture("torch-scatter-2.1.2.json");
  no_hash["urls"][0]["digests"] = json::object();
  EXPECT_FALSE(sdist_from_release_json(no_hash, &err));
  EXPECT_NE(err.find("no sha256"), std::string::npos) << err;
}

TEST(Pypi, SdistFromASimpleIndexPage) {
  std::string err;
  json page = fixture("torch-scatter.simple.json");
  auto s = sdist_from_simple_json(page, "torch_scatter", "2.1.2", &err);  // any spelling of the name
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->sha256, kSha212);
  auto old = sdist_from_simple_json(page, "Torch-Scatter", "2.1.1", &err);
  ASSERT_TRUE(old) << err;
  EXPECT_EQ(old->filename, "torch_scatter-2.1.1.tar.gz");
  EXPECT_FALSE(sdist_from_simple_json(page, "torch-scatter", "2.1", &err));  // 2.1 is not 2.1.1
  page["files"][1]["yanked"] = "broken build";
  EXPECT_FALSE(sdist_from_simple_json(page, "torch-scatter", "2.1.2", &err));
}

bool have_curl() { return fs::exists("/usr/bin/curl") || fs::exists("/usr/local/bin/curl"); }

TEST(Pypi, DownloadIsCheckedAndCached) {
  if (!have_curl()) GTEST_SKIP() << "no curl here (apt-get install curl; tools/bootstrap.sh does)";
  testkit::TempDir t;
  std::ofstream(t / "pkg-1.0.tar.gz") << "not really a tarball, but bytes with a hash";
  std::string err;
  Sdist s;
  s.filename = "pkg-1.0.tar.gz";
  s.url = "file://" + (t / "pkg-1.0.tar.gz");
  s.sha256 = file_sha256(t / "pkg-1.0.tar.gz", &err);
  ASSERT_EQ(s.sha256.size(), 64u) << err;
  std::string got = fetch_sdist(s, t / "cache", std::chrono::seconds(20), &err);
  ASSERT_EQ(got, t / ("cache/sdists/" + s.sha256 + "/pkg-1.0.tar.gz")) << err;
  fs::remove(t / "pkg-1.0.tar.gz");  // the cache answers now
  EXPECT_EQ(fetch_sdist(s, t / "cache", std::chrono::seconds(20), &err), got) << err;

  std::ofstream(t / "evil-1.0.tar.gz") << "altered";
  Sdist bad = s;
  bad.filename = "evil-1.0.tar.gz";
  bad.url = "file://" + (t / "evil-1.0.tar.gz");
  EXPECT_EQ(fetch_sdist(bad, t / "cache", std::chrono::seconds(20), &err), "");
  EXPECT_NE(err.find("is not the index's " + s.sha256), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(t / ("cache/sdists/" + s.sha256 + "/evil-1.0.tar.gz")));
  for (const auto& e : fs::directory_iterator(t / ("cache/sdists/" + s.sha256)))
    EXPECT_EQ(e.path().filename().string().find(".part"), std::string::npos) << e.path();
  bad.filename = "../escape.tar.gz";
  EXPECT_EQ(fetch_sdist(bad, t / "cache", std::chrono::seconds(20), &err), "");
}

// A download killed half way leaves NAME.part-PID; the next fetch of that file removes it once the
// process is gone, and never touches a live writer's.
TEST(Pypi, TheNextFetchRemovesWhatAKilledOneLeft) {
  if (!have_curl()) GTEST_SKIP() << "no curl here (apt-get install curl; tools/bootstrap.sh does)";
  testkit::TempDir t;
  std::ofstream(t / "pkg-1.0.tar.gz") << "bytes of an sdist";
  std::string err;
  Sdist s;
  s.filename = "pkg-1.0.tar.gz";
  s.url = "file://" + (t / "pkg-1.0.tar.gz");
  s.sha256 = file_sha256(t / "pkg-1.0.tar.gz", &err);
  const fs::path dir = t / ("cache/sdists/" + s.sha256);
  fs::create_directories(dir);
  // A pid that is gone: a child that has exited and been reaped.
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  int st = 0;
  waitpid(gone, &st, 0);
  std::ofstream(dir / ("pkg-1.0.tar.gz.part-" + std::to_string(gone))) << std::string(4096, 'x');
  const fs::path live = dir / ("pkg-1.0.tar.gz.part-" + std::to_string(getppid()));
  std::ofstream(live) << "a live writer's";
  ASSERT_EQ(fetch_sdist(s, t / "cache", std::chrono::seconds(20), &err), (dir / "pkg-1.0.tar.gz").string()) << err;
  EXPECT_FALSE(fs::exists(dir / ("pkg-1.0.tar.gz.part-" + std::to_string(gone))));
  EXPECT_TRUE(fs::exists(live));
}

TEST(Pypi, UnpackedSdistIsTheTreeItself) {
  testkit::TempDir t;
  fs::create_directories(t / "pkg-1.0");
  std::ofstream(t / "pkg-1.0/setup.py") << "from setuptools import setup\n";
  auto r = util::run({"tar", "-czf", t / "pkg-1.0.tar.gz", "-C", t.path(), "pkg-1.0"}, {});
  ASSERT_TRUE(r.ok()) << r.err;
  std::string err;
  ASSERT_TRUE(unpack_sdist(t / "pkg-1.0.tar.gz", t / "src", &err)) << err;
  EXPECT_TRUE(fs::exists(t / "src/setup.py"));  // {src} is the tree, not a folder holding it
  EXPECT_FALSE(fs::exists(t / "src.unpacking"));
  EXPECT_FALSE(unpack_sdist(t / "pkg-1.0.tar.gz", t / "src", &err));  // never over a tree already there
  EXPECT_NE(err.find("exists and is not empty"), std::string::npos) << err;
  std::ofstream(t / "broken.tar.gz") << "not a tarball";
  EXPECT_FALSE(unpack_sdist(t / "broken.tar.gz", t / "src2", &err));
  EXPECT_FALSE(fs::exists(t / "src2/setup.py"));
  EXPECT_FALSE(fs::exists(t / "src2.unpacking"));
}

TEST(Pypi, LiveTorchScatter212SdistHashChecked) {
  if (!have_curl()) GTEST_SKIP() << "no curl here (apt-get install curl; tools/bootstrap.sh does)";
  std::string err;
  bool unreachable = false;
  IndexOptions o;
  o.timeout = std::chrono::seconds(20);
  auto s = find_sdist("torch-scatter", "2.1.2", o, &err, &unreachable);
  if (!s && unreachable) GTEST_SKIP() << "PyPI is not reachable from here: " << err;
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->sha256, kSha212);  // what PyPI said in 2026-11 (recorded in tests/fixtures/pypi)
  testkit::TempDir t;
  std::string path = fetch_sdist(*s, t / "cache", std::chrono::seconds(60), &err);
  if (path.empty() && err.find("downloading") == 0) GTEST_SKIP() << "files.pythonhosted.org is not reachable: " << err;
  ASSERT_FALSE(path.empty()) << err;
  EXPECT_EQ(file_sha256(path, &err), kSha212);
  EXPECT_EQ(fs::file_size(path), 108045u);
}

}  // namespace
}  // namespace ts::source

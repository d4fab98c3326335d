// build.header-wheel end to end (tests/fixtures/projects/long_tail/header_wheel) against Debian's torch
// 1.13, offline: the package includes "cutlass/cutlass.h", which its folder does not hold (a submodule of
// the repository it came from, as Cuda_LSS_HQ's backward_kernel). Plain `pip wheel --no-build-isolation`
// stops at the include; torchsmith's build installs the distribution build.toml names for `cutlass/`
// (nvidia-cutlass) from a --wheelhouse into the build overlay and puts its include folders on CPATH, so
// the module compiles and its smoke sees the header's CUTLASS_MAJOR. The wheel is a stand-in made here
// (the real one is 6 MiB), laid out as the real one is: cutlass_library/source/include/cutlass/.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "testkit/temp_dir.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

// A valid py3-none-any wheel of nvidia-cutlass holding one header, written with Python's zipfile.
constexpr const char* kMakeWheel = R"PY(
import base64, hashlib, sys, zipfile
files = {
    "cutlass_library/__init__.py": b"",
    "cutlass_library/source/include/cutlass/cutlass.h": b"#pragma once\n#define CUTLASS_MAJOR 4\n",
    "nvidia_cutlass-4.2.0.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: nvidia-cutlass\nVersion: 4.2.0.0\n",
    "nvidia_cutlass-4.2.0.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = "".join("%s,sha256=%s,%d\n" % (n, base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode(), len(d))
                 for n, d in files.items()) + "nvidia_cutlass-4.2.0.0.dist-info/RECORD,,\n"
with zipfile.ZipFile(sys.argv[1] + "/nvidia_cutlass-4.2.0.0-py3-none-any.whl", "w") as z:
    for n, d in files.items():
        z.writestr(n, d)
    z.writestr("nvidia_cutlass-4.2.0.0.dist-info/RECORD", record)
)PY";

TEST(HeaderWheel, HeadersThePackageDoesNotShipComeFromTheDistributionThatCarriesThem) {
  if (!testing::debian_torch())
    GTEST_SKIP() << "needs Debian's python3-torch (tools/bootstrap.sh installs it)";
  testkit::TempDir t;
  fs::copy(std::string(TS_SOURCE_DIR) + "/tests/fixtures/projects/long_tail/header_wheel", t / "pkg",
           fs::copy_options::recursive);
  fs::create_directories(t / "wh");
  ASSERT_TRUE(util::run({"/usr/bin/python3", "-c", kMakeWheel, t / "wh"}, {}).ok());
  auto plain = util::run({"/usr/bin/python3", "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", t / "d", "."},
                         {std::chrono::seconds(120), std::nullopt, {}, t / "pkg"});
  EXPECT_FALSE(plain.ok());
  EXPECT_NE((plain.out + plain.err).find("cutlass/cutlass.h: No such file or directory"), std::string::npos)
      << plain.out << plain.err;
  util::RunOptions o;
  o.timeout = std::chrono::seconds(600);
  o.extra_env = {{"PIP_INDEX_URL", "http://127.0.0.1:9/simple"}, {"PIP_RETRIES", "0"}, {"PIP_TIMEOUT", "2"}};
  auto r = util::run({TS_BINARY, "build", t / "pkg", "--torch", "/usr/bin/python3", "--out", t / "out", "--cache-dir",
                      t / "cache", "--compile-cache", "none", "--wheelhouse", t / "wh"},
                     o);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("smoke"), std::string::npos) << r.out;
  auto run = nlohmann::json::parse(util::read_file(t / "out/last/run.json").value_or("{}"), nullptr, false);
  ASSERT_FALSE(run.is_discarded());
  std::string decisions = run["plan"]["decisions"].dump();
  EXPECT_NE(decisions.find("build.header-wheel nvidia-cutlass"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find("module.cpp:5: #include cutlass/cutlass.h"), std::string::npos) << decisions;
  EXPECT_NE(run["plan"]["env"]["CPATH"].get<std::string>().find("cutlass_library/source/include"), std::string::npos);
}

}  // namespace
}  // namespace ts

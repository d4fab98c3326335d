// `toolkit add --from redist:MIRROR` end to end with real binaries: this machine's CUDA 13.0 (made
// from NVIDIA's wheels; each wheel's RECORD says which files are whose) repackaged here into
// NVIDIA's redistributable layout (cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-13.0.88-archive.tar.xz,
// one top folder, a redistrib_13.0.2.json of the real shape), served on loopback and read from a
// directory with the network cut off; the provisioned nvcc compiles and links a real .cu whose
// SASS and libcudart SONAME the verify readers find. Labelled `long` (CMakeLists.txt): 128 s measured
// on the 2-core CI machine at load ~17, 77 s of it the xz of ~330 MB of real binaries (23.7 s on an
// idle one); it is the one test that proves NVIDIA's layout, unpacked and merged, is a working
// compiler, and the unit tests (tests/provision/redist_test.cpp) cover every bad case in < 10 s.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli/cli_util.h"
#include "cli/redist_mirror.h"
#include "formats/elf.h"
#include "formats/mapped_file.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"
#include "verify/cuda_code.h"

namespace ts::testing {
namespace {

namespace fs = std::filesystem;
const std::string kCuda = kRedistCuda;

const char* kServer = R"PY(
import http.server, os, sys, threading, time, functools
root, port_file, stop = sys.argv[1], sys.argv[2], sys.argv[3]
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
open(port_file, "w").write(str(s.server_address[1]))
threading.Thread(target=s.serve_forever, daemon=True).start()
for _ in range(1800):
    if os.path.exists(stop): break
    time.sleep(0.1)
)PY";

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The provisioned nvcc compiles and links hello.cu for sm_90; the executable carries sm_90 SASS
// and needs libcudart.so.13 (the readers `verify` uses).
void compile_and_check(const std::string& cuda_home, const std::string& dir) {
  std::string cu = dir + "/hello.cu";
  ASSERT_EQ(util::write_file_atomic(cu, "#include <cstdio>\n__global__ void k(int* x) { x[threadIdx.x] = 1; }\n"
                                        "int main() { int* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); std::printf(\"ok\\n\"); }\n"), "");
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);
  o.env = std::map<std::string, std::string>{{"PATH", cuda_home + "/bin:/usr/bin:/bin"}, {"HOME", dir}};
  auto t0 = std::chrono::steady_clock::now();
  auto r = util::run({cuda_home + "/bin/nvcc", "-arch=sm_90", "-cudart", "shared", "-o", dir + "/hello", cu}, o);
  ASSERT_TRUE(r.ok()) << r.describe(o.timeout) << "\n" << r.err << r.out;
  std::printf("[ redist ] nvcc compile+link: %.1f s\n", seconds_since(t0));
  formats::MappedFile f(dir + "/hello");
  ASSERT_TRUE(f.ok()) << f.error();
  std::string err;
  auto elf = formats::ElfFile::parse(f.bytes(), &err);
  ASSERT_TRUE(elf) << err;
  auto code = verify::cuda_code_of(*elf, &err);
  ASSERT_TRUE(code) << err;
  EXPECT_EQ(code->sass_text(), "sm_90");
  const auto& needed = elf->dynamic().needed;
  EXPECT_NE(std::find(needed.begin(), needed.end(), "libcudart.so.13"), needed.end());
}

TEST(ProvisionRedistCli, ArchivesMadeFromTheRealToolkitCompileOverLoopbackAndOffline) {
  if (!fs::exists(kCuda + "/dist-info") || !fs::exists(kCuda + "/bin/nvcc")) GTEST_SKIP() << "no wheel-made CUDA 13 at " << kCuda;
  testkit::TempDir t;
  ASSERT_EQ(util::write_file_atomic(t / "server.py", kServer), "");
  fs::create_directories(t / "kb");
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(make_redist_mirror(t.path(), t / "mirror", t / "kb"), "");
  std::printf("[ redist ] mirror made from %s: %.1f s\n", kCuda.c_str(), seconds_since(t0));

  // Loopback: python's http.server over the mirror, stopped by a file (and after 180 s anyway).
  std::thread server([&] {
    util::RunOptions o;
    o.timeout = std::chrono::seconds(200);
    util::run({"python3", t / "server.py", t / "mirror", t / "port", t / "stop"}, o);
  });
  std::string port;
  for (int i = 0; i < 100 && port.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    port = util::read_file(t / "port").value_or("");
  }
  auto stop = [&] { (void)util::write_file_atomic(t / "stop", ""); server.join(); };
  if (port.empty()) {
    stop();
    FAIL() << "the loopback server did not start";
  }
  t0 = std::chrono::steady_clock::now();
  auto r = run_torchsmith({"--kb", t / "kb", "toolkit", "add", "cuda==13.0", "--from", "redist:http://127.0.0.1:" + port,
                           "--cache-dir", t / "cache"}, std::chrono::minutes(5));
  double first = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  auto again = run_torchsmith({"--kb", t / "kb", "toolkit", "add", "cuda==13.0", "--from", "redist:http://127.0.0.1:" + port,
                               "--cache-dir", t / "cache"});
  double second = seconds_since(t0);
  stop();
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("cuda 13.0.88 provisioned"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuda_nvcc==13.0.88 sha256:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("http://127.0.0.1:" + port + "/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-13.0.88-archive.tar.xz"),
            std::string::npos) << r.out;
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("cached"), std::string::npos) << again.out;
  EXPECT_LT(second, 1.0) << "a second add of the same toolkit must be a cache hit";
  std::printf("[ redist ] toolkit add over loopback: %.1f s; again (cached): %.3f s\n", first, second);
  std::string home = r.out.substr(r.out.find(" provisioned ") + 13);
  home = home.substr(0, home.find(" ("));
  compile_and_check(home, t.path());

  // A provision killed half way (SIGTERM, then SIGKILL) leaves nothing that looks like a toolkit.
  {
    util::RunOptions ko;
    ko.timeout = std::chrono::milliseconds(1500);
    ko.env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR}, {"LC_ALL", "C"}};
    auto killed = util::run({TS_BINARY, "--kb", t / "kb", "toolkit", "add", "cuda==13.0", "--from", "redist:" + (t / "mirror"),
                             "--cache-dir", t / "cache-killed"}, ko);
    EXPECT_TRUE(killed.timed_out) << "the provision finished before it could be interrupted: " << killed.out;
    auto list = run_torchsmith({"toolkit", "list", "--json", "--cache-dir", t / "cache-killed"});
    EXPECT_NE(list.out.find("\"toolkits\": []"), std::string::npos) << list.out;
    std::error_code ec;
    for (fs::directory_iterator it(t / "cache-killed/toolkits", ec), end; !ec && it != end; it.increment(ec))
      EXPECT_EQ(it->path().filename().string()[0], '.') << "a toolkit-like directory after a kill: " << it->path();
  }

  // The same from a directory, with the network cut off (unshare -n), into another cache.
  auto un = util::run({"unshare", "-rn", "true"});
  if (!un.ok()) GTEST_SKIP() << "unshare -rn is not allowed here: " << un.err;
  std::vector<std::string> argv{"unshare", "-rn", TS_BINARY, "--kb", t / "kb", "toolkit", "add", "cuda==13.0",
                                "--from", "redist:" + (t / "mirror"), "--cache-dir", t / "cache-offline"};
  util::RunOptions o;
  o.timeout = std::chrono::minutes(5);
  o.env = std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}, {"HOME", TS_BINARY_DIR}, {"LC_ALL", "C"}};
  t0 = std::chrono::steady_clock::now();
  auto off = util::run(argv, o);
  ASSERT_TRUE(off.ok()) << off.err << off.out;
  std::printf("[ redist ] toolkit add from a directory, network cut off: %.1f s\n", seconds_since(t0));
  std::string offhome = off.out.substr(off.out.find(" provisioned ") + 13);
  offhome = offhome.substr(0, offhome.find(" ("));
  EXPECT_TRUE(fs::exists(offhome + "/nvvm/bin/cicc"));
  EXPECT_TRUE(fs::exists(offhome + "/include/crt/host_config.h"));
  EXPECT_TRUE(fs::exists(offhome + "/include/cccl"));
}

}  // namespace
}  // namespace ts::testing

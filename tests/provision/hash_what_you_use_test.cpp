// Issue 32, finding 3: a wheelhouse file swapped after it was hashed and before it was unpacked
// was installed under the pin of the file hashed. The swap is made certain here: a thread waits
// (inotify) for the file's first open, the hash's, and renames another wheel over it while the
// 64 MiB file is still being read. The installed tool must be the bytes the pin names.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <fstream>
#include <thread>

#include "formats/zip_writer.h"
#include "plan/provision_request.h"
#include "provision/provision.h"
#include "testkit/temp_dir.h"
#include "testkit/wheel_record.h"
#include "util/fs.h"
#include "util/sha256.h"
#include "testkit/version_of.h"

namespace ts::provision {
namespace {

namespace fs = std::filesystem;
const std::string kPlat = "manylinux2014_x86_64";
const char* kFile = "ninja-1.13.0-py3-none-manylinux2014_x86_64.whl";

// A ninja wheel whose bin/ninja says `tool`; `pad` bytes stored uncompressed keep the hash busy.
void ninja_wheel(const std::string& path, const std::string& tool, std::size_t pad) {
  formats::ZipWriter z(path);
  ASSERT_TRUE(z.add("ninja/__init__.py", ""));
  ASSERT_TRUE(z.add("ninja-1.13.0.data/scripts/ninja", tool));
  if (pad) { ASSERT_TRUE(z.add("ninja/pad.bin", std::string(pad, 'p'), false)); }
  ASSERT_TRUE(z.add("ninja-1.13.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: ninja\nVersion: 1.13.0\n"));
  ASSERT_TRUE(z.add("ninja-1.13.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"));
  ASSERT_TRUE(testkit::add_record(z, "ninja-1.13.0.dist-info"));
  ASSERT_TRUE(z.finish()) << z.error();
}

// Renames `evil` over `path` as soon as `path` is first opened (waiting for it to exist first).
// Returns once the watch is in place, so the open it waits for cannot come before it.
std::thread swap_on_first_open(const std::string& path, const std::string& evil, std::atomic<bool>& swapped,
                               bool wait_for_watch = true) {
  auto watching = std::make_shared<std::atomic<bool>>(false);  // outlives this call: the thread sets it
  std::thread th([path, evil, &swapped, watching] {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!fs::exists(path) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    int fd = ::inotify_init1(IN_CLOEXEC);
    bool ok = fd >= 0 && ::inotify_add_watch(fd, path.c_str(), IN_OPEN) >= 0;
    *watching = true;
    if (!ok) return;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20000) == 1) {
      alignas(inotify_event) char buf[4096];
      if (::read(fd, buf, sizeof buf) > 0 && ::rename(evil.c_str(), path.c_str()) == 0) swapped = true;
    }
    ::close(fd);
  });
  while (wait_for_watch && !*watching) std::this_thread::sleep_for(std::chrono::microseconds(100));
  return th;
}

const plan::ToolRelease kNinja{"ninja", testkit::version_of("1.13.0"), {{"ninja", "1.13.0", ""}}};

TEST(HashWhatYouUse, AWheelhouseFileSwappedAfterItsHashIsNeverInstalled) {
  testkit::TempDir t;
  fs::create_directories(t / "wh");
  const std::string good = t / ("wh/" + std::string(kFile));
  ninja_wheel(good, "good ninja", 64u << 20);
  ninja_wheel(t / "evil.whl", "evil ninja", 0);
  std::vector<plan::WheelPin> lock{plan::WheelPin{"ninja", "1.13.0", util::sha256_file(good).value_or("")}};
  std::atomic<bool> swapped{false};
  std::thread th = swap_on_first_open(good, t / "evil.whl", swapped);
  std::string err;
  auto got = ensure(kNinja, WheelhouseProvider(t / "wh"), t / "cache", kPlat, &err, lock);
  th.join();
  ASSERT_TRUE(swapped) << "the swap did not happen; the test proves nothing";
  ASSERT_TRUE(got) << err;  // the bytes hashed are the bytes unpacked: the pinned, good ninja
  EXPECT_EQ(util::read_file(got->dir + "/bin/ninja").value_or(""), "good ninja");
  EXPECT_EQ(got->manifest.wheels.at(0).sha256, lock[0].sha256);
}

// Re-tried with another provider: pip's download directory, the file swapped the same way after
// a (fake) `pip download` put it there.
TEST(HashWhatYouUse, APipDownloadSwappedAfterItsHashIsNeverInstalled) {
  testkit::TempDir t;
  ninja_wheel(t / kFile, "good ninja", 64u << 20);
  ninja_wheel(t / "evil.whl", "evil ninja", 0);
  std::vector<plan::WheelPin> lock{plan::WheelPin{"ninja", "1.13.0", util::sha256_file(t / kFile).value_or("")}};
  // `python -m pip download ... -d DIR -- PINS`: copies the wheel into DIR, then waits a little
  // so the swapping thread is watching before torchsmith opens it.
  const std::string py = t / "python";
  std::ofstream(py) << "#!/bin/sh\nwhile [ \"$1\" != -d ]; do shift; done\ncp '" << (t / kFile)
                    << "' \"$2/.tmp\" && mv \"$2/.tmp\" \"$2/" << kFile << "\" && sleep 0.3\n";
  fs::permissions(py, fs::perms(0755));
  std::string dl = (t / "cache/downloads/.get-") + std::to_string(::getpid()) + "/" + kFile;
  std::atomic<bool> swapped{false};
  std::thread th = swap_on_first_open(dl, t / "evil.whl", swapped, false);  // the file appears during ensure
  std::string err;
  auto got = ensure(kNinja, PipProvider(py), t / "cache", kPlat, &err, lock);
  th.join();
  ASSERT_TRUE(swapped) << "the swap did not happen; the test proves nothing";
  ASSERT_TRUE(got) << err;
  EXPECT_EQ(util::read_file(got->dir + "/bin/ninja").value_or(""), "good ninja");
}

}  // namespace
}  // namespace ts::provision

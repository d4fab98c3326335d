// NVIDIA's redistributable archives and conda channels as providers: the manifest reader on the
// real manifests' shapes, a mirror of layout-true fake archives (made here with the system's xz),
// and every bad case an error naming the file with nothing left in the cache.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "formats/bzip_stream.h"
#include "formats/tar_writer.h"
#include "formats/zip_writer.h"
#include "formats/zstd_stream.h"
#include "plan/provision_request.h"
#include "provision/provision.h"
#include "provision/fetch_file.h"
#include "provision/redist_manifest.h"
#include "testkit/temp_dir.h"
#include "util/fs.h"
#include "util/process.h"
#include "util/sha256.h"
#include "testkit/version_of.h"

namespace ts::provision {
namespace {

namespace fs = std::filesystem;
const std::string kPlat = "manylinux2014_x86_64";

// The shape of redistrib_12.4.1.json: top-level release keys, per component name/license/version,
// per platform relative_path, sha256, md5 and size as a string.
const char* kManifest124 = R"({
  "release_date": "2024-04-09", "release_label": "12.4.1", "release_product": "cuda",
  "cuda_nvcc": {"name": "CUDA NVCC", "license": "CUDA Toolkit", "license_path": "cuda_nvcc/LICENSE.txt",
    "version": "12.4.131",
    "linux-x86_64": {"relative_path": "cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.4.131-archive.tar.xz",
      "sha256": "0000000000000000000000000000000000000000000000000000000000000001", "md5": "a", "size": "64"},
    "linux-sbsa": {"relative_path": "cuda_nvcc/linux-sbsa/cuda_nvcc-linux-sbsa-12.4.131-archive.tar.xz",
      "sha256": "0000000000000000000000000000000000000000000000000000000000000002", "md5": "b", "size": "65"},
    "windows-x86_64": {"relative_path": "cuda_nvcc/windows-x86_64/cuda_nvcc-windows-x86_64-12.4.131-archive.zip",
      "sha256": "0000000000000000000000000000000000000000000000000000000000000003", "md5": "c", "size": "66"}},
  "nvidia_driver": {"name": "NVIDIA Linux Driver", "version": "550.54.15",
    "linux-x86_64": {"relative_path": "nvidia_driver/linux-x86_64/nvidia_driver-linux-x86_64-550.54.15-archive.tar.xz",
      "sha256": "0000000000000000000000000000000000000000000000000000000000000004", "md5": "d", "size": 67}},
  "cuda_demo_suite": {"name": "CUDA Demo Suite", "version": "12.4.127",
    "linux-x86_64": {"relative_path": "cuda_demo_suite/linux-x86_64/x.tar.xz",
      "sha256": "0000000000000000000000000000000000000000000000000000000000000005", "size": "68"}}
})";

// cuDNN's manifests: per platform one archive per CUDA major.
const char* kCudnn = R"({"release_label": "9.1.0", "release_product": "cudnn",
  "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library", "version": "9.1.0.70", "cuda_variant": ["11", "12"],
    "linux-x86_64": {
      "cuda11": {"relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.1.0.70_cuda11-archive.tar.xz",
        "sha256": "0000000000000000000000000000000000000000000000000000000000000011", "size": "10"},
      "cuda12": {"relative_path": "cudnn/linux-x86_64/cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz",
        "sha256": "0000000000000000000000000000000000000000000000000000000000000012", "size": "11"}}}})";

TEST(RedistManifest, ReadsTheRealShapes) {
  std::string err;
  auto m = parse_redist_manifest(kManifest124, "redistrib_12.4.1.json", &err);
  ASSERT_TRUE(m) << err;
  EXPECT_EQ(m->release_label, "12.4.1");
  EXPECT_EQ(m->components.size(), 3u);
  const auto& nvcc = m->components.at("cuda_nvcc");
  EXPECT_EQ(nvcc.version, "12.4.131");
  EXPECT_EQ(nvcc.archives.at("linux-x86_64").size, 64u);
  EXPECT_EQ(m->components.at("nvidia_driver").archives.at("linux-x86_64").size, 67u);  // a number, as some releases write it
  const auto* a = redist_archive(*m, "redistrib_12.4.1.json", "cuda_nvcc", "linux-sbsa", 12, &err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(a->relative_path, "cuda_nvcc/linux-sbsa/cuda_nvcc-linux-sbsa-12.4.131-archive.tar.xz");
  EXPECT_FALSE(redist_archive(*m, "redistrib_12.4.1.json", "cuda_demo_suite", "linux-sbsa", 12, &err));
  EXPECT_NE(err.find("no archive for linux-sbsa (only linux-x86_64)"), std::string::npos) << err;
  EXPECT_FALSE(redist_archive(*m, "redistrib_12.4.1.json", "cuda_cccl", "linux-x86_64", 12, &err));
  EXPECT_NE(err.find("redistrib_12.4.1.json (release 12.4.1) has no component cuda_cccl"), std::string::npos) << err;
  auto c = parse_redist_manifest(kCudnn, "redistrib_9.1.0.json", &err);
  ASSERT_TRUE(c) << err;
  a = redist_archive(*c, "redistrib_9.1.0.json", "cudnn", "linux-x86_64", 12, &err);
  ASSERT_TRUE(a) << err;
  EXPECT_NE(a->relative_path.find("_cuda12-archive"), std::string::npos);
  EXPECT_EQ(redist_platform("manylinux2014_aarch64"), "linux-sbsa");
  EXPECT_EQ(redist_platform("manylinux2014_x86_64"), "linux-x86_64");
}

TEST(RedistManifest, BadManifestsAreErrorsNamingTheFile) {
  std::string err;
  for (const char* bad : {"<html>404</html>", "[]", R"({"cuda_nvcc": {}})",
                          R"({"release_label": "1", "x": {"version": "1", "linux-x86_64": {"relative_path": "a", "size": "1"}}})",
                          R"({"release_label": "1", "x": {"version": "1", "linux-x86_64": {"relative_path": "a", "sha256": "00", "size": "1"}}})",
                          R"({"release_label": "1", "x": {"version": "1", "linux-x86_64": {"relative_path": "a",
                              "sha256": "0000000000000000000000000000000000000000000000000000000000000001", "size": "-1"}}})"}) {
    err.clear();
    EXPECT_FALSE(parse_redist_manifest(bad, "mirror/redistrib_12.4.1.json", &err)) << bad;
    EXPECT_EQ(err.rfind("mirror/redistrib_12.4.1.json: ", 0), 0u) << err;
  }
}

// A mirror directory in NVIDIA's layout: archives of fake files (the real tree's paths), a manifest
// with their true sizes and hashes. Returns the manifest's JSON for tests to spoil.
struct FakeMirror {
  std::string dir;
  nlohmann::json manifest;
  void write() const { ASSERT_EQ(util::write_file_atomic(dir + "/redistrib_12.4.1.json", manifest.dump(2)), ""); }
};

void add_component(FakeMirror& m, const std::string& name, const std::string& version,
                   const std::vector<std::pair<std::string, std::string>>& files) {
  std::string top = name + "-linux-x86_64-" + version + "-archive";
  std::string rel = name + "/linux-x86_64/" + top + ".tar.xz";
  std::string tar = m.dir + "/" + rel.substr(0, rel.size() - 3);
  fs::create_directories(fs::path(tar).parent_path());
  std::vector<formats::TarEntry> entries;
  for (const auto& [path, data] : files) {
    formats::TarEntry e{top + "/" + path, "", data};
    if (data.rfind("->", 0) == 0) e.link_target = data.substr(2), e.data.clear();
    if (path.rfind("bin/", 0) == 0 || path.find("/bin/") != std::string::npos) e.mode = 0755;
    entries.push_back(e);
  }
  formats::AtomicFile f(tar);
  ASSERT_EQ(formats::write_tar(entries, f, 0), "");
  ASSERT_TRUE(f.commit());
  auto r = util::run({"xz", "-0", "-f", "--", tar});
  ASSERT_TRUE(r.ok()) << r.err;
  std::string path = m.dir + "/" + rel;
  m.manifest[name] = {{"name", name}, {"license", "CUDA Toolkit"}, {"version", version},
                      {"linux-x86_64", {{"relative_path", rel}, {"sha256", *util::sha256_file(path)}, {"md5", "0"},
                                        {"size", std::to_string(fs::file_size(path))}}}};
}

FakeMirror fake_mirror(const std::string& dir) {
  FakeMirror m{dir, {{"release_date", "2024-04-09"}, {"release_label", "12.4.1"}, {"release_product", "cuda"}}};
  fs::create_directories(dir);
  add_component(m, "cuda_nvcc", "12.4.131",
                {{"bin/nvcc", "elf"}, {"bin/ptxas", "elf"}, {"bin/fatbinary", "elf"}, {"bin/nvlink", "elf"},
                 {"bin/cudafe++", "elf"}, {"nvvm/bin/cicc", "elf"}, {"nvvm/libdevice/libdevice.10.bc", "bc"},
                 {"nvvm/lib64/libnvvm.so.4.0.0", "so"}, {"include/crt/host_config.h", "//"}, {"LICENSE", "l"}});
  add_component(m, "cuda_cudart", "12.4.127",
                {{"include/cuda_runtime.h", "//"}, {"lib/libcudart.so.12.4.127", "so"},
                 {"lib/libcudart.so.12", "->libcudart.so.12.4.127"}, {"lib/libcudart.so", "->libcudart.so.12"},
                 {"LICENSE", "l"}});
  m.write();
  return m;
}

plan::ToolRelease redist_release() {
  plan::ToolRelease r;
  r.kind = "cuda";
  r.version = testkit::version_of("12.4.131");
  r.via = "redist";
  r.release = "12.4.1";
  r.manifest = "https://developer.download.nvidia.com/compute/cuda/redist/redistrib_12.4.1.json";
  r.wheels = {{"cuda_nvcc", "12.4.131", "", ""}, {"cuda_cudart", "", "", ""}};
  return r;
}

// Nothing that looks like a toolkit, no scratch, no staged download left in the cache.
void expect_cache_clean(const std::string& cache) {
  std::error_code ec;
  for (const char* sub : {"/toolkits", "/downloads"})
    for (fs::directory_iterator it(cache + sub, ec), end; !ec && it != end; it.increment(ec))
      ADD_FAILURE() << "left in the cache: " << it->path();
  EXPECT_TRUE(list_cached(cache).empty());
}

TEST(RedistProvider, ArchivesFromAMirrorDirectoryBecomeACudaHome) {
  testkit::TempDir t;
  fake_mirror(t / "mirror");
  std::string err;
  RedistProvider p(redist_release().manifest, t / "mirror");
  auto r = ensure(redist_release(), p, t / "cache", kPlat, &err);
  ASSERT_TRUE(r) << err;
  EXPECT_TRUE(missing_files("cuda", r->dir).empty());
  EXPECT_EQ(fs::read_symlink(r->dir + "/lib/libcudart.so").string(), "libcudart.so.12");
  EXPECT_EQ(fs::read_symlink(r->dir + "/lib64").string(), "lib");
  EXPECT_TRUE((fs::status(r->dir + "/bin/nvcc").permissions() & fs::perms::owner_exec) != fs::perms::none);
  ASSERT_EQ(r->manifest.wheels.size(), 2u);
  EXPECT_EQ(r->manifest.provider, "redist");
  EXPECT_EQ(r->manifest.wheels[1].name, "cuda_cudart");
  EXPECT_EQ(r->manifest.wheels[1].version, "12.4.127");  // the manifest's, recorded for the lock
  EXPECT_EQ(r->manifest.wheels[1].file, t / "mirror/cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz");
  EXPECT_EQ(r->manifest.wheels[1].sha256.size(), 64u);
  // A lock that pins another sha256 for one archive: refused, before and after it is cached.
  auto wrong = r->manifest.wheels;
  wrong[1].sha256 = std::string(64, 'e');
  EXPECT_FALSE(ensure(redist_release(), p, t / "cache", kPlat, &err, wrong));
  EXPECT_NE(err.find("made from other files than the lock pins (cuda_cudart==12.4.127"), std::string::npos) << err;
  EXPECT_FALSE(ensure(redist_release(), p, t / "cache2", kPlat, &err, wrong));
  EXPECT_NE(err.find("is not the pinned"), std::string::npos) << err;
  expect_cache_clean(t / "cache2");
  // A mirror whose manifest moved cudart on to another version: a build from the lock refuses it.
  {
    auto m = fake_mirror(t / "moved");
    m.manifest["cuda_cudart"]["version"] = "12.4.128";
    m.write();
    EXPECT_FALSE(ensure(redist_release(), RedistProvider(redist_release().manifest, t / "moved"), t / "cache3", kPlat, &err,
                        r->manifest.wheels));
    EXPECT_NE(err.find("cuda_cudart==12.4.127 is pinned by the lock, but redist " + (t / "moved") + " gives cuda_cudart==12.4.128"),
              std::string::npos) << err;
    expect_cache_clean(t / "cache3");
  }
  // A second add of the same toolkit is a cache hit.
  auto t0 = std::chrono::steady_clock::now();
  auto again = ensure(redist_release(), p, t / "cache", kPlat, &err);
  ASSERT_TRUE(again) << err;
  EXPECT_TRUE(again->cached);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
}

// One .tar.xz in the mirror at `rel` whose one top-level folder is `top`; its manifest entry.
nlohmann::json write_archive(const std::string& dir, const std::string& rel, const std::string& top,
                             const std::vector<std::pair<std::string, std::string>>& files) {
  std::string tar = dir + "/" + rel.substr(0, rel.size() - 3);
  fs::create_directories(fs::path(tar).parent_path());
  std::vector<formats::TarEntry> entries;
  for (const auto& [path, data] : files) {
    formats::TarEntry e{top + "/" + path, "", data};
    if (data.rfind("->", 0) == 0) e.link_target = data.substr(2), e.data.clear();
    entries.push_back(e);
  }
  formats::AtomicFile f(tar);
  EXPECT_EQ(formats::write_tar(entries, f, 0), "");
  EXPECT_TRUE(f.commit());
  auto r = util::run({"xz", "-0", "-f", "--", tar});
  EXPECT_TRUE(r.ok()) << r.err;
  std::string path = dir + "/" + rel;
  return {{"relative_path", rel}, {"sha256", util::sha256_file(path).value_or("")}, {"md5", "0"},
          {"size", std::to_string(fs::file_size(path))}};
}

// cuDNN's manifest as NVIDIA publishes it (read from the copy NixOS/nixpkgs vendors,
// pkgs/development/cuda-modules/_cuda/manifests/cudnn/redistrib_9.8.0.json): "cudnn" with a
// cuda_variant list and per platform one archive per CUDA major; cudnn_samples with a "source" entry.
nlohmann::json cudnn_manifest(const std::string& dir) {
  auto variant = [&](const std::string& cu) {
    std::string top = "cudnn-linux-x86_64-9.8.0.87_" + cu + "-archive";
    return write_archive(dir, "cudnn/linux-x86_64/" + top + ".tar.xz", top,
                         {{"include/cudnn.h", "// cudnn"}, {"include/cudnn_version.h", "// built for " + cu},
                          {"lib/libcudnn.so.9.8.0", "so"}, {"lib/libcudnn.so.9", "->libcudnn.so.9.8.0"},
                          {"lib/libcudnn.so", "->libcudnn.so.9"}, {"LICENSE", "l"}});
  };
  return {{"release_date", "2025-03-04"}, {"release_label", "9.8.0"}, {"release_product", "cudnn"},
          {"cudnn", {{"name", "NVIDIA CUDA Deep Neural Network library"}, {"license", "cudnn"},
                     {"license_path", "cudnn/LICENSE.txt"}, {"version", "9.8.0.87"},
                     {"linux-x86_64", {{"cuda11", variant("cuda11")}, {"cuda12", variant("cuda12")}}},
                     {"cuda_variant", {"11", "12"}}}},
          {"cudnn_samples", {{"name", "NVIDIA cuDNN samples"}, {"version", "9.8.0.87"},
                             {"source", {{"relative_path", "cudnn_samples/source/cudnn_samples-source-9.8.0.87-archive.tar.xz"},
                                         {"sha256", std::string(64, 'a')}, {"md5", "0"}, {"size", "1666724"}}}}}};
}

// A torch build's toolkit: the math libraries from CUDA's manifest and cuDNN from its own manifest
// (found at the mirror's root beside CUDA's), the archive of the CUDA release's major.
TEST(RedistProvider, TorchBuildTakesMathLibrariesAndCudnnFromItsOwnManifest) {
  testkit::TempDir t;
  auto m = fake_mirror(t / "mirror");
  add_component(m, "libcublas", "12.4.5.8",
                {{"include/cublas_v2.h", "//"}, {"lib/libcublas.so.12.4.5.8", "so"}, {"lib/libcublas.so.12", "->libcublas.so.12.4.5.8"}});
  add_component(m, "cuda_cupti", "12.4.127", {{"extras/CUPTI/include/cupti.h", "//"}, {"extras/CUPTI/lib64/libcupti.so.12", "so"}});
  m.write();
  ASSERT_EQ(util::write_file_atomic(t / "mirror/redistrib_9.8.0.json", cudnn_manifest(t / "mirror").dump(4)), "");
  const std::string cudnn_url = "https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.8.0.json";
  auto rel = redist_release();
  rel.wheels.push_back({"libcublas", "", "", ""});
  rel.wheels.push_back({"cuda_cupti", "", "", ""});
  rel.wheels.push_back({"cudnn", "9.8.0.87", "", cudnn_url});
  std::string err;
  RedistProvider p(rel.manifest, t / "mirror");
  auto r = ensure(rel, p, t / "cache", kPlat, &err);
  ASSERT_TRUE(r) << err;
  EXPECT_TRUE(missing_files("cuda", r->dir).empty());
  EXPECT_TRUE(fs::exists(r->dir + "/include/cublas_v2.h"));
  EXPECT_TRUE(fs::exists(r->dir + "/lib/libcublas.so"));  // the link-time name, made from the SONAME
  EXPECT_TRUE(fs::exists(r->dir + "/extras/CUPTI/include/cupti.h"));
  EXPECT_TRUE(fs::exists(r->dir + "/include/cudnn.h"));
  EXPECT_EQ(util::read_file(r->dir + "/include/cudnn_version.h").value_or(""), "// built for cuda12");  // CUDA 12.4's variant
  EXPECT_EQ(fs::read_symlink(r->dir + "/lib/libcudnn.so").string(), "libcudnn.so.9");
  ASSERT_EQ(r->manifest.wheels.size(), 5u);
  EXPECT_EQ(r->manifest.wheels[4].name, "cudnn");
  EXPECT_EQ(r->manifest.wheels[4].version, "9.8.0.87");
  EXPECT_EQ(r->manifest.wheels[4].file, t / "mirror/cudnn/linux-x86_64/cudnn-linux-x86_64-9.8.0.87_cuda12-archive.tar.xz");
  EXPECT_EQ(r->manifest.wheels[2].version, "12.4.5.8");
  // A cuDNN manifest with no archive for this CUDA's major: an error naming it, nothing left.
  {
    auto m2 = fake_mirror(t / "no12");
    auto c = cudnn_manifest(t / "no12");
    c["cudnn"]["linux-x86_64"].erase("cuda12");
    ASSERT_EQ(util::write_file_atomic(t / "no12/redistrib_9.8.0.json", c.dump()), "");
    auto small = redist_release();
    small.wheels.push_back({"cudnn", "9.8.0.87", "", cudnn_url});
    EXPECT_FALSE(ensure(small, RedistProvider(rel.manifest, t / "no12"), t / "cache2", kPlat, &err));
    EXPECT_NE(err.find("redistrib_9.8.0.json: cudnn 9.8.0.87 has no archive for linux-x86_64 (only linux-x86_64/cuda11)"),
              std::string::npos) << err;
    expect_cache_clean(t / "cache2");
    // ... or a cuDNN archive that is not the manifest's: refused before anything is unpacked.
    c = cudnn_manifest(t / "no12");
    c["cudnn"]["linux-x86_64"]["cuda12"]["sha256"] = std::string(64, 'c');
    ASSERT_EQ(util::write_file_atomic(t / "no12/redistrib_9.8.0.json", c.dump()), "");
    EXPECT_FALSE(ensure(small, RedistProvider(rel.manifest, t / "no12"), t / "cache2", kPlat, &err));
    EXPECT_NE(err.find("_cuda12-archive.tar.xz: sha256 "), std::string::npos) << err;
    EXPECT_NE(err.find("is not the manifest redistrib_9.8.0.json's cccc"), std::string::npos) << err;
    expect_cache_clean(t / "cache2");
  }
}

// Where the files come from: --toolkit-mirror, else $TORCHSMITH_TOOLKIT_MIRROR, else the config's
// (provision.toml [mirror], handed in as the fallback), else upstream.
TEST(MirrorSetting, CommandLineThenEnvironmentThenConfig) {
  const char* saved = std::getenv("TORCHSMITH_TOOLKIT_MIRROR");
  std::string keep = saved ? saved : "";
  ::unsetenv("TORCHSMITH_TOOLKIT_MIRROR");
  EXPECT_EQ(mirror_setting("", "/srv/config"), "/srv/config");
  EXPECT_EQ(mirror_setting("", ""), "");
  ::setenv("TORCHSMITH_TOOLKIT_MIRROR", "/srv/env", 1);
  EXPECT_EQ(mirror_setting("", "/srv/config"), "/srv/env");
  EXPECT_EQ(mirror_setting("/srv/cli", "/srv/config"), "/srv/cli");
  ::setenv("TORCHSMITH_TOOLKIT_MIRROR", "", 1);  // set but empty: not a setting
  EXPECT_EQ(mirror_setting("", "/srv/config"), "/srv/config");
  if (saved) ::setenv("TORCHSMITH_TOOLKIT_MIRROR", keep.c_str(), 1);
  else ::unsetenv("TORCHSMITH_TOOLKIT_MIRROR");
}

TEST(RedistProvider, EveryBadArchiveIsAnErrorNamingItWithNothingLeft) {
  testkit::TempDir t;
  auto base = fake_mirror(t / "mirror");
  std::string cudart = "cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz";
  auto bytes = *util::read_file(t / ("mirror/" + cudart));
  struct Case {
    const char* what;
    std::function<void(FakeMirror&)> spoil;
    const char* says;
  };
  std::vector<Case> cases{
      {"size", [](FakeMirror& m) { m.manifest["cuda_cudart"]["linux-x86_64"]["size"] = "12"; }, "bytes, the manifest redistrib_12.4.1.json says 12"},
      {"sha256", [](FakeMirror& m) { m.manifest["cuda_cudart"]["linux-x86_64"]["sha256"] = std::string(64, 'a'); }, "is not the manifest"},
      {"truncated", [&](FakeMirror& m) {
         std::string cut = bytes.substr(0, bytes.size() / 2);
         ASSERT_EQ(util::write_file_atomic(m.dir + "/" + cudart, cut), "");
         m.manifest["cuda_cudart"]["linux-x86_64"]["sha256"] = *util::sha256_file(m.dir + "/" + cudart);
         m.manifest["cuda_cudart"]["linux-x86_64"]["size"] = std::to_string(cut.size());
       }, "truncated"},
      {"link out of the tree", [&](FakeMirror& m) {
         add_component(m, "cuda_cudart", "12.4.127", {{"lib/libcudart.so", "->../../../../etc/passwd"}});
       }, "points out of the tree"},
      {"component missing", [](FakeMirror& m) { m.manifest.erase("cuda_cudart"); }, "has no component cuda_cudart"},
      {"not JSON", [](FakeMirror& m) { m.manifest = "<html>"; }, "not a JSON object"},
      {"nvcc of another release", [](FakeMirror& m) { m.manifest["cuda_nvcc"]["version"] = "12.4.99"; }, "the plan pins 12.4.131"},
      {"relative path out of the mirror", [](FakeMirror& m) { m.manifest["cuda_cudart"]["linux-x86_64"]["relative_path"] = "../x.tar.xz"; }, "not a path inside the mirror"},
  };
  for (const auto& c : cases) {
    testkit::TempDir u;
    fs::copy(t / "mirror", u / "mirror", fs::copy_options::recursive);
    FakeMirror m{u / "mirror", base.manifest};
    c.spoil(m);
    if (::testing::Test::HasFatalFailure()) return;
    m.write();
    std::string err;
    EXPECT_FALSE(ensure(redist_release(), RedistProvider(redist_release().manifest, u / "mirror"), u / "cache", kPlat, &err)) << c.what;
    EXPECT_NE(err.find(c.says), std::string::npos) << c.what << ": " << err;
    if (std::string(c.what) != "not JSON" && std::string(c.what) != "component missing" &&
        std::string(c.what) != "nvcc of another release" && std::string(c.what) != "relative path out of the mirror") {
      EXPECT_NE(err.find("cuda_cudart"), std::string::npos) << c.what << " does not name the file: " << err;
    }
    expect_cache_clean(u / "cache");
  }
}

// A loopback server that answers 404, and one that accepts and never answers: both errors naming
// the URL, the stall cut after the bounded time.
TEST(RedistProvider, MirrorThatAnswers404OrStalls) {
  testkit::TempDir t;
  fake_mirror(t / "mirror");
  const char* script = R"(
import http.server, socket, sys, threading, time
mode, port_file = sys.argv[1], sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if mode == "stall":
            time.sleep(4)
        self.send_error(404)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
s.timeout = 10
open(port_file, "w").write(str(s.server_address[1]))
s.handle_request()
)";
  ASSERT_EQ(util::write_file_atomic(t / "srv.py", script), "");
  for (const char* mode : {"404", "stall"}) {
    std::string port_file = t / (std::string("port-") + mode);
    std::thread server([&] {
      util::RunOptions o;
      o.timeout = std::chrono::seconds(15);
      util::run({"python3", t / "srv.py", mode, port_file}, o);
    });
    std::string port;
    for (int i = 0; i < 100 && port.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      port = util::read_file(port_file).value_or("");
    }
    ASSERT_FALSE(port.empty());
    std::string url = "http://127.0.0.1:" + port + "/redist";
    std::string err;
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(ensure(redist_release(), RedistProvider(redist_release().manifest, url, std::chrono::seconds(2)),
                        t / (std::string("cache-") + mode), kPlat, &err));
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_NE(err.find(url + "/redistrib_12.4.1.json"), std::string::npos) << err;
    EXPECT_NE(err.find(std::string(mode) == "404" ? "answers with an error" : "the mirror stalls"), std::string::npos) << err;
    if (std::string(mode) == "stall") { EXPECT_LT(secs, 10) << "the stall was not cut after 2 s"; }
    expect_cache_clean(t / (std::string("cache-") + mode));
    server.join();  // it answers one request and exits
  }
}

// A conda channel on disk: SUBDIR/repodata.json and .tar.bz2 packages in the CUDA 12 packages'
// layout (bin/ at the prefix, headers and libraries under targets/x86_64-linux/).
TEST(CondaProvider, AChannelOnDiskBecomesACudaHome) {
  testkit::TempDir t;
  fs::create_directories(t / "ch/linux-64");
  nlohmann::json repodata = {{"info", {{"subdir", "linux-64"}}}, {"packages", nlohmann::json::object()}};
  auto package = [&](const std::string& name, const std::string& version,
                     const std::vector<std::pair<std::string, std::string>>& files) {
    std::string fn = name + "-" + version + "-0.tar.bz2";
    std::vector<formats::TarEntry> entries{{"info/index.json", "", nlohmann::json{{"name", name}, {"version", version}}.dump()}};
    for (const auto& [p, d] : files) {
      formats::TarEntry e{p, "", d};
      if (d.rfind("->", 0) == 0) e.link_target = d.substr(2), e.data.clear();
      if (p.rfind("bin/", 0) == 0 || p.find("/bin/") != std::string::npos) e.mode = 0755;
      entries.push_back(e);
    }
    formats::AtomicFile f(t / ("ch/linux-64/" + fn));
    formats::Bzip2Sink bz(f);
    ASSERT_EQ(formats::write_tar(entries, bz, 0), "");
    ASSERT_TRUE(bz.finish());
    ASSERT_TRUE(f.commit());
    std::string path = t / ("ch/linux-64/" + fn);
    repodata["packages"][fn] = {{"name", name}, {"version", version}, {"build", "0"},
                                {"sha256", *util::sha256_file(path)}, {"size", fs::file_size(path)}};
  };
  package("cuda-nvcc-tools", "12.4.131",
          {{"bin/nvcc", "elf"}, {"bin/ptxas", "elf"}, {"bin/fatbinary", "elf"}, {"bin/nvlink", "elf"},
           {"bin/cudafe++", "elf"}, {"nvvm/bin/cicc", "elf"}, {"nvvm/libdevice/libdevice.10.bc", "bc"},
           {"targets/x86_64-linux/include/crt/host_config.h", "//"}});
  package("cuda-cudart-dev", "12.4.127",
          {{"targets/x86_64-linux/include/cuda_runtime.h", "//"}, {"targets/x86_64-linux/lib/libcudart.so.12", "so"},
           {"targets/x86_64-linux/lib/libcudart.so", "->libcudart.so.12"}});
  ASSERT_EQ(util::write_file_atomic(t / "ch/linux-64/repodata.json", repodata.dump()), "");
  plan::ToolRelease rel;
  rel.kind = "cuda", rel.version = testkit::version_of("12.4.131"), rel.via = "conda", rel.channel = t / "ch";
  rel.wheels = {{"cuda-nvcc-tools", "12.4.131", "", ""}, {"cuda-cudart-dev", "12.4.127", "", ""}};
  std::string err;
  auto r = ensure(rel, CondaProvider(t / "ch"), t / "cache", kPlat, &err);
  ASSERT_TRUE(r) << err;
  EXPECT_TRUE(missing_files("cuda", r->dir).empty());
  EXPECT_FALSE(fs::exists(r->dir + "/info"));
  EXPECT_EQ(r->manifest.provider, "conda");
  auto more = rel;
  more.wheels.push_back({"cuda-nvrtc", "12.4.127", "", ""});
  EXPECT_FALSE(ensure(more, CondaProvider(t / "ch"), t / "cache3", kPlat, &err));
  EXPECT_NE(err.find("has no package cuda-nvrtc==12.4.127"), std::string::npos) << err;
  expect_cache_clean(t / "cache3");
  // The repodata's hash is checked: a package changed after indexing is refused, nothing kept.
  repodata["packages"]["cuda-cudart-dev-12.4.127-0.tar.bz2"]["sha256"] = std::string(64, 'b');
  ASSERT_EQ(util::write_file_atomic(t / "ch/linux-64/repodata.json", repodata.dump()), "");
  EXPECT_FALSE(ensure(rel, CondaProvider(t / "ch"), t / "cache2", kPlat, &err));
  EXPECT_NE(err.find("cuda-cudart-dev-12.4.127-0.tar.bz2: sha256"), std::string::npos) << err;
  expect_cache_clean(t / "cache2");
}

// A conda package of `files` in channel `ch`/linux-64: a .conda (a zip holding metadata.json,
// info-*.tar.zst and pkg-*.tar.zst, as conda-package-handling writes it) listed under
// "packages.conda", or a .tar.bz2 listed under "packages"; sha256 and size in the repodata.
void conda_package(const std::string& ch, nlohmann::json& repodata, const std::string& name, const std::string& version,
                   const std::vector<std::pair<std::string, std::string>>& files, bool dot_conda) {
  std::string stem = name + "-" + version + "-0";
  std::vector<formats::TarEntry> pkg, info{{"info/index.json", "", nlohmann::json{{"name", name}, {"version", version}}.dump()}};
  for (const auto& [p, d] : files) {
    formats::TarEntry e{p, "", d};
    if (d.rfind("->", 0) == 0) e.link_target = d.substr(2), e.data.clear();
    if (p.rfind("bin/", 0) == 0 || p.find("/bin/") != std::string::npos) e.mode = 0755;
    pkg.push_back(e);
  }
  std::string fn = stem + (dot_conda ? ".conda" : ".tar.bz2");
  std::string path = ch + "/linux-64/" + fn;
  auto tar_into = [](const std::vector<formats::TarEntry>& entries, const std::string& out, bool zstd) {
    formats::AtomicFile f(out);
    if (zstd) {
      formats::ZstdSink z(f, 3);
      ASSERT_EQ(formats::write_tar(entries, z, 0), "");
      ASSERT_TRUE(z.finish());
    } else {
      formats::Bzip2Sink bz(f);
      ASSERT_EQ(formats::write_tar(entries, bz, 0), "");
      ASSERT_TRUE(bz.finish());
    }
    ASSERT_TRUE(f.commit());
  };
  if (dot_conda) {
    tar_into(pkg, ch + "/pkg.tar.zst", true);
    tar_into(info, ch + "/info.tar.zst", true);
    formats::ZipWriter z(path);
    ASSERT_TRUE(z.add("metadata.json", R"({"conda_pkg_format_version": 2})"));
    ASSERT_TRUE(z.add_file("info-" + stem + ".tar.zst", ch + "/info.tar.zst", false));
    ASSERT_TRUE(z.add_file("pkg-" + stem + ".tar.zst", ch + "/pkg.tar.zst", false));
    ASSERT_TRUE(z.finish()) << z.error();
    fs::remove(ch + "/pkg.tar.zst");
    fs::remove(ch + "/info.tar.zst");
  } else {
    std::vector<formats::TarEntry> all = info;
    all.insert(all.end(), pkg.begin(), pkg.end());
    tar_into(all, path, false);
  }
  repodata[dot_conda ? "packages.conda" : "packages"][fn] = {
      {"name", name}, {"version", version}, {"build", "0"}, {"sha256", *util::sha256_file(path)}, {"size", fs::file_size(path)}};
}

// Both package formats in one channel on disk: .conda preferred where a package has both, every
// file checked against the repodata's sha256, a mismatch refused with nothing left in the cache.
TEST(CondaProvider, DotCondaAndTarBz2PackagesFromAChannelOnDisk) {
  testkit::TempDir t;
  fs::create_directories(t / "ch/linux-64");
  nlohmann::json repodata = {{"info", {{"subdir", "linux-64"}}}, {"packages", nlohmann::json::object()},
                             {"packages.conda", nlohmann::json::object()}};
  const std::vector<std::pair<std::string, std::string>> nvcc = {
      {"bin/nvcc", "elf"}, {"bin/ptxas", "elf"}, {"bin/fatbinary", "elf"}, {"bin/nvlink", "elf"}, {"bin/cudafe++", "elf"},
      {"nvvm/bin/cicc", "elf"}, {"nvvm/libdevice/libdevice.10.bc", "bc"}, {"targets/x86_64-linux/include/crt/host_config.h", "//"}};
  conda_package(t / "ch", repodata, "cuda-nvcc-tools", "12.4.131", nvcc, true);
  auto old = nvcc;
  old[0].second = "old nvcc";  // the same package as .tar.bz2 too: the .conda is taken
  conda_package(t / "ch", repodata, "cuda-nvcc-tools", "12.4.131", old, false);
  conda_package(t / "ch", repodata, "cuda-cudart-dev", "12.4.127",
                {{"targets/x86_64-linux/include/cuda_runtime.h", "//"}, {"targets/x86_64-linux/lib/libcudart.so.12", "so"},
                 {"targets/x86_64-linux/lib/libcudart.so", "->libcudart.so.12"}},
                false);
  ASSERT_EQ(util::write_file_atomic(t / "ch/linux-64/repodata.json", repodata.dump()), "");
  plan::ToolRelease rel;
  rel.kind = "cuda", rel.version = testkit::version_of("12.4.131"), rel.via = "conda", rel.channel = t / "ch";
  rel.wheels = {{"cuda-nvcc-tools", "12.4.131", "", ""}, {"cuda-cudart-dev", "12.4.127", "", ""}};
  std::string err;
  auto r = ensure(rel, CondaProvider(t / "ch"), t / "cache", kPlat, &err);
  ASSERT_TRUE(r) << err;
  EXPECT_TRUE(missing_files("cuda", r->dir).empty());
  EXPECT_EQ(util::read_file(r->dir + "/bin/nvcc").value_or(""), "elf");
  EXPECT_EQ(util::read_file(r->dir + "/include/cuda_runtime.h").value_or(""), "//");
  ASSERT_EQ(r->manifest.wheels.size(), 2u);
  EXPECT_EQ(r->manifest.wheels[0].file, t / "ch/linux-64/cuda-nvcc-tools-12.4.131-0.conda");
  EXPECT_EQ(r->manifest.wheels[0].sha256, repodata["packages.conda"]["cuda-nvcc-tools-12.4.131-0.conda"]["sha256"]);
  EXPECT_EQ(r->manifest.wheels[1].file, t / "ch/linux-64/cuda-cudart-dev-12.4.127-0.tar.bz2");
  // The .conda's hash from the repodata is checked: a changed package is refused, nothing kept.
  repodata["packages.conda"]["cuda-nvcc-tools-12.4.131-0.conda"]["sha256"] = std::string(64, 'd');
  ASSERT_EQ(util::write_file_atomic(t / "ch/linux-64/repodata.json", repodata.dump()), "");
  EXPECT_FALSE(ensure(rel, CondaProvider(t / "ch"), t / "cache2", kPlat, &err));
  EXPECT_NE(err.find("cuda-nvcc-tools-12.4.131-0.conda: sha256 "), std::string::npos) << err;
  EXPECT_NE(err.find("is not the repodata's dddd"), std::string::npos) << err;
  expect_cache_clean(t / "cache2");
  // ... and its size: a truncated .conda is refused before it is opened.
  repodata["packages.conda"]["cuda-nvcc-tools-12.4.131-0.conda"]["sha256"] = r->manifest.wheels[0].sha256;
  ASSERT_EQ(util::write_file_atomic(t / "ch/linux-64/repodata.json", repodata.dump()), "");
  fs::resize_file(t / "ch/linux-64/cuda-nvcc-tools-12.4.131-0.conda", 100);
  EXPECT_FALSE(ensure(rel, CondaProvider(t / "ch"), t / "cache3", kPlat, &err));
  EXPECT_NE(err.find("cuda-nvcc-tools-12.4.131-0.conda: 100 bytes, the repodata says"), std::string::npos) << err;
  expect_cache_clean(t / "cache3");
}

}  // namespace
}  // namespace ts::provision

#pragma once
// Provisioning: the tools a plan names (a CUDA toolkit, CMake, ninja) made to exist in the cache,
// without root. Wheels come from a provider (PyPI through pip, or a local wheelhouse directory),
// are hashed, unpacked into a scratch directory beside the final one, laid out as the tool expects
// (a CUDA_HOME: bin/nvcc, include, lib64, nvvm), checked complete, and renamed into place in one
// step, so an interrupted provision never leaves a directory that looks like a toolkit.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "plan/provision_request.h"
#include "provision/fetch_file.h"

namespace ts::provision {

// Written last into every provisioned directory; its presence is what "provisioned" means.
inline constexpr const char* kManifest = "torchsmith-toolkit.json";

struct Manifest {
  std::string kind, version, provider, from, platform;
  std::vector<plan::WheelPin> wheels;  // with the sha256 of each file used
  std::string dir;                     // where it was read (not stored)
};

std::optional<Manifest> read_manifest(const std::string& dir);
// Every provisioned directory under ROOT/toolkits, sorted by kind then version.
std::vector<Manifest> list_cached(const std::string& cache_root);

// A wheel file found for a pin: where it lies and its sha256.
struct WheelFile {
  plan::WheelPin pin;
  std::string path;
  // Set by a provider that staged `path` privately (its own download directory) and hashed exactly
  // those bytes: assemble unpacks it as it is instead of copying it again.
  std::string held_sha256;
};

// The providers of wheel files behind one interface: pip (PyPI) and a wheelhouse directory.
class WheelProvider {
 public:
  virtual ~WheelProvider() = default;
  virtual std::string name() const = 0;  // "pip", "wheelhouse"
  virtual std::string from() const = 0;  // "" for PyPI, the wheelhouse directory
  // Files for every pin, downloaded or found under `scratch` (the provider may ignore it);
  // false and *error naming the pin that could not be had.
  virtual bool get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
                   std::vector<WheelFile>& out, std::string* error) const = 0;
};

// PyPI through `python -m pip download --no-deps --only-binary=:all: --platform P` (pip checks the
// sha256 the index publishes for each file; torchsmith hashes what arrived and records it).
class PipProvider : public WheelProvider {
 public:
  explicit PipProvider(std::string python = "python3") : python_(std::move(python)) {}
  std::string name() const override { return "pip"; }
  std::string from() const override { return ""; }
  bool get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
           std::vector<WheelFile>& out, std::string* error) const override;

 private:
  std::string python_;
};

// The same wheel files from a local directory (an air-gapped machine): NAME-VERSION-*.whl whose
// platform tag fits (or is "any").
class WheelhouseProvider : public WheelProvider {
 public:
  explicit WheelhouseProvider(std::string dir) : dir_(std::move(dir)) {}
  std::string name() const override { return "wheelhouse"; }
  std::string from() const override { return dir_; }
  bool get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
           std::vector<WheelFile>& out, std::string* error) const override;

 private:
  std::string dir_;
};

// NVIDIA's redistributable archives: the release's manifest (redistrib_<release>.json) read from the
// mirror, each pinned component's archive for the platform staged, its size and sha256 checked
// against the manifest. A pin with a version (cuda_nvcc's) must be the manifest's. A pin whose file
// is another manifest's URL (cuDNN's compute/cudnn/redist/redistrib_9.8.0.json) is read from that
// manifest, the archive of the CUDA release's major (its cuda12 variant).
class RedistProvider : public WheelProvider {
 public:
  // manifest_url: the catalog's upstream manifest; mirror: "" for upstream, else a URL or directory
  // holding the same files under the same relative paths (the manifest at its root).
  RedistProvider(const std::string& manifest_url, const std::string& mirror, std::chrono::seconds stall = std::chrono::seconds(60));
  std::string name() const override { return "redist"; }
  std::string from() const override { return mirror_.base; }
  bool get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
           std::vector<WheelFile>& out, std::string* error) const override;

 private:
  std::string manifest_name_;
  Mirror mirror_;
  bool mirrored_ = false;  // a mirror was given: other manifests (cuDNN's) are read from it too
};

// A conda channel (conda-forge, NVIDIA's): SUBDIR/repodata.json read from the channel (a URL or
// directory), each pinned NAME==VERSION's package (.conda or .tar.bz2) staged and checked against the
// repodata's size and sha256.
class CondaProvider : public WheelProvider {
 public:
  explicit CondaProvider(const std::string& channel, std::chrono::seconds stall = std::chrono::seconds(60));
  std::string name() const override { return "conda"; }
  std::string from() const override { return channel_.base; }
  bool get(const std::vector<plan::WheelPin>& pins, const std::string& platform, const std::string& scratch,
           std::vector<WheelFile>& out, std::string* error) const override;

 private:
  Mirror channel_;
};

// "nvidia_cuda_nvcc-13.2.86-py3-none-manylinux2014_x86_64.whl" fits pin nvidia-cuda-nvcc==13.2.86
// on manylinux2014_x86_64 (any manylinux tag of the same arch, or "any").
bool wheel_file_fits(const std::string& file_name, const plan::WheelPin& pin, const std::string& platform);

// Unpacks the wheels into `dir` laid out as the kind expects and checks it complete; the
// directory appears whole (rename) or not at all. "" on success, else why not.
std::string assemble(const std::string& kind, const std::string& version, const std::vector<WheelFile>& wheels,
                     const WheelProvider& provider, const std::string& platform, const std::string& dir);

// What a kind's directory must hold to be usable ("bin/nvcc", "nvvm/bin/cicc", ...).
std::vector<std::string> required_files(const std::string& kind);
// The required files `dir` lacks.
std::vector<std::string> missing_files(const std::string& kind, const std::string& dir);

struct Result {
  std::string dir;
  bool cached = false;  // it was there already
  double seconds = 0;
  Manifest manifest;
};

// Makes the catalog entry `rel` exist under cache_root (reused when it is there): the one call
// behind `toolkit add` and the run's provision step. `expect`: wheels with the sha256 a lock pins
// (name==version; those without a sha256 are not checked): every file must hash to it, and a cached
// directory must have been made from those files. nullopt and *error when it cannot.
std::optional<Result> ensure(const plan::ToolRelease& rel, const WheelProvider& provider,
                             const std::string& cache_root, const std::string& platform, std::string* error,
                             const std::vector<plan::WheelPin>& expect = {});

// The first wheel of `have` whose sha256 is not the one `expect` pins for its name==version:
// "nvidia-cuda-nvcc==13.2.86: sha256 X, the lock pins Y"; "" when all agree.
std::string hash_mismatch(const std::vector<plan::WheelPin>& have, const std::vector<plan::WheelPin>& expect);

// The machine's wheel platform (uname's arch): "manylinux2014_x86_64".
std::string host_platform();

}  // namespace ts::provision

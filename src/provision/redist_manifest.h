#pragma once
// NVIDIA's redistributable manifests (compute/cuda/redist/redistrib_<release>.json, and cuDNN's of
// the same shape): per component its version and, per platform, the archive's relative_path,
// sha256, md5 and size. Read as untrusted input: a manifest that is not that shape is an error
// naming the file, never a crash.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ts::provision {

struct RedistArchive {
  std::string relative_path, sha256, md5;
  std::uint64_t size = 0;
};

struct RedistComponent {
  std::string name, version;  // the manifest's key ("cuda_nvcc") and its version ("12.4.131")
  // "linux-x86_64" -> archive; cuDNN's per-CUDA variants as "linux-x86_64/cuda12".
  std::map<std::string, RedistArchive> archives;
};

struct RedistManifest {
  std::string release_label, release_product;  // "12.4.1", "cuda"
  std::map<std::string, RedistComponent> components;
};

// nullopt and *error ("FILE: ...") when `text` is not a redistrib manifest.
std::optional<RedistManifest> parse_redist_manifest(std::string_view text, const std::string& file, std::string* error);

// The redist platform of a wheel platform: manylinux2014_x86_64 -> linux-x86_64, _aarch64 -> linux-sbsa
// (the server/datacenter Arm build; linux-aarch64 is Jetson's); "" for others.
std::string redist_platform(const std::string& wheel_platform);

// Component `name`'s archive for `platform` (cuDNN: the variant for CUDA `cuda_major`); nullptr and
// *error naming what the manifest lacks.
const RedistArchive* redist_archive(const RedistManifest& m, const std::string& file, const std::string& name,
                                    const std::string& platform, int cuda_major, std::string* error);

}  // namespace ts::provision

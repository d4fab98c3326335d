#pragma once
// Tools the plan provisions (a CUDA toolkit, CMake, ninja) and where they come from: the catalog of
// what can be provisioned (data/kb/provision.toml) and the one rule that names a provisioned tool's
// cache directory. Pure; src/provision makes the directories exist.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "kb/table.h"

namespace ts::plan {

// One wheel of a provisioned tool: "nvidia-cuda-nvcc" "13.2.86", its sha256 once known, and the
// file it was read from ("nvidia_cuda_nvcc-13.2.86-py3-none-manylinux2014_x86_64.whl") once used.
struct WheelPin {
  std::string name, version, sha256, file;
};

// A catalog entry: one version of one tool and the wheels it is assembled from.
struct ToolRelease {
  std::string kind;     // "cuda", "cmake", "ninja"
  Version version;      // what the tool reports: "13.2.86", "3.31.6"; parsed when provision.toml loads (.original(): its text)
  std::vector<WheelPin> wheels;
  bool complete = true;  // false: the wheels lack parts the tool needs (cu11/cu12 nvcc: ptxas only)
  // Where the parts come from: "pip" (PyPI wheels, `wheels`), "redist" (NVIDIA's redistributable
  // archives: `wheels` are the manifest's components, cuda_nvcc's with its version) or "conda"
  // (a channel's packages NAME==VERSION in `wheels`).
  std::string via = "pip";
  std::string release;      // redist: the manifest's release_label, "12.4.1"
  std::string manifest;     // redist: the manifest's upstream URL
  std::string channel;      // conda: the channel's upstream URL
  std::vector<WheelPin> torch_parts;  // redist/conda: added for a torch build (cuBLAS, cuFFT, ...)
  // kind "cudnn" (its own redist manifest): the CUDA majors it has an archive for ("12" -> the
  // manifest's cuda12 variant) and the torch releases it is for (none = no bound), parsed at load.
  std::vector<std::string> cuda_majors;
  std::optional<Version> torch_min, torch_max_exclusive;
  std::string source, note;
  kb::Origin origin;
};

struct ProvisionCatalog {
  std::vector<ToolRelease> tools;
  // The entry of this kind whose version equals `version`, or for cuda, when `version` has two numbers
  // (a series: 12.4), the newest of that major.minor; among those provided `via` pip (PyPI
  // wheels), redist or conda.
  const ToolRelease* find(std::string_view kind, const Version& version, std::string_view via = "pip") const;
  std::vector<const ToolRelease*> of_kind(std::string_view kind) const;
  // The newest [[cudnn]] entry with an archive for CUDA `cuda_major` whose torch range holds
  // `torch_version`; nullptr when none.
  const ToolRelease* cudnn_for(int cuda_major, const Version& torch_version) const;
  // A site's default mirror per provider ("redist", "conda"): provision.toml's [mirror] table (the
  // user's overlay, ~/.config/torchsmith/kb/provision.toml); "" = upstream.
  std::string mirror(std::string_view via) const;
  std::string redist_mirror, conda_mirror;
  std::string mirror_origin;  // "FILE" of the [mirror] table, for the decision's source
};

// The embedded provision.toml, then each overlay dir's; errors are "file:line: ..." lines.
ProvisionCatalog load_provision_catalog(const std::vector<std::string>& overlay_dirs,
                                        std::vector<std::string>& errors);
bool read_provision_text(ProvisionCatalog& cat, std::string_view file, std::string_view text,
                         std::vector<std::string>& errors);
// provision.toml as a KB table (kb/table.h), with kb check's validator.
void validate_provision_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<ProvisionCatalog> kProvisionTable{
    {"provision", "provision.toml", &validate_provision_file}, &load_provision_catalog};

// Where a provisioned tool comes from and where it lives. provider: "pip" (PyPI), "wheelhouse"
// (the same wheels from `from`, a local directory), "system" (nothing to provision: `dir` is it).
struct Provisioned {
  std::string kind, version, provider, from, dir, reason, source;
  std::vector<WheelPin> wheels;
};

// The cache directory of a provisioned tool: ROOT/toolkits/<kind>-<version>-<key>, the key a hash
// of the kind, version, platform and each wheel's name==version (and sha256 when pinned), so two
// different sets of wheels never share a directory.
std::string provisioned_dir(const std::string& cache_root, const std::string& kind, const std::string& version,
                            const std::vector<WheelPin>& wheels, const std::string& platform);

// "manylinux2014_x86_64" for the machine's arch ("x86_64", "aarch64"); "" for others.
std::string wheel_platform(const std::string& machine);

// --toolkit: "system", "pip", "wheelhouse:DIR", "redist", "conda", or a PATH to a CUDA_HOME.
struct ToolkitChoice {
  enum class Kind { automatic, system, pip, wheelhouse, path, redist, conda };
  Kind kind = Kind::automatic;
  std::string dir;  // wheelhouse DIR or PATH
};
std::optional<ToolkitChoice> parse_toolkit_choice(std::string_view text, std::string* error);

// What the planner may provision and where: handed in by the command (the planner reads nothing).
struct ProvisionContext {
  const ProvisionCatalog* catalog = nullptr;
  std::string cache_root;  // "" = provisioning off (no home directory): the plan can only refuse
  std::string platform;    // "manylinux2014_x86_64"
  ToolkitChoice choice;    // --toolkit
  std::string cli_source;  // "--toolkit pip" when the choice came from the command line, else ""
  std::string mirror;      // --toolkit-mirror URL|DIR (or $TORCHSMITH_TOOLKIT_MIRROR): redist/conda from there
  bool torch_build = false;  // a torch build: redist/conda entries add their torch_parts
  const ToolRelease* cudnn = nullptr;  // a torch build from redist with cuDNN on: its archive too
};

}  // namespace ts::plan

#pragma once
// The knowledge base: typed tables loaded from data/kb/*.toml (embedded) plus overlays.
// Every entry keeps where it came from (file:line) and its upstream `source`.
// Version fields that rules compare, and the CUDA and torch release keys, are parsed once by the loader
// into core::Version (the text as written stays in .original() for output); arch lists into CudaArch
// (the KB spells each as CudaArch::str() does, so .str() is the text as written); ranges and
// informational versions stay strings the loader has checked.
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda_arch.h"
#include "core/fact_version.h"
#include "core/version.h"
#include "core/version_range.h"

namespace ts::kb {

struct Origin {
  std::string file;   // "gpus.toml" for embedded files, the full path for overlays
  int line = 0;
};

// What every KB entry carries: its upstream source, where it was read, and how sure it is.
struct Entry {
  std::string source;
  Origin origin;
  std::string status;                 // "verified" (default), "verified-secondary", "recalled", "derived"
  std::vector<std::string> recalled;  // names of fields whose values are from memory only
  std::string note;
  // The whole entry is recalled, or this field is.
  bool is_recalled(std::string_view field) const;
};

// One NVIDIA GPU: a PCI device id, its product name and compute capability.
struct Gpu : Entry {
  std::string pci_id;      // lower-case hex, no 0x: "2182"
  std::string name;        // "GeForce GTX 1660 Ti"
  CudaArch arch;           // compute capability "7.5", parsed when gpus.toml loads
  std::string chip;        // "TU116"
  std::string family;      // "Turing"
  bool jetson = false;     // Tegra module (integrated; found through device-tree, not PCI)
};

// One CUDA range and the arch its nvcc uses for a Tegra SoC.
struct TegraCudaArch {
  VersionRange cuda;  // ">=12.8,<13", parsed when tegra.toml loads
  CudaArch arch;      // "10.1", parsed when tegra.toml loads
};

// A Jetson/Tegra SoC, found through /proc/device-tree/compatible ("nvidia,tegra234"), not PCI.
struct TegraSoc : Entry {
  std::string compatible;  // "tegra234"
  std::string name;        // "Jetson AGX Orin / Orin NX / Orin Nano"
  CudaArch arch;           // "8.7", parsed when tegra.toml loads
  std::string family;                 // "Ampere"
  // When nvcc numbers the SoC differently per toolkit (Thor: 10.1 with CUDA 12.8-12.9, 11.0 with 13+).
  std::vector<TegraCudaArch> arch_by_cuda;
  // The arch a toolkit of this version uses for the SoC; `arch` when no range matches.
  CudaArch arch_for_cuda(const Version& cuda_version) const;
};

// An L4T (Jetson Linux) release and the JetPack that ships it, with JetPack's CUDA.
struct JetpackRelease : Entry {
  std::string l4t;      // "36.4.3" (nv_tegra_release writes "R36 (release), REVISION: 4.3")
  std::string jetpack;  // "6.2"
  std::optional<Version> cuda;  // "12.6": the CUDA that JetPack installs (none = not listed)
};

// What holds on every Tegra SoC's integrated GPU, one fact per entry.
struct TegraFeatureOff : Entry {
  std::string feature;  // a build.toml feature name: "nccl"
  std::string reason;   // why it is off there, in one sentence
};
struct TegraGpuAccess : Entry {
  bool nvml = false;          // NVML (and a full nvidia-smi) answers on Tegra
  std::string test_through;   // how a GPU is tested there: "torch.cuda"
  std::string reason;
};

// A compute capability and the first CUDA toolkit that compiled for it (older than cuda.toml's
// [[release]] list reaches), so verdicts say "since CUDA 10.0" and not where the KB starts.
struct ArchSupport : Entry {
  CudaArch arch;           // "7.5"
  Version first_cuda;      // "10.0"
};

// A chip codename prefix and the compute capability of the chips it matches.
struct ChipArch {
  std::string prefix;  // "GA10" (GA102, GA104 ...); the longest matching prefix wins
  CudaArch arch;       // "8.6"
  std::string source;
};

// An architecture family name people write in arch lists ("Ampere") and the arches it means.
struct ArchFamily : Entry {
  std::string name;                 // "Ampere"
  std::vector<std::string> aliases; // "ampere", "sm_8x" ...
  std::vector<CudaArch> arches;     // "8.0", "8.6", "8.7"
  std::vector<std::string> chip_prefixes;  // "GA1" — maps a chip codename to the family
  std::vector<CudaArch> torch_arches;  // what TORCH_CUDA_ARCH_LIST=<name> means in PyTorch: "8.0", "8.6+PTX"
  std::vector<ChipArch> chips;            // chip prefix -> arch; chip_prefixes lists the same prefixes
};

// A CUDA toolkit release (major.minor).
struct CudaRelease : Entry {
  Version version;                  // "11.8" (the lookup key; .original() as written)
  std::vector<CudaArch> arches;     // real targets nvcc accepts: "3.5" ... "9.0", "9.0a", "10.0f"
  Version gcc_max;                  // newest GCC major accepted by host_config.h: "11"
  Version clang_max;                // newest Clang major: "14"
  std::string msvc;                 // "VS2017-VS2022" (informational)
  Version driver_min_linux;         // the driver the toolkit shipped with (full compat): "520.61.05"
  std::optional<Version> driver_min_windows;
};

// Minor-version compatibility: a CUDA major runs on drivers >= this floor (no PTX JIT of newer PTX).
struct CudaFamily : Entry {
  std::string major;                // "12"
  Version driver_min_linux;         // "525.60.13"
  std::optional<Version> driver_min_windows;
};

// A PyTorch release line (major.minor) and what building it needs.
struct TorchRelease : Entry {
  Version version;                  // "2.4" (the lookup key; .original() as written)
  std::string released;             // "2024-07-24"
  VersionRange python;              // Python versions: ">=3.8,<3.13" (parsed when the KB loads)
  std::vector<Version> cuda;        // CUDA versions of its official builds: "11.8", "12.1", "12.4"
  Version cmake_min;                // "3.18"
  std::optional<Version> cmake_max_exclusive;  // none = no known ceiling; "4" for < 2.7 (CMake 4 drops <3.5 policies)
  std::optional<Version> gcc_min;   // "9"
  int cxx_standard = 0;             // 17 (the loader accepts 11, 14, 17, 20, 23)
  VersionRange numpy;               // ">=1,<2" (parsed when the KB loads)
  std::string torchvision;          // "0.19"
  std::string torchaudio;           // "2.4"
  std::vector<CudaArch> arch_names;  // arches its build scripts know by name: "8.9", "9.0"
  // Pythons inside `python` that the release supports only experimentally: "3.13", or "3.13t"
  // for the free-threaded build.
  std::vector<std::string> python_experimental;
  // "3.13" or "3.13t" when this Python (version, abi tag "cp313t") is experimental for it; "" if not.
  std::string experimental_python(const FactVersion& version, std::string_view abi_tag) const;
  // Whether a toolkit of this version (its major.minor: 12.4.131 is 12.4) is one of `cuda`.
  bool official_cuda(const std::optional<Version>& version) const;
};

// What a build costs in memory and disk (resources.toml): the job-count model's inputs.
struct ResourceModel {
  double cxx_job_gib = 0;       // peak per host C++ compile job against torch/ATen headers
  double nvcc_job_gib = 0;      // peak per nvcc job, one arch
  double nvcc_arch_gib = 0;     // added per further arch in the same nvcc job
  double nvcc_thread_factor = 1;  // memory of one nvcc --threads thread, in jobs
  double nvcc_split_thread_factor = 0.25;  // memory of each further --split-compile thread, in jobs
  double torch_build_disk_gib = 0;  // free space a torch CUDA build needs (tree + build/ + wheel)
  double tmp_disk_gib = 0;      // free space nvcc needs in TMPDIR
  std::string source;
  Origin origin;
};

struct Kb {
  std::vector<Gpu> gpus;
  std::vector<TegraSoc> tegra;
  std::vector<ArchFamily> families;
  std::vector<CudaRelease> cuda;
  std::vector<CudaFamily> cuda_families;
  std::vector<TorchRelease> torch;
  std::vector<ArchSupport> arch_support;
  std::vector<JetpackRelease> jetpack;
  std::vector<TegraFeatureOff> tegra_features_off;
  std::vector<TegraGpuAccess> tegra_gpu_access;  // at most one entry is used: the last
  ResourceModel resources;
  std::vector<std::string> files;   // every file loaded, in order (embedded first, overlays after)

  const Gpu* find_gpu(std::string_view pci_id) const;             // case-insensitive hex
  const TegraSoc* find_tegra(std::string_view compatible) const;  // "tegra234" or "nvidia,tegra234"
  const ArchFamily* find_family(std::string_view name) const;     // name or alias, any case
  const ArchFamily* family_of_chip(std::string_view chip) const;  // by chip prefix
  const CudaRelease* find_cuda(std::string_view version) const;   // by major.minor of version
  const CudaRelease* find_cuda(const Version& version) const;
  // A probed version, parsed when it was read (a template, so a string literal still takes string_view).
  template <std::same_as<FactVersion> F>
  const CudaRelease* find_cuda(const F& v) const { return v.parsed() ? find_cuda(*v.parsed()) : nullptr; }
  const CudaFamily* find_cuda_family(std::string_view version) const;  // by major
  const CudaFamily* find_cuda_family(const Version& version) const;
  const TorchRelease* find_torch(std::string_view version) const; // by major.minor ("2.4.1" -> 2.4)
  const TorchRelease* find_torch(const Version& version) const;
  template <std::same_as<FactVersion> F>
  const TorchRelease* find_torch(const F& v) const { return v.parsed() ? find_torch(*v.parsed()) : nullptr; }
  // The first toolkit known to compile for a capability ("7.5" -> {7.5, "10.0"}); nullptr if none.
  const ArchSupport* first_support(const CudaArch& arch) const;  // by capability
  // The JetPack of an L4T release ("36.4.3"; "36.4" matches "36.4.0"); nullptr if none.
  const JetpackRelease* find_jetpack(std::string_view l4t) const;
  // Added: the chip-prefix entry (longest prefix) for a codename: "TU116" -> {TU1, 7.5}.
  const ChipArch* chip_arch(std::string_view chip) const;
};

// The KB's spelling of a typed list, for messages and JSON: "8.6", "9.0a"; a version as written.
std::vector<std::string> spelled(const std::vector<CudaArch>& arches);
std::vector<std::string> spelled(const std::vector<Version>& versions);

// A problem found while loading or checking a KB file.
struct KbError {
  Origin origin;
  std::string message;   // "cuda.toml:12: gcc_max: '1x' is not a version"
  std::string str() const;  // "file:line: message" ("file: message" when line is 0: the whole file)
};

// Loads the embedded KB, then each overlay directory in order (entries with the same key
// replace earlier ones). Errors are collected, never thrown; a file with errors is skipped whole.
Kb load(const std::vector<std::string>& overlay_dirs, std::vector<KbError>& errors);
Kb load_embedded(std::vector<KbError>& errors);
// Loads one TOML text (for tests and `kb check`), merging into kb.
void load_text(Kb& kb, std::string_view file_name, std::string_view text,
               std::vector<KbError>& errors);
// Added: loads every KB file under dir (recursively; as an overlay) into kb.
void load_dir(Kb& kb, const std::string& dir, std::vector<KbError>& errors);
// The default overlay directories: ~/.config/torchsmith/kb when it exists.
std::vector<std::string> default_overlay_dirs();

}  // namespace ts::kb

#pragma once
// HostFacts: what the probe found on a machine. Plain values as read; versions are FactVersions
// (the text, parsed once when read); interpretation against the knowledge base happens in compat/. Serialised by `doctor --json`
// and read back by `--facts FILE`, so every field round-trips through JSON.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/cuda_arch.h"
#include "core/fact_version.h"
#include "core/gpu_code.h"

namespace ts {

struct OsFacts {
  std::string kernel;       // "Linux"
  std::string kernel_release;  // uname -r, or /proc/sys/kernel/osrelease
  std::string id;           // os-release ID: "ubuntu", "debian"
  std::string version_id;   // "24.04"
  std::string pretty_name;
  std::string glibc;        // "2.36"
  bool wsl = false;
  bool container = false;   // /.dockerenv, /run/.containerenv, or cgroup hints
};

struct CpuFacts {
  std::string arch;         // "x86_64", "aarch64"
  int logical_cores = 0;    // usable by this process (affinity / cgroup cpu.max applied)
  int online_cores = 0;     // what the machine has
  std::string model;
  std::string isa_level;    // "x86-64-v3", "armv8.2-a", ...
};

struct MemoryFacts {
  std::uint64_t total_bytes = 0;      // MemTotal
  std::uint64_t available_bytes = 0;  // MemAvailable
  std::uint64_t swap_total_bytes = 0;
  std::uint64_t swap_free_bytes = 0;
  std::uint64_t cgroup_limit_bytes = 0;    // memory.max (v2) / limit_in_bytes (v1); 0 = none
  std::uint64_t cgroup_current_bytes = 0;
  // The memory a build may really use: min(available, cgroup limit - current).
  std::uint64_t usable_bytes = 0;
};

struct DiskFacts {
  std::string purpose;      // "cwd", "tmp", "home"
  std::string path;
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
};

struct GpuFacts {
  std::string pci_address;  // "0000:01:00.0"
  std::string vendor_id;    // "10de"
  std::string device_id;    // "2182", lower-case hex without 0x
  std::string subsystem_id;
  std::string driver_bound; // kernel driver bound in sysfs: "nvidia", "nouveau", "" (none)
  // Filled by NVML when a driver answers, else by the KB lookup (compat::identify_gpus).
  std::string name;
  // "7.5" as the GPU reports it, parsed once where it is read (the probe, the KB by PCI id, a facts
  // file); none when unknown. A facts file spells it as text ("" = unknown).
  std::optional<CudaArch> compute_capability;
  std::string identified_by;       // "nvml", "kb", "tegra", "" (unknown id)
  std::uint64_t memory_bytes = 0;
  bool integrated = false;         // Jetson / Tegra iGPU (no PCI function)
};

struct DriverFacts {
  bool present = false;     // kernel module loaded or NVML answered
  FactVersion version;      // "580.95.05"
  FactVersion cuda_version; // newest CUDA the driver supports, from NVML ("13.0")
  std::string source;       // "nvml", "/proc/driver/nvidia/version", "nvidia-smi"
};

struct CudaToolkitFacts {
  std::string path;         // "/usr/local/cuda-11.8"
  FactVersion version;      // "11.8.89" or "11.8"
  std::string nvcc;         // path of nvcc, "" when the toolkit has none
  std::string version_source;  // "version.json", "version.txt", "nvcc", "cuda.h"
  GpuCodeList arches;       // nvcc --list-gpu-code: sm_75, ..., read once; empty if not asked
  std::vector<std::string> found_via;  // "/usr/local/cuda*", "CUDA_HOME", "PATH", "conda"
  bool split_compile = false;  // nvcc --help lists --split-compile (one compile's cicc/ptxas in threads)
};

struct LibraryFacts {
  std::string name;         // "cudnn", "nccl", "magma", "mkl"
  FactVersion version;      // "8.9.3"
  std::string include_dir;
  std::string library_dir;
  std::string source;       // "header", "pip:nvidia-cudnn-cu12", "conda"
  // The CUDA major a pip wheel's name gives (nvidia-cudnn-cu12: 12); 0 when the source names none.
  // Read from `source` where the facts are made or loaded, not written to a facts file.
  int cuda_major = 0;
};

// "pip:nvidia-cudnn-cu12" -> 12: the CUDA major NVIDIA's pip wheel is built for; 0 for any other source.
int pip_cuda_major(std::string_view source);

struct CompilerFacts {
  std::string family;       // "gcc", "clang"
  std::string cc;           // "/usr/bin/gcc-11"
  std::string cxx;          // "/usr/bin/g++-11", "" when only the C driver is there
  FactVersion version;      // "11.4.0"
  std::string target;       // "x86_64-linux-gnu"
  // The user's environment names this compiler: "CC", "CXX" or "CC CXX" (setuptools and torch's
  // cpp_extension compile with $CC/$CXX); "" when it was found on PATH only.
  std::string from_env;
};

struct ToolFacts {
  std::string name;         // "cmake", "ninja", "make", "git", "patchelf", "ccache", "sccache",
                            // "docker", "nvidia-container-cli", "cuobjdump"
  std::string path;
  FactVersion version;
};

struct TorchFacts {
  bool present = false;
  FactVersion version;      // "2.11.0+cu130"
  FactVersion cuda;         // torch.version.cuda, "" for CPU builds
  std::string cudnn;        // "91900" as torch reports it, normalised to "9.19.0"
  bool cxx11_abi = false;
  GpuCodeList arch_list;    // torch.cuda.get_arch_list(): sm_90 ... compute_90, read once where probed
  // The list was read (an empty list then means "built for no arch", a CPU build); false when it
  // could not be (no libtorch_python.so string, no GPU to ask): unknown, not empty.
  bool arch_list_known = false;
  bool arch_list_unknown() const { return arch_list.empty() && !arch_list_known; }
  bool debug = false;
  std::string git_version;
  std::string path;         // torch package directory
  // torch.utils.cmake_prefix_path, as the torch says it: where find_package(Torch) finds TorchConfig.cmake
  // ("" when torch was not imported; its definition is path + "/share/cmake").
  std::string cmake_prefix_path;
  std::string error;        // import failed: the last line of the traceback
};

struct PythonFacts {
  std::string path;         // the interpreter as found
  FactVersion version;      // "3.12.3"
  std::string abi_tag;      // "cp312"
  std::string platform_tag; // "linux_x86_64"
  std::string site_packages;
  std::string prefix;
  std::string env_kind;     // "system", "venv", "conda"
  std::string stdlib;       // sysconfig's stdlib dir: "/usr/lib/python3.12"
  // PEP 668: the interpreter's stdlib dir holds EXTERNALLY-MANAGED (Debian 12+, Ubuntu 23.04+) and
  // this is not a venv, so `python -m pip install` is refused: advise a venv instead.
  bool externally_managed = false;
  std::map<std::string, FactVersion> packages;  // name -> version, for the build packages; parsed once where read
  TorchFacts torch;
  std::string error;        // the probe failed: timed out, crashed, printed garbage
};

struct JetsonFacts {
  bool present = false;
  std::string model;        // /proc/device-tree/model
  std::string l4t_release;  // /etc/nv_tegra_release: "R36 (release), REVISION: 3.0"
  std::string l4t_version;  // the same as a version: "36.3.0"
  std::string jetpack;      // the JetPack that ships this L4T, from the KB (tegra.toml): "6.0"
  std::string soc;          // from /proc/device-tree/compatible: "tegra234"
  std::optional<CudaArch> compute_capability;  // the SoC's GPU, from the KB (tegra.toml); none when unknown
};

struct HostFacts {
  std::string schema = "torchsmith-hostfacts/1";
  std::string root;         // "/" or the --root directory the facts were read under
  std::string hostname;
  OsFacts os;
  CpuFacts cpu;
  MemoryFacts memory;
  std::vector<DiskFacts> disks;
  std::vector<GpuFacts> gpus;
  DriverFacts driver;
  JetsonFacts jetson;
  std::vector<CudaToolkitFacts> cuda_toolkits;
  std::vector<LibraryFacts> libraries;
  std::vector<CompilerFacts> compilers;
  std::vector<ToolFacts> tools;
  std::vector<PythonFacts> pythons;
  std::vector<std::string> notes;  // probe problems worth telling ("nvcc timed out after 10 s")
  // The compilers' search paths the user exported (kSearchPathVars, non-empty only): a build keeps them.
  std::map<std::string, std::string> search_paths;
};

// Variables the compilers and linkers read as extra search paths: a header or library installed
// outside the system's directories is found through them, so a build that drops them fails where pip does not.
inline constexpr const char* kSearchPathVars[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LIBRARY_PATH"};

void to_json(nlohmann::json& j, const HostFacts& f);
void from_json(const nlohmann::json& j, HostFacts& f);

}  // namespace ts

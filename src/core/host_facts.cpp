#include "core/host_facts.h"

#include <charconv>

#include <nlohmann/json.hpp>

// A compute capability travels as its text, "" when unknown (facts files before it was typed read the
// same); text no grammar accepts reads as unknown.
namespace nlohmann {
template <>
struct adl_serializer<std::optional<ts::CudaArch>> {
  static void to_json(json& j, const std::optional<ts::CudaArch>& a) { j = a ? a->capability() : ""; }
  static void from_json(const json& j, std::optional<ts::CudaArch>& a) {
    a = j.is_string() ? ts::CudaArch::parse(j.get<std::string>()) : std::nullopt;
  }
};
}  // namespace nlohmann

namespace ts {

int pip_cuda_major(std::string_view source) {
  constexpr std::string_view pip = "pip:nvidia-";
  auto cu = source.rfind("-cu");
  if (!source.starts_with(pip) || cu == std::string_view::npos || cu < pip.size()) return 0;
  int major = 0;
  std::from_chars(source.data() + cu + 3, source.data() + source.size(), major);
  return major;
}

// Defaults on read so a facts file from an older torchsmith still loads.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OsFacts, kernel, kernel_release, id, version_id,
                                                pretty_name, glibc, wsl, container)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CpuFacts, arch, logical_cores, online_cores, model,
                                                isa_level)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MemoryFacts, total_bytes, available_bytes,
                                                swap_total_bytes, swap_free_bytes,
                                                cgroup_limit_bytes, cgroup_current_bytes,
                                                usable_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DiskFacts, purpose, path, free_bytes, total_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuFacts, pci_address, vendor_id, device_id,
                                                subsystem_id, driver_bound, name,
                                                compute_capability, identified_by, memory_bytes,
                                                integrated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DriverFacts, present, version, cuda_version, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CudaToolkitFacts, path, version, nvcc,
                                                version_source, arches, found_via,
                                                split_compile)
namespace io {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LibraryFacts, name, version, include_dir,
                                                library_dir, source)
}  // namespace io
void to_json(nlohmann::json& j, const LibraryFacts& l) { io::to_json(j, l); }
void from_json(const nlohmann::json& j, LibraryFacts& l) {
  io::from_json(j, l);
  l.cuda_major = pip_cuda_major(l.source);
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CompilerFacts, family, cc, cxx, version, target, from_env)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ToolFacts, name, path, version)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TorchFacts, present, version, cuda, cudnn, cxx11_abi,
                                                arch_list, arch_list_known, debug, git_version, path,
                                                cmake_prefix_path, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PythonFacts, path, version, abi_tag, platform_tag,
                                                site_packages, prefix, env_kind, stdlib, externally_managed,
                                                packages, torch, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(JetsonFacts, present, model, l4t_release,
                                                l4t_version, jetpack, soc, compute_capability)

// The macro's pair is inline, so it lives in its own namespace behind the two functions the header exports.
namespace io {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostFacts, schema, root, hostname, os, cpu, memory, disks, gpus,
                                                driver, jetson, cuda_toolkits, libraries, compilers, tools,
                                                pythons, notes, search_paths)
}  // namespace io

void to_json(nlohmann::json& j, const HostFacts& f) {
  io::to_json(j, f);
  if (f.search_paths.empty()) j.erase("search_paths");  // facts files of a machine without them read as before
}
void from_json(const nlohmann::json& j, HostFacts& f) { io::from_json(j, f); }

}  // namespace ts

// NVIDIA driver: NVML on the real machine; otherwise /proc/driver/nvidia/version and nvidia-smi
// (found under root, with a timeout). nvidia-smi also names GPUs that have no PCI sysfs (WSL2).
#include <algorithm>
#include <future>

#include "probe/nvml.h"
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

std::vector<std::string> csv(const std::string& line) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= line.size()) {
    auto e = line.find(',', b);
    if (e == std::string::npos) e = line.size();
    out.push_back(util::trim(std::string_view(line).substr(b, e - b)));
    b = e + 1;
  }
  return out;
}

// "24564 MiB" -> bytes
std::uint64_t mib(const std::string& s) {
  auto n = find_version(s, {}, 1);
  return n.empty() ? 0 : std::stoull(n) * 1024 * 1024;
}

void merge_smi_gpu(std::vector<GpuFacts>& gpus, GpuFacts s) {
  auto it = std::find_if(gpus.begin(), gpus.end(),
                         [&](const GpuFacts& g) { return g.pci_address == s.pci_address; });
  if (it == gpus.end()) {
    gpus.push_back(s);
    return;
  }
  if (it->name.empty()) it->name = s.name;
  if (!it->compute_capability) it->compute_capability = s.compute_capability;
  if (!it->memory_bytes) it->memory_bytes = s.memory_bytes;
  if (it->identified_by.empty()) it->identified_by = s.identified_by;
}

void from_nvidia_smi(const Host& h, const std::string& smi, const ProbeOptions& o,
                     DriverFacts& d, std::vector<GpuFacts>& gpus, Notes& notes) {
  const std::string fields = "driver_version,name,compute_cap,memory.total,pci.bus_id,pci.device_id";
  // The header (CUDA version) and the per-GPU query are independent: run them side by side.
  auto header = std::async(std::launch::async, [&] { return h.run({smi}, o.command_timeout); });
  auto q = h.run({smi, "--query-gpu=" + fields, "--format=csv,noheader"}, o.command_timeout);
  bool has_cc = true;
  bool rejected = !q.ok() || q.out.find("not a valid field") != std::string::npos;
  if (rejected && !q.timed_out && !q.not_found) {
    // Drivers before ~510 do not know compute_cap: ask again without it.
    has_cc = false;
    q = h.run({smi, "--query-gpu=driver_version,name,memory.total,pci.bus_id,pci.device_id",
               "--format=csv,noheader"}, o.command_timeout);
  }
  auto head = header.get();
  if (!head.ok() && !q.ok()) {
    auto why = head.timed_out ? head.describe(o.command_timeout) : util::trim(head.out + head.err);
    notes.push_back("nvidia-smi failed: " + (why.empty() ? head.describe(o.command_timeout) : last_line(why)));
    return;
  }
  if (auto cv = find_version(head.out, "CUDA Version:"); !cv.empty()) d.cuda_version = FactVersion(cv);
  if (d.version.empty()) d.version = FactVersion(find_version(head.out, "Driver Version:"));
  if (q.ok()) {
    for (auto& l : lines(q.out)) {
      auto c = csv(l);
      if (c.size() < (has_cc ? 6u : 5u)) continue;
      GpuFacts g;
      std::size_t i = 0;
      if (d.version.empty()) d.version = FactVersion(c[i]);
      ++i;
      g.name = c[i++];
      if (has_cc) {
        g.compute_capability = CudaArch::parse(c[i]);  // the one parse of nvidia-smi's text; "[N/A]": unknown
        ++i;
      }
      g.memory_bytes = mib(c[i++]);
      g.pci_address = normalize_bus_id(c[i++]);
      std::string id = c[i++];  // "0x268410DE"
      if (id.size() == 10) {
        g.device_id = id.substr(2, 4);
        g.vendor_id = id.substr(6, 4);
        std::transform(g.device_id.begin(), g.device_id.end(), g.device_id.begin(), ::tolower);
        std::transform(g.vendor_id.begin(), g.vendor_id.end(), g.vendor_id.begin(), ::tolower);
      }
      g.identified_by = "nvidia-smi";
      merge_smi_gpu(gpus, g);
    }
  }
  if (!d.version.empty()) {
    d.present = true;
    if (d.source.empty()) d.source = "nvidia-smi";
  }
}

}  // namespace

DriverFacts probe_driver(const Host& h, const ProbeOptions& o, std::vector<GpuFacts>& gpus,
                         Notes& notes) {
  DriverFacts d;
  if (h.is_real() && o.use_nvml) {
    std::string why;
    if (probe_nvml(d, gpus, o.command_timeout, &why)) return d;
    bool nvidia_gpu = !gpus.empty();
    if (nvidia_gpu) notes.push_back("NVML: " + why);
  }
  if (auto v = h.read("/proc/driver/nvidia/version")) {
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue Sep 23 ..." (or "Open Kernel Module for x86_64")
    auto nvrm = lines(*v).empty() ? std::string() : lines(*v)[0];
    auto ver = find_version(nvrm, "Module");
    if (!ver.empty()) {
      d.present = true;
      d.version = FactVersion(ver);
      d.source = "/proc/driver/nvidia/version";
    }
  }
  auto smi = h.find_command("nvidia-smi");
  if (!smi.empty()) from_nvidia_smi(h, smi, o, d, gpus, notes);
  bool driverless_gpu = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.integrated; });
  if (!d.present && driverless_gpu)
    notes.push_back("an NVIDIA GPU is present but no NVIDIA driver answered (no /proc/driver/nvidia, no nvidia-smi)");
  return d;
}

}  // namespace ts::probe

// Naming the GPUs: NVML already named what it saw; the KB names the rest by PCI id or SoC.
#include "compat/assess.h"

namespace ts::compat {

void identify_gpus(HostFacts& f, const kb::Kb& kb) {
  for (auto& g : f.gpus) {
    if (g.compute_capability && !g.name.empty()) continue;
    if (const kb::Gpu* e = kb.find_gpu(g.device_id)) {
      if (g.name.empty()) g.name = e->name;
      if (!g.compute_capability) g.compute_capability = e->arch;  // gpus.toml's, parsed when it loaded
      if (g.identified_by.empty()) g.identified_by = "kb";
    }
  }
  if (f.jetson.present && f.jetson.jetpack.empty())
    if (const kb::JetpackRelease* jp = kb.find_jetpack(f.jetson.l4t_version)) f.jetson.jetpack = jp->jetpack;
  if (f.jetson.present && !f.jetson.compute_capability) {
    if (const kb::TegraSoc* soc = kb.find_tegra(f.jetson.soc)) {
      // Thor was renumbered (10.1 under CUDA 12.8-12.9, 11.0 from 13): ask with the toolkit here.
      const auto* cuda = f.cuda_toolkits.empty() ? nullptr : &f.cuda_toolkits.front().version.parsed();
      f.jetson.compute_capability = cuda && *cuda ? soc->arch_for_cuda(**cuda) : soc->arch;  // tegra.toml's
      // JetPack 6's nvidia-smi lists the integrated GPU ("Orin (nvgpu)", bus id N/A): it is the SoC's
      // GPU, not a second one. Rows with no PCI function become that one device.
      auto is_soc_row = [](const GpuFacts& g) {
        return g.integrated || (g.driver_bound.empty() && g.device_id.empty() && g.vendor_id.empty());
      };
      bool listed = false;
      for (auto it = f.gpus.begin(); it != f.gpus.end();) {
        if (!is_soc_row(*it)) {
          ++it;
          continue;
        }
        if (listed) {  // a second row for the same SoC GPU
          it = f.gpus.erase(it);
          continue;
        }
        listed = true;
        it->integrated = true;
        it->pci_address.clear();  // nvidia-smi's "N/A"
        it->vendor_id = "10de";
        it->name = soc->name;
        it->compute_capability = f.jetson.compute_capability;
        it->identified_by = "tegra";
        ++it;
      }
      if (!listed) {
        GpuFacts g;
        g.vendor_id = "10de";
        g.name = soc->name;
        g.compute_capability = f.jetson.compute_capability;
        g.identified_by = "tegra";
        g.integrated = true;
        f.gpus.push_back(g);
      }
    }
  }
}

}  // namespace ts::compat

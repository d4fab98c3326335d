// GPUs from PCI sysfs: NVIDIA (0x10de) display/3D functions only, ids kept raw so a card the KB
// does not know is still reported by its id. Names and capabilities come later (NVML or KB).
#include <algorithm>
#include <cctype>

#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

// "0x2684\n" -> "2684"
std::string hex_id(const std::string& raw) {
  std::string s = util::trim(raw);
  if (s.starts_with("0x") || s.starts_with("0X")) s = s.substr(2);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

std::vector<GpuFacts> probe_pci_gpus(const Host& h, Notes& notes) {
  std::vector<GpuFacts> out;
  const std::string base = "/sys/bus/pci/devices";
  for (auto& addr : h.list(base)) {
    std::string dev = base + "/" + addr;
    if (hex_id(h.read(dev + "/vendor", 64).value_or("")) != "10de") continue;
    auto cls = hex_id(h.read(dev + "/class", 64).value_or(""));
    if (!cls.starts_with("03")) continue;  // 0x03xxxx: VGA / 3D / display controller; skip audio, USB-C
    GpuFacts g;
    g.pci_address = addr;
    g.vendor_id = "10de";
    g.device_id = hex_id(h.read(dev + "/device", 64).value_or(""));
    g.subsystem_id = hex_id(h.read(dev + "/subsystem_device", 64).value_or(""));
    auto link = h.readlink(dev + "/driver");
    if (!link.empty()) g.driver_bound = link.substr(link.rfind('/') + 1);
    out.push_back(g);
  }
  return out;
}

}  // namespace ts::probe

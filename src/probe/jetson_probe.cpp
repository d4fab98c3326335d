// Jetson / Tegra: the GPU is integrated (no PCI function), so the board is found through the
// device tree and L4T's release file. The KB maps the SoC to its compute capability.
#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {

JetsonFacts probe_jetson(const Host& h, Notes& notes) {
  JetsonFacts j;
  auto compat = h.read("/proc/device-tree/compatible", 4096).value_or("");
  // NUL-separated, most specific first: "nvidia,p3737-0000+p3701-0000\0nvidia,p3701-0000\0nvidia,tegra234\0"
  std::size_t b = 0;
  while (b < compat.size()) {
    auto e = compat.find('\0', b);
    if (e == std::string::npos) e = compat.size();
    std::string entry = compat.substr(b, e - b);
    b = e + 1;
    if (entry.starts_with("nvidia,tegra")) {
      j.soc = entry.substr(7);  // "tegra234"
      break;
    }
  }
  auto model = h.read("/proc/device-tree/model", 4096).value_or("");
  j.model = util::trim(model.substr(0, model.find('\0')));
  auto rel = h.read("/etc/nv_tegra_release", 4096);
  if (rel) {
    // "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64, DATE: ..."
    auto first = lines(*rel).empty() ? std::string() : lines(*rel)[0];
    auto s = first.find('R');
    auto gcid = first.find(", GCID");
    if (s != std::string::npos) j.l4t_release = util::trim(first.substr(s, gcid == std::string::npos ? std::string::npos : gcid - s));
    // "R36 (release), REVISION: 4.3" -> "36.4.3"
    auto major = find_version(j.l4t_release, "R", 1);
    auto rev = find_version(j.l4t_release, "REVISION:");
    if (!major.empty() && !rev.empty()) j.l4t_version = major + "." + rev;
  }
  j.present = !j.soc.empty() || rel.has_value();
  if (j.present && j.soc.empty()) notes.push_back("Jetson release file found but no nvidia,tegra* in /proc/device-tree/compatible");
  return j;
}

}  // namespace ts::probe

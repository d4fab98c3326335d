// gpus.toml: [[gpu]] PCI device id -> name -> compute capability.
#include <algorithm>
#include <cctype>

#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

namespace {

bool is_pci_id(const std::string& s) {
  return s.size() == 4 && std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isxdigit(ch); });
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

void read_gpus(const toml::table& root, FileCtx& c, Kb& out) {
  read_entries(root, c, {"gpu"}, {"gpu", "gpu", "pci_id"}, out.gpus,
               [&](EntryReader& r, Gpu& g, const toml::table& t) {
    std::string id = r.text("pci_id", true, "\"2182\"");
    if (!id.empty() && !is_pci_id(id))
      r.error(line_of(*t.get("pci_id")), "pci_id: '" + id + "' is not a 4-digit hex device id; write it as "
                                          "lspci -nn shows it after 10de:, e.g. \"2182\"");
    g.pci_id = lower(id);
    g.name = r.text("name", true, "\"GeForce GTX 1660 Ti\"");
    auto arch = r.arch("arch", true);
    g.arch = arch.value_or(CudaArch{});  // a bad arch is reported: the file is not kept
    g.chip = r.text("chip", false, "\"TU116\"");
    g.family = r.text("family", true, "\"Turing\"");
    g.jetson = r.flag("jetson", false);
    r.common(g);
    if (arch) {
      if (std::string p = arch_in_toolkits(c.base, *arch); !p.empty())
        r.error(line_of(*t.get("arch")), "arch: " + p);
    }
    if (!g.family.empty()) {
      const ArchFamily* f = c.base.find_family(g.family);
      if (!f) {
        r.error(line_of(*t.get("family")), "family: '" + g.family + "' is not in families.toml; write a family "
                                            "name such as \"Ampere\" or add the family there");
      } else if (arch && std::find(f->arches.begin(), f->arches.end(), *arch) == f->arches.end()) {
        r.error(line_of(*t.get("arch")), "arch: " + arch->str() + " is not an arch of family " + f->name +
                                          " (families.toml); fix the arch or the family");
      }
    }
  }, &Gpu::pci_id);
}

}  // namespace ts::kb::detail

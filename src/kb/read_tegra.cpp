// tegra.toml: [[soc]] Jetson SoCs by device-tree compatible, with per-CUDA arch renumbering.
#include "core/version_range.h"
#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

void read_tegra(const toml::table& root, FileCtx& c, Kb& out) {
  std::vector<std::pair<std::string, int>> seen;
  for (const toml::table* t : entries(root, c, "soc", {"soc"})) {
    EntryReader r(*t, c.file, "soc", c.errors);
    TegraSoc s;
    s.compatible = r.text("compatible", true, "\"tegra234\"");
    if (s.compatible.rfind("nvidia,", 0) == 0)
      r.error(line_of(*t->get("compatible")), "compatible: write it without the vendor: \"" + s.compatible.substr(7) + "\"");
    s.name = r.text("name", true, "\"Jetson AGX Orin\"");
    s.arch = r.arch("arch", true);
    s.family = r.text("family", false, "\"Ampere\"");
    r.common(s);
    if (!s.arch.empty())
      if (std::string p = arch_in_toolkits(c.base, s.arch); !p.empty()) r.error(line_of(*t->get("arch")), "arch: " + p);
    if (!s.family.empty() && !c.base.find_family(s.family))
      r.error(line_of(*t->get("family")), "family: '" + s.family + "' is not in families.toml");
    if (const toml::array* a = r.tables("arch_by_cuda")) {
      for (const auto& el : *a) {
        EntryReader sub(*el.as_table(), c.file, "soc.arch_by_cuda", c.errors);
        TegraCudaArch x;
        x.cuda = sub.range("cuda", true, "\">=12.8,<13\"");
        x.arch = sub.arch("arch", true);
        if (!x.arch.empty())
          if (std::string p = arch_in_toolkits(c.base, x.arch); !p.empty())
            sub.error(line_of(*el.as_table()->get("arch")), "arch: " + p);
        sub.finish();
        s.arch_by_cuda.push_back(std::move(x));
      }
    }
    r.finish();
    if (!s.compatible.empty()) unique_key(seen, s.compatible, s.origin.line, c, "soc", "compatible");
    out.tegra.push_back(std::move(s));
  }
}

}  // namespace ts::kb::detail

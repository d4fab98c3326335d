// tegra.toml: [[soc]] Jetson SoCs by device-tree compatible, with per-CUDA arch renumbering; [[jetpack]]
// L4T -> JetPack; [[feature_off]] and [[gpu_access]]: what holds on every Tegra integrated GPU.
#include "core/version_range.h"
#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

void read_tegra(const toml::table& root, FileCtx& c, Kb& out) {
  const std::vector<std::string_view> allowed{"soc", "jetpack", "feature_off", "gpu_access"};
  read_entries(root, c, allowed, {"soc", "soc", "compatible"}, out.tegra,
               [&](EntryReader& r, TegraSoc& s, const toml::table& t) {
    s.compatible = r.text("compatible", true, "\"tegra234\"");
    if (s.compatible.rfind("nvidia,", 0) == 0)
      r.error(line_of(*t.get("compatible")), "compatible: write it without the vendor: \"" + s.compatible.substr(7) + "\"");
    s.name = r.text("name", true, "\"Jetson AGX Orin\"");
    auto arch = r.arch("arch", true);
    s.arch = arch.value_or(CudaArch{});  // a bad arch is reported: the file is not kept
    s.family = r.text("family", false, "\"Ampere\"");
    r.common(s);
    if (arch)
      if (std::string p = arch_in_toolkits(c.base, *arch); !p.empty()) r.error(line_of(*t.get("arch")), "arch: " + p);
    if (!s.family.empty() && !c.base.find_family(s.family))
      r.error(line_of(*t.get("family")), "family: '" + s.family + "' is not in families.toml");
    read_tables(r.tables("arch_by_cuda"), c.file, "soc.arch_by_cuda", c.errors,
                [&](EntryReader& sub, const toml::table& st) {
                  TegraCudaArch x;
                  // range() reported a bad one (the file is not kept); what parses is kept typed.
                  x.cuda = VersionRange::parse(sub.range("cuda", true, "\">=12.8,<13\"")).value_or(VersionRange{});
                  auto arch = sub.arch("arch", true);
                  x.arch = arch.value_or(CudaArch{});
                  if (arch)
                    if (std::string p = arch_in_toolkits(c.base, *arch); !p.empty())
                      sub.error(line_of(*st.get("arch")), "arch: " + p);
                  s.arch_by_cuda.push_back(std::move(x));
                });
  }, &TegraSoc::compatible);
  read_entries(root, c, allowed, {"jetpack", "jetpack", "l4t"}, out.jetpack,
               [&](EntryReader& r, JetpackRelease& j) {
    j.l4t = r.version("l4t", true, "\"36.4.3\"");
    j.jetpack = r.version("jetpack", true, "\"6.2\"");
    j.cuda = r.parsed_version("cuda", false, "\"12.6\"", 2);
    r.common(j);
  }, &JetpackRelease::l4t);
  read_entries(root, c, allowed, {"feature_off", "feature_off"}, out.tegra_features_off,
               [&](EntryReader& r, TegraFeatureOff& f) {
    f.feature = r.text("feature", true, "\"nccl\"");
    f.reason = r.text("reason", true, "\"<why it is off on Tegra>\"");
    r.common(f);
  });
  read_entries(root, c, allowed, {"gpu_access", "gpu_access"}, out.tegra_gpu_access,
               [&](EntryReader& r, TegraGpuAccess& g) {
    g.nvml = r.flag("nvml", false);
    g.test_through = r.text("test_through", true, "\"torch.cuda\"");
    g.reason = r.text("reason", true, "\"<why>\"");
    r.common(g);
  });
}

}  // namespace ts::kb::detail

// families.toml: [[family]] arch family names, aliases, arches and chip-codename prefixes.
#include <algorithm>
#include <cctype>

#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

void read_families(const toml::table& root, FileCtx& c, Kb& out) {
  // Names compare without case: "ampere" repeats "Ampere".
  auto lower_name = [](const ArchFamily& f) {
    std::string key = f.name;
    for (auto& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return key;
  };
  read_entries(root, c, {"family"}, {"family", "family", "name"}, out.families,
               [&](EntryReader& r, ArchFamily& f, const toml::table& t) {
    f.name = r.text("name", true, "\"Ampere\"");
    f.aliases = r.texts("aliases", false, "[\"ampere\"]");
    f.arches = r.arches("arches", true);
    f.torch_arches = r.arches("torch_arches", false, /*allow_ptx=*/true);
    r.common(f);
    for (const auto& a : f.arches)
      if (std::string p = arch_in_toolkits(c.base, a); !p.empty()) r.error(line_of(*t.get("arches")), "arches: " + p);
    read_tables(r.tables("chip"), c.file, "family.chip", c.errors, [&](EntryReader& sub) {
      ChipArch ch;
      ch.prefix = sub.text("prefix", true, "\"GA10\"");
      auto chip_arch = sub.arch("arch", true);
      ch.arch = chip_arch.value_or(CudaArch{});  // a bad arch is reported: the file is not kept
      ch.source = sub.text("source", false, "\"developer.nvidia.com/cuda-gpus\"");
      sub.text("status", false, "\"verified-secondary\"");
      if (ch.source.empty()) ch.source = f.source;
      if (chip_arch && std::find(f.arches.begin(), f.arches.end(), *chip_arch) == f.arches.end())
        sub.error(0, "arch: " + ch.arch.str() + " is not in this family's arches; add it there or fix the chip");
      f.chip_prefixes.push_back(ch.prefix);
      f.chips.push_back(std::move(ch));
    });
  }, lower_name);
}

}  // namespace ts::kb::detail

// torch.toml: [[release]] PyTorch release lines and what building each needs.
#include <algorithm>

#include "core/version.h"
#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

void read_torch(const toml::table& root, FileCtx& c, Kb& out) {
  read_entries(root, c, {"release"}, {"release", "torch release", "version"}, out.torch,
               [&](EntryReader& r, TorchRelease& x, const toml::table& t) {
    x.version = r.parsed_version("version", true, "\"2.4\"", 2).value_or(Version{});
    x.released = r.text("released", false, "\"2024-07-24\"");
    x.python = r.parsed_range("python", true, "\">=3.8,<3.13\"");
    std::vector<std::string> cuda = r.texts("cuda", true, "[\"11.8\", \"12.1\"]");
    x.cmake_min = r.parsed_version("cmake_min", true, "\"3.18\"").value_or(Version{});
    x.cmake_max_exclusive = r.parsed_version("cmake_max_exclusive", false, "\"4\"");
    x.gcc_min = r.parsed_version("gcc_min", false, "\"9\"");
    std::string cxx_standard = r.text("cxx_standard", true, "\"17\"");
    x.numpy = r.parsed_range("numpy", true, "\">=1,<2\"");
    x.torchvision = r.version("torchvision", true, "\"0.19\"");
    x.torchaudio = r.version("torchaudio", true, "\"2.4\"");
    x.arch_names = r.arches("arch_names", true);
    x.python_experimental = r.texts("python_experimental", false, "[\"3.13\", \"3.13t\"]");
    r.common(x);
    for (const auto& e : x.python_experimental) {
      std::string mm = e.ends_with("t") ? e.substr(0, e.size() - 1) : e;
      auto pv = Version::parse(mm);
      if (!pv || pv->release().size() != 2 || mm.find_first_not_of("0123456789.") != std::string::npos)
        r.error(line_of(*t.get("python_experimental")),
                "python_experimental: '" + e + "' is not a Python major.minor; write \"3.13\" or \"3.13t\" (free-threaded)");
    }
    for (int std : {11, 14, 17, 20, 23})
      if (cxx_standard == std::to_string(std)) x.cxx_standard = std;
    if (!x.cxx_standard && !cxx_standard.empty())
      r.error(line_of(*t.get("cxx_standard")), "cxx_standard: '" + cxx_standard +
                                                "' is not a C++ standard; write \"14\", \"17\" or \"20\"");
    const toml::array* cu = t.get("cuda") ? t.get("cuda")->as_array() : nullptr;
    for (std::size_t i = 0; cu && i < cuda.size() && i < cu->size(); ++i) {
      const std::string& v = cuda[i];
      auto pv = Version::parse(v);
      if (!pv || pv->release().size() != 2) {
        r.error(line_of((*cu)[i]), "cuda: '" + v + "' is not a CUDA major.minor; write \"12.4\"");
        continue;
      }
      if (!c.base.cuda.empty() && !c.base.find_cuda(*pv))
        r.error(line_of((*cu)[i]), "cuda: CUDA " + v + " is not in cuda.toml; add the toolkit there first");
      x.cuda.push_back(*pv);
    }
    const toml::array* an = t.get("arch_names") ? t.get("arch_names")->as_array() : nullptr;
    for (std::size_t i = 0; an && i < an->size(); ++i)
      if (auto s = (*an)[i].value<std::string>())
        if (auto a = CudaArch::parse(*s))  // a bad spelling is reported by arches() above
          if (std::string p = arch_in_toolkits(c.base, *a); !p.empty()) r.error(line_of((*an)[i]), "arch_names: " + p);
  }, release_key<TorchRelease>);
}

}  // namespace ts::kb::detail

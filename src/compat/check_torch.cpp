// An installed torch vs the toolkits (extensions need nvcc of torch's CUDA major), the driver,
// NumPy.
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "core/version_range.h"

namespace ts::compat {

void check_installed_torch(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out) {
  for (const auto& py : f.pythons) {
    const TorchFacts& t = py.torch;
    if (!t.present) {
      if (!t.error.empty())
        out.push_back({"torch", "torch in " + py.path, Level::warn,
                       "import torch failed: " + t.error, "", ""});
      continue;
    }
    std::string who = "torch " + t.version + " (" + py.path + ")";
    auto tc = ver(t.cuda);
    if (tc) {
      for (const auto& tk : f.cuda_toolkits) {
        auto kv = ver(tk.version);
        if (!kv) continue;
        Verdict v{"torch",   who + " with nvcc " + kv->major_minor() + " for extensions",
                  Level::ok, "",
                  "",        ""};
        if (kv->major() != tc->major()) {
          v.level = Level::fail;
          v.reason = "torch was built with CUDA " + t.cuda + "; extensions built with CUDA " +
                     kv->major_minor() +
                     " are refused ('The detected CUDA version mismatches the version that was "
                     "used to compile PyTorch')";
          v.fix =
              "install CUDA " + tc->major_minor() + " (same major as torch) for extension builds";
        } else if (kv->major_minor() != tc->major_minor()) {
          v.level = Level::warn;
          v.reason = "same CUDA major (" + std::to_string(tc->major()) + "), minor differs (" +
                     kv->major_minor() + " vs " + t.cuda + "): cpp_extension warns and builds";
        } else {
          v.reason = "nvcc matches torch's CUDA " + t.cuda;
        }
        out.push_back(v);
      }
      if (f.driver.present && !f.driver.cuda_version.empty()) {
        auto dc = ver(f.driver.cuda_version);
        if (dc && *Version::parse(tc->major_minor()) > *dc)
          out.push_back(
              {"torch", who + " with driver " + f.driver.version, Level::fail,
               "torch needs CUDA " + t.cuda + " but the driver runs CUDA <= " +
                   f.driver.cuda_version + ": torch.cuda.is_available() is False",
               "update the driver, or install a torch built for CUDA <= " + f.driver.cuda_version,
               ""});
      }
    }
    // A torch built against NumPy 1.x cannot load NumPy 2.x and the reverse.
    auto np = py.packages.find("numpy");
    const kb::TorchRelease* rel = kb.find_torch(t.version);
    if (np != py.packages.end() && rel) {
      auto nr = VersionRange::parse(rel->numpy);
      auto nv = ver(np->second);
      if (nr && nv && !nr->contains(*nv))
        out.push_back(
            {"numpy", who + " with NumPy " + np->second, Level::fail,
             "torch " + rel->version + " was built for NumPy " + nr->describe() +
                 ": 'A module that was compiled using NumPy 1.x cannot be run in NumPy 2'",
             "install NumPy " + nr->describe() + " in " + py.path, rel->source,
             where(rel->origin)});
    }
  }
}

}  // namespace ts::compat

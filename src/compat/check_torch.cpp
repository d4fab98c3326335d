// An installed torch vs the toolkits (extensions need nvcc of torch's CUDA major), the driver,
// NumPy.
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "compat/python_rule.h"
#include "compat/toolkit_rule.h"
#include "core/version_range.h"

namespace ts::compat {

void check_installed_torch(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out) {
  for (const auto& py : f.pythons) {
    const TorchFacts& t = py.torch;
    if (!t.present) {
      if (!t.error.empty())
        out.push_back({"torch", "torch in " + py.path, Level::warn,
                       "import torch failed: " + t.error, "", "", "", "torch.import"});
      continue;
    }
    std::string who = "torch " + t.version + " (" + py.path + ")";
    auto tc = t.cuda.parsed();
    if (tc) {
      for (const auto& tk : f.cuda_toolkits) {
        auto kv = tk.version.parsed();
        if (!kv) continue;
        Verdict v{"torch", who + " with nvcc " + kv->major_minor() + " for extensions", Level::ok, "", "", "", "",
                  kTorchNvccRule};
        NvccForTorch m = nvcc_for_torch(t.cuda, tk.version);
        if (m == NvccForTorch::other_major) {
          v.level = Level::fail;
          v.reason = "torch was built with CUDA " + t.cuda + "; extensions built with CUDA " +
                     kv->major_minor() +
                     " are refused ('The detected CUDA version mismatches the version that was "
                     "used to compile PyTorch')";
          v.fix =
              "install CUDA " + tc->major_minor() + " (same major as torch) for extension builds";
        } else if (m == NvccForTorch::other_minor) {
          v.level = Level::warn;
          v.reason = "same CUDA major (" + std::to_string(tc->major()) + "), minor differs (" +
                     kv->major_minor() + " vs " + t.cuda + "): cpp_extension warns and builds";
        } else {
          v.reason = "nvcc matches torch's CUDA " + t.cuda;
        }
        out.push_back(v);
      }
      if (f.driver.present && !f.driver.cuda_version.empty()) {
        if (driver_runs(f.driver, nullptr, t.cuda) == false)
          out.push_back(
              {"torch", who + " with driver " + f.driver.version, Level::fail,
               "torch needs CUDA " + t.cuda + " but the driver runs CUDA <= " +
                   f.driver.cuda_version + ": torch.cuda.is_available() is False",
               "update the driver, or install a torch built for CUDA <= " + f.driver.cuda_version,
               "", "", kDriverRule});
      }
    }
    // A torch built against NumPy 1.x cannot load NumPy 2.x and the reverse.
    auto np = py.packages.find("numpy");
    const kb::TorchRelease* rel = kb.find_torch(t.version);
    if (np != py.packages.end() && rel && numpy_fit(*rel, py) == NumpyFit::outside) {
      const VersionRange& nr = rel->numpy;  // parsed when the KB loaded
      out.push_back(
            {"numpy", who + " with NumPy " + np->second, Level::fail,
             "torch " + rel->version.original() + " was built for NumPy " + nr.describe() +
                 ": 'A module that was compiled using NumPy 1.x cannot be run in NumPy 2'",
             "install NumPy " + nr.describe() + " in " + py.path, rel->source,
             where(rel->origin), kNumpyRule});
    }
  }
}

}  // namespace ts::compat

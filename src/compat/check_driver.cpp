// Driver vs each CUDA toolkit: can programs built with this toolkit start on this driver?
#include "compat/assess.h"
#include "compat/facts_util.h"
#include "compat/toolkit_rule.h"

namespace ts::compat {

namespace {

Verdict driver_vs_toolkit(const HostFacts& f, const kb::Kb& kb, const CudaToolkitFacts& tk,
                          const Version& drv) {
  Verdict v;
  v.topic = "driver";
  v.rule = kDriverRule;
  auto tkv = tk.version.parsed();
  std::string mm = tk.version.major_minor();  // parsed when probed
  v.subject = "driver " + f.driver.version + " with CUDA " + mm + " (" + tk.path + ")";
  const kb::CudaRelease* rel = kb.find_cuda(tk.version);
  if (!rel) {
    v.level = Level::warn;
    v.reason =
        "CUDA " + tk.version + " is not in the knowledge base, so its minimum driver is unknown";
    v.fix = "add a [[release]] for it to cuda.toml in a --kb overlay";
    return v;
  }
  const kb::CudaFamily* fam = kb.find_cuda_family(rel->version);
  auto floor = fam ? std::optional<Version>(fam->driver_min_linux) : std::nullopt;
  auto drv_cuda = f.driver.cuda_version.parsed();
  bool full = driver_runs(f.driver, rel, tk.version).value_or(false);
  if (full) {
    v.level = Level::ok;
    v.reason = "CUDA " + mm + " needs driver >= " + rel->driver_min_linux.original() +
               (drv_cuda ? "; this driver runs CUDA <= " + f.driver.cuda_version : "");
    v.source = rel->source;
    v.where = where(rel->origin);
    return v;
  }
  const kb::CudaRelease* newest = newest_cuda_for_driver(kb, drv);
  std::string runs = drv_cuda ? f.driver.cuda_version : (newest ? newest->version.original() : "");
  if (floor && drv >= *floor && fam && tkv && std::to_string(tkv->major()) == fam->major) {
    v.level = Level::warn;
    v.reason = "driver " + f.driver.version + " is older than CUDA " + mm + "'s own (" +
               rel->driver_min_linux.original() + ") but meets the CUDA " + fam->major +
               ".x minor-version floor (" + fam->driver_min_linux.original() +
               "): programs run, but PTX built by this toolkit cannot be JIT-compiled "
               "(cudaErrorUnsupportedPtxVersion, 222)";
    v.fix = "compile real SASS for every GPU (no +PTX reliance), or update the driver to >= " +
            rel->driver_min_linux.original();
    v.source = fam->source;
    v.where = where(fam->origin);
    return v;
  }
  v.level = Level::fail;
  v.reason = "driver " + f.driver.version + " is older than CUDA " + mm +
             " needs (>= " + rel->driver_min_linux.original() + ")" +
             (runs.empty() ? "" : "; it runs CUDA <= " + runs) +
             ": programs built with this toolkit fail to start with cudaErrorInsufficientDriver "
             "(35), or 'Error 804: forward compatibility was attempted on non supported HW' when "
             "a cuda-compat library is on the library path of a GPU that does not support it";
  v.fix = "install an NVIDIA driver >= " + rel->driver_min_linux.original() +
          (runs.empty() ? "" : ", or build with CUDA <= " + runs + " instead") +
          "; after a driver update, reboot (a loaded old kernel module gives the same error)";
  v.source = rel->source;
  v.where = where(rel->origin);
  return v;
}

}  // namespace

void check_driver(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out) {
  if (f.jetson.present) {
    const kb::JetpackRelease* jp = kb.find_jetpack(f.jetson.l4t_version);
    std::string l4t = f.jetson.l4t_version.empty() ? f.jetson.l4t_release : f.jetson.l4t_version;
    Verdict v{"driver", "Jetson driver (L4T " + l4t + (jp ? ", JetPack " + jp->jetpack : std::string()) + ")", Level::info,
              "on Jetson the GPU driver is part of L4T/JetPack: the CUDA it runs is the one JetPack ships" +
                  (jp && jp->cuda ? std::string(" (JetPack ") + jp->jetpack + ": CUDA " + jp->cuda->original() + ")" : std::string()),
              "", jp ? jp->source : "", jp ? where(jp->origin) : "", "driver.tegra"};
    if (!jp && !f.jetson.l4t_version.empty())
      v.reason += "; L4T " + f.jetson.l4t_version + " is not in the knowledge base's L4T -> JetPack table (tegra.toml)";
    out.push_back(v);
    return;
  }
  bool has_dgpu = false;
  for (const auto& g : f.gpus) has_dgpu |= !g.integrated;
  if (!f.driver.present) {
    if (has_dgpu)
      out.push_back({"driver", "NVIDIA driver", Level::warn,
                     "an NVIDIA GPU is present but no driver is loaded (no /proc/driver/nvidia, "
                     "NVML does not answer): builds work, running and GPU verification do not",
                     "install the NVIDIA driver (and reboot), or build with --arch named "
                     "explicitly; torchsmith verify --gpu needs it",
                     "", "", "driver.present"});
    return;
  }
  auto drv = f.driver.version.parsed();
  if (!drv) {
    out.push_back({"driver", "driver " + f.driver.version, Level::warn,
                   "the driver version '" + f.driver.version + "' could not be read", "", "", "", "driver.present"});
    return;
  }
  if (f.cuda_toolkits.empty()) {
    const kb::CudaRelease* newest = newest_cuda_for_driver(kb, *drv);
    std::string runs = !f.driver.cuda_version.empty() ? f.driver.cuda_version
                       : newest                       ? newest->version.original()
                                                      : "unknown";
    out.push_back({"driver", "driver " + f.driver.version, Level::info,
                   "runs CUDA <= " + runs + "; no CUDA toolkit is installed", "", "", "", kDriverRule});
    return;
  }
  for (const auto& tk : f.cuda_toolkits) out.push_back(driver_vs_toolkit(f, kb, tk, *drv));
}

}  // namespace ts::compat

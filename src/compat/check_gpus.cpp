// Each GPU vs each toolkit (can nvcc compile for it?) and vs each installed torch (is its code
// inside?).
#include <algorithm>

#include "compat/arch_rule.h"
#include "compat/assess.h"
#include "compat/facts_util.h"

namespace ts::compat {

namespace {

std::string gpu_label(const GpuFacts& g) {
  std::string id = g.integrated ? "integrated" : g.vendor_id + ":" + g.device_id;
  return (g.name.empty() ? "unknown GPU" : g.name) + " (" + id + ")";
}

Verdict gpu_vs_toolkit(const kb::Kb& kb, const GpuFacts& g, const CudaToolkitFacts& tk) {
  Verdict v;
  v.topic = "gpu";
  const kb::CudaRelease* rel = kb.find_cuda(tk.version);
  auto tkv = tk.version.parsed();
  std::string mm = tk.version.major_minor();  // parsed when probed
  const std::optional<CudaArch>& cap = g.compute_capability;
  const std::string cc = cap ? cap->capability() : "";
  v.subject = gpu_label(g) + ", compute " + cc + " with CUDA " + mm;
  if (!rel || !cap) {
    v.level = Level::warn;
    v.reason = "CUDA " + tk.version + " is not in the knowledge base";
    return v;
  }
  v.source = rel->source;
  v.where = where(rel->origin);
  ArchSpan span = arch_span(kb, *cap);
  auto [lo, hi] = std::pair{span.lo, span.hi};
  v.rule = kArchToolkitRule;
  if (toolkit_compiles(*rel, *cap)) {
    v.level = Level::ok;
    v.reason = "nvcc " + mm + " compiles for " + cap->sm();
    if (!span.describe().empty()) v.reason += " (" + span.describe() + ")";
    if (!span.first_source.empty()) v.source = span.first_source + "; " + v.source;
    return v;
  }
  v.level = Level::fail;
  // What this toolkit can still build that runs here: SASS of a lower minor, or PTX.
  std::string nearer;
  if (auto n = nearest_runnable(kb, *rel, *cap))
    nearer = n->ptx ? "or build " + n->str() + " (PTX, JIT-compiled by the driver at first use; slow start): --arch " + n->str()
                    : "or build for " + n->sm() + ", whose SASS runs on compute " + cc +
                          " (same major, lower minor): --arch " + n->str();
  if (lo && lo->version > *tkv) {
    v.reason = "CUDA " + mm + " cannot compile for " + cap->sm() + ": " + cc +
               " needs CUDA >= " + lo->version.original();
    v.fix = "install CUDA " + lo->version.original() + " or newer" + (nearer.empty() ? "" : "; " + nearer);
  } else if (hi) {
    v.reason = "CUDA " + mm + " no longer compiles for " + cap->sm() +
               ": the last toolkit with it is CUDA " + hi->version.original();
    v.fix = "use CUDA " + hi->version.original() + " or older for this GPU";
  } else {
    v.reason = "no CUDA toolkit in the knowledge base compiles for " + cap->sm();
  }
  return v;
}

// Whether torch's arch list holds code this GPU can run (CudaArch::runs_on has the rules).
Verdict gpu_vs_torch(const GpuFacts& g, const PythonFacts& py) {
  Verdict v;
  v.topic = "gpu";
  v.subject = gpu_label(g) + " with torch " + py.torch.version + " (" + py.path + ")";
  v.rule = kArchCoverageRule;
  const std::optional<CudaArch>& cap = g.compute_capability;
  if (py.torch.arch_list_unknown()) {
    // Unread is not empty: saying "no kernel image" here would be a guess.
    v.level = Level::warn;
    v.reason = "torch's arch list is unknown (not found in libtorch_python.so): whether it has code for " + cap->sm() +
               " cannot be told from its files";
    v.fix = "find out: torchsmith doctor --import-torch (asks torch), or " + py.path +
            " -c 'import torch; print(torch.cuda.get_arch_list())'";
    return v;
  }
  Coverage cov = coverage(py.torch.arch_list.code(), *cap);  // a compute_ entry is PTX only
  std::string list = py.torch.arch_list.joined(" ");
  if (cov == Coverage::sass) {
    v.level = Level::ok;
    v.reason = "torch carries code for " + cap->sm() + " (" + list + ")";
  } else if (cov == Coverage::ptx) {
    v.level = Level::warn;
    v.reason = "torch has no " + cap->sm() +
               " code, only PTX that the driver JIT-compiles at first use (" + list +
               "): slow start, and only if the driver is new enough";
    v.fix = "build torch with TORCH_CUDA_ARCH_LIST including " + cap->str();
  } else {
    v.level = Level::fail;
    v.reason = "torch was built for " + (list.empty() ? std::string("no GPU arch") : list) +
               ", nothing that runs on " + cap->sm() +
               ": CUDA ops fail with 'no kernel image is available for execution on the device'";
    v.fix = "build torch (and extensions) with TORCH_CUDA_ARCH_LIST including " + cap->str() +
            ": torchsmith plan --arch native";
  }
  return v;
}

}  // namespace

void check_gpus(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out) {
  for (const auto& g : f.gpus) {
    if (!g.compute_capability) {
      out.push_back({"gpu", gpu_label(g), Level::warn,
                     "PCI id " + g.vendor_id + ":" + g.device_id +
                         " is not in the knowledge base, so its compute capability is unknown",
                     "name it: torchsmith plan --arch X.Y (nvidia-smi --query-gpu=compute_cap "
                     "tells it), or add a [[gpu]] entry with pci_id = \"" +
                         g.device_id + "\" to ~/.config/torchsmith/kb/gpus.toml",
                     "", "", "gpu.identify"});
      continue;
    }
    for (const auto& tk : f.cuda_toolkits) out.push_back(gpu_vs_toolkit(kb, g, tk));
    for (const auto& py : f.pythons)
      if (py.torch.present && !py.torch.cuda.empty()) out.push_back(gpu_vs_torch(g, py));
  }
}

}  // namespace ts::compat

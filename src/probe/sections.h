#pragma once
// The probe's sections, one file each. Each reads through the Host, fills its part of the facts
// and appends problems to `notes`; none throws. probe.cpp runs them in parallel.
#include <string>
#include <string_view>
#include <vector>

#include "core/host_facts.h"
#include "probe/host.h"
#include "probe/probe.h"

namespace ts::probe {

using Notes = std::vector<std::string>;

OsFacts probe_os(const Host& h, Notes& notes);
std::string probe_hostname(const Host& h);
CpuFacts probe_cpu(const Host& h, Notes& notes);
MemoryFacts probe_memory(const Host& h, Notes& notes);
std::vector<DiskFacts> probe_disks(const Host& h, Notes& notes);
std::vector<GpuFacts> probe_pci_gpus(const Host& h, Notes& notes);
// Driver from NVML (when allowed and root is "/"), /proc/driver/nvidia/version, or nvidia-smi.
// Completes `gpus` (name, compute capability, memory) from NVML or nvidia-smi, and adds GPUs
// that have no PCI function visible (WSL2).
DriverFacts probe_driver(const Host& h, const ProbeOptions& o, std::vector<GpuFacts>& gpus,
                         Notes& notes);
JetsonFacts probe_jetson(const Host& h, Notes& notes);
std::vector<CudaToolkitFacts> probe_cuda(const Host& h, const ProbeOptions& o, Notes& notes);
// Headers in fixed places and in the toolkits; pythons add their site-packages (pip cuDNN).
std::vector<LibraryFacts> probe_libraries(const Host& h,
                                          const std::vector<CudaToolkitFacts>& toolkits,
                                          const std::vector<PythonFacts>& pythons, Notes& notes);
std::vector<CompilerFacts> probe_compilers(const Host& h, const ProbeOptions& o, Notes& notes);
std::vector<ToolFacts> probe_tools(const Host& h, const ProbeOptions& o, Notes& notes);
std::vector<PythonFacts> probe_pythons(const Host& h, const ProbeOptions& o, Notes& notes);

// The interpreter candidates (host paths, deduplicated by canonical target), without running them.
std::vector<std::string> find_pythons(const Host& h, const ProbeOptions& o);
// Parses what the Python probe script printed into f (used by probe_pythons and its tests).
bool parse_python_json(const std::string& out, PythonFacts& f, std::string* error);
// The script itself (Python 3.6 .. 3.14), printed JSON on one line.
const char* python_probe_script();
// Whether the script reports this distribution's version (its WANT list, names as it normalizes
// them: "pyyaml", "scikit_build_core"): only for those does a missing key in packages mean absent.
bool python_probe_lists(std::string_view normalized_name);

}  // namespace ts::probe

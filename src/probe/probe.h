#pragma once
// probe(): read a machine into HostFacts. Never throws; what could not be read is a note in
// facts.notes. Independent sections run in parallel, each command with its own timeout.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/host_facts.h"
#include "probe/host.h"

namespace ts::probe {

struct ProbeOptions {
  std::vector<std::string> pythons;  // --python PATH (host paths), probed besides those found
  std::chrono::milliseconds command_timeout{10000};  // each version command
  std::chrono::milliseconds python_timeout{15000};   // each interpreter (torch import included)
  bool use_nvml = true;        // dlopen libnvidia-ml.so.1 (real root only)
  bool list_gpu_code = true;   // nvcc --list-gpu-code per toolkit (one call each, in parallel)
  // Import torch in each Python (2-7 s each) instead of reading its files (version.py, CMake
  // config, libtorch_python.so's arch list); `doctor --import-torch`.
  bool import_torch = false;
};

// Checks a --root before probing: "" when usable, else a one-line error for the user.
std::string check_root(const std::string& root);

HostFacts probe(const Host& host, const ProbeOptions& opts = {});

// One toolkit directory read as probe() reads those it finds (version files, else nvcc --version;
// its arches and options from nvcc): --toolkit PATH. nullopt when dir holds no toolkit.
std::optional<CudaToolkitFacts> probe_toolkit(const Host& host, const std::string& dir, const ProbeOptions& opts = {});

}  // namespace ts::probe

#include "probe/nvml.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <future>
#include <memory>
#include <thread>

namespace ts::probe {
namespace {

// The few NVML types we use, as nvml.h declares them (we do not depend on its header).
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain, bus, device;
  unsigned int pciDeviceId;     // device id << 16 | vendor id
  unsigned int pciSubSystemId;
  char busId[32];
};
constexpr nvmlReturn_t NVML_SUCCESS = 0;

struct Result {
  bool ok = false;
  std::string why;
  DriverFacts driver;
  std::vector<GpuFacts> seen;  // one per NVML device, pci_address normalised
};

template <class F>
F sym(void* lib, const char* name) {
  return reinterpret_cast<F>(::dlsym(lib, name));
}

Result query() {
  Result r;
  void* lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    r.why = "libnvidia-ml.so.1 not found";
    return r;
  }
  auto init = sym<nvmlReturn_t (*)()>(lib, "nvmlInit_v2");
  auto shutdown = sym<nvmlReturn_t (*)()>(lib, "nvmlShutdown");
  auto driver_version = sym<nvmlReturn_t (*)(char*, unsigned)>(lib, "nvmlSystemGetDriverVersion");
  auto cuda_version = sym<nvmlReturn_t (*)(int*)>(lib, "nvmlSystemGetCudaDriverVersion_v2");
  auto count = sym<nvmlReturn_t (*)(unsigned*)>(lib, "nvmlDeviceGetCount_v2");
  auto by_index = sym<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>(lib, "nvmlDeviceGetHandleByIndex_v2");
  auto name = sym<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>(lib, "nvmlDeviceGetName");
  auto cc = sym<nvmlReturn_t (*)(nvmlDevice_t, int*, int*)>(lib, "nvmlDeviceGetCudaComputeCapability");
  auto mem = sym<nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t*)>(lib, "nvmlDeviceGetMemoryInfo");
  auto pci = sym<nvmlReturn_t (*)(nvmlDevice_t, nvmlPciInfo_t*)>(lib, "nvmlDeviceGetPciInfo_v3");
  if (!init || !shutdown || !driver_version || !count || !by_index) {
    r.why = "libnvidia-ml.so.1 lacks the functions we need (driver too old)";
    ::dlclose(lib);
    return r;
  }
  if (int rc = init(); rc != NVML_SUCCESS) {
    r.why = "nvmlInit failed (error " + std::to_string(rc) + "): driver not loaded or mismatched";
    ::dlclose(lib);
    return r;
  }
  char buf[96] = {};
  if (driver_version(buf, sizeof buf) == NVML_SUCCESS) r.driver.version = buf;
  int cv = 0;
  if (cuda_version && cuda_version(&cv) == NVML_SUCCESS && cv > 0)
    r.driver.cuda_version = FactVersion(std::to_string(cv / 1000) + "." + std::to_string(cv % 1000 / 10));
  r.driver.present = true;
  r.driver.source = "nvml";
  unsigned n = 0;
  if (count(&n) != NVML_SUCCESS) n = 0;
  for (unsigned i = 0; i < n; ++i) {
    nvmlDevice_t d{};
    if (by_index(i, &d) != NVML_SUCCESS) continue;
    GpuFacts g;
    g.vendor_id = "10de";
    g.identified_by = "nvml";
    char nb[96] = {};
    if (name && name(d, nb, sizeof nb) == NVML_SUCCESS) g.name = nb;
    int major = 0, minor = 0;
    if (cc && cc(d, &major, &minor) == NVML_SUCCESS)
      g.compute_capability = CudaArch::of(major, minor);
    nvmlMemory_t m{};
    if (mem && mem(d, &m) == NVML_SUCCESS) g.memory_bytes = m.total;
    nvmlPciInfo_t p{};
    if (pci && pci(d, &p) == NVML_SUCCESS) {
      g.pci_address = normalize_bus_id(p.busId);
      char id[8];
      std::snprintf(id, sizeof id, "%04x", p.pciDeviceId >> 16);
      g.device_id = id;
      std::snprintf(id, sizeof id, "%04x", p.pciSubSystemId >> 16);
      g.subsystem_id = id;
    }
    r.seen.push_back(g);
  }
  shutdown();
  // The library stays loaded: unloading a driver library mid-process has no benefit to us.
  r.ok = true;
  return r;
}

}  // namespace

std::string normalize_bus_id(const std::string& bus_id) {
  std::string s = bus_id;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  auto colon = s.find(':');
  if (colon == std::string::npos || s.find(':', colon + 1) == std::string::npos) return s;
  unsigned domain = 0;
  if (std::sscanf(s.substr(0, colon).c_str(), "%x", &domain) != 1) return s;
  char head[16];
  std::snprintf(head, sizeof head, "%04x", domain);
  return head + s.substr(colon);
}

bool probe_nvml(DriverFacts& driver, std::vector<GpuFacts>& gpus, std::chrono::milliseconds timeout,
                std::string* why) {
  // A detached thread: if the driver never answers we give up on it instead of hanging.
  auto promise = std::make_shared<std::promise<Result>>();
  auto fut = promise->get_future();
  std::thread([promise] { promise->set_value(query()); }).detach();
  if (fut.wait_for(timeout) != std::future_status::ready) {
    if (why) *why = "NVML did not answer within " + std::to_string(timeout.count() / 1000) + " s";
    return false;
  }
  Result r = fut.get();
  if (!r.ok) {
    if (why) *why = r.why;
    return false;
  }
  driver = r.driver;
  for (auto& s : r.seen) {
    auto it = std::find_if(gpus.begin(), gpus.end(),
                           [&](const GpuFacts& g) { return g.pci_address == s.pci_address; });
    if (it == gpus.end()) {
      gpus.push_back(s);
      continue;
    }
    it->name = s.name;
    it->compute_capability = s.compute_capability;
    it->memory_bytes = s.memory_bytes;
    it->identified_by = "nvml";
  }
  return true;
}

}  // namespace ts::probe

#pragma once
// NVML through dlopen("libnvidia-ml.so.1"): never linked, so torchsmith runs where no driver is.
#include <chrono>
#include <string>
#include <vector>

#include "core/host_facts.h"

namespace ts::probe {

// Fills driver (version, newest CUDA) and completes gpus by PCI bus id (adds GPUs NVML sees that
// sysfs did not). false with *why set when the library is missing, init fails, or it does not
// answer within timeout (a wedged driver must not hang the probe).
bool probe_nvml(DriverFacts& driver, std::vector<GpuFacts>& gpus, std::chrono::milliseconds timeout,
                std::string* why);

// "00000000:01:00.0" (NVML, nvidia-smi) -> "0000:01:00.0" (sysfs); lower case.
std::string normalize_bus_id(const std::string& bus_id);

}  // namespace ts::probe

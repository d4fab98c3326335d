#pragma once
// Compatibility verdicts: host facts checked against the knowledge base. Pure functions.
#include <string>
#include <vector>

#include "compat/verdict.h"
#include "core/host_facts.h"
#include "kb/kb.h"

namespace ts::compat {

// What the user means to build, when they said (doctor --for torch==1.12.1). Empty = nothing named.
struct Target {
  std::string torch;  // "1.12.1"
};

// Names GPUs that NVML did not: PCI id -> KB entry, Jetson SoC -> KB tegra entry.
void identify_gpus(HostFacts& facts, const kb::Kb& kb);

// Every verdict for the host, grouped by topic in a stable order.
std::vector<Verdict> assess(const HostFacts& facts, const kb::Kb& kb, const Target& target);

// One topic each (assess calls them in this order).
void check_driver(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out);
void check_gpus(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out);
void check_compilers(const HostFacts& f, const kb::Kb& kb, const Target& t,
                     std::vector<Verdict>& out);
void check_cmake(const HostFacts& f, const kb::Kb& kb, const Target& t, std::vector<Verdict>& out);
void check_pythons(const HostFacts& f, const kb::Kb& kb, const Target& t,
                   std::vector<Verdict>& out);
// With a target: whether any installed toolkit is one of the release's own CUDA versions.
void check_target_toolkits(const HostFacts& f, const kb::Kb& kb, const Target& t, std::vector<Verdict>& out);
void check_installed_torch(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out);
void check_resources(const HostFacts& f, const kb::Kb& kb, std::vector<Verdict>& out);

}  // namespace ts::compat

#include "plan/machine_toolkits.h"

#include "probe/host.h"
#include "probe/probe.h"
#include "probe/sections.h"

namespace ts::plan {

kb::ReadToolkit to_read_toolkit(const probe::ToolkitFacts& f) {
  return {f.minor(), f.arches(), f.gcc_max, f.clang_max, f.source()};
}

std::vector<kb::ReadToolkit> toolkits_read(const HostFacts& facts) {
  std::vector<kb::ReadToolkit> out;
  for (const auto& t : facts.cuda_toolkits) {
    // A toolkit without nvcc (a cu11/cu12 nvcc wheel) is read from its ptxas.
    std::string tool = t.nvcc.empty() ? probe::toolkit_reader(t.path) : t.nvcc;
    if (tool.empty()) continue;
    auto f = probe::read_toolkit_facts(tool);
    if (f.ok()) out.push_back(to_read_toolkit(f));
  }
  return out;
}

std::vector<kb::ReadToolkit> machine_toolkits_read() {
  std::string err;
  auto host = probe::Host::at("/", &err);
  if (!host) return {};
  probe::ProbeOptions po;
  po.list_gpu_code = false;  // read_toolkit_facts reads it, cached
  probe::Notes notes;
  HostFacts f;
  f.cuda_toolkits = probe::probe_cuda(*host, po, notes);
  return toolkits_read(f);
}

}  // namespace ts::plan

// The probe's orchestration: independent sections in parallel, then the one that needs others'
// results (libraries need the toolkits and the Pythons' site-packages).
#include "probe/probe.h"

#include <sys/stat.h>

#include <future>

#include "probe/sections.h"

namespace ts::probe {

std::string check_root(const std::string& root) {
  if (root.empty() || root == "/") return "";
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0) return "--root " + root + ": no such directory";
  if (!S_ISDIR(st.st_mode)) return "--root " + root + ": not a directory";
  return "";
}

HostFacts probe(const Host& host, const ProbeOptions& opts) {
  HostFacts f;
  f.root = host.root;
  if (auto err = check_root(host.root); !err.empty()) {
    f.notes.push_back(err);
    return f;
  }
  struct Basics {
    std::string hostname;
    OsFacts os;
    CpuFacts cpu;
    MemoryFacts memory;
    std::vector<DiskFacts> disks;
    JetsonFacts jetson;
    Notes notes;
  };
  struct Gpus {
    std::vector<GpuFacts> gpus;
    DriverFacts driver;
    Notes notes;
  };
  auto launch = [](auto fn) { return std::async(std::launch::async, fn); };
  // File reads only: one task is enough.
  auto basics = launch([&] {
    Basics b;
    b.hostname = probe_hostname(host);
    b.os = probe_os(host, b.notes);
    b.cpu = probe_cpu(host, b.notes);
    b.memory = probe_memory(host, b.notes);
    b.disks = probe_disks(host, b.notes);
    b.jetson = probe_jetson(host, b.notes);
    return b;
  });
  auto gpus = launch([&] {
    Gpus g;
    g.gpus = probe_pci_gpus(host, g.notes);
    g.driver = probe_driver(host, opts, g.gpus, g.notes);
    return g;
  });
  Notes cuda_notes, compiler_notes, tool_notes, python_notes, lib_notes;
  auto cuda = launch([&] { return probe_cuda(host, opts, cuda_notes); });
  auto compilers = launch([&] { return probe_compilers(host, opts, compiler_notes); });
  auto tools = launch([&] { return probe_tools(host, opts, tool_notes); });
  auto pythons = launch([&] { return probe_pythons(host, opts, python_notes); });

  auto b = basics.get();
  f.hostname = b.hostname;
  f.os = b.os;
  f.cpu = b.cpu;
  f.memory = b.memory;
  f.disks = b.disks;
  f.jetson = b.jetson;
  auto g = gpus.get();
  f.gpus = g.gpus;
  f.driver = g.driver;
  f.cuda_toolkits = cuda.get();
  f.compilers = compilers.get();
  f.tools = tools.get();
  f.pythons = pythons.get();
  f.libraries = probe_libraries(host, f.cuda_toolkits, f.pythons, lib_notes);
  for (const char* k : kSearchPathVars)
    if (auto it = host.env.find(k); it != host.env.end() && !it->second.empty()) f.search_paths[k] = it->second;
  for (auto* n : {&b.notes, &g.notes, &cuda_notes, &compiler_notes, &tool_notes, &python_notes, &lib_notes})
    f.notes.insert(f.notes.end(), n->begin(), n->end());
  return f;
}

}  // namespace ts::probe

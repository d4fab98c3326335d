#pragma once
// Fake facts for the extension planner's tests: one Python with a torch, one gcc, toolkits and GPUs
// as each test sets them.
#include <string>

#include "core/host_facts.h"
#include "kb/kb.h"
#include "plan/build_kb.h"
#include "plan/extension.h"
#include "source/fix.h"

namespace ts::plan::testing {

inline constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;

inline PythonFacts fake_python(const std::string& torch_version, const std::string& torch_cuda, bool abi = true) {
  PythonFacts py;
  py.path = "/opt/venv/bin/python3";
  py.version = "3.12.3";
  py.abi_tag = "cp312";
  py.platform_tag = "linux_x86_64";
  py.packages = {{"pip", "24.0"}, {"setuptools", "69.0"}, {"wheel", "0.43"}, {"torch", FactVersion(torch_version)}};
  py.torch.present = true;
  py.torch.version = FactVersion(torch_version);
  py.torch.cuda = FactVersion(torch_cuda);
  py.torch.cxx11_abi = abi;
  py.torch.path = "/opt/venv/lib/python3.12/site-packages/torch";
  return py;
}

inline CudaToolkitFacts fake_toolkit(const std::string& version) {
  CudaToolkitFacts t;
  t.path = "/usr/local/cuda-" + version;
  t.version = FactVersion(version);
  t.nvcc = t.path + "/bin/nvcc";
  return t;
}

inline HostFacts fake_host(PythonFacts py, std::vector<std::string> toolkits, std::vector<std::string> gpus) {
  HostFacts f;
  f.cpu.arch = "x86_64";
  f.cpu.logical_cores = 16;
  f.memory.usable_bytes = 24 * kGiB;
  f.compilers.push_back({"gcc", "/usr/bin/gcc", "/usr/bin/g++", "12.2.0", "x86_64-linux-gnu"});
  for (const auto& v : toolkits) f.cuda_toolkits.push_back(fake_toolkit(v));
  for (const auto& cap : gpus) {
    GpuFacts g;
    g.name = "GPU " + cap;
    g.compute_capability = CudaArch::parse(cap);
    g.vendor_id = "10de";
    f.gpus.push_back(g);
  }
  if (!gpus.empty()) f.driver.present = true;
  f.pythons.push_back(std::move(py));
  return f;
}

// build.toml as shipped (the legacy backend's setuptools, backends' requirements).
inline const BuildKb& test_build_kb() {
  static const BuildKb b = [] {
    std::vector<std::string> errors;
    return load_build_kb({}, errors);
  }();
  return b;
}

inline ExtensionRequest dir_request(SourceScan scan) {
  ExtensionRequest r;
  r.build_kb = &test_build_kb();
  r.source.kind = ExtensionSource::Kind::dir;
  r.source.dir = "/src/demo";
  r.source.name = "demo";
  scan.scanned = true;
  scan.setup_py = true;
  if (scan.name.empty()) scan.name = "demo-ext";
  r.scan = scan;
  return r;
}

// NAME==VERSION, as `torchsmith plan torch-scatter==2.1.2` asks.
inline ExtensionRequest by_name(const std::string& name, const std::string& version) {
  ExtensionRequest r;
  r.build_kb = &test_build_kb();
  r.source.kind = ExtensionSource::Kind::name;
  r.source.name = name;
  r.source.version = FactVersion(version);
  return r;
}

inline SourceScan cuda_only_scan() {
  SourceScan s;
  s.cuda_sources = true;
  s.cuda_extension = true;
  return s;
}

inline const kb::Kb& test_kb() {
  static const kb::Kb k = [] {
    std::vector<kb::KbError> errors;
    return kb::load_embedded(errors);
  }();
  return k;
}

inline const source::FixSet& test_fixes() {
  static const source::FixSet s = [] {
    std::vector<std::string> errors;
    return source::load_fixes({}, errors);
  }();
  return s;
}

// A plan's value for an environment variable, "<unset>" when the plan does not set it.
inline std::string env(const Plan& p, const std::string& k) {
  auto it = p.env.find(k);
  return it == p.env.end() ? "<unset>" : it->second;
}

// `--arch torch` against a torch built for the six arches of 2.11+cu130.
// The plan's decision on `topic`, or nullptr.
inline const Decision* decision(const Plan& p, const std::string& topic) {
  for (const auto& d : p.decisions)
    if (d.topic == topic) return &d;
  return nullptr;
}

inline void ask_torch_arches(ExtensionRequest& req, HostFacts& f) {
  req.arch = "torch";
  req.arch_origin = "--arch";
  f.pythons[0].torch.arch_list = GpuCodeList::read({"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"});
}

}  // namespace ts::plan::testing

#include "plan/provision_choice.h"

#include <algorithm>

#include "core/version.h"

namespace ts::plan {

std::string provision_from(const ProvisionContext& pc) {
  using K = ToolkitChoice::Kind;
  switch (pc.choice.kind) {
    case K::wheelhouse: return "wheelhouse:" + pc.choice.dir;
    case K::redist: return "redist";
    case K::conda: return "conda";
    default: return "pip";
  }
}

std::string provision_where(const ProvisionContext& pc) {
  return pc.choice.kind == ToolkitChoice::Kind::wheelhouse ? "the wheelhouse " + pc.choice.dir : "PyPI";
}

std::vector<WheelPin> provisioned_parts(const ProvisionContext& pc, const ToolRelease& rel) {
  std::vector<WheelPin> parts = rel.wheels;
  if (pc.torch_build) parts.insert(parts.end(), rel.torch_parts.begin(), rel.torch_parts.end());
  // cuDNN from its own manifest (the pin's file), merged into the same CUDA_HOME.
  if (pc.torch_build && pc.cudnn && rel.via == "redist") parts.insert(parts.end(), pc.cudnn->wheels.begin(), pc.cudnn->wheels.end());
  return parts;
}

std::string provision_mirror(const ProvisionContext& pc, const ToolRelease& rel) {
  if (!pc.mirror.empty() || rel.via == "pip") return pc.mirror;
  return pc.catalog ? pc.catalog->mirror(rel.via) : "";
}

std::string provision_from(const ProvisionContext& pc, const ToolRelease& rel) {
  std::string m = provision_mirror(pc, rel);
  if (rel.via == "redist") return m.empty() ? "redist" : "redist:" + m;
  if (rel.via == "conda") return "conda:" + (m.empty() ? rel.channel : m);
  return provision_from(pc);
}

std::string provision_where(const ProvisionContext& pc, const ToolRelease& rel) {
  std::string m = provision_mirror(pc, rel);
  if (rel.via == "redist")
    return "NVIDIA's redistributable archives (" + (m.empty() ? rel.manifest : "the mirror " + m) + ")";
  if (rel.via == "conda") return "the conda channel " + (m.empty() ? rel.channel : m);
  return provision_where(pc);
}

std::string provisioned_path(const ProvisionContext& pc, const ToolRelease& rel) {
  return provisioned_dir(pc.cache_root, rel.kind, rel.version.original(), provisioned_parts(pc, rel), pc.platform);
}

CudaToolkitFacts provisioned_toolkit(const ProvisionContext& pc, const ToolRelease& rel) {
  CudaToolkitFacts t;
  t.path = provisioned_path(pc, rel);
  t.version = FactVersion(rel.version);  // the catalog's, parsed when it loaded
  t.nvcc = t.path + "/bin/nvcc";
  t.version_source = "provision.toml";
  t.found_via = {"provisioned from " + provision_where(pc, rel)};
  return t;
}

Step provision_step(const ProvisionContext& pc, const ToolRelease& rel) {
  std::string pins;
  for (const auto& w : provisioned_parts(pc, rel)) pins += (pins.empty() ? "" : ", ") + w.name + (w.version.empty() ? "" : "==" + w.version);
  std::vector<std::string> argv{"torchsmith", "toolkit", "add", rel.kind + "==" + rel.version.original(), "--from", provision_from(pc, rel)};
  if (pc.torch_build && !rel.torch_parts.empty()) argv.insert(argv.end(), {"--for", "torch"});
  if (pc.torch_build && pc.cudnn && rel.via == "redist") argv.insert(argv.end(), {"--cudnn", pc.cudnn->version.original()});
  argv.insert(argv.end(), {"--cache-dir", pc.cache_root, "--lock", "{lock}"});
  return {"provision-" + rel.kind, argv, "",
          rel.kind + " " + rel.version.original() + " from " + provision_where(pc, rel) + " (" + pins +
              "), size and sha256 checked, unpacked into the cache; reused when it is there"};
}

ProvisionedTool provisioned_entry(const ProvisionContext& pc, const ToolRelease& rel) {
  bool house = rel.via == "pip" && pc.choice.kind == ToolkitChoice::Kind::wheelhouse;
  std::string provider = rel.via == "pip" ? (house ? "wheelhouse" : "pip") : rel.via;
  std::string m = provision_mirror(pc, rel);
  std::string from = house ? pc.choice.dir : rel.via == "pip" ? "" : !m.empty() ? m
                     : rel.via == "conda" ? rel.channel : rel.manifest.substr(0, rel.manifest.rfind('/'));
  ProvisionedTool t{rel.kind, rel.version.original(), provider, from, provisioned_path(pc, rel), {}};
  // A redist component's version and every archive's URL and sha256 are filled by the run that fetched them.
  for (const auto& w : provisioned_parts(pc, rel)) t.wheels.push_back({w.name, w.version, "", ""});
  return t;
}

void add_provision(const ProvisionContext& pc, const ToolRelease& rel, std::vector<Step>& steps,
                   std::vector<ProvisionedTool>& locked) {
  ProvisionedTool t = provisioned_entry(pc, rel);
  for (const auto& x : locked)
    if (x.dir == t.dir) return;
  steps.push_back(provision_step(pc, rel));
  locked.push_back(std::move(t));
}

void insert_provision_steps(std::vector<Step>& steps, const std::vector<Step>& provision) {
  auto at = std::find_if(steps.begin(), steps.end(), [](const Step& s) {
    return s.name != "fetch" && s.name != "fix" && s.name != "clean";
  });
  steps.insert(at, provision.begin(), provision.end());
}

std::vector<std::string> provider_order(const ProvisionContext& pc) {
  using K = ToolkitChoice::Kind;
  switch (pc.choice.kind) {
    case K::pip: case K::wheelhouse: return {"pip"};
    case K::redist: return {"redist"};
    case K::conda: return {"conda"};
    case K::automatic: return {"pip", "redist", "conda"};
    default: return {};
  }
}

const ToolRelease* provisionable_cuda(const ProvisionContext& pc, const std::vector<Version>& series) {
  if (!pc.catalog) return nullptr;
  std::vector<Version> s = series;
  std::sort(s.begin(), s.end(), [](const Version& a, const Version& b) { return a > b; });
  // Newest series first; within one, PyPI where its wheels are whole, else NVIDIA's archives, else conda.
  for (const auto& mm : s)
    for (const auto& via : provider_order(pc))
      if (const auto* t = pc.catalog->find("cuda", mm, via); t && t->complete) return t;
  return nullptr;
}

std::string no_whole_compiler(const ToolRelease& rel) {
  return "PyPI's wheels of CUDA " + rel.version.original() + " carry no whole compiler (nvidia-cuda-nvcc-cu11/cu12 hold ptxas "
         "and libnvvm only: no nvcc, cicc, cudafe++), so it cannot be provisioned";
}

std::string runfile_advice(const std::string& mm) {
  return "install CUDA " + mm + " without root: NVIDIA's runfile with --silent --toolkit --toolkitpath=$HOME/cuda-" + mm +
         ", then plan with --toolkit $HOME/cuda-" + mm;
}

}  // namespace ts::plan

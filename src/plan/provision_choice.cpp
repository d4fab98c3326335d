#include "plan/provision_choice.h"

#include <algorithm>

#include "core/version.h"

namespace ts::plan {

std::string provision_from(const ProvisionContext& pc) {
  return pc.choice.kind == ToolkitChoice::Kind::wheelhouse ? "wheelhouse:" + pc.choice.dir : "pip";
}

std::string provision_where(const ProvisionContext& pc) {
  return pc.choice.kind == ToolkitChoice::Kind::wheelhouse ? "the wheelhouse " + pc.choice.dir : "PyPI";
}

std::string provisioned_path(const ProvisionContext& pc, const ToolRelease& rel) {
  return provisioned_dir(pc.cache_root, rel.kind, rel.version, rel.wheels, pc.platform);
}

CudaToolkitFacts provisioned_toolkit(const ProvisionContext& pc, const ToolRelease& rel) {
  CudaToolkitFacts t;
  t.path = provisioned_path(pc, rel);
  t.version = rel.version;
  t.nvcc = t.path + "/bin/nvcc";
  t.version_source = "provision.toml";
  t.found_via = {"provisioned from " + provision_where(pc)};
  return t;
}

Step provision_step(const ProvisionContext& pc, const ToolRelease& rel) {
  std::string pins;
  for (const auto& w : rel.wheels) pins += (pins.empty() ? "" : ", ") + w.name + "==" + w.version;
  return {"provision-" + rel.kind,
          {"torchsmith", "toolkit", "add", rel.kind + "==" + rel.version, "--from", provision_from(pc), "--cache-dir",
           pc.cache_root, "--lock", "{lock}"},
          "",
          rel.kind + " " + rel.version + " from " + provision_where(pc) + " (" + pins +
              "), hashed and unpacked into the cache; reused when it is there"};
}

ProvisionedTool provisioned_entry(const ProvisionContext& pc, const ToolRelease& rel) {
  ProvisionedTool t{rel.kind, rel.version,
                    pc.choice.kind == ToolkitChoice::Kind::wheelhouse ? "wheelhouse" : "pip",
                    pc.choice.kind == ToolkitChoice::Kind::wheelhouse ? pc.choice.dir : "", provisioned_path(pc, rel), {}};
  for (const auto& w : rel.wheels) t.wheels.push_back({w.name, w.version, "", ""});
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

const ToolRelease* provisionable_cuda(const ProvisionContext& pc, const std::vector<std::string>& series) {
  if (!pc.catalog) return nullptr;
  std::vector<std::string> s = series;
  std::sort(s.begin(), s.end(), [](const std::string& a, const std::string& b) {
    auto va = Version::parse(a), vb = Version::parse(b);
    return va && vb && *va > *vb;
  });
  for (const auto& mm : s)
    if (const auto* t = pc.catalog->find("cuda", mm); t && t->complete) return t;
  return nullptr;
}

std::string no_whole_compiler(const ToolRelease& rel) {
  return "PyPI's wheels of CUDA " + rel.version + " carry no whole compiler (nvidia-cuda-nvcc-cu11/cu12 hold ptxas "
         "and libnvvm only: no nvcc, cicc, cudafe++), so it cannot be provisioned";
}

std::string runfile_advice(const std::string& mm) {
  return "install CUDA " + mm + " without root: NVIDIA's runfile with --silent --toolkit --toolkitpath=$HOME/cuda-" + mm +
         ", then plan with --toolkit $HOME/cuda-" + mm;
}

}  // namespace ts::plan

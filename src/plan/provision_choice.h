#pragma once
// The planner's side of provisioning, shared by the torch and the extension planners: a catalog
// entry turned into the toolkit facts the rest of the plan reads (CUDA_HOME in the cache), and the
// run step that makes it exist ("torchsmith toolkit add", before anything compiles).
#include <string>
#include <vector>

#include "core/host_facts.h"
#include "plan/plan.h"
#include "plan/provision_request.h"

namespace ts::plan {

// "pip" or "wheelhouse:DIR": the provider the step uses (pip unless --toolkit wheelhouse:DIR).
std::string provision_from(const ProvisionContext& pc);
// "PyPI" / "the wheelhouse DIR", for reasons.
std::string provision_where(const ProvisionContext& pc);

// The same for catalog entry `rel`, whatever provides it: "redist[:MIRROR]", "conda:CHANNEL", or as above.
std::string provision_from(const ProvisionContext& pc, const ToolRelease& rel);
std::string provision_where(const ProvisionContext& pc, const ToolRelease& rel);
// Where `rel`'s files come from: --toolkit-mirror (or its environment variable), else the catalog's
// [mirror] for its provider (the user's config), else "" (upstream).
std::string provision_mirror(const ProvisionContext& pc, const ToolRelease& rel);
// `rel`'s parts as provisioned for this plan (a torch build adds the entry's torch_parts).
std::vector<WheelPin> provisioned_parts(const ProvisionContext& pc, const ToolRelease& rel);
// The providers the planner may take a CUDA from, in its order: pip (where whole), redist, conda.
std::vector<std::string> provider_order(const ProvisionContext& pc);

// The toolkit a provisioned CUDA will be: path = its cache directory, nvcc inside it.
CudaToolkitFacts provisioned_toolkit(const ProvisionContext& pc, const ToolRelease& rel);
std::string provisioned_path(const ProvisionContext& pc, const ToolRelease& rel);

// The run step that provisions `rel` (named "provision-<kind>"); it checks the files against the
// hashes the run's lock holds ({lock}), once a run has recorded them.
Step provision_step(const ProvisionContext& pc, const ToolRelease& rel);
// The lock's entry for `rel`: its wheels by name==version, hashes left for the run to fill.
ProvisionedTool provisioned_entry(const ProvisionContext& pc, const ToolRelease& rel);
// Both: the step into `steps`, the entry into `locked` (a tool asked for twice is provisioned once).
void add_provision(const ProvisionContext& pc, const ToolRelease& rel, std::vector<Step>& steps,
                   std::vector<ProvisionedTool>& locked);

// Puts the provision steps before the first step that compiles (after fetch, fix, clean).
void insert_provision_steps(std::vector<Step>& steps, const std::vector<Step>& provision);

// Why a catalog CUDA whose wheels carry no whole compiler cannot be provisioned (said the same by
// every kind of plan that refuses it).
std::string no_whole_compiler(const ToolRelease& rel);
// The way out without root when no toolkit can be provisioned: NVIDIA's runfile into $HOME.
std::string runfile_advice(const std::string& mm);

// The newest complete catalog CUDA whose major.minor is one of `series` (newest series first), from
// the first provider of provider_order that has one.
const ToolRelease* provisionable_cuda(const ProvisionContext& pc, const std::vector<Version>& series);

}  // namespace ts::plan

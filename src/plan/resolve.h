#pragma once
// resolve(): spec + host facts + knowledge -> a Plan, or the Conflicts that stop it. A pure
// function: it reads nothing and runs nothing, so the same inputs always give the same plan
// (the lock file depends on that), and a plan for another machine is just other facts.
#include <functional>
#include <string>
#include <vector>

#include "core/cuda_arch.h"
#include "core/host_facts.h"
#include "kb/kb.h"
#include "plan/scale_step.h"
#include "plan/build_kb.h"
#include "plan/plan.h"
#include "plan/provision_request.h"
#include "spec/build_spec.h"

namespace ts::plan {

// What a fix's conditions are tested against (mirrors source::FixContext).
struct FixQuery {
  FactVersion version, cuda, cmake, gcc;
  std::vector<CudaArch> arches;
};

// A fix the KB selected, with what it sets (the plan folds these into its env and options).
struct SelectedFix {
  PlannedFix ref;
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> cmake_options;  // "-DX=Y"
  std::vector<CudaArch> arches_any;        // the arches it makes buildable (its condition), if any
};

using FixChooser = std::function<std::vector<SelectedFix>(const FixQuery&)>;

struct Inputs {
  const spec::BuildSpec& spec;
  const HostFacts& facts;  // GPUs already named (compat::identify_gpus)
  const kb::Kb& kb;
  const BuildKb& build;
  FixChooser fixes;  // may be empty: no fix KB
  // What may be provisioned and where (--toolkit, the cache): null = installed tools only.
  const ProvisionContext* provision = nullptr;
  const ScaleProbe* scale = nullptr;  // --cache / --distribute (scale_step.h): null = none
};

PlanResult resolve(const Inputs& in);

}  // namespace ts::plan

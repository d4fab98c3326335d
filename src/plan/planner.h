#pragma once
// One call from a spec and facts to a plan, for the command, the tests and the benchmark:
// the knowledge (core KB, build.toml, fixes) is loaded once and reused.
#include <optional>
#include <string>
#include <vector>

#include "core/host_facts.h"
#include "kb/kb.h"
#include "plan/build_kb.h"
#include "plan/plan.h"
#include "plan/provision_request.h"
#include "plan/scale_step.h"
#include "source/fix.h"
#include "spec/build_spec.h"

namespace ts::plan {

struct Knowledge {
  kb::Kb kb;
  BuildKb build;
  source::FixSet fixes;
  std::vector<std::string> errors;  // "file:line: ..." from any of the three
};

// The embedded knowledge plus each overlay directory (later ones win).
Knowledge load_knowledge(const std::vector<std::string>& overlay_dirs);

// A `doctor --json` report (its "facts" key) or bare HostFacts JSON; nullopt and *error when not.
std::optional<HostFacts> read_facts_file(const std::string& path, std::string& error);

// Names the GPUs from the KB (compat::identify_gpus), then resolve().
// `provision` (may be null): what the plan may provision (--toolkit, the cache).
// `scale` (may be empty): the command's --cache/--distribute probe, run as the planner's scale step.
PlanResult make_plan(const spec::BuildSpec& spec, HostFacts facts, const Knowledge& k,
                     const ProvisionContext* provision = nullptr, const ScaleProbe& scale = {});

}  // namespace ts::plan

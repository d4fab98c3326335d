#pragma once
// Target-only arches for a package that passes its own -gencode list (recipe arch_env = ""): the
// plan's arches reach its compile only through a package fix that writes {{arch_list}} into its
// build files; otherwise the plan says so, with the way out (issue 9 item 1).
#include <optional>
#include <string>
#include <vector>

#include "core/arch_list.h"
#include "plan/recipe.h"
#include "source/fix.h"

namespace ts::plan {

// True when one of the fix's edits is a template naming {{arch_list}}: it writes the plan's arches
// into the package's files, so the package compiles those and no others.
bool fix_sets_arches(const source::Fix& fix);

// The decision the plan records about how its arches reach the package's compile.
struct ArchSteering {
  std::string value, reason, source;
  bool warning =
      false;  // the package compiles its own list: the plan's arches are not what is built
};

// nullopt when there is nothing to say (no arches, or the package reads an arch knob and no chosen
// fix rewrites its list). chosen: the package fixes selected for this build; all: every fix known
// (for the versions a fix would cover); version: the package version being built, empty when unknown.
std::optional<ArchSteering> arch_steering(const Recipe& recipe, const std::string& recipe_source,
                                          const FactVersion& version, const ArchList& arches,
                                          const std::vector<const source::Fix*>& chosen,
                                          const source::FixSet* all);

}  // namespace ts::plan

#pragma once
// Fixes for an extension package's own source tree (data/kb/fixes with package = the recipe's
// name): selected for the package version being built, applied to the fetched tree before the build.
#include <string>
#include <vector>

#include "source/fix.h"

namespace ts::plan {

// The package's fixes whose conditions hold (ctx.package and ctx.version set by the caller; an
// unknown version selects none: a fix is never applied on a guess). A fix that writes {{arch_list}}
// is left out when ctx.arches is empty.
std::vector<const source::Fix*> select_package_fixes(const source::FixSet& set, const source::FixContext& ctx);

// True when the fix switches the package's BuildExtension to ninja (its edit writes use_ninja=True),
// so a serial_build package compiles in parallel and MAX_JOBS counts again.
bool fix_enables_ninja(const source::Fix& fix);

}  // namespace ts::plan

#pragma once
// The fixes a lock file pins (`fix --plan LOCK`): lock.fix_hashes maps id -> hash, the plan's
// "fixes" array gives their order. Linear in the number of ids (a lock may name thousands).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "source/fix.h"

namespace ts::source {

// The pinned fixes, in the plan's order (then any id only in fix_hashes, in its order); false
// and *error when the lock is not a lock, names a fix `set` lacks, or a fix changed since the
// plan was made (its hash differs), so the tree gets exactly what was planned.
bool planned_fixes(const nlohmann::json& lock, const FixSet& set, std::vector<const Fix*>& out,
                   std::string& error);

}  // namespace ts::source

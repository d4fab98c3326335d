#pragma once
// The provisioned wheels' sha256 recorded into the run's lock once its provision step has checked
// them, so a build from that lock (OUT/plan.lock.json) checks the same files again.
#include <nlohmann/json.hpp>

namespace ts::run {

// Fills each lock["provisioned"] wheel's empty sha256 and file from the manifest in its directory
// (provision.h); returns how many were filled. A tool not provisioned yet is left as it is.
int record_provisioned_hashes(nlohmann::json& lock);

}  // namespace ts::run

#pragma once
// Reading a lock file back: the plan as `torchsmith plan -o` writes it, or `plan --json` output.
#include <optional>
#include <string>

#include "plan/plan.h"

namespace ts::plan {

// nullopt and *error ("not a torchsmith lock file: ...; write one with torchsmith plan SPEC -o FILE").
std::optional<Plan> parse_lock(const std::string& text, std::string* error);
std::optional<Plan> read_lock(const std::string& path, std::string* error);

// sha256 over what decides the build's outputs: the lock without the decisions' wording and
// without the job count (memory moves between runs; ninja absorbs a different -j).
std::string build_identity_hash(const Plan& p);

}  // namespace ts::plan

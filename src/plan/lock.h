#pragma once
// Reading a lock file back: the plan as `torchsmith plan -o` writes it, or `plan --json` output.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "plan/plan.h"

namespace ts::plan {

// A lock written by torchsmith carries "digest": sha256 over the rest of it (keys sorted, as
// nlohmann writes them). It names a lock changed after it was written; it proves nothing about who
// wrote it (anyone can compute one), so `build --lock` checks the steps themselves too (lock_check.h).
enum class LockSeal { sealed, unsealed, edited };
std::string lock_digest(nlohmann::json lock);  // "sha256:<hex>" over lock without its "digest"
void seal_lock(nlohmann::json& lock);           // sets lock["digest"]
LockSeal lock_seal(const nlohmann::json& lock);

// nullopt and *error ("not a torchsmith lock file: ...; write one with torchsmith plan SPEC -o FILE").
// *seal: whether the text carried a digest and whether it matches.
std::optional<Plan> parse_lock(const std::string& text, std::string* error, LockSeal* seal = nullptr);
std::optional<Plan> read_lock(const std::string& path, std::string* error, LockSeal* seal = nullptr);

// sha256 over what decides the build's outputs: the lock without the decisions' wording and
// without the job count (memory moves between runs; ninja absorbs a different -j).
std::string build_identity_hash(const Plan& p);

}  // namespace ts::plan

#pragma once
// The PEP 440 local version that says what a wheel holds ("+cu128.sm120"): given, derived from
// the plan (CUDA and arch list), or left alone; and the METADATA Version line that carries it.
#include <optional>
#include <string>
#include <string_view>

#include "plan/plan.h"

namespace ts::package {

// "cu128.sm80.sm120" from CUDA "12.8.93" and arch list "8.0;12.0" ("+PTX" adds ".ptx", a CPU
// build is "cpu"); "" when the plan has neither.
std::string local_from_plan(const plan::Plan& p);
// An extension built against torch: "pt113cpu", "pt26cu124.sm80.sm90" (torch's major.minor and its
// CUDA, then the arches compiled); local_from_plan's text when the plan names no torch version.
std::string extension_local_from_plan(const plan::Plan& p);

// The version with its local part set: mode "none" keeps it, "auto" derives it (torch: the plan's
// build_version when it has one), anything else is the local text itself. nullopt and *error on
// a text that is not a PEP 440 local version, or auto without a plan.
std::optional<std::string> apply_local_version(const std::string& version, const std::string& dist,
                                               const std::string& mode, const plan::Plan* plan,
                                               std::string* error);

// METADATA with its "Version:" header replaced; nullopt when it has none.
std::optional<std::string> rewrite_metadata_version(std::string_view metadata,
                                                    const std::string& version);

}  // namespace ts::package

#pragma once
// Presenting a Diagnosis: text for people (root cause first, evidence with line numbers and
// context), JSON for machines.
#include <string>

#include <nlohmann/json.hpp>

#include "triage/diagnosis.h"

namespace ts::triage {

// `more`: what shows the findings after the root cause (diagnose: "rerun with --all"; a build
// names the `torchsmith diagnose LOG --all` line, an option build itself does not have).
std::string render_text(const Diagnosis& d, bool all, bool color, const std::string& more = "rerun with --all");
nlohmann::json to_json(const Diagnosis& d, bool all);

}  // namespace ts::triage

#pragma once
// Presenting a Diagnosis: text for people (root cause first, evidence with line numbers and
// context), JSON for machines.
#include <string>

#include <nlohmann/json.hpp>

#include "triage/diagnosis.h"

namespace ts::triage {

std::string render_text(const Diagnosis& d, bool all, bool color);
nlohmann::json to_json(const Diagnosis& d, bool all);

}  // namespace ts::triage

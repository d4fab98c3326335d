#pragma once
// `torchsmith doctor` output: a grouped report for people, complete JSON for scripts.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compat/verdict.h"
#include "core/host_facts.h"
#include "report/style.h"

namespace ts::report {

std::string doctor_text(const HostFacts& facts, const std::vector<compat::Verdict>& verdicts,
                        const Style& style);
nlohmann::json doctor_json(const HostFacts& facts, const std::vector<compat::Verdict>& verdicts);

}  // namespace ts::report

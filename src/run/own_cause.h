#pragma once
// A run that ends on torchsmith's own refusal names it in its summary's `cause:` line: a repair or
// verify step that failed a check, or a step left with no wheel to work on. Their logs hold
// torchsmith's own words, which no signature matches, so triage finds no root cause there; the
// run's diagnosis then takes the cause the step's own verdicts state.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::run {

// The failures a torchsmith command's log states: each FAIL line of its verdict table as
// "check: detail" ("extension: x.whl holds no compiled extension, ..."), without the closing
// "output: not written: a check failed" that only follows the others, and its
// "torchsmith CMD: error" line (a refusal before any check). Another program's log states none.
std::vector<std::string> own_failures(const std::string& log);

// The diagnosis JSON the summary, report.html and run.json read ({"root_cause": {id, cause, fix}}):
// id "<STEP>_REFUSED" ("PACKAGE_REFUSED"), the step and what it refused on, and where to look.
nlohmann::json own_cause(const std::string& step, const std::string& what, const std::string& log_path);

}  // namespace ts::run

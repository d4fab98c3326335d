#pragma once
// The few lines printed at the end of `torchsmith build`: outcome and time, the slowest step,
// retries, cache hits, the root cause when it failed, and where run.json and report.html are.
#include <cstdint>
#include <string>
#include <vector>

#include "report/run_record.h"
#include "report/style.h"

namespace ts::report {

// `written`: the run files the last write left on disk (RunFiles::written); the summary points
// only to those, so a full disk never sends the user to a run.json that is not there.
std::string render_run_text(const RunRecord& r, const Style& style = {},
                            const std::vector<std::string>& written = {});

// "812 bytes", "12.3 KiB", "45 MiB", "1.2 GiB".
std::string size_text(std::uint64_t bytes);

// verify's verdicts (RunRecord::checks), one line each as `torchsmith verify` prints them:
// "ok    import torch     torch 2.11.0 from ...", "FAIL  dependency yapf   not installable: ...".
std::vector<std::string> check_lines(const nlohmann::json& checks);

}  // namespace ts::report

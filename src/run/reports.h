#pragma once
// The lines printed at the end of `torchsmith build` (run.json, report.html and trace.json are
// written by the pipeline after every step: report/run_files.h).
#include <string>

#include "run/pipeline.h"

namespace ts::run {

std::string summary_text(const BuildOutcome& r, bool color);

}  // namespace ts::run

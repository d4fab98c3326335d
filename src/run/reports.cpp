#include "run/reports.h"

#include "report/run_text.h"

namespace ts::run {

std::string summary_text(const BuildOutcome& r, bool color) {
  report::Style style;
  style.color = color;
  return report::render_run_text(r.record, style);
}

}  // namespace ts::run

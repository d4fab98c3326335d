#include "run/reports.h"

#include "report/run_text.h"

namespace ts::run {

std::string summary_text(const BuildOutcome& r, bool color) {
  report::Style style;
  style.color = color;
  std::string text = report::render_run_text(r.record, style, r.run_files);
  // The proof goes on the terminal too, not only into run.json: verify's table, one line a check.
  if (!r.record.verdicts.empty()) {
    text += "verify:\n";
    for (const auto& v : r.record.verdicts) text += "  " + v + "\n";
  }
  return text;
}

}  // namespace ts::run

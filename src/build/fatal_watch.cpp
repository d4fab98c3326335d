#include "build/fatal_watch.h"

#include <algorithm>

#include "triage/line.h"

namespace ts::build {

std::string FatalWatch::check(std::string_view raw) {
  raw = raw.substr(0, triage::kLineCap);
  std::string_view line = triage::sanitize_line(raw, clean_);
  if (!engine_.prefilter().may_match(line)) return "";
  hits_.clear();
  if (!engine_.regex_set().Match(line, &hits_)) return "";
  std::sort(hits_.begin(), hits_.end());  // the KB's order decides between two signatures
  for (int i : hits_) {
    const auto& r = engine_.ref(i);
    if (r.kind != triage::PatternRef::signature) continue;
    const auto& sig = engine_.set().signatures[static_cast<std::size_t>(r.owner)];
    if (sig.severity == triage::Severity::error && sig.stops_build) return sig.id;
  }
  return "";
}

}  // namespace ts::build

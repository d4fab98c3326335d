#include "verify/verdict.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace ts::verify {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::pass: return "pass";
    case Outcome::note: return "note";
    case Outcome::warn: return "warn";
    case Outcome::fail: return "fail";
  }
  return "?";
}

void to_json(nlohmann::json& j, const Verdict& v) {
  j = {{"file", v.file}, {"check", v.check}, {"outcome", outcome_name(v.outcome)}, {"detail", v.detail}};
}

bool any_failed(const std::vector<Verdict>& vs) {
  return std::any_of(vs.begin(), vs.end(), [](const Verdict& v) { return v.outcome == Outcome::fail; });
}

}  // namespace ts::verify

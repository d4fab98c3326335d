#include "core/verdict_word.h"

namespace ts {

std::string_view verdict_word(VerdictWord w) {
  switch (w) {
    case VerdictWord::ok: return "ok";
    case VerdictWord::note: return "note";
    case VerdictWord::warn: return "warn";
    case VerdictWord::fail: return "FAIL";
    case VerdictWord::skip: return "skip";
  }
  return "?";
}

std::string_view verdict_word(std::string_view outcome) {
  if (outcome == "pass" || outcome == "ok") return verdict_word(VerdictWord::ok);
  if (outcome == "fail") return verdict_word(VerdictWord::fail);
  if (outcome == "info") return verdict_word(VerdictWord::note);
  return outcome;
}

}  // namespace ts

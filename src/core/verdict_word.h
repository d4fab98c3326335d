#pragma once
// The one set of words every command prints for a verdict (doctor, verify, repair, the build
// summary and report.html): ok, note, warn, FAIL, skip. Lower case for what a reader scans past,
// FAIL alone in capitals so it stands out and `grep FAIL` finds every failure of every command.
// JSON keeps each command's own field values (verify "pass"/"fail", doctor "ok"/"info"/...).
#include <string_view>

namespace ts {

enum class VerdictWord { ok, note, warn, fail, skip };

// "ok", "note", "warn", "FAIL", "skip".
std::string_view verdict_word(VerdictWord w);

// From verify's JSON outcome ("pass", "note", "warn", "fail", "skip"); the text itself otherwise.
std::string_view verdict_word(std::string_view outcome);

}  // namespace ts

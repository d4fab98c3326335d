#pragma once
// One line of a verify report: which file, which check, how it came out, and the detail.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ts::verify {

// note: worth knowing, not a problem (extra arches); warn: works, but not as asked (PTX only).
enum class Outcome { pass, note, warn, fail };
const char* outcome_name(Outcome o);  // "pass", "note", "warn", "fail"

struct Verdict {
  std::string file;    // the ELF the check is about ("" for checks over the whole artifact)
  std::string check;   // "elf", "needed", "cuda arches", "symbol versions"
  Outcome outcome = Outcome::pass;
  std::string detail;  // "missing sm_80", "libfoo.so.1 not found (needed by libbar.so)"
};

void to_json(nlohmann::json& j, const Verdict& v);
bool any_failed(const std::vector<Verdict>& vs);

}  // namespace ts::verify

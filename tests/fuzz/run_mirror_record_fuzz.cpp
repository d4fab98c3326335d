// libFuzzer target: arbitrary bytes as a source copy's record (OUT/src/.torchsmith/mirror.tsv, what
// `build` reads back before deleting what the source lost). Checks: no crash and no sanitizer
// report; every name an accepted record gives back is one path below the copy (the same check as
// user input); an accepted record written again reads back the same.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "run/mirror.h"
#include "util/safe_path.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string err;
  auto m = ts::run::parse_mirror_record(text, &err);
  if (!m) {
    if (err.empty()) std::abort();  // a refused record says why
    // The same bytes as one name: what the record writes for it reads back whole or is refused.
    std::map<std::string, ts::run::MirrorStamp> one{{text, {1, -1}}};
    auto back = ts::run::parse_mirror_record(ts::run::render_mirror_record(one), nullptr);
    if (back && *back != one) std::abort();
    if (!back && ts::util::join_inside("/copy", text)) std::abort();  // a good name must round-trip
    return 0;
  }
  for (const auto& [rel, st] : *m) {
    auto p = ts::util::join_inside("/copy", rel);
    if (!p || p->rfind("/copy/", 0) != 0 || p->find("/../") != std::string::npos) std::abort();
  }
  auto again = ts::run::parse_mirror_record(ts::run::render_mirror_record(*m), nullptr);
  if (!again || *again != *m) std::abort();
  return 0;
}

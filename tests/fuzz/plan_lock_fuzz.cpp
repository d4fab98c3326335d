// libFuzzer target: arbitrary bytes as a plan.lock.json (what `build --plan`, `fix --plan` and
// `verify --plan` read). Checks: no crash and no sanitizer report; a refused lock says why and
// how to write one; an accepted lock, written as `plan -o` writes it (lock_json) and read back,
// writes the same again; the step and environment check (lock_check.h) names its findings without
// a control character; a sealed lock reads back sealed, and any change to it reads back edited.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "plan/lock.h"
#include "plan/lock_check.h"
#include "plan/render.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string err;
  auto p = ts::plan::parse_lock(text, &err);
  if (!p) {
    if (err.find("torchsmith plan") == std::string::npos) std::abort();  // the way out is named
    return 0;
  }
  nlohmann::json once = ts::plan::lock_json(*p);
  std::string again_err;
  auto q = ts::plan::parse_lock(once.dump(), &again_err);
  if (!q) std::abort();  // what we accepted, written back, must read again
  if (ts::plan::lock_json(*q) != once) std::abort();
  for (const auto& problem : ts::plan::lock_problems(*p))
    for (char c : problem)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();  // printed as it is: escaped
  nlohmann::json sealed = once;
  ts::plan::seal_lock(sealed);
  ts::plan::LockSeal seal{};
  if (!ts::plan::parse_lock(sealed.dump(1), nullptr, &seal) || seal != ts::plan::LockSeal::sealed) std::abort();
  sealed["jobs"] = p->jobs == 1 ? 2 : 1;
  if (!ts::plan::parse_lock(sealed.dump(), nullptr, &seal) || seal != ts::plan::LockSeal::edited) std::abort();
  return 0;
}

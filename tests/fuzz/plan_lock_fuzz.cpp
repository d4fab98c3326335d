// libFuzzer target: arbitrary bytes as a plan.lock.json (what `build --plan`, `fix --plan` and
// `verify --plan` read). Checks: no crash and no sanitizer report; a refused lock says why and
// how to write one; an accepted lock, written as `plan -o` writes it (lock_json) and read back,
// writes the same again.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "plan/lock.h"
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
  return 0;
}

// libFuzzer target: arbitrary text as a signatures.toml. Loading must report errors as
// "file:line: message" and never crash; what loads must compile into an Engine.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "kb/embedded.h"
#include "triage/engine.h"
#include "triage/signature.h"

namespace ts::kb {
std::span<const EmbeddedFile> embedded_files() { return {}; }
}  // namespace ts::kb

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ts::triage::SignatureSet set;
  auto errors = ts::triage::load_signatures_text("fuzz.toml", text, set);
  for (const auto& e : errors)
    if (e.rfind("fuzz.toml:", 0) != 0) std::abort();  // every error names the file and line
  ts::triage::check_signatures_text("fuzz.toml", text);
  if (set.signatures.size() + set.log_facts.size() > 0 && set.signatures.size() < 50) {
    try {
      ts::triage::Engine engine(std::move(set));
      (void)engine;
    } catch (const std::exception&) {
      // Only out-of-memory for huge sets may throw; patterns were validated.
    }
  }
  return 0;
}

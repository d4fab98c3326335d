// libFuzzer target: arbitrary text as a KB file (data/kb/*.toml or an overlay). The first byte
// picks which file it poses as, so every reader sees it. Checks: no crash and no sanitizer report;
// every error is "file:..." so the user can find it.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "kb/embedded.h"
#include "kb/kb.h"

namespace ts::kb {
std::span<const EmbeddedFile> embedded_files() { return {}; }
}  // namespace ts::kb

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* const kFiles[] = {"cuda.toml", "gpus.toml", "families.toml", "torch.toml",
                                       "tegra.toml", "resources.toml", "other.toml"};
  if (size == 0) return 0;
  std::string file = kFiles[data[0] % (sizeof kFiles / sizeof kFiles[0])];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  ts::kb::Kb kb;
  std::vector<ts::kb::KbError> errors;
  ts::kb::load_text(kb, file, text, errors);
  for (const auto& e : errors)
    if (e.str().rfind(file, 0) != 0) std::abort();  // every error names the file
  return 0;
}

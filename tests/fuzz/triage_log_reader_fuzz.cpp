// libFuzzer target: arbitrary bytes as a build log, fed whole and in pieces (the chunk size is
// taken from the input), plain and through the gzip reader. Checks: no crash, no sanitizer
// report, and streaming gives the same root cause and line count as whole-buffer scanning.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>

#include "kb/embedded.h"
#include "triage/engine.h"
#include "triage/reader.h"
#include "triage/scanner.h"

// The fuzz build compiles no KB; data/kb/signatures.toml is embedded on its own (CMakeLists.txt),
// so the binary runs away from the source tree (bench/fuzz_bundle.sh).
namespace ts::kb {
std::span<const EmbeddedFile> embedded_files() { return {}; }
}  // namespace ts::kb
namespace ts::fuzz {
std::string_view signatures_toml();
}  // namespace ts::fuzz

namespace {
const ts::triage::Engine& engine() {
  // Once per process: compiling the signatures costs far more than scanning one input.
  static const auto* e = [] {
    ts::triage::SignatureSet set;
    auto errors = ts::triage::load_signatures_text("signatures.toml", ts::fuzz::signatures_toml(), set);
    if (!errors.empty() || set.signatures.empty()) { std::fprintf(stderr, "cannot load signatures\n"); std::abort(); }
    return new ts::triage::Engine(std::move(set));
  }();
  return *e;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto whole = ts::triage::diagnose_text(engine(), text);
  std::size_t chunk = size ? 1 + data[0] % 97 : 1;
  ts::triage::Scanner s(engine());
  for (std::size_t i = 0; i < size; i += chunk) s.feed(text.substr(i, chunk));
  auto pieces = s.finish();
  if (whole.lines != pieces.lines || whole.findings.size() != pieces.findings.size() ||
      (whole.root() ? whole.root()->id : "") != (pieces.root() ? pieces.root()->id : ""))
    std::abort();
  // The reader on a pipe: gzip'd or not is decided by the first bytes, so junk exercises zlib.
  int fds[2];
  if (size < 60000 && pipe(fds) == 0) {
    ssize_t w = write(fds[1], data, size);
    (void)w;
    close(fds[1]);
    ts::triage::Scanner r(engine());
    std::string err;
    ts::triage::scan_fd(fds[0], r, err);
    r.finish();
    close(fds[0]);
  }
  return 0;
}

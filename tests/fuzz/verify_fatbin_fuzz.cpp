// libFuzzer target: arbitrary bytes as a .nv_fatbin section. Checks: no crash and no sanitizer
// report; every entry read lies inside the section; a refusal always says why.
#include <cstddef>
#include <cstdint>
#include <string>

#include "verify/fatbin.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string err;
  auto entries = ts::verify::read_fatbins({data, size}, &err);
  if (!entries) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  for (const auto& e : *entries) {
    if (e.offset + e.header_size + e.payload_size > size) __builtin_trap();
    (void)e.cuda_arch().sm();
  }
  return 0;
}

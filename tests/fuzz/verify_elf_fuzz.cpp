// libFuzzer target: arbitrary bytes as an ELF file. Checks: no crash and no sanitizer report;
// a parsed file's sections, version needs and fatbins read without leaving the buffer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "verify/cuda_code.h"
#include "formats/elf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string err;
  auto elf = ts::formats::ElfFile::parse({data, size}, &err);
  if (!elf) {
    if (err.empty()) __builtin_trap();  // every refusal says why
    return 0;
  }
  std::size_t sum = 0;
  for (const auto& s : elf->sections()) {
    auto b = elf->section_bytes(s);
    if (!b.empty()) sum += b.front() + b.back();  // touch both ends: ASan checks they are in the input
  }
  sum += elf->required_versions("GLIBC_").size() + elf->describe().size();
  (void)ts::verify::cuda_code_of(*elf, &err);
  return sum == 0xdeadbeef;  // keep `sum` alive
}

#include "verify/cuda_release.h"

#include <algorithm>
#include <cctype>

#include "formats/elf.h"

namespace ts::verify {

std::string release_in_text(std::string_view text) {
  constexpr std::string_view kBanner = "Cuda compilation tools, release ";
  auto at = text.find(kBanner);
  if (at == std::string_view::npos) return "";
  std::size_t p = at + kBanner.size(), q = p;
  int dots = 0;
  while (q < text.size() && (std::isdigit(static_cast<unsigned char>(text[q])) || (text[q] == '.' && dots++ == 0))) ++q;
  std::string v(text.substr(p, q - p));
  // major.minor, each part present
  if (dots != 1 || v.empty() || v.front() == '.' || v.back() == '.') return "";
  return v;
}

std::string entry_release(formats::Bytes section, const FatbinEntry& e) {
  if (e.compressed || e.kind == FatbinKind::other) return "";
  std::uint64_t start = e.offset + e.header_size;
  if (start > section.size() || e.payload_size > section.size() - start) return "";
  formats::Bytes payload = section.subspan(start, e.payload_size);
  auto text = [](formats::Bytes b) { return std::string_view(reinterpret_cast<const char*>(b.data()), b.size()); };
  if (e.kind == FatbinKind::ptx) return release_in_text(text(payload.first(std::min<std::size_t>(payload.size(), 4096))));
  // A cubin: the banner is in its tkinfo note (the strings ptxas/nvlink wrote), not in the code.
  auto elf = formats::ElfFile::parse(payload, nullptr);
  if (!elf) return "";
  const formats::ElfSection* note = elf->section(".note.nv.tkinfo");
  return note ? release_in_text(text(elf->section_bytes(*note))) : "";
}

}  // namespace ts::verify

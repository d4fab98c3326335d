#include "formats/elf.h"

#include <elf.h>

#include <algorithm>
#include <charconv>

namespace ts::formats {
namespace {

std::string hex(std::uint64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, p);
}

bool fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}

// The header fields after e_ident that locate the program and section header tables.
struct TableHeads {
  std::uint64_t phoff = 0, shoff = 0;
  std::uint16_t phentsize = 0, phnum = 0, shentsize = 0, shnum16 = 0, shstrndx16 = 0;
};

// Program headers.
bool read_segments(const ByteReader& r, bool wide, std::uint64_t file_size, const TableHeads& h,
                   std::vector<ElfSegment>& segments, std::string* error) {
  const std::uint64_t phsize = wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
  if (h.phoff == 0 || h.phnum == 0) return true;
  if (h.phentsize < phsize)
    return fail(error, "program header entries too small (" + std::to_string(h.phentsize) + " bytes)");
  if (!fits(file_size, h.phoff, std::uint64_t(h.phnum) * h.phentsize))
    return fail(error, "program header table past end of file");
  for (std::uint64_t i = 0; i < h.phnum; ++i) {
    const std::uint64_t p = h.phoff + i * h.phentsize;
    ElfSegment s;
    r.u32(p, s.type);
    if (wide) {
      r.u64(p + 8, s.offset); r.u64(p + 16, s.vaddr); r.u64(p + 32, s.filesz); r.u64(p + 40, s.memsz);
    } else {
      r.word(p + 4, false, s.offset); r.word(p + 8, false, s.vaddr);
      r.word(p + 16, false, s.filesz); r.word(p + 20, false, s.memsz);
    }
    segments.push_back(s);
  }
  return true;
}

// Section headers (h.shoff != 0), each with the offset of its name in the name table; a count or
// name index too big for 16 bits lives in section 0 (ELF gABI).
bool read_sections(const ByteReader& r, bool wide, std::uint64_t file_size, const TableHeads& h,
                   std::vector<ElfSection>& sections, std::vector<std::uint32_t>& name_offsets,
                   std::uint64_t& shstrndx, std::string* error) {
  const std::uint64_t shsize = wide ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  if (h.shentsize < shsize)
    return fail(error, "section header entries too small (" + std::to_string(h.shentsize) + " bytes)");
  if (!fits(file_size, h.shoff, shsize))
    return fail(error, "section header table past end of file (offset " + hex(h.shoff) + ", file " +
                           std::to_string(file_size) + " bytes)");
  std::uint64_t shnum = h.shnum16;
  shstrndx = h.shstrndx16;
  if (shnum == 0) r.word(h.shoff + (wide ? 32 : 20), wide, shnum);  // sh_size of section 0
  if (shstrndx == SHN_XINDEX) {
    std::uint32_t link = 0;
    r.u32(h.shoff + (wide ? 40 : 24), link);
    shstrndx = link;
  }
  if (shnum > (file_size - h.shoff) / h.shentsize)
    return fail(error, "section header table past end of file (" + std::to_string(shnum) + " sections at " +
                           hex(h.shoff) + ", file " + std::to_string(file_size) + " bytes)");
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::uint64_t p = h.shoff + i * h.shentsize;
    ElfSection s;
    std::uint32_t name = 0;
    r.u32(p, name);
    r.u32(p + 4, s.type);
    if (wide) {
      r.u64(p + 8, s.flags); r.u64(p + 16, s.addr); r.u64(p + 24, s.offset); r.u64(p + 32, s.size);
      r.u32(p + 40, s.link); r.u32(p + 44, s.info);
    } else {
      r.word(p + 8, false, s.flags); r.word(p + 12, false, s.addr); r.word(p + 16, false, s.offset);
      r.word(p + 20, false, s.size); r.u32(p + 24, s.link); r.u32(p + 28, s.info);
    }
    if (s.type != SHT_NOBITS && s.type != SHT_NULL && !fits(file_size, s.offset, s.size))
      return fail(error, "section " + std::to_string(i) + " past end of file (offset " + hex(s.offset) + ", size " +
                             hex(s.size) + ")");
    name_offsets.push_back(name);
    sections.push_back(s);
  }
  return true;
}

}  // namespace

std::optional<ElfFile> ElfFile::parse(Bytes data, std::string* error) {
  ElfFile f;
  if (data.size() < EI_NIDENT || data[EI_MAG0] != ELFMAG0 || data[EI_MAG1] != ELFMAG1 ||
      data[EI_MAG2] != ELFMAG2 || data[EI_MAG3] != ELFMAG3) {
    fail(error, "not an ELF file");
    return std::nullopt;
  }
  if (data[EI_CLASS] != ELFCLASS32 && data[EI_CLASS] != ELFCLASS64) {
    fail(error, "unknown ELF class " + std::to_string(data[EI_CLASS]));
    return std::nullopt;
  }
  if (data[EI_DATA] != ELFDATA2LSB && data[EI_DATA] != ELFDATA2MSB) {
    fail(error, "unknown ELF byte order " + std::to_string(data[EI_DATA]));
    return std::nullopt;
  }
  const bool wide = data[EI_CLASS] == ELFCLASS64;
  f.class_ = wide ? 64 : 32;
  f.big_ = data[EI_DATA] == ELFDATA2MSB;
  f.r_ = ByteReader(data, f.big_);
  const ByteReader& r = f.r_;

  // The header fields after e_ident, at their ELF32 / ELF64 offsets.
  const std::uint64_t ehsize = wide ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  if (data.size() < ehsize) {
    fail(error, "truncated ELF header (" + std::to_string(data.size()) + " bytes)");
    return std::nullopt;
  }
  TableHeads h;
  r.u16(16, f.type_);
  r.u16(18, f.machine_);
  r.word(wide ? 32 : 28, wide, h.phoff);
  r.word(wide ? 40 : 32, wide, h.shoff);
  const std::uint64_t base = wide ? 54 : 42;  // e_phentsize
  r.u16(base, h.phentsize);
  r.u16(base + 2, h.phnum);
  r.u16(base + 4, h.shentsize);
  r.u16(base + 6, h.shnum16);
  r.u16(base + 8, h.shstrndx16);

  if (!read_segments(r, wide, data.size(), h, f.segments_, error)) return std::nullopt;
  if (h.shoff != 0) {
    std::vector<std::uint32_t> name_offsets;
    std::uint64_t shstrndx = 0;
    if (!read_sections(r, wide, data.size(), h, f.sections_, name_offsets, shstrndx, error)) return std::nullopt;
    const std::uint64_t shnum = f.sections_.size();
    if (shstrndx != SHN_UNDEF && shnum > 0) {
      if (shstrndx >= shnum) {
        fail(error, "section name table index " + std::to_string(shstrndx) + " out of range");
        return std::nullopt;
      }
      const Bytes names = f.section_bytes(f.sections_[shstrndx]);
      for (std::size_t i = 0; i < f.sections_.size(); ++i) {
        std::string_view n;
        if (c_string(names, name_offsets[i], n)) f.sections_[i].name = std::string(n);
      }
    }
  }

  if (!f.read_dynamic(error) || !f.read_verdefs(error)) return std::nullopt;
  return f;
}

const ElfSection* ElfFile::section(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

namespace {

// The undefined entries of every symbol table of `type`; with hidden_only, those whose visibility is
// STV_HIDDEN alone (st_other's low two bits).
std::vector<std::string> undefined_symbols_of(const ElfFile& f, std::uint32_t type, bool hidden_only) {
  std::vector<std::string> out;
  const auto& secs = f.sections();
  const bool wide = f.elf_class() == 64;
  const std::uint64_t entry = wide ? 24 : 16;           // sizeof(Elf64_Sym), sizeof(Elf32_Sym)
  const std::uint64_t shndx_at = wide ? 6 : 14;         // st_shndx within an entry
  const std::uint64_t other_at = wide ? 5 : 13;         // st_other within an entry
  for (const auto& s : secs) {
    if (s.type != type || s.link >= secs.size()) continue;
    const Bytes names = f.section_bytes(secs[s.link]);
    const ByteReader r(f.section_bytes(s), f.big_endian());
    for (std::uint64_t off = entry; off + entry <= r.size(); off += entry) {  // entry 0 is the null symbol
      std::uint32_t name = 0;
      std::uint16_t shndx = 0;
      std::uint8_t other = 0;
      std::string_view n;
      if (!r.u32(off, name) || !r.u16(off + shndx_at, shndx) || !r.u8(off + other_at, other)) break;
      if (hidden_only && (other & 3) != 2) continue;  // STV_HIDDEN
      if (shndx == SHN_UNDEF && name != 0 && c_string(names, name, n)) out.emplace_back(n);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> undefined_dynamic_symbols(const ElfFile& f) { return undefined_symbols_of(f, SHT_DYNSYM, false); }

std::vector<std::string> hidden_undefined_symbols(const ElfFile& f) { return undefined_symbols_of(f, SHT_SYMTAB, true); }

Bytes ElfFile::section_bytes(const ElfSection& s) const {
  Bytes out;
  if (s.type == SHT_NOBITS || s.type == SHT_NULL || !r_.slice(s.offset, s.size, out)) return {};
  return out;
}

std::optional<std::uint64_t> ElfFile::vaddr_to_offset(std::uint64_t vaddr, std::uint64_t len) const {
  for (const auto& s : segments_) {
    if (s.type != PT_LOAD || vaddr < s.vaddr) continue;
    const std::uint64_t delta = vaddr - s.vaddr;
    if (!fits(s.filesz, delta, len)) continue;
    if (!fits(r_.size(), s.offset, s.filesz)) return std::nullopt;
    return s.offset + delta;
  }
  return std::nullopt;
}

std::vector<std::string> ElfFile::required_versions(std::string_view prefix) const {
  std::vector<std::string> out;
  for (const auto& [file, versions] : dynamic_.version_needs)
    for (const auto& v : versions)
      if (v.starts_with(prefix) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return version_less(a, b); });
  return out;
}

std::string ElfFile::describe() const {
  std::string s = "ELF" + std::to_string(class_) + (big_ ? " MSB " : " LSB ");
  switch (type_) {
    case ET_DYN: s += "shared object"; break;
    case ET_EXEC: s += "executable"; break;
    case ET_REL: s += "relocatable"; break;
    case ET_CORE: s += "core file"; break;
    default: s += "type " + std::to_string(type_);
  }
  switch (machine_) {
    case EM_X86_64: s += ", x86-64"; break;
    case EM_AARCH64: s += ", aarch64"; break;
    case EM_386: s += ", i386"; break;
    case EM_ARM: s += ", arm"; break;
    case EM_PPC64: s += ", ppc64"; break;
    case EM_S390: s += ", s390"; break;
    default: s += ", machine " + std::to_string(machine_);
  }
  return s;
}

bool version_less(std::string_view a, std::string_view b) {
  const auto us = [](std::string_view s) { return s.find('_'); };
  const auto ua = us(a), ub = us(b);
  if (ua == std::string_view::npos || ub == std::string_view::npos || a.substr(0, ua) != b.substr(0, ub))
    return a < b;
  std::string_view x = a.substr(ua + 1), y = b.substr(ub + 1);
  while (!x.empty() || !y.empty()) {
    unsigned long long nx = 0, ny = 0;
    auto [px, ex] = std::from_chars(x.data(), x.data() + x.size(), nx);
    auto [py, ey] = std::from_chars(y.data(), y.data() + y.size(), ny);
    if (ex != std::errc() || ey != std::errc()) return x < y;  // not numeric: plain text order
    if (nx != ny) return nx < ny;
    x = x.substr(px - x.data());
    y = y.substr(py - y.data());
    if (!x.empty() && x[0] == '.') x.remove_prefix(1);
    if (!y.empty() && y[0] == '.') y.remove_prefix(1);
  }
  return false;
}

}  // namespace ts::formats

// The dynamic section and the version needs: found through PT_DYNAMIC and the load segments (what
// the loader uses), or through the .dynamic / .dynstr / .gnu.version_r sections when there are
// no segments.
#include <elf.h>

#include "formats/elf.h"

namespace ts::formats {
namespace {

bool fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}

}  // namespace

bool ElfFile::read_dynamic(std::string* error) {
  const bool wide = class_ == 64;
  Bytes dyn;
  const ElfSection* dyn_section = nullptr;
  for (const auto& s : sections_)
    if (s.type == SHT_DYNAMIC) { dyn_section = &s; break; }
  bool have = false;
  for (const auto& seg : segments_) {
    if (seg.type != PT_DYNAMIC) continue;
    if (!r_.slice(seg.offset, seg.filesz, dyn)) return fail(error, "dynamic segment past end of file");
    have = true;
    break;
  }
  if (!have && dyn_section) { dyn = section_bytes(*dyn_section); have = true; }
  if (!have) return true;  // static executable or object: nothing to read
  layout_.present = true;
  layout_.offset = dyn.empty() ? 0 : std::uint64_t(dyn.data() - r_.data().data());
  layout_.size = dyn.size();

  // Tags first, strings after: DT_STRTAB may come after the DT_NEEDED entries that use it.
  std::vector<std::uint64_t> needed;
  std::uint64_t soname = 0, rpath = 0, runpath = 0, strtab = 0, strsz = 0, verneed = 0, verneednum = 0, flags1 = 0;
  bool has_soname = false, has_rpath = false, has_runpath = false, has_strtab = false, has_verneed = false;
  const ByteReader d(dyn, big_);
  const std::uint64_t ent = wide ? 16 : 8;
  for (std::uint64_t off = 0; off + ent <= d.size(); off += ent) {
    std::uint64_t tag = 0, val = 0;
    d.word(off, wide, tag);
    d.word(off + ent / 2, wide, val);
    if (tag == DT_NULL) break;
    layout_.entries.emplace_back(tag, val);
    switch (tag) {
      case DT_NEEDED: needed.push_back(val); break;
      case DT_SONAME: soname = val; has_soname = true; break;
      case DT_RPATH: rpath = val; has_rpath = true; break;
      case DT_RUNPATH: runpath = val; has_runpath = true; break;
      case DT_STRTAB: strtab = val; has_strtab = true; break;
      case DT_STRSZ: strsz = val; break;
      case DT_VERNEED: verneed = val; has_verneed = true; break;
      case DT_VERNEEDNUM: verneednum = val; break;
      case DT_FLAGS_1: flags1 = val; break;
      default: break;
    }
  }
  dynamic_.nodeflib = (flags1 & DF_1_NODEFLIB) != 0;

  // The string table: DT_STRTAB through the segments, else the section .dynamic links to.
  Bytes strings;
  if (has_strtab) {
    if (auto off = vaddr_to_offset(strtab, strsz)) r_.slice(*off, strsz, strings);
  }
  if (strings.empty() && dyn_section && dyn_section->link < sections_.size())
    strings = section_bytes(sections_[dyn_section->link]);
  if (strings.empty() && (!needed.empty() || has_soname || has_rpath || has_runpath))
    return fail(error, "dynamic string table missing or past end of file");
  if (!strings.empty()) {
    layout_.strtab_offset = std::uint64_t(strings.data() - r_.data().data());
    layout_.strtab_size = strings.size();
  }

  const auto str = [&](std::uint64_t off, std::string& out, const char* what) {
    std::string_view v;
    if (!c_string(strings, off, v)) return fail(error, std::string(what) + " name out of the string table");
    out = std::string(v);
    return true;
  };
  for (auto n : needed) {
    std::string s;
    if (!str(n, s, "DT_NEEDED")) return false;
    dynamic_.needed.push_back(std::move(s));
  }
  if (has_soname && !str(soname, dynamic_.soname, "DT_SONAME")) return false;
  if (has_rpath && !str(rpath, dynamic_.rpath, "DT_RPATH")) return false;
  if (has_runpath && !str(runpath, dynamic_.runpath, "DT_RUNPATH")) return false;

  // Version needs: .gnu.version_r when sections exist (its sh_link names its strings), else DT_VERNEED.
  for (const auto& s : sections_) {
    if (s.type != SHT_GNU_verneed) continue;
    Bytes vstr = s.link < sections_.size() ? section_bytes(sections_[s.link]) : strings;
    return read_verneed_table(section_bytes(s), s.info, vstr.empty() ? strings : vstr, error);
  }
  if (has_verneed && verneednum > 0) {
    // The table's length is not recorded; map what the segment holds from there on.
    for (const auto& seg : segments_) {
      if (seg.type != PT_LOAD || verneed < seg.vaddr || verneed - seg.vaddr >= seg.filesz) continue;
      const std::uint64_t delta = verneed - seg.vaddr;
      Bytes table;
      if (!r_.slice(seg.offset + delta, seg.filesz - delta, table))
        return fail(error, "version needs past end of file");
      return read_verneed_table(table, verneednum, strings, error);
    }
    return fail(error, "DT_VERNEED points outside the loaded segments");
  }
  return true;
}

bool ElfFile::read_verneed_table(Bytes table, std::uint64_t count, Bytes strings, std::string* error) {
  // Elf_Verneed and Elf_Vernaux have the same 16-byte layout in ELF32 and ELF64.
  const ByteReader v(table, big_);
  std::uint64_t off = 0;
  // Offsets into the dynamic string table are kept for in-place edits; another table's are not.
  const bool same_table = layout_.strtab_size != 0 && !strings.empty() &&
                          std::uint64_t(strings.data() - r_.data().data()) == layout_.strtab_offset;
  // Each record is at least 16 bytes: more records than that is a loop in the next-links.
  const std::uint64_t limit = table.size() / sizeof(Elf64_Verneed) + 1;
  for (std::uint64_t i = 0; i < count && i < limit; ++i) {
    std::uint16_t version = 0, cnt = 0;
    std::uint32_t file = 0, aux = 0, next = 0;
    if (!v.u16(off, version) || !v.u16(off + 2, cnt) || !v.u32(off + 4, file) || !v.u32(off + 8, aux) ||
        !v.u32(off + 12, next))
      return fail(error, "version needs past end of their table");
    std::string_view fname;
    if (!c_string(strings, file, fname)) return fail(error, "version need file name out of the string table");
    if (same_table) layout_.verneed_strings.push_back(file);
    auto& list = dynamic_.version_needs[std::string(fname)];
    std::uint64_t a = off + aux;
    for (std::uint64_t j = 0; j < cnt && j < limit; ++j) {
      std::uint32_t name = 0, anext = 0;
      if (!v.u32(a + 8, name) || !v.u32(a + 12, anext)) return fail(error, "version need entry past end of its table");
      std::string_view vname;
      if (!c_string(strings, name, vname)) return fail(error, "version name out of the string table");
      if (same_table) layout_.verneed_strings.push_back(name);
      list.emplace_back(vname);
      if (anext == 0) break;
      a += anext;
    }
    if (next == 0) break;
    off += next;
  }
  return true;
}

bool ElfFile::read_verdefs(std::string* error) {
  for (const auto& s : sections_) {
    if (s.type != SHT_GNU_verdef) continue;
    const Bytes table = section_bytes(s);
    const Bytes strings = s.link < sections_.size() ? section_bytes(sections_[s.link]) : Bytes{};
    const ByteReader v(table, big_);
    // Elf_Verdef (20 bytes) and Elf_Verdaux (8) have one layout in ELF32 and ELF64; each record is
    // at least 20 bytes, so more records than that is a loop in the next-links.
    const std::uint64_t limit = table.size() / sizeof(Elf64_Verdef) + 1;
    std::uint64_t off = 0;
    for (std::uint64_t i = 0; i < s.info && i < limit; ++i) {
      std::uint16_t flags = 0, cnt = 0;
      std::uint32_t aux = 0, next = 0, name = 0;
      if (!v.u16(off + 2, flags) || !v.u16(off + 6, cnt) || !v.u32(off + 12, aux) || !v.u32(off + 16, next))
        return fail(error, "version definitions past end of their table");
      // The first auxiliary entry names the version; later ones name its parents.
      if (cnt > 0) {
        std::string_view vname;
        if (!v.u32(off + aux, name) || !c_string(strings, name, vname))
          return fail(error, "version definition name out of the string table");
        if ((flags & VER_FLG_BASE) == 0) dynamic_.version_defs.emplace_back(vname);
      }
      if (next == 0) break;
      off += next;
    }
    return true;
  }
  return true;
}

}  // namespace ts::formats

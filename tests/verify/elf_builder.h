#pragma once
// Builds small ELF files by hand, in either class and byte order, so the reader is tested on layouts
// (ELF32, big-endian) that no compiler on this machine produces.
#include <elf.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ts::verify::test {

struct ElfSpec {
  bool wide = true, big = false;
  std::vector<std::string> needed;
  std::string soname, runpath, rpath;
  std::string verneed_file;                 // one Verneed record for this file...
  std::vector<std::string> verneed_names;   // ...with these versions
  std::string fatbin;                       // contents of .nv_fatbin ("" = no such section)
  // As a linker lays a shared object out: program headers (one PT_LOAD over the whole file, at
  // address 0, and PT_DYNAMIC) and DT_STRTAB / DT_STRSZ, so the reader goes through the segments.
  bool segments = false;
  std::vector<std::string> symbols;  // .dynsym names, in .dynstr
  // A .dynsym name that starts this many bytes into the RPATH (else RUNPATH) string: linkers merge
  // a name that is the tail of another (-1 = none).
  int symbol_into_path = -1;
};

class ElfBuilder {
 public:
  explicit ElfBuilder(const ElfSpec& s) : s_(s) {}

  std::string build() {
    const std::uint64_t ehsize = s_.wide ? 64 : 52, shentsize = s_.wide ? 64 : 40;
    const std::uint64_t phentsize = s_.wide ? 56 : 32, phnum = s_.segments ? 2 : 0;
    const std::uint64_t start = ehsize + phnum * phentsize;
    // String table: index 0 is "".
    std::string dynstr(1, '\0');
    auto str = [&](const std::string& x) { std::uint64_t o = dynstr.size(); dynstr += x; dynstr += '\0'; return o; };
    std::vector<std::pair<std::uint64_t, std::uint64_t>> dyn;
    std::uint64_t rpath_at = 0, runpath_at = 0;
    for (const auto& n : s_.needed) dyn.push_back({DT_NEEDED, str(n)});
    if (!s_.soname.empty()) dyn.push_back({DT_SONAME, str(s_.soname)});
    if (!s_.rpath.empty()) dyn.push_back({DT_RPATH, rpath_at = str(s_.rpath)});
    if (!s_.runpath.empty()) dyn.push_back({DT_RUNPATH, runpath_at = str(s_.runpath)});
    const std::uint64_t path_at = s_.rpath.empty() ? runpath_at : rpath_at;

    std::string verneed;
    if (!s_.verneed_file.empty()) {
      const std::uint64_t file = str(s_.verneed_file);
      std::vector<std::uint64_t> names;
      for (const auto& n : s_.verneed_names) names.push_back(str(n));
      verneed += u(1, 2) + u(names.size(), 2) + u(file, 4) + u(16, 4) + u(0, 4);
      for (std::size_t i = 0; i < names.size(); ++i)
        verneed += u(0, 4) + u(0, 2) + u(i + 2, 2) + u(names[i], 4) + u(i + 1 < names.size() ? 16 : 0, 4);
    }
    std::string dynsym;
    if (!s_.symbols.empty() || s_.symbol_into_path >= 0) {
      std::vector<std::uint64_t> names = {0};  // symbol 0 is the null symbol
      for (const auto& n : s_.symbols) names.push_back(str(n));
      if (s_.symbol_into_path >= 0) names.push_back(path_at + std::uint64_t(s_.symbol_into_path));
      for (auto n : names) dynsym += s_.wide ? u(n, 4) + std::string(20, '\0') : u(n, 4) + std::string(12, '\0');
    }
    // .dynstr is laid first, so its offset (= address) is known before the dynamic array is written.
    const std::uint64_t dynstr_at = (start + 7) / 8 * 8;
    if (s_.segments) {
      dyn.push_back({DT_STRTAB, dynstr_at});
      dyn.push_back({DT_STRSZ, dynstr.size()});
    }
    dyn.push_back({DT_NULL, 0});
    std::string dynamic;
    for (auto [t, v] : dyn) dynamic += w(t) + w(v);

    std::string shstr(1, '\0');
    auto sname = [&](const std::string& x) { std::uint64_t o = shstr.size(); shstr += x; shstr += '\0'; return o; };
    struct Sec { std::uint64_t name; std::uint32_t type; std::string data; std::uint32_t link, info; };
    std::vector<Sec> secs;
    secs.push_back({0, SHT_NULL, "", 0, 0});
    secs.push_back({sname(".dynstr"), SHT_STRTAB, dynstr, 0, 0});
    secs.push_back({sname(".dynamic"), SHT_DYNAMIC, dynamic, 1, 0});
    if (!verneed.empty()) secs.push_back({sname(".gnu.version_r"), SHT_GNU_verneed, verneed, 1, 1});
    if (!dynsym.empty()) secs.push_back({sname(".dynsym"), SHT_DYNSYM, dynsym, 1, 1});
    if (!s_.fatbin.empty()) secs.push_back({sname(".nv_fatbin"), SHT_PROGBITS, s_.fatbin, 0, 0});
    const std::uint64_t shstrndx = secs.size();
    secs.push_back({sname(".shstrtab"), SHT_STRTAB, shstr, 0, 0});

    std::string body;
    std::vector<std::uint64_t> offsets;
    for (auto& sec : secs) {
      while ((start + body.size()) % 8) body += '\0';
      offsets.push_back(sec.data.empty() ? 0 : start + body.size());
      body += sec.data;
    }
    while ((start + body.size()) % 8) body += '\0';
    const std::uint64_t shoff = start + body.size();
    const std::uint64_t file_size = shoff + secs.size() * shentsize;

    std::string out = "\x7f" "ELF";
    out += char(s_.wide ? ELFCLASS64 : ELFCLASS32);
    out += char(s_.big ? ELFDATA2MSB : ELFDATA2LSB);
    out += char(EV_CURRENT);
    out += std::string(9, '\0');
    out += u(ET_DYN, 2) + u(s_.big ? EM_PPC64 : EM_X86_64, 2) + u(EV_CURRENT, 4);
    out += w(0) + w(phnum ? ehsize : 0) + w(shoff);  // entry, phoff, shoff
    out += u(0, 4) + u(ehsize, 2) + u(phentsize, 2) + u(phnum, 2) + u(shentsize, 2) + u(secs.size(), 2) +
           u(shstrndx, 2);
    if (s_.segments) {
      out += phdr(PT_LOAD, 0, file_size);
      out += phdr(PT_DYNAMIC, offsets[2], dynamic.size());
    }
    out += body;
    for (std::size_t i = 0; i < secs.size(); ++i) {
      const auto& sec = secs[i];
      out += u(sec.name, 4) + u(sec.type, 4);
      out += w(0) + w(s_.segments ? offsets[i] : 0) + w(offsets[i]) + w(sec.data.size());  // flags, addr, offset, size
      out += u(sec.link, 4) + u(sec.info, 4) + w(8) + w(sec.type == SHT_DYNAMIC ? (s_.wide ? 16 : 8) : 0);
    }
    return out;
  }

 private:
  // A program header whose address is its file offset.
  std::string phdr(std::uint32_t type, std::uint64_t off, std::uint64_t size) const {
    if (s_.wide) return u(type, 4) + u(PF_R, 4) + w(off) + w(off) + w(off) + w(size) + w(size) + w(8);
    return u(type, 4) + w(off) + w(off) + w(off) + w(size) + w(size) + u(PF_R, 4) + w(8);
  }
  std::string u(std::uint64_t v, int n) const {
    std::string s(n, '\0');
    for (int i = 0; i < n; ++i) s[s_.big ? n - 1 - i : i] = char((v >> (8 * i)) & 0xff);
    return s;
  }
  std::string w(std::uint64_t v) const { return u(v, s_.wide ? 8 : 4); }

  ElfSpec s_;
};

}  // namespace ts::verify::test

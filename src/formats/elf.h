#pragma once
// A native ELF reader (ELF32/ELF64, either byte order) over untrusted bytes: what verify needs to
// know of a library without running anything: its identity, its dynamic dependencies and search
// paths, the symbol versions it requires, and named sections (.nv_fatbin).
// Every offset and size is bounds-checked; bad input is an error string, never a crash.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/byte_reader.h"

namespace ts::formats {

struct ElfSection {
  std::string name;
  std::uint32_t type = 0;  // SHT_*
  std::uint64_t flags = 0, addr = 0, offset = 0, size = 0;
  std::uint32_t link = 0, info = 0;
};

struct ElfSegment {
  std::uint32_t type = 0;  // PT_*
  std::uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
};

// What the dynamic section says (empty for static executables and relocatable objects).
struct ElfDynamic {
  std::vector<std::string> needed;  // DT_NEEDED, in order
  std::string soname;               // DT_SONAME
  std::string rpath, runpath;       // DT_RPATH / DT_RUNPATH as written (':'-separated, $ORIGIN unexpanded)
  bool nodeflib = false;            // DF_1_NODEFLIB: the loader skips its default directories
  // DT_VERNEED: library file -> the versions required of it ("libc.so.6" -> {"GLIBC_2.2.5", ...}).
  std::map<std::string, std::vector<std::string>> version_needs;
  // DT_VERDEF (.gnu.version_d): the versions this file defines ("GOMP_4.0", ...), its own base name
  // left out. Read from the section only; a file with no section headers reports none.
  std::vector<std::string> version_defs;
};

// Where the dynamic array and its strings lie in the file, for edits in place (formats/elf_edit.h).
struct ElfDynamicLayout {
  bool present = false;
  std::uint64_t offset = 0, size = 0;                 // the dynamic array's file bytes
  std::uint64_t strtab_offset = 0, strtab_size = 0;   // its string table's file bytes (0, 0: none)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> entries;  // (d_tag, d_val) before DT_NULL, in order
  std::vector<std::uint64_t> verneed_strings;         // string offsets the version needs use
};

class ElfFile {
 public:
  // Parses `data`, which must outlive the ElfFile. nullopt and *error on bad input
  // ("not an ELF file", "section header table past end of file", ...).
  static std::optional<ElfFile> parse(Bytes data, std::string* error);

  int elf_class() const { return class_; }  // 32 or 64
  bool big_endian() const { return big_; }
  std::uint16_t type() const { return type_; }     // ET_DYN, ET_EXEC, ET_REL, ...
  std::uint16_t machine() const { return machine_; }  // EM_X86_64, EM_AARCH64, ...
  const std::vector<ElfSection>& sections() const { return sections_; }
  const std::vector<ElfSegment>& segments() const { return segments_; }
  const ElfDynamic& dynamic() const { return dynamic_; }
  const ElfDynamicLayout& dynamic_layout() const { return layout_; }
  Bytes data() const { return r_.data(); }  // the whole file, as parsed

  const ElfSection* section(std::string_view name) const;  // the first with that name, or nullptr
  // A section's file bytes (empty for SHT_NOBITS); in bounds by construction.
  Bytes section_bytes(const ElfSection& s) const;
  // Every version required from any file whose name starts with `prefix` ("GLIBC_", "GLIBCXX_").
  std::vector<std::string> required_versions(std::string_view prefix) const;

  // "ELF64 LSB shared object, x86-64": for people.
  std::string describe() const;

 private:
  bool read_dynamic(std::string* error);
  bool read_verneed_table(Bytes table, std::uint64_t count, Bytes strings, std::string* error);
  bool read_verdefs(std::string* error);
  // File offset of a virtual address range through the PT_LOAD segments; nullopt when unmapped.
  std::optional<std::uint64_t> vaddr_to_offset(std::uint64_t vaddr, std::uint64_t len) const;

  ByteReader r_;
  int class_ = 0;
  bool big_ = false;
  std::uint16_t type_ = 0, machine_ = 0;
  std::vector<ElfSection> sections_;
  std::vector<ElfSegment> segments_;
  ElfDynamic dynamic_;
  ElfDynamicLayout layout_;
};

// The names of the dynamic symbols `f` uses and does not define (.dynsym entries whose section is
// SHN_UNDEF: what the loader must find elsewhere, "undefined symbol: NAME" when it does not), in table
// order; none for a file with no .dynsym.
std::vector<std::string> undefined_dynamic_symbols(const ElfFile& f);

// The names an object file (.symtab) uses, does not define and marks hidden: what must be defined in
// the same link unit, ld's "hidden symbol `NAME' isn't defined" when it is not (nvcc declares the host
// stub of a __global__ function template hidden in each file that launches it), in table order.
std::vector<std::string> hidden_undefined_symbols(const ElfFile& f);

// Orders "GLIBC_2.17" before "GLIBC_2.34" (numeric, dot by dot); other text compares as strings.
bool version_less(std::string_view a, std::string_view b);

}  // namespace ts::formats

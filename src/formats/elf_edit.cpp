#include "formats/elf_edit.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

#include "formats/mapped_file.h"

namespace ts::formats {
namespace {

Bytes bytes_of(std::string_view s) { return {reinterpret_cast<const unsigned char*>(s.data()), s.size()}; }

const char* tag_name(std::uint64_t tag) { return tag == DT_RUNPATH ? "RUNPATH" : "RPATH"; }

bool is_path_tag(std::uint64_t tag) { return tag == DT_RPATH || tag == DT_RUNPATH; }

// Dynamic tags whose value is an offset into the string table (gABI and the GNU extensions).
bool is_string_tag(std::uint64_t tag) {
  return tag == DT_NEEDED || tag == DT_SONAME || is_path_tag(tag) || tag == DT_AUXILIARY || tag == DT_FILTER ||
         tag == DT_CONFIG || tag == DT_DEPAUDIT || tag == DT_AUDIT;
}

// A DT_RPATH / DT_RUNPATH entry and its string: [str, str + len) in the table, NUL at str + len.
struct Slot {
  std::size_t entry = 0;
  std::uint64_t tag = 0, str = 0, len = 0;
  bool shared = false;  // another name uses some of its bytes (linkers merge string tails)
};

// Version definitions' names (.gnu.version_d: `count` records, each with its aux chain); false when
// the table cannot be read to its end.
bool verdef_names(Bytes table, std::uint64_t count, std::vector<std::uint64_t>& refs) {
  const ByteReader v(table, false);
  const std::uint64_t limit = table.size() / sizeof(Elf64_Verdef) + 1;  // a loop in next-links ends here
  std::uint64_t off = 0;
  for (std::uint64_t i = 0; i < count && i < limit; ++i) {
    std::uint16_t cnt = 0;
    std::uint32_t aux = 0, next = 0;
    if (!v.u16(off + 6, cnt) || !v.u32(off + 12, aux) || !v.u32(off + 16, next)) return false;
    std::uint64_t a = off + aux;
    for (std::uint64_t j = 0; j < cnt && j < limit; ++j) {
      std::uint32_t name = 0, anext = 0;
      if (!v.u32(a, name) || !v.u32(a + 4, anext)) return false;
      refs.push_back(name);
      if (anext == 0) break;
      a += anext;
    }
    if (next == 0) return true;
    off += next;
  }
  return true;
}

// Every offset into the dynamic string table that something other than a search path uses. False
// and *why when that cannot be known: then no byte of the table may be overwritten.
bool other_string_refs(const ElfFile& elf, std::vector<std::uint64_t>& refs, std::string* why) {
  const ElfDynamicLayout& L = elf.dynamic_layout();
  for (const auto& [tag, val] : L.entries)
    if (is_string_tag(tag) && !is_path_tag(tag)) refs.push_back(val);
  refs.insert(refs.end(), L.verneed_strings.begin(), L.verneed_strings.end());
  const auto& secs = elf.sections();
  std::size_t dynstr = secs.size();
  for (std::size_t i = 0; i < secs.size(); ++i)
    if (secs[i].type == SHT_STRTAB && secs[i].offset == L.strtab_offset) dynstr = i;
  if (dynstr == secs.size()) {
    *why = secs.empty() ? "it has no section headers, so the symbol names sharing its string table cannot be read"
                        : "its dynamic string table is not one of its sections";
    return false;
  }
  for (const auto& s : secs) {
    if (s.link != dynstr || s.type == SHT_DYNAMIC || s.type == SHT_GNU_verneed) continue;
    const Bytes b = elf.section_bytes(s);
    if (s.type == SHT_DYNSYM || s.type == SHT_SYMTAB) {
      const ByteReader r(b, false);
      for (std::uint64_t off = 0; off + sizeof(Elf64_Sym) <= b.size(); off += sizeof(Elf64_Sym)) {
        std::uint32_t name = 0;
        r.u32(off, name);
        refs.push_back(name);
      }
    } else if (s.type == SHT_GNU_verdef) {
      if (!verdef_names(b, s.info, refs)) {
        *why = "its version definitions cannot be read to their end";
        return false;
      }
    } else {
      *why = "section " + (s.name.empty() ? std::string("?") : s.name) + " (type " + std::to_string(s.type) +
             ") names strings in its dynamic string table";
      return false;
    }
  }
  return true;
}

// What the edit does, decided on the parsed file; `refusal` non-empty when it cannot be done in place.
struct Plan {
  std::string refusal;
  std::vector<Slot> slots;
  std::size_t keep = 0;  // index into slots of the one rewritten (when the path is not "")
  std::uint64_t keep_tag = 0;
};

// The run of non-NUL bytes that ends where `s` ends: a name starting anywhere in it shares bytes.
bool shared(Bytes table, const Slot& s, const std::vector<std::uint64_t>& refs) {
  std::uint64_t start = s.str;
  while (start > 0 && table[start - 1] != 0) --start;
  return std::any_of(refs.begin(), refs.end(), [&](std::uint64_t r) { return r >= start && r < s.str + s.len; });
}

Plan plan_edit(const ElfFile& elf, const std::string& path, PathTag tag) {
  Plan p;
  if (elf.elf_class() != 64 || elf.big_endian()) {
    p.refusal = "the in-place editor handles ELF64 little-endian files only (this is " + elf.describe() + ")";
    return p;
  }
  const ElfDynamicLayout& L = elf.dynamic_layout();
  if (!L.present) {
    p.refusal = "it has no dynamic section";
    return p;
  }
  Bytes table;
  ByteReader(elf.data(), false).slice(L.strtab_offset, L.strtab_size, table);
  for (std::size_t i = 0; i < L.entries.size(); ++i) {
    const auto& [t, v] = L.entries[i];
    std::string_view s;
    if (is_path_tag(t) && c_string(table, v, s)) p.slots.push_back({i, t, v, s.size(), false});
  }
  if (p.slots.empty()) {
    if (!path.empty()) p.refusal = "it has no RPATH or RUNPATH whose bytes a new one could take (adding one needs patchelf)";
    return p;
  }
  std::vector<std::uint64_t> refs;
  std::string unknown;
  const bool known = other_string_refs(elf, refs, &unknown);
  // Dropping the entries needs no string bytes: unknown sharing only keeps the old strings as they are.
  if (!known && !path.empty()) {
    p.refusal = unknown;
    return p;
  }
  for (auto& s : p.slots) s.shared = !known || shared(table, s, refs);
  if (path.empty()) return p;
  // The slot rewritten: an unshared one the path fits in, of the wanted tag when there is one.
  const std::uint64_t want_tag = tag == PathTag::rpath ? DT_RPATH : DT_RUNPATH;
  std::size_t best = p.slots.size();
  std::uint64_t room = 0;
  for (std::size_t i = 0; i < p.slots.size(); ++i) {
    const Slot& s = p.slots[i];
    if (s.shared) continue;
    room = std::max(room, s.len);
    if (s.len < path.size()) continue;
    if (best == p.slots.size() || s.tag == want_tag) best = i;
  }
  if (best == p.slots.size()) {
    const Slot& s = p.slots.front();
    p.refusal = room == 0 && std::all_of(p.slots.begin(), p.slots.end(), [](const Slot& x) { return x.shared; })
                    ? std::string("its ") + tag_name(s.tag) + " string shares bytes with other names in the string table"
                    : "the new path '" + path + "' (" + std::to_string(path.size()) + " bytes) is longer than the old " +
                          tag_name(s.tag) + " (" + std::to_string(room) + " bytes); growing the string table needs patchelf";
    return p;
  }
  p.keep = best;
  // `keep`: RUNPATH when the file has one (the tag the loader honours), else RPATH.
  const bool has_runpath = std::any_of(p.slots.begin(), p.slots.end(), [](const Slot& x) { return x.tag == DT_RUNPATH; });
  p.keep_tag = tag != PathTag::keep ? want_tag : has_runpath ? DT_RUNPATH : DT_RPATH;
  return p;
}

void put_u64(std::string& b, std::uint64_t off, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[off + i] = char((v >> (8 * i)) & 0xff);
}

// Bytes to write at a file offset.
struct Patch {
  std::uint64_t offset = 0;
  std::string bytes;
};

// The planned edit as patches over the file: the kept slot's string overwritten and NUL-padded
// under its tag; every other slot's entry dropped (the array closes up, zeros after), its string
// zeroed unless another name shares it or the kept string overlaps it. Only the touched span of the
// string table is copied (libtorch_cuda.so's is tens of megabytes).
std::vector<Patch> patches(Bytes in, const ElfFile& elf, const Plan& p, const std::string& path) {
  const ElfDynamicLayout& L = elf.dynamic_layout();
  const Slot* kept = path.empty() ? nullptr : &p.slots[p.keep];
  std::vector<const Slot*> wipe;
  std::vector<bool> drop(L.entries.size(), false);
  for (const Slot& s : p.slots) {
    if (&s == kept) continue;
    drop[s.entry] = true;
    const bool overlaps = kept && s.str <= kept->str + kept->len && kept->str <= s.str + s.len;
    if (!s.shared && !overlaps) wipe.push_back(&s);
  }
  std::vector<Patch> out;
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const Slot* s : wipe) lo = std::min(lo, s->str), hi = std::max(hi, s->str + s->len);
  if (kept) lo = std::min(lo, kept->str), hi = std::max(hi, kept->str + kept->len);
  if (lo < hi) {
    Patch t{L.strtab_offset + lo, std::string(reinterpret_cast<const char*>(in.data()) + L.strtab_offset + lo, hi - lo)};
    for (const Slot* s : wipe) std::fill_n(t.bytes.begin() + (s->str - lo), s->len, '\0');
    if (kept) {
      std::string padded = path;
      padded.resize(kept->len, '\0');
      std::copy(padded.begin(), padded.end(), t.bytes.begin() + (kept->str - lo));
    }
    out.push_back(std::move(t));
  }
  Patch d{L.offset, std::string(16 * L.entries.size(), '\0')};  // zeros: DT_NULL after the kept entries
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < L.entries.size(); ++i) {
    if (drop[i]) continue;
    put_u64(d.bytes, at, kept && i == kept->entry ? p.keep_tag : L.entries[i].first);
    put_u64(d.bytes, at + 8, L.entries[i].second);
    at += 16;
  }
  out.push_back(std::move(d));
  return out;
}

// The parsed file's plan, refused or made into patches.
std::optional<std::vector<Patch>> plan_patches(Bytes in, const std::string& path, PathTag tag, std::string* error) {
  auto elf = ElfFile::parse(in, error);
  if (!elf) return std::nullopt;
  const Plan p = plan_edit(*elf, path, tag);
  if (!p.refusal.empty()) {
    *error = "cannot edit in place: " + p.refusal;
    return std::nullopt;
  }
  return patches(in, *elf, p, path);
}

}  // namespace

std::string search_path_refusal(const ElfFile& elf, const std::string& path, PathTag tag) {
  return plan_edit(elf, path, tag).refusal;
}

std::string check_search_path(std::string_view before, std::string_view after, const std::string& path,
                              PathTag tag) {
  std::string err;
  auto a = ElfFile::parse(bytes_of(before), &err);
  if (!a) return "the original no longer reads: " + err;
  auto b = ElfFile::parse(bytes_of(after), &err);
  if (!b) return "the edited file does not read: " + err;
  const ElfDynamic &x = a->dynamic(), &y = b->dynamic();
  if (y.needed != x.needed) return "its NEEDED entries changed";
  if (y.soname != x.soname) return "its SONAME changed ('" + x.soname + "' -> '" + y.soname + "')";
  if (y.version_needs != x.version_needs) return "its version needs changed";
  // `keep`: the path stays under the tag the file used (RUNPATH when it had both).
  const bool runpath = tag == PathTag::runpath || (tag == PathTag::keep && !x.runpath.empty());
  const std::string& got = runpath ? y.runpath : y.rpath;
  const std::string& other = runpath ? y.rpath : y.runpath;
  if (got != path || !other.empty())
    return std::string("read back ") + (runpath ? "RUNPATH '" : "RPATH '") + got + "'" +
           (other.empty() ? "" : std::string(" and ") + (runpath ? "RPATH '" : "RUNPATH '") + other + "'") +
           ", planned '" + path + "'";
  if (path.empty())
    for (const auto& [t, v] : b->dynamic_layout().entries)
      if (is_path_tag(t)) return std::string("an empty ") + tag_name(t) + " entry is left";
  return "";
}

std::optional<std::string> edit_search_path(std::string_view bytes, const std::string& path, PathTag tag,
                                            std::string* error) {
  auto ps = plan_patches(bytes_of(bytes), path, tag, error);
  if (!ps) return std::nullopt;
  std::string out(bytes);
  for (const auto& q : *ps) out.replace(q.offset, q.bytes.size(), q.bytes);
  if (auto why = check_search_path(bytes, out, path, tag); !why.empty()) {
    *error = "the in-place edit did not check out: " + why;
    return std::nullopt;
  }
  return out;
}

namespace {

std::string_view view(Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// A copy of `file` at `tmp` with the patches written, its mode, synced; "" or why (tmp removed).
std::string write_temp(const std::string& file, const std::string& tmp, const std::vector<Patch>& ps, mode_t mode) {
  std::error_code ec;
  if (!std::filesystem::copy_file(file, tmp, ec)) return "cannot copy it to " + tmp + ": " + ec.message();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
  int err = fd < 0 ? errno : 0;
  for (const auto& q : ps) {
    for (std::size_t off = 0; !err && off < q.bytes.size();) {
      ssize_t n = ::pwrite(fd, q.bytes.data() + off, q.bytes.size() - off, off_t(q.offset + off));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) err = n < 0 ? errno : ENOSPC;
      else off += std::size_t(n);
    }
  }
  if (!err && ::fchmod(fd, mode & 07777) != 0) err = errno;
  if (!err && ::fsync(fd) != 0) err = errno;
  if (fd >= 0 && ::close(fd) != 0 && !err) err = errno;
  if (!err) return "";
  ::unlink(tmp.c_str());
  return "cannot write " + tmp + ": " + std::strerror(err);
}

}  // namespace

std::string set_search_path_in_place(const std::string& file, const std::string& path, PathTag tag) {
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) return file + ": " + std::strerror(errno);
  // Mapped, not read: a gigabyte library costs page cache, not memory.
  MappedFile original(file);
  if (!original.ok()) return file + ": " + original.error();
  std::string err;
  auto ps = plan_patches(original.bytes(), path, tag, &err);
  if (!ps) return file + ": " + err;
  const std::string tmp = file + ".ts-edit." + std::to_string(::getpid());
  if (auto e = write_temp(file, tmp, *ps, st.st_mode); !e.empty()) return file + ": " + e;
  // Read back from the disk, not from memory: what the loader will see is what is checked.
  std::string why;
  {
    MappedFile back(tmp);
    why = !back.ok() ? back.error() : check_search_path(view(original.bytes()), view(back.bytes()), path, tag);
  }
  if (!why.empty()) {
    ::unlink(tmp.c_str());
    return file + ": the in-place edit did not check out: " + why;
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return file + ": cannot rename the edited copy over it: " + std::strerror(e);
  }
  return "";
}

}  // namespace ts::formats

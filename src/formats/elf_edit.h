#pragma once
// Editing an ELF file's library search path (DT_RPATH / DT_RUNPATH) in place, as chrpath does: the
// new string overwrites the old one's bytes in the dynamic string table and is NUL-padded, so no
// byte of the file moves. Removing the path drops its dynamic entries (the array closes up and ends
// in DT_NULL). What does not fit in place (a longer path, a new tag, NEEDED or SONAME edits), ELF32
// and big-endian files are left to patchelf: each refusal says why.
// The file is read by formats::ElfFile (no second parser), written to a temporary beside it, synced,
// read back and checked, then renamed over the original; on any failure the original is untouched.
#include <optional>
#include <string>
#include <string_view>

#include "formats/elf.h"

namespace ts::formats {

// Which tag the path is written under: DT_RPATH, DT_RUNPATH, or whichever the file has.
enum class PathTag { rpath, runpath, keep };

// "" when `path` can be written in place into `elf` under `tag` ("" removes it); else why not
// ("the new RPATH '...' (31 bytes) is longer than the old one (20 bytes)", ...).
std::string search_path_refusal(const ElfFile& elf, const std::string& path, PathTag tag);

// The file's bytes with the edit made and checked; nullopt and *error when it cannot be.
std::optional<std::string> edit_search_path(std::string_view bytes, const std::string& path, PathTag tag,
                                            std::string* error);

// The check after an edit, on the bytes read back: `after` carries `path` under `tag` (nothing for
// ""), and its NEEDED, SONAME and version needs are `before`'s. "" when it holds, else what differs.
std::string check_search_path(std::string_view before, std::string_view after, const std::string& path,
                              PathTag tag);

// The whole edit on a file, atomically (temporary, fsync, read back and checked, rename). "" on
// success, else the reason naming the file; the file is then as it was.
std::string set_search_path_in_place(const std::string& file, const std::string& path, PathTag tag);

}  // namespace ts::formats

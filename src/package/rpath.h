#pragma once
// Editing ELF search paths and dependency names: in place (formats/elf_edit.h) when the edit fits,
// else through patchelf (spawned with argv); which one is decided by choose_elf_editor. And the
// RPATH layout rules of data/kb/build.toml ([[rpath]]: torch/*.so gets $ORIGIN:$ORIGIN/lib, ...).
#include <string>
#include <vector>

#include "plan/build_kb.h"

namespace ts::package {

struct Patchelf {
  std::string exe;  // "" when patchelf is not installed
  bool available() const { return !exe.empty(); }
};

// `hint` is a path to use; "" searches PATH; "none" pretends it is absent (tests, dry runs).
Patchelf find_patchelf(const std::string& hint = "");

// Each returns "" on success, else patchelf's complaint naming the file.
std::string set_rpath(const Patchelf& p, const std::string& file, const std::string& rpath);
std::string replace_needed(const Patchelf& p, const std::string& file, const std::string& from,
                           const std::string& to);
std::string set_soname(const Patchelf& p, const std::string& file, const std::string& soname);

// Which tool makes a file's edits: one rule for every file, whether or not patchelf is installed,
// so a wheel comes out byte for byte the same on every machine. In place when the only edit is the
// search path and it fits in the old one's bytes; else patchelf; else none (`why` says what is needed).
enum class ElfEditor { in_place, patchelf, none };
struct ElfEditChoice {
  ElfEditor editor = ElfEditor::none;
  std::string why;  // why not in place ("" when in place)
  const char* label() const { return editor == ElfEditor::in_place ? "in place" : "patchelf"; }
};
// `rpath` is the search path wanted (DT_RPATH; "" = none) when `rpath_changes`; `other_edits` is a
// NEEDED rename or a SONAME to set.
ElfEditChoice choose_elf_editor(const Patchelf& p, const std::string& file, const std::string& rpath,
                                bool rpath_changes, bool other_edits);
// Writes `rpath` as DT_RPATH with the chosen editor: "" on success, else why, naming the file.
std::string write_rpath(const ElfEditChoice& c, const Patchelf& p, const std::string& file, const std::string& rpath);

// The [[rpath]] rule of `package` ("wheel", "conda") whose glob matches the path inside the
// archive ("torch/lib/libc10.so"; '*' does not cross '/'); nullptr when none does.
const plan::Rpath* rpath_rule(const plan::BuildKb& kb, const std::string& package,
                              const std::string& rel_path);

// "$ORIGIN/<relative path from dir `from` to dir `to`>", both relative to the wheel root.
std::string origin_path(const std::string& from_dir, const std::string& to_dir);

// RPATH entries split on ':', and joined back (each once, order kept).
std::vector<std::string> split_rpath(const std::string& rpath);
std::string join_rpath(const std::vector<std::string>& entries);

}  // namespace ts::package

#pragma once
// Editing ELF search paths and dependency names through patchelf (spawned with argv), and the
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

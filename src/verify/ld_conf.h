#pragma once
// The loader's system directories: what ld.so.cache would hold (the directories of /etc/ld.so.conf
// and its includes, in order), then the built-in defaults. Read under a root so tests use a fake one.
#include <string>
#include <vector>

namespace ts::verify {

// Directories listed by ROOT/etc/ld.so.conf, following "include GLOB" lines (relative globs are
// relative to the including file's directory), each directory once, in order; missing files add nothing.
std::vector<std::string> ld_so_conf_dirs(const std::string& root = "/");

// ld_so_conf_dirs(root) followed by the loader's trusted directories (/lib64, /usr/lib64, /lib,
// /usr/lib; a library of the wrong ELF class or machine found there is skipped, as ld.so skips it).
std::vector<std::string> system_library_dirs(const std::string& root = "/");

}  // namespace ts::verify

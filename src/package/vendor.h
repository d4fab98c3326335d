#pragma once
// Vendoring a library into a wheel the way auditwheel does: copied into <pkg>.libs/ under a name
// with the first 8 hex digits of its sha256 (libfoo.so.1 -> libfoo-1a2b3c4d.so.1), so two wheels
// bundling different builds of the same library never collide in one process.
#include <string>
#include <vector>

namespace ts::package {

// The hash-suffixed name for `name` whose bytes are in `file`; "" when the file cannot be read.
std::string vendored_name(const std::string& name, const std::string& file);

// The first dirs[i]/name that is an ELF of this class and machine (as ld.so skips others); "".
std::string find_library(const std::string& name, const std::vector<std::string>& dirs,
                         int elf_class, unsigned machine);

}  // namespace ts::package

#pragma once
// Reading a log into a Scanner: a file (mapped in slices, so memory stays bounded), stdin or any
// descriptor (read in big chunks), gzip'd or not (detected by its magic bytes, not the name).
#include <string>

#include "triage/scanner.h"

namespace ts::triage {

// False with a one-line reason when the log cannot be read (missing, a directory, corrupt gzip).
bool scan_file(const std::string& path, Scanner& scanner, std::string& error);  // "-" = stdin
bool scan_fd(int fd, Scanner& scanner, std::string& error);

}  // namespace ts::triage

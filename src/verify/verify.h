#pragma once
// verify over files and wheels: for each ELF, whether it reads, whether every NEEDED resolves, which symbol
// versions it needs, and whether its GPU code covers the arch list asked for.
#include <optional>
#include <string>
#include <vector>

#include "core/arch_list.h"
#include "verify/cuda_code.h"
#include "verify/resolve.h"
#include "verify/verdict.h"

namespace ts::verify {

struct VerifyOptions {
  std::optional<ArchList> arches;  // unset: the GPU code is reported, not judged
  bool only_asked_arches = false;  // a plan's target-only list: arches beyond it fail (arch_check.h)
  bool no_device_code = false;     // the plan found no CUDA source the package builds: a library without GPU code is as planned
  ResolveOptions resolve;
};

// What verify learned of one file, beside its verdicts (for --json and for later stages).
struct FileFacts {
  std::string path;
  bool elf = false;
  std::string kind;                      // "ELF64 LSB shared object, x86-64"
  std::string soname;
  std::vector<std::string> needed, rpath, runpath;
  std::vector<std::string> versions;     // the newest GLIBC_, GLIBCXX_, CXXABI_ version needed
  std::optional<CudaCode> cuda;          // set when the file has a fatbin section
};

struct VerifyReport {
  std::vector<FileFacts> files;
  std::vector<Verdict> verdicts;
};

// The files to check: each path as given, and under each directory every file (symlinks followed)
// that starts with the ELF magic, each real file once (CMakeFiles/ directories, CMake's own, skipped). nullopt and *error when a path does not exist.
std::optional<std::vector<std::string>> collect_files(const std::vector<std::string>& paths, std::string* error);

// A zip file (a wheel) is opened and its libraries checked in its own layout, named "W.whl!member".
VerifyReport verify_files(const std::vector<std::string>& files, const VerifyOptions& o);

}  // namespace ts::verify

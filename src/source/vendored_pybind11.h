#pragma once
// build.pybind11-torch, the CMake half: a project that add_subdirectory()s a vendored pybind11 older
// than the target Python needs (spconv's third_party/pybind11 of 2019 reads PyFrameObject's fields,
// which Python 3.11 made opaque) gets that directory's CMakeLists.txt replaced, in the build's copy of
// the source only, by torchsmith's stand-in (src/run/pyshim/fetch_pybind11.cmake), which takes the
// build's own new enough pybind11 (the target Python's package, a system one, or torch's headers) and
// points the project's targets that name the old include/ at it. The edit is journaled in the fix
// journal (kJournalRel), so `torchsmith fix --revert` restores the file byte for byte, and stays for
// the source ports' retry after it (their own journal is reverted apart).
#include <string>
#include <utility>
#include <vector>

namespace ts::source {

// The oldest pybind11 a Python needs, from a "3.11:2.10 3.12:2.11 3.13:2.13" table (signatures.toml's
// TORCHSMITH_PYBIND11_FOR) and a version "3.12.3": {2, 11}; {0, 0} when no entry applies.
std::pair<int, int> pybind11_needed(const std::string& table, const std::string& python_version);

struct VendoredPybind11 {
  std::string dir;         // relative to the tree: "third_party/pybind11"
  std::string cmake_file;  // the CMake file whose add_subdirectory() names it
  int major = 0, minor = 0;
  bool old = false;        // older than needed: replaced (or, on a dry run, would be)
};

struct Pybind11StandIn {
  bool ok = true;
  std::vector<std::string> errors;
  std::vector<VendoredPybind11> found;  // every vendored pybind11 a CMake file adds, old or not
  std::string diff;                     // unified diff of every CMakeLists.txt replaced
  bool changed() const { return !diff.empty(); }
};

// Scans the tree's CMake files (CMakeLists.txt, *.cmake; .git/, build/, .torchsmith/ skipped) for
// add_subdirectory(DIR) where DIR/include/pybind11/detail/common.h says a version below `need` and
// DIR/CMakeLists.txt exists; each such DIR/CMakeLists.txt becomes `stand_in` after lines that tell it
// the version needed and the old include/ (nothing is written on a dry run). A directory named through
// a variable other than the source-dir ones, or one outside the tree, is not followed.
// `python` is the plan's interpreter: the stand-in asks it for the Python headers and module suffix
// first, before the project's own Python variables.
Pybind11StandIn stand_in_vendored_pybind11(const std::string& tree, std::pair<int, int> need,
                                           const std::string& stand_in, bool dry_run = false,
                                           const std::string& python = "");

}  // namespace ts::source

#pragma once
// A wheel's runtime dependencies (its Requires-Dist, markers evaluated for the Python under test,
// extras left out) installed where only verify sees them: a fresh venv made with
// --system-site-packages whose site also reads the interpreter's own (a .pth), so pip counts what is
// already there — torch above all — as installed, and writes only into the venv. torch is never
// installed: a constraint pins it to the one under test, so a dependency that wants another torch
// is "not installable", never a download. One verdict per dependency, apart from the package's own.
#include <chrono>
#include <string>
#include <vector>

#include "verify/verdict.h"

namespace ts::verify {

struct DepsOptions {
  std::string python;                      // the interpreter under test
  std::vector<std::string> requires_dist;  // as METADATA writes them
  std::string dir;                         // fresh scratch; the venv goes in DIR/deps
  std::string wheelhouse;                  // "" = the package index (PyPI); else only this directory
  std::string cache_dir;                   // pip's download and wheel cache ("" = none)
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
};

struct DepsResult {
  std::vector<Verdict> verdicts;        // "dependency scipy": pass / fail "not installable: ..."
  std::vector<std::string> pythonpath;  // the venv's site directories, to follow the wheel's
  std::vector<std::string> wanted;      // the requirements that applied here, as given to pip
};

DepsResult install_dependencies(const DepsOptions& o);

// The dependency's installed version from pip's "Successfully installed a-1.0 b_c-2" line ("" when
// not there: it was already satisfied).
std::string installed_version(const std::string& pip_output, const std::string& key);

}  // namespace ts::verify

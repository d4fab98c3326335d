#pragma once
// A wheel's runtime dependencies (its Requires-Dist, markers evaluated for the Python under test,
// extras left out) installed where only verify sees them: a fresh venv made with
// --system-site-packages whose site also reads the interpreter's own (a .pth), so pip counts what is
// already there — torch above all — as installed, and writes only into the venv. torch is never
// installed: a constraint pins it to the one under test, so a dependency that wants another torch
// is "not installable", never a download; nor is what torch's own binaries are built against (the KB's
// NumPy range for that torch release: a NumPy-1 torch breaks under NumPy 2). One verdict per
// dependency, apart from the package's own.
#include <chrono>
#include <string>
#include <vector>

#include "kb/kb.h"
#include "verify/verdict.h"

namespace ts::verify {

struct DepsOptions {
  std::string python;                      // the interpreter under test
  std::vector<std::string> requires_dist;  // as METADATA writes them
  // What the package imports but its wheel does not declare (the recipe's runtime_requires), installed
  // the same way; one the wheel also declares is asked for once, as the wheel writes it.
  std::vector<std::string> undeclared;
  std::string dir;                         // fresh scratch; the venv goes in DIR/deps
  std::string wheelhouse;                  // "" = the package index (PyPI); else only this directory
  std::string cache_dir;                   // pip's download and wheel cache ("" = none)
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  const kb::Kb* kb = nullptr;              // the torch releases' NumPy ranges (nullptr = none kept)
};

struct DepsResult {
  std::vector<Verdict> verdicts;        // "dependency scipy": pass / fail "not installable: ..."
  std::vector<std::string> pythonpath;  // the venv's site directories, to follow the wheel's
  std::vector<std::string> wanted;      // the requirements that applied here, as given to pip
};

DepsResult install_dependencies(const DepsOptions& o);

// The constraint lines that keep the torch under test working: torch pinned to itself, and NumPy to
// the range its release line runs with (torch.toml `numpy`), when the KB knows that release.
std::vector<std::string> torch_constraints(const std::string& torch_version, const kb::Kb* kb);

// The dependency's installed version from pip's "Successfully installed a-1.0 b_c-2" line ("" when
// not there: it was already satisfied).
std::string installed_version(const std::string& pip_output, const std::string& key);

}  // namespace ts::verify

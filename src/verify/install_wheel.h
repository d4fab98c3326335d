#pragma once
// A wheel installed where nothing else can see it: a fresh target directory put first on
// PYTHONPATH (torch itself), or a fresh venv with --system-site-packages whose site-packages gets
// the wheel (an extension, so torch comes from the interpreter's own site).
#include <chrono>
#include <string>

namespace ts::verify {

struct InstallOptions {
  std::string python;  // the interpreter under test
  std::string wheel;
  std::string dir;    // a fresh, empty scratch directory (the target or venv goes inside)
  bool venv = false;  // extension: venv with --system-site-packages
  // Into a target, a wheel of site-packages files alone is extracted natively unless this is set.
  bool prefer_pip = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
};

struct Installed {
  bool ok = false;
  std::string detail;      // how it went: "pip 23.0.1 installed it into DIR" or why not
  std::string python;      // the interpreter to run checks with (the venv's for an extension)
  std::string pythonpath;  // "" or the target directory
  std::string site;        // where the wheel's files went
};

// Where a non-venv install puts the wheel (known before it runs, so a checker can start early).
inline std::string target_site(const std::string& dir) { return dir + "/target"; }

// Into a target, a wheel whose files all belong in site-packages (root, .dist-info, *.data/purelib
// and platlib) is extracted natively; else `PY -m pip install --no-deps --no-index --target SITE
// WHEEL` (pip's network and config off). When PY has no pip, the wheel's files are extracted
// natively anyway (other .data categories are skipped and counted).
Installed install_wheel(const InstallOptions& o);

}  // namespace ts::verify

#pragma once
// What a package's own build files say about it, read by their format's parser: pyproject.toml
// (PEP 517/518/621) with toml++ behind the one screened TOML entry, setup.cfg's [metadata] and
// [options] as setuptools reads them (INI, continuation lines for lists).
#include <optional>
#include <string>
#include <vector>

namespace ts::plan {

struct PackageMetadata {
  std::string name, version;           // literal values only ("" when dynamic or absent)
  std::vector<std::string> build_requires;  // [build-system] requires / [options] setup_requires
  std::string build_backend;           // [build-system] build-backend ("" = setuptools' legacy default)
};

// nullopt when the text is not valid TOML (the caller may fall back to reading literals).
std::optional<PackageMetadata> read_pyproject(const std::string& text, std::string* error = nullptr);

// setup.cfg: [metadata] name/version and [options] setup_requires; never fails (INI is lenient).
PackageMetadata read_setup_cfg(const std::string& text);

}  // namespace ts::plan

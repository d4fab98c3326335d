#pragma once
// PEP 508 requirements as METADATA's Requires-Dist writes them ("scipy>=1.4; python_version >=
// '3.8'", "pytest; extra == 'test'"), and their environment markers evaluated for the Python under
// test, so verify installs what the package needs there and nothing an extra asks for.
#include <map>
#include <optional>
#include <string>

#include "core/package_name.h"  // normalize_name (PEP 503)

namespace ts::verify {

struct Requirement {
  std::string name;       // as written: "PyYAML"
  std::string key;        // PEP 503 normalized: "pyyaml"
  std::string specifier;  // what pip gets: "PyYAML>=5.1" or "foo @ https://..." (without the marker)
  std::string marker;     // "" = always
};

// nullopt and *error for text that names no distribution.
std::optional<Requirement> parse_requirement(const std::string& text, std::string* error);

// The marker variables of one interpreter: python_version, python_full_version, sys_platform,
// platform_system, platform_machine, os_name, implementation_name, platform_python_implementation,
// platform_release, implementation_version. `extra` is "" (extras are not installed).
using MarkerEnv = std::map<std::string, std::string>;

// true when the marker holds in env; nullopt and *error when it does not parse.
std::optional<bool> evaluate_marker(const std::string& marker, const MarkerEnv& env, std::string* error);

// The Python one-liner whose stdout is the MarkerEnv as JSON (standard library only).
const char* marker_env_script();

}  // namespace ts::verify

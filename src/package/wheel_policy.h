#pragma once
// The manylinux policies and torch-aware exclusions of data/kb/manylinux.toml: which symbol
// versions and system libraries a manylinux_2_X wheel may need, and which libraries an extension
// wheel must leave to torch or the driver instead of vendoring them.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "kb/table.h"

namespace ts::package {

struct PolicyArch {
  std::string arch;                                   // "x86_64", "aarch64"
  std::map<std::string, std::string> max;             // "GLIBC" -> "2.28", "GLIBCXX", "CXXABI", "GCC"
  std::map<std::string, std::vector<std::string>> extra;  // "CXXABI" -> {"TM_1"}
};

struct Policy : kb::Entry {
  std::string name;   // "manylinux_2_28"
  std::string glibc;  // "2.28"
  std::vector<std::string> aliases, libs;
  std::vector<PolicyArch> arches;
  const PolicyArch* for_arch(std::string_view arch) const;
};

struct External : kb::Entry {
  std::string pattern;   // "libtorch*.so*"
  std::string provider;  // "torch"
};

struct WheelPolicies {
  std::vector<Policy> policies;  // oldest glibc first
  std::vector<External> externals;
  // The exclusion a NEEDED name matches, or nullptr.
  const External* external(std::string_view needed) const;
};

// The embedded manylinux.toml, then DIR/manylinux.toml of each overlay (same name replaces).
// Errors are "file:line: message".
WheelPolicies load_wheel_policies(const std::vector<std::string>& overlay_dirs,
                                  std::vector<std::string>& errors);
bool read_wheel_policies(WheelPolicies& into, std::string_view file, std::string_view text,
                         std::vector<std::string>& errors);

// A required version ("GLIBC_2.17", "CXXABI_TM_1") fits an arch policy; namespaces the policy does
// not list (libgomp's GOMP_4.0, ...) are not its business and fit.
bool version_fits(const PolicyArch& p, std::string_view required);

// "2.2.5" < "2.17": numeric, dot by dot.
bool dotted_less(std::string_view a, std::string_view b);

// manylinux.toml as a KB table (kb/table.h), with kb check's validator.
void validate_wheel_policy_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<WheelPolicies> kWheelPolicyTable{
    {"wheel policies", "manylinux.toml", &validate_wheel_policy_file}, &load_wheel_policies};

}  // namespace ts::package

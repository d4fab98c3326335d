#pragma once
// BuildSpec: what the user asked for, from the command line or torchsmith.toml, checked for form
// (not for feasibility: that is the plan's job). Every field remembers where it was set, so a
// plan's decisions and errors can point at "torchsmith.toml:7" or "--arch".
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ts::spec {

enum class BuildType { release, debug, relwithdebinfo };
const char* build_type_name(BuildType t);  // "Release", "Debug", "RelWithDebInfo" (CMake spelling)

struct BuildSpec {
  std::string package = "torch";  // what to build; extension packages come in later issues
  std::string version;            // exact release asked for: "2.4.1"
  std::string cuda;               // "12.8"; "" = choose among the installed toolkits
  std::string arch;               // "native" (default), "portable", "8.9;12.0+PTX", "ada"
  std::string python;             // interpreter path, or a version such as "3.8"; "" = choose
  std::vector<std::string> with, without;  // feature names (build.toml [[feature]] name)
  BuildType build_type = BuildType::release;
  int jobs = 0;                   // 0 = auto (from memory)
  std::uint64_t mem_budget_bytes = 0;  // 0 = what the host has
  std::vector<std::string> packages{"wheel"};  // wheel, conda, libtorch
  std::string source;             // "" (official repo at the tag), a directory, or URL@REF
  std::string facts_file;         // --facts: plan for the machine a doctor --json report describes
  std::string root = "/";         // --root: plan for the machine under this directory
  // field name -> where it was set: "--arch", "torchsmith.toml:7"; absent = default.
  std::map<std::string, std::string> origin;

  std::string origin_of(const std::string& field) const;  // "default" when unset
  bool wants(const std::string& package_kind) const;      // packages contains it
};

// Source given as a git URL with a revision ("https://github.com/pytorch/pytorch@v2.4.1") or a dir.
struct SourceRef {
  std::string url;  // "" for a directory
  std::string ref;
  std::string dir;
};
SourceRef parse_source(const std::string& text);

void to_json(nlohmann::json& j, const BuildSpec& s);
void from_json(const nlohmann::json& j, BuildSpec& s);

}  // namespace ts::spec

#pragma once
// BuildSpec: what the user asked for, from the command line or torchsmith.toml, checked for form
// (not for feasibility: that is the plan's job). Every field remembers where it was set, so a
// plan's decisions and errors can point at "torchsmith.toml:7" or "--arch".
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/cuda_arch.h"
#include "core/fact_version.h"
#include "core/version.h"

namespace ts::spec {

// --python as asked: an interpreter path, or a version among those found; neither = choose.
struct PythonAsk {
  std::string path;                // "/usr/bin/python3.8" (or a name no version grammar reads)
  std::optional<Version> version;  // 3.8
  // A path when the text has a '/' or is no version, else the version; "" is neither.
  static PythonAsk of(const std::string& text);
  bool empty() const { return path.empty() && !version; }
  std::string text() const { return version ? version->original() : path; }  // as written
};

enum class BuildType { release, debug, relwithdebinfo };
const char* build_type_name(BuildType t);  // "Release", "Debug", "RelWithDebInfo" (CMake spelling)

struct BuildSpec {
  std::string package = "torch";  // what to build; extension packages come in later issues
  FactVersion version;            // exact release asked for: "2.4.1" (parsed where the request is read)
  std::optional<Version> cuda;    // --cuda 12.8 (checked: X.Y[.Z]); none = choose among the installed toolkits
  std::string arch;               // "native" (default), "portable", "8.9;12.0+PTX", "ada"
  // The arches `arch` names by number, parsed where the request is checked (a family or native
  // resolves in the plan): what the toolkit step reads before the arches step runs.
  std::vector<CudaArch> arch_numbers;
  PythonAsk python;
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

// The arches an --arch text names by number ("8.9;12.0+PTX"; names such as ada add none); empty
// when it does not parse.
std::vector<CudaArch> arch_numbers(std::string_view text);

void to_json(nlohmann::json& j, const BuildSpec& s);
void from_json(const nlohmann::json& j, BuildSpec& s);

}  // namespace ts::spec

#pragma once
// Recipe: how one extension package (something that builds against torch) is fetched, built and
// smoke-tested, as data (data/kb/packages/*.toml). The extension planner reads recipes; a package
// without one still builds through the generic path (recipe_generic()).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/package_name.h"  // normalize_name: how names and aliases are compared
#include "core/version.h"
#include "core/version_range.h"
#include "kb/kb.h"
#include "kb/table.h"

namespace ts::plan {

// Which package versions go with which torch versions; both ranges parsed when the recipe loads
// (messages quote the file's text through original()).
struct RecipeCompat {
  VersionRange version;  // PEP 440 range over the package version: ">=2.1,<2.2"
  VersionRange torch;    // range over torch: ">=2.1,<2.2"
  std::string source;
};

struct Recipe : kb::Entry {
  std::string name;                  // PEP 503 normalized: "torch-scatter"
  std::vector<std::string> aliases;  // other spellings people use: "torch_scatter", "mmcv-full"
  std::string import_name;           // "torch_scatter"
  std::string git_url;               // "https://github.com/rusty1s/pytorch_scatter"
  std::string tag;                   // tag for a version: "{version}", "v{version}"
  std::string build_system;          // "setuptools" (cpp_extension), "pep517", "cmake"
  bool cuda_only = false;            // no CPU build exists (flash-attention, causal-conv1d)
  std::map<std::string, std::string> env;       // always set
  std::map<std::string, std::string> cuda_env;  // set when building with CUDA: FORCE_CUDA=1
  std::map<std::string, std::string> cpu_env;   // set when building without CUDA
  // The knob that takes the arch list and its spelling: "torch" = "8.6;9.0+PTX",
  // "cmake" = "86;90", "semicolon-sm" = "80;90" without dots (FLASH_ATTN_CUDA_ARCHS).
  std::string arch_env = "TORCH_CUDA_ARCH_LIST";
  std::string arch_format = "torch";
  std::optional<Version> arch_env_since;  // first version whose build reads arch_env ("2.7.3"); none = every version
  std::vector<std::string> jobs_env{"MAX_JOBS"};  // knobs that take the job count
  std::string nvcc_threads_env;                   // "NVCC_THREADS" where the package reads one
  std::uint64_t mem_per_job = 0;                  // bytes a compile job needs; 0 = the default model
  bool serial_build = false;  // its setup.py compiles one file at a time (use_ninja=False)
  // Its setuptools extensions may be built side by side (src/run/pyshim); false when one links another.
  bool parallel_extensions = true;
  VersionRange torch;         // torch range any version of it supports (any = not known)
  std::vector<RecipeCompat> compat;
  std::string smoke;          // Python run after install: imports it and runs one op on `device`
  // What it imports at run time but does not declare (PEP 508 lines): verify installs them as it
  // installs the wheel's Requires-Dist.
  std::vector<std::string> runtime_requires;
};

// "" when text starts with a PEP 508 distribution name followed by a version, marker or URL part;
// else what is wrong. verify parses the whole line (verify/requirement.h).
std::string requirement_name_problem(std::string_view text);

struct RecipeSet {
  std::vector<Recipe> recipes;
  // By name or alias, case-insensitive, '_' and '-' and '.' equal (PEP 503).
  const Recipe* find(std::string_view name) const;
};

// The git tag of a version: the recipe's tag with {version} replaced; "" when the recipe has none.
std::string tag_for(const Recipe& r, std::string_view version);

// The embedded data/kb/packages/*.toml, then DIR/packages/*.toml of each overlay (same name replaces).
// Errors are "file:line: message"; a file with errors contributes nothing.
RecipeSet load_recipes(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);
// One file's text appended to out; returns its errors.
std::vector<std::string> parse_recipes_text(std::string_view file_name, std::string_view text,
                                            std::vector<Recipe>& out);
// For an unknown package: setuptools, TORCH_CUDA_ARCH_LIST, MAX_JOBS, FORCE_CUDA=1 with CUDA.
Recipe recipe_generic(std::string_view name);
// packages/ as a KB table (kb/table.h): kb check validates each file against the other files of
// its place (the embedded set, or the overlay's folder), so a name claimed twice is reported.
void validate_recipe_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<RecipeSet> kRecipeTable{{"packages", "packages/", &validate_recipe_file}, &load_recipes};

}  // namespace ts::plan

#pragma once
// A Fix is data (data/kb/fixes/*.toml): when it applies (package, versions, host and plan facts) and
// what it does (environment, CMake options, anchored file edits). This header is what the planner
// and `kb check` use: load, validate, select, hash.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cuda_arch.h"
#include "core/fact_version.h"
#include "core/version_range.h"
#include "kb/table.h"

namespace ts::source {

// The facts a fix's conditions are tested against, each parsed where it was read (a template
// writes its text). Empty or unparsable = unknown, and a condition on an unknown fact does not
// hold (a fix is never applied on a guess).
struct FixContext {
  std::string package = "torch";
  FactVersion version;  // the package version being built: "2.4.1" (a local/pre suffix is ignored)
  FactVersion cuda;     // nvcc version, "12.8"
  FactVersion cmake;    // "4.2.0"
  FactVersion gcc;      // host compiler version, "12.2.0"
  std::vector<CudaArch> arches;  // arches asked for
};

enum class EditOp { insert_before, insert_after, replace };
std::string_view to_string(EditOp op);

// One anchored edit: the anchor must match exactly once in the file, else "upstream drifted".
struct FileEdit {
  std::string file;    // relative to the source tree, '/'-separated, no '..'
  std::string anchor;  // exact text, or an ECMAScript regex (multiline: ^ and $ at line ends)
  bool regex = false;
  EditOp op = EditOp::insert_after;
  std::string text;    // may name {{cuda}} {{version}} {{cmake}} {{gcc}} {{arch_list}} when template
  bool templated = false;
  int line = 0;        // where the edit is written in its fix file
};

struct FixConditions {
  std::string package = "torch";
  std::optional<VersionRange> version, cuda, cmake, gcc;
  std::vector<CudaArch> arches_any;  // holds when any asked arch has one of these capabilities
};

struct Fix {
  std::string id, reason, source;
  std::string checked;  // the upstream commits/tags the anchors were checked against
  std::string file;     // origin: "fixes/torch-cmake.toml" or an overlay path
  int line = 0;
  FixConditions when;
  std::vector<std::pair<std::string, std::string>> env;  // KEY=VALUE to set for the build
  std::vector<std::string> cmake_options;                // "-DX=Y"
  std::vector<FileEdit> edits;
};

struct FixSet {
  std::vector<Fix> fixes;
  const Fix* find(std::string_view id) const;
};

// Every fixes/*.toml: the embedded ones, then each overlay dir's fixes/*.toml (DIR/fixes/*.toml and
// DIR/*.toml when DIR itself is a fixes directory). A later fix with the same id replaces the earlier.
// Errors are "file:line: message"; a file with errors contributes nothing.
FixSet load_fixes(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);
// Parses one fixes file into out (appended); returns its errors. file_name is used in messages.
std::vector<std::string> parse_fixes_text(std::string_view file_name, std::string_view text, std::vector<Fix>& out);
// For `kb check`: schema, ranges, arches, regexes that compile, template names, duplicate ids.
std::vector<std::string> check_fixes_text(std::string_view file_name, std::string_view text);
// fixes/ as a KB table (kb/table.h): kb check validates each file with check_fixes_text.
void validate_fixes_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<FixSet> kFixTable{{"fixes", "fixes/", &validate_fixes_file}, &load_fixes};

// The fixes whose conditions all hold, in set order.
std::vector<const Fix*> select_fixes(const FixSet& set, const FixContext& ctx);
bool fix_applies(const Fix& fix, const FixContext& ctx);
// sha256 of the fix's content (conditions and actions, not its origin), for the lock file.
std::string fix_hash(const Fix& fix);
// Edit text with {{name}} placeholders filled from the context (only when edit.templated).
std::string expand_template(const std::string& text, const FixContext& ctx);
// The env values with placeholders filled (env values are always templates), in order.
std::vector<std::pair<std::string, std::string>> fix_env(const Fix& fix, const FixContext& ctx);

}  // namespace ts::source

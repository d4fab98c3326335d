#pragma once
// The knowledge a command reads, in one object: the embedded KB, ~/.config/torchsmith/kb and the
// --kb overlays (the one place these directories are assembled). Each stage's table is read once,
// on its first use, and kept for the rest of the command; commands reach it through
// GlobalOptions::knowledge() and pass the tables down to the stages.
#include <memory>
#include <string>
#include <vector>

#include "kb/kb.h"
#include "package/wheel_policy.h"
#include "plan/build_kb.h"
#include "plan/planner.h"
#include "plan/provision_request.h"
#include "plan/recipe.h"
#include "source/fix.h"
#include "source/spec.h"
#include "triage/signature.h"

namespace ts::cli {

// A table as its stage's reader left it, with that reader's "file:line: ..." errors.
template <class T>
struct Table {
  T value{};
  std::vector<std::string> errors;
};

class Knowledge {
 public:
  // The embedded files and then these overlay directories, later ones winning.
  explicit Knowledge(std::vector<std::string> overlay_dirs);
  // kb::default_overlay_dirs() and then each --kb DIR.
  static std::vector<std::string> overlay_dirs(const std::vector<std::string>& kb_dirs);

  const std::vector<std::string>& dirs() const { return dirs_; }

  const Table<kb::Kb>& core();                                // cuda, gpus, torch, families, tegra, resources
  const Table<plan::BuildKb>& build();                        // build.toml
  const Table<source::FixSet>& fixes();                       // fixes/
  const Table<std::vector<source::SourceEntry>>& sources();  // sources.toml
  const Table<triage::SignatureSet>& signatures();            // signatures.toml
  const Table<plan::RecipeSet>& recipes();                    // packages/
  const Table<plan::ProvisionCatalog>& provision();           // provision.toml
  const Table<package::WheelPolicies>& wheel_policies();      // manylinux.toml

  // What the planner reads (core, build, fixes), its errors those three tables' errors.
  plan::Knowledge planner();

 private:
  std::vector<std::string> dirs_;
  std::unique_ptr<Table<kb::Kb>> core_;
  std::unique_ptr<Table<plan::BuildKb>> build_;
  std::unique_ptr<Table<source::FixSet>> fixes_;
  std::unique_ptr<Table<std::vector<source::SourceEntry>>> sources_;
  std::unique_ptr<Table<triage::SignatureSet>> signatures_;
  std::unique_ptr<Table<plan::RecipeSet>> recipes_;
  std::unique_ptr<Table<plan::ProvisionCatalog>> provision_;
  std::unique_ptr<Table<package::WheelPolicies>> wheel_policies_;
};

// Each stage's validator for the files it reads, registered with kb check (kb/check.h): every file
// a Knowledge table reads has one.
void register_stage_validators();

}  // namespace ts::cli

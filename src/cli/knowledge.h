#pragma once
// The knowledge a command reads, in one object: the embedded KB, ~/.config/torchsmith/kb and the
// --kb overlays (the one place these directories are assembled). Each table is declared by the stage
// that reads it (a kb::TableDef: name, file or folder in data/kb, reader, validator) and listed once
// in knowledge.cpp; a table is read once, on its first use, and kept for the rest of the command.
// Commands reach it through GlobalOptions::knowledge() and pass the tables down to the stages.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "kb/table.h"
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

// Every table a command may read, as its stage declares it: what Knowledge reads and what kb check
// validates. A new KB table is added here and nowhere else in the CLI.
const std::vector<kb::TableSpec>& stage_tables();

class Knowledge {
 public:
  // The embedded files and then these overlay directories, later ones winning.
  explicit Knowledge(std::vector<std::string> overlay_dirs);
  // kb::default_overlay_dirs() and then each --kb DIR.
  static std::vector<std::string> overlay_dirs(const std::vector<std::string>& kb_dirs);

  const std::vector<std::string>& dirs() const { return dirs_; }

  // Any listed table, read with these overlays on first use.
  template <class T>
  const Table<T>& get(const kb::TableDef<T>& def) {
    std::shared_ptr<void>& slot = slot_for(def.spec);
    if (!slot) {
      auto t = std::make_shared<Table<T>>();
      t->value = def.read(dirs_, t->errors);
      slot = t;
    }
    return *static_cast<const Table<T>*>(slot.get());
  }

  const Table<kb::Kb>& core() { return get(kb::kCoreTable); }  // cuda, gpus, torch, families, tegra, resources
  const Table<plan::BuildKb>& build() { return get(plan::kBuildTable); }
  const Table<source::FixSet>& fixes() { return get(source::kFixTable); }
  const Table<std::vector<source::SourceEntry>>& sources() { return get(source::kSourceTable); }
  const Table<triage::SignatureSet>& signatures() { return get(triage::kSignatureTable); }
  const Table<plan::RecipeSet>& recipes() { return get(plan::kRecipeTable); }
  const Table<plan::ProvisionCatalog>& provision() { return get(plan::kProvisionTable); }
  const Table<package::WheelPolicies>& wheel_policies() { return get(package::kWheelPolicyTable); }

  // What the planner reads (core, build, fixes), its errors those three tables' errors.
  plan::Knowledge planner();

 private:
  // The table's slot; a table missing from stage_tables() is a programming error (it would escape kb check).
  std::shared_ptr<void>& slot_for(const kb::TableSpec& spec);

  std::vector<std::string> dirs_;
  std::map<std::string_view, std::shared_ptr<void>> tables_;  // by TableSpec::name
};

}  // namespace ts::cli

#include "cli/knowledge.h"

#include <stdexcept>

#include "cli/commands.h"
#include "source/port.h"
#include "triage/entity_table.h"

namespace ts::cli {

const std::vector<kb::TableSpec>& stage_tables() {
  static const std::vector<kb::TableSpec> tables = {
      kb::kCoreTable.spec,          // cuda, families, tegra, torch, gpus, resources (.toml)
      plan::kBuildTable.spec,       // build.toml
      plan::kRecipeTable.spec,      // packages/
      plan::kProvisionTable.spec,   // provision.toml
      source::kFixTable.spec,       // fixes/
      source::kPortTable.spec,      // ports.toml
      source::kSourceTable.spec,    // sources.toml
      triage::kSignatureTable.spec, // signatures.toml
      triage::kHeaderTable.spec,    // headers.toml  } read with the signatures:
      triage::kModuleTable.spec,    // modules.toml  } the entity tables (triage/entity_table.h)
      triage::kTritonTable.spec,    // triton.toml   }
      triage::kPtxTable.spec,       // ptx.toml      }
      triage::kLibstdcxxTable.spec, // libstdcxx.toml }
      triage::kProgramTable.spec,   // programs.toml  }
      triage::kDependencyTable.spec, // dependencies.toml }
      triage::kStdlibTable.spec,    // stdlib.toml   }
      triage::kCudaApiTable.spec,   // cuda_api.toml }
      package::kWheelPolicyTable.spec,  // manylinux.toml
  };
  return tables;
}

Knowledge::Knowledge(std::vector<std::string> overlay_dirs) : dirs_(std::move(overlay_dirs)) {}

std::vector<std::string> Knowledge::overlay_dirs(const std::vector<std::string>& kb_dirs) {
  std::vector<std::string> dirs = kb::default_overlay_dirs();
  dirs.insert(dirs.end(), kb_dirs.begin(), kb_dirs.end());
  return dirs;
}

std::shared_ptr<void>& Knowledge::slot_for(const kb::TableSpec& spec) {
  for (const auto& t : stage_tables())
    if (t.name == spec.name && t.where == spec.where) return tables_[t.name];
  throw std::logic_error("KB table '" + std::string(spec.name) + "' is not listed in stage_tables()");
}

Knowledge& GlobalOptions::knowledge() const {
  if (!knowledge_) knowledge_ = std::make_shared<Knowledge>(Knowledge::overlay_dirs(kb_dirs));
  return *knowledge_;
}

plan::Knowledge Knowledge::planner() {
  plan::Knowledge k;
  k.kb = core().value;
  k.build = build().value;
  k.fixes = fixes().value;
  // build.undeclared-module asks modules.toml, the table triage reasons with, which module is a
  // build-time dependency and what installs it.
  const auto& modules = get(triage::kModuleTable);
  for (const auto& m : modules.value.modules)
    if (m.build_signature == "PYTHON_BUILD_DEPS_MISSING")
      k.build.build_modules.push_back({m.name, m.pypi, m.source + " (" + m.file + ":" + std::to_string(m.line) + ")"});
  for (const auto* t : {&core().errors, &build().errors, &fixes().errors, &modules.errors})
    k.errors.insert(k.errors.end(), t->begin(), t->end());
  return k;
}

}  // namespace ts::cli

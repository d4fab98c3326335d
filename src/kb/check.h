#pragma once
// `torchsmith kb check`: validate a KB (built-in and/or overlay dirs) and report every bad entry.
//
// Files this stage reads (cuda, families, tegra, torch, gpus, resources .toml) are validated by the
// loader, then the loaded tables are checked against each other (cross_check). Every other file
// (signatures.toml, packages/*.toml, fixes/*.toml, ...) is validated by the table that holds it
// (kb/table.h: the file's own table first, then the longest folder), or, when none does, only
// parsed as TOML. The CLI passes every table it reads (cli/knowledge.h: stage_tables()), so a new
// table is checked by being listed there.
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"
#include "kb/table.h"

namespace ts::kb {

// Validates the embedded KB (when include_embedded) and then each overlay dir, as `load` would
// merge them, each file by its table's validator. Returns every problem; empty means clean. Never throws.
std::vector<KbError> check_kb(const std::vector<std::string>& overlay_dirs, bool include_embedded,
                              const std::vector<TableSpec>& tables = {});

// Where the overlays replace built-in torch and cuda entries, one line each with what differs
// ("torch 2.14: released 2026-09-02 (torch.toml:301) -> 2026-09-03 (DIR/torch.toml:4)"): the
// overlay wins, as it was loaded later; kb check shows them so a conflict is never silent.
std::vector<std::string> overlay_replacements(const std::vector<std::string>& overlay_dirs);

// The cross-file checks on a loaded KB: every GPU/SoC/family/torch arch is a target of some toolkit,
// every torch CUDA version is in cuda.toml, every toolkit has a minor-version family when its major
// has one elsewhere, every family arch is in some toolkit, and gpu families exist.
std::vector<KbError> cross_check(const Kb& kb);

}  // namespace ts::kb

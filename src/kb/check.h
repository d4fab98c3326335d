#pragma once
// `torchsmith kb check`: validate a KB (built-in and/or overlay dirs) and report every bad entry.
//
// Files this stage reads (cuda, families, tegra, torch, gpus, resources .toml) are validated by the
// loader, then the loaded tables are checked against each other (cross_check). Every other file
// (signatures.toml, packages/*.toml, fixes/*.toml) is validated by the validator registered for
// its name, or, when none is, only parsed as TOML.
//
// Plugging in a validator (e.g. triage for signatures.toml):
//   ts::kb::register_validator("signatures.toml",
//       [](std::string_view file, std::string_view text, std::vector<ts::kb::KbError>& errors) { ... });
// Keys are names relative to the KB directory: "signatures.toml", or a directory prefix ending in
// '/' ("packages/") that matches every file under it. Register before calling check_kb (the CLI's
// `kb check` command is the place: call e.g. ts::triage::register_kb_validators() first). Errors
// should carry origin {file, line} with `file` as passed in.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"

namespace ts::kb {

using FileValidator =
    std::function<void(std::string_view file, std::string_view text, std::vector<KbError>& errors)>;

// Registers (or replaces) the validator for a file name or directory prefix.
void register_validator(std::string name, FileValidator validator);

// Validates the embedded KB (when include_embedded) and then each overlay dir, as `load` would
// merge them. Returns every problem; empty means clean. Never throws.
std::vector<KbError> check_kb(const std::vector<std::string>& overlay_dirs, bool include_embedded);

// Where the overlays replace built-in torch and cuda entries, one line each with what differs
// ("torch 2.14: released 2026-09-02 (torch.toml:301) -> 2026-09-03 (DIR/torch.toml:4)"): the
// overlay wins, as it was loaded later; kb check shows them so a conflict is never silent.
std::vector<std::string> overlay_replacements(const std::vector<std::string>& overlay_dirs);

// The cross-file checks on a loaded KB: every GPU/SoC/family/torch arch is a target of some toolkit,
// every torch CUDA version is in cuda.toml, every toolkit has a minor-version family when its major
// has one elsewhere, every family arch is in some toolkit, and gpu families exist.
std::vector<KbError> cross_check(const Kb& kb);

}  // namespace ts::kb

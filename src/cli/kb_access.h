#pragma once
// Loading the KB for a command: embedded + ~/.config overlay + --kb dirs; errors are printed.
#include "cli/commands.h"
#include "kb/kb.h"

namespace ts::cli {

// Returns false (after printing each error to stderr) when an overlay is broken: a command
// must not silently run on a half-read knowledge base.
bool load_kb(const GlobalOptions& g, kb::Kb& out);

}  // namespace ts::cli

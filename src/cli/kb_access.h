#pragma once
// The command's core KB (cli/knowledge.h: embedded + ~/.config overlay + --kb dirs); errors are printed.
#include "cli/commands.h"
#include "kb/kb.h"

namespace ts::cli {

// Null (after printing each error to stderr) when an overlay is broken: a command must not
// silently run on a half-read knowledge base.
const kb::Kb* load_kb(const GlobalOptions& g);

}  // namespace ts::cli

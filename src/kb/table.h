#pragma once
// One KB table as the stage that reads it declares it: its name, where it lives in data/kb (and in
// each overlay), the reader that stacks the layers and the validator `kb check` runs on each file.
// The CLI lists every table once (cli/knowledge.cpp): Knowledge reads them, kb check validates them.
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"

namespace ts::kb {

// kb check's check of one file; errors carry {file, line} with `file` as passed in.
using Validate = void (*)(std::string_view file, std::string_view text, std::vector<KbError>& errors);

struct TableSpec {
  std::string_view name;   // "signatures"
  std::string_view where;  // a file ("signatures.toml") or a folder ("packages/") relative to data/kb;
                           // "" for the core table, whose files kb's own loader names (files.h)
  Validate validate;       // nullptr for the core table: its loader and cross_check validate it
};

// The table's reader: the embedded layer and then each overlay directory, later ones winning;
// errors as "file:line: message".
template <class T>
using ReadTable = T (*)(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);

template <class T>
struct TableDef {
  TableSpec spec;
  ReadTable<T> read;
};

// Does `relative` (a file's name relative to the KB directory) belong to the table at `where`?
bool table_holds(std::string_view where, std::string_view relative);

// A stage's "file:line: message" lines as kb check's {file, line} errors.
void add_line_errors(std::string_view file, const std::vector<std::string>& lines, std::vector<KbError>& errors);

// The core table (cuda, families, tegra, torch, gpus, resources): kb::load with its errors as lines.
Kb read_core(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);
inline constexpr TableDef<Kb> kCoreTable{{"core", "", nullptr}, &read_core};

}  // namespace ts::kb

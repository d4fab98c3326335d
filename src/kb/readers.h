#pragma once
// One reader per KB data file. Each reads its file's entries into `out` (a staging Kb), checking
// them against `base` (what is already loaded: families for gpus.toml, toolkits for every arch).
#include <string>
#include <string_view>
#include <vector>

#include "kb/tomlpp.h"

#include "kb/kb.h"

namespace ts::kb::detail {

struct FileCtx {
  std::string file;                // as shown in errors
  const Kb& base;                  // the KB loaded so far
  std::vector<KbError>& errors;
};

void read_gpus(const toml::table& root, FileCtx& c, Kb& out);
void read_tegra(const toml::table& root, FileCtx& c, Kb& out);
void read_families(const toml::table& root, FileCtx& c, Kb& out);
void read_cuda(const toml::table& root, FileCtx& c, Kb& out);
void read_torch(const toml::table& root, FileCtx& c, Kb& out);
void read_resources(const toml::table& root, FileCtx& c, Kb& out);

// The [[name]] entries of a file; reports every other top-level key (`allowed` lists the arrays).
std::vector<const toml::table*> entries(const toml::table& root, FileCtx& c, std::string_view name,
                                        const std::vector<std::string_view>& allowed);

// Empty when `arch` (sans +PTX) is a target of some toolkit in `base`, or base has no toolkits;
// otherwise the message to report.
std::string arch_in_toolkits(const Kb& base, std::string_view arch);

// Reports a second entry with the same key: "duplicate pci_id '2182' (first at line 40)".
// `seen` maps key -> line; returns false for a duplicate.
bool unique_key(std::vector<std::pair<std::string, int>>& seen, const std::string& key, int line,
                FileCtx& c, std::string_view what, std::string_view key_name);

}  // namespace ts::kb::detail

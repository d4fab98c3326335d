#pragma once
// One reader per KB data file. Each reads its file's entries into `out` (a staging Kb), checking
// them against `base` (what is already loaded: families for gpus.toml, toolkits for every arch).
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "kb/tomlpp.h"

#include "kb/kb.h"
#include "kb/toml_reader.h"

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
std::string arch_in_toolkits(const Kb& base, const CudaArch& arch);

// Reports a second entry with the same key: "duplicate pci_id '2182' (first at line 40)".
// `seen` maps key -> line; returns false for a duplicate.
bool unique_key(std::unordered_map<std::string, int>& seen, const std::string& key, int line,
                FileCtx& c, std::string_view what, std::string_view key_name);

// A release's key two entries may not share: its version as written; "" when the version did not read
// (that is reported already, and a default Version's "0" is no release's key).
template <class Release>
std::string release_key(const Release& r) {
  return r.version.original() == Version{}.original() ? std::string() : r.version.original();
}

// One kind of entry: the [[array]] it is written as, what messages call it, and the key two entries may
// not share ("" when none).
struct EntryKind {
  std::string_view array, what, key_name = {};
};

// Reads each [[kind.array]] entry into a T appended to `out`: read(r, x) or read(r, x, table) takes the
// kind's own keys (r.common(x) among them); then unknown keys are reported and, where key(x) is not
// empty, a key an earlier entry of the file has. `key`: a member pointer or a callable; nullptr, none.
template <class T, class Read, class Key = std::nullptr_t>
void read_entries(const toml::table& root, FileCtx& c, const std::vector<std::string_view>& allowed,
                  const EntryKind& kind, std::vector<T>& out, Read read, Key key = nullptr) {
  std::unordered_map<std::string, int> seen;
  for (const toml::table* t : entries(root, c, kind.array, allowed)) {
    EntryReader r(*t, c.file, std::string(kind.what), c.errors);
    T x;
    if constexpr (std::is_invocable_v<Read&, EntryReader&, T&, const toml::table&>) read(r, x, *t);
    else read(r, x);
    r.finish();
    if constexpr (!std::is_null_pointer_v<Key>) {
      std::string k = std::invoke(key, x);
      if (!k.empty()) unique_key(seen, k, x.origin.line, c, kind.what, kind.key_name);
    }
    out.push_back(std::move(x));
  }
}

}  // namespace ts::kb::detail

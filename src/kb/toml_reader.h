#pragma once
// EntryReader: typed, validating access to one TOML table of a KB file. Every problem becomes a
// KbError "file:line: what is wrong; what to write instead"; the keys read are remembered so that
// finish() can name any key the file has but the schema does not (usually a typo).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "kb/tomlpp.h"

#include "kb/kb.h"

namespace ts::kb::detail {

int line_of(const toml::node& n);

class EntryReader {
 public:
  // `what` names the entry kind in messages: "gpu", "cuda release".
  EntryReader(const toml::table& t, std::string file, std::string what, std::vector<KbError>& errors);

  int line() const { return line_; }
  Origin origin() const { return {file_, line_}; }
  bool ok() const { return errors_.size() == errors_at_start_; }
  void error(int line, const std::string& message);

  // Each getter records the key as known; `example` is a valid value shown when it is missing or wrong.
  std::string text(std::string_view key, bool required, std::string_view example);
  bool flag(std::string_view key, bool fallback);
  std::vector<std::string> texts(std::string_view key, bool required, std::string_view example);
  std::string version(std::string_view key, bool required, std::string_view example, int components = 0);
  // The same check, parsed: nullopt when the key is absent or its value is wrong (then reported).
  std::optional<Version> parsed_version(std::string_view key, bool required, std::string_view example,
                                        int components = 0);
  // A list of versions, each checked as parsed_version() does; a bad one is reported and left out.
  std::vector<Version> parsed_versions(std::string_view key, bool required, std::string_view example);
  std::string range(std::string_view key, bool required, std::string_view example);
  // The same check, parsed: any version when the key is absent or its value is wrong (then reported).
  VersionRange parsed_range(std::string_view key, bool required, std::string_view example);
  // One arch, its spelling checked (arch_problem) and parsed; nullopt when absent or wrong (then reported).
  std::optional<CudaArch> arch(std::string_view key, bool required, bool allow_ptx = false);
  // Each arch parsed (the spelling checked as arch() does); a bad one is reported and left out.
  std::vector<CudaArch> arches(std::string_view key, bool required, bool allow_ptx = false);
  const toml::array* tables(std::string_view key);  // an array of sub-tables ([[gpu.chip]]), or null
  double number(std::string_view key, bool required, std::string_view example);

  // status / recalled / note / source, shared by every entry kind.
  // The fields every entry has (kb::Entry): source, note, status, recalled, and where it was read.
  void common(Entry& e);
  // Reports unknown keys and recalled names that are not keys. Call last.
  void finish();

 private:
  // text(), then problem(value): "" when it is fine, else what is wrong, reported at the key's line.
  std::string checked(std::string_view key, bool required, std::string_view example,
                      const std::function<std::string(const std::string&)>& problem);
  const toml::node* get(std::string_view key);
  void missing(std::string_view key, std::string_view example);
  // Parses a version value read from `key`; reports it and returns nullopt when it is not one.
  std::optional<Version> parse_version(std::string_view key, const std::string& s, std::string_view example,
                                       int components);
  std::string where_key(std::string_view key) const;

  const toml::table& t_;
  std::string file_, what_;
  std::vector<KbError>& errors_;
  std::size_t errors_at_start_;
  int line_;
  std::vector<std::string> known_;
  std::vector<std::string> recalled_;
  int recalled_line_ = 0;
};

// Reads each table of `tables` ([[policy]] blocks, an entry's [[gpu.chip]] list; null = none) through its
// own EntryReader: read(r) or read(r, table) takes the keys, then finish() reports the ones it did not know.
template <class Read>
void read_tables(const toml::array* tables, const std::string& file, std::string_view what,
                 std::vector<KbError>& errors, Read read) {
  if (!tables) return;
  for (const auto& el : *tables) {
    const toml::table* t = el.as_table();
    if (!t) continue;
    EntryReader r(*t, file, std::string(what), errors);
    if constexpr (std::is_invocable_v<Read&, EntryReader&, const toml::table&>) read(r, *t);
    else read(r);
    r.finish();
  }
}

// Checks a canonical arch spelling ("8.6", "9.0a", "12.0+PTX" when allow_ptx); empty = fine.
std::string arch_problem(std::string_view text, bool allow_ptx);

}  // namespace ts::kb::detail

#pragma once
// What `torchsmith fetch` is asked for: a package release (torch==2.4.1, resolved through
// data/kb/sources.toml) or a git URL with an optional @REF.
#include <string>
#include <string_view>
#include <vector>

#include "kb/table.h"

namespace ts::source {

struct SourceEntry {
  std::string package, repo, tag, source;  // tag pattern with {version}
};

// sources.toml: embedded, then DIR/sources.toml of each overlay. Errors "file:line: message".
std::vector<SourceEntry> load_sources(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors);
std::vector<std::string> parse_sources_text(std::string_view file_name, std::string_view text,
                                            std::vector<SourceEntry>& out);
// sources.toml as a KB table (kb/table.h): kb check validates each file with parse_sources_text.
void validate_sources_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors);
inline constexpr kb::TableDef<std::vector<SourceEntry>> kSourceTable{
    {"sources", "sources.toml", &validate_sources_file}, &load_sources};

struct SourceSpec {
  std::string package, version;  // set for PACKAGE==VERSION
  std::string url, ref;          // ref "" = the remote's default branch
};

// "torch==2.4.1", "https://host/repo.git@v1.0", "git@host:org/repo.git@abc123", "/path/repo@main".
bool parse_source_spec(std::string_view spec, const std::vector<SourceEntry>& sources, SourceSpec& out,
                       std::string& error);

}  // namespace ts::source

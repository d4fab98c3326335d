#pragma once
// What a `source` must be: references a user can open. kb check applies it to every `source` and
// `*_source` string of every KB file; the loader does not (tests and drafts may load sketches).
//
// A source is free text that must name at least one of
//   https://host/path                      a URL
//   docs.nvidia.com/cuda/...               a host of a public site with its path
//   owner/repo@commit:path                 a file at a commit, tag or branch (also the older
//                                          "owner/repo @commit path" and "owner/repo path@commit")
//   owner/repo#123                         an issue or pull request
// and nothing only this project's authors had: private notes, session or scenario names.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb/kb.h"

namespace ts::kb {

// Why `source` is not a citation a user can follow; nullopt when it is.
std::optional<std::string> citation_problem(std::string_view source);

// Every source / *_source string in a TOML text, checked; errors carry file:line.
void check_citations(std::string_view file, std::string_view text, std::vector<KbError>& errors);

}  // namespace ts::kb

#pragma once
// Git merge conflicts committed into a package's Python (DCNv2_latest's setup.py and dcn_v2.py:
// `<<<<<<< HEAD ... ======= ... >>>>>>> 977dfd3`, a merge of two reformattings of the same code), which
// Python refuses before setup.py runs (triage: SOURCE_MERGE_CONFLICT_MARKERS). The port
// port.merge-conflict-same-code (data/kb/ports.toml, transform = "merge-conflict-same-code") resolves a
// file only where every conflict block's two sides are the same code: then keeping either side is
// what the merge would have made, and the first (HEAD's) is kept. Sides that differ in code are a
// choice only the author can make, and the file is left as it is.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::source {

// The Python tokens of a fragment that decide what it means: names, numbers, operators and string
// literals as written, each logical line's indentation (where no bracket is open), and not comments,
// blank lines, line breaks inside brackets or a trailing comma before a closing bracket that holds
// another comma at its level (`f(a, b,)` is `f(a, b)`; `(a,)` is a tuple, `(a)` is not).
std::vector<std::string> python_code_tokens(std::string_view code);

// `text` with every git conflict block (`<<<<<<< A`, optionally `||||||| BASE`, `=======`,
// `>>>>>>> B`, each marker alone at a line's start) replaced by its first side, where every block's
// two sides have the same python_code_tokens; nullopt when there is no block, one is malformed or
// nested, or any block's sides differ in code.
std::optional<std::string> resolve_same_code_conflicts(std::string_view text);

}  // namespace ts::source

#pragma once
// Python 2-era sources that mix tabs and spaces in their indentation: Python 2 read a tab as the
// next multiple of 8 columns, Python 3's tokenizer refuses indentation whose meaning depends on the
// tab size ("TabError: inconsistent use of tabs and spaces in indentation"). The port
// port.python2-tabs (data/kb/ports.toml, transform = "python2-tabs") rewrites only such a file, the
// way Python 2 read it.
#include <optional>
#include <string>
#include <string_view>

namespace ts::source {

// True when Python 3 would refuse `text` with TabError: a logical line's indentation compares
// differently with tabs as 8 columns and with tabs as 1 column against the open indentation levels
// (CPython's tokenizer, Parser/tokenizer.c: `altcol`). Lines inside brackets, after a backslash or
// inside a string literal carry no indentation and are not compared; blank and comment-only lines
// neither.
bool python_tab_error(std::string_view text);

// `text` with each tab in the indentation of every line that does not start inside a string literal
// expanded to the next multiple of 8 columns (Python 2's reading); nullopt when python_tab_error is
// false (a file that compiles, tabs and all, is left as it is).
std::optional<std::string> expand_python2_tabs(std::string_view text);

}  // namespace ts::source
